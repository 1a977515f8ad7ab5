"""Index helpers: compress, extract (gathers, differentiable), and integer index builders
(ix_, indices, unravel_index, ravel_multi_index, diag_indices, tril_indices, triu_indices,
mask_indices)."""

from __future__ import annotations

import numpy as np

from .. import backend
from ..core import Array
from ._indexing import _concrete, take
from ._shape import ravel
from ._util import as_array
from ._util import no_out

__all__ = ["compress", "extract", "ix_", "indices", "unravel_index", "ravel_multi_index",
           "diag_indices", "tril_indices", "triu_indices", "diag_indices_from", "tril_indices_from",
           "triu_indices_from", "mask_indices"]


def _host_bool(condition, fname):
    if isinstance(condition, Array):
        _, buf = _concrete(condition, fname)
        return backend.to_numpy(buf).astype(bool)
    return np.asarray(condition).astype(bool)


def compress(condition, a, axis=None, out=None):
    """numpy.compress: the slices along ``axis`` where condition is true (a gather)."""
    no_out(out, "compress")
    a = as_array(a)
    if axis is None:
        a, axis = ravel(a), 0
    cond = _host_bool(condition, "compress").ravel()
    n = a.shape[axis] if a.ndim else 0
    if cond.size > n:
        raise IndexError(f"index {cond.size - 1} is out of bounds for axis {axis} with size {n}")
    return take(a, np.flatnonzero(cond), axis=axis)


def extract(condition, arr):
    """numpy.extract: the flattened elements where condition is true (a gather)."""
    arr = as_array(arr)
    return take(ravel(arr), np.flatnonzero(_host_bool(condition, "extract").ravel()))


def _ints(host):
    return tuple(Array(h) for h in host) if isinstance(host, tuple) else Array(host)


def ix_(*args):
    return _ints(np.ix_(*(np.asarray(a) for a in args)))


def indices(dimensions, dtype=int, sparse=False):
    return _ints(np.indices(dimensions, dtype=dtype, sparse=sparse))


def unravel_index(indices, shape, order="C"):
    _, buf = _concrete(indices, "unravel_index")
    return _ints(np.unravel_index(backend.to_numpy(buf), shape, order=order))


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    host = tuple(backend.to_numpy(_concrete(m, "ravel_multi_index")[1]) for m in multi_index)
    return _ints(np.ravel_multi_index(host, dims, mode=mode, order=order))


def diag_indices(n, ndim=2):
    return _ints(np.diag_indices(n, ndim))


def tril_indices(n, k=0, m=None):
    return _ints(np.tril_indices(n, k, m))


def triu_indices(n, k=0, m=None):
    return _ints(np.triu_indices(n, k, m))


def diag_indices_from(arr):
    a = as_array(arr)
    if a.ndim < 2 or len(set(a.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length (and at least 2-d)")
    return diag_indices(a.shape[0], a.ndim)


def tril_indices_from(arr, k=0):
    a = as_array(arr)
    if a.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(a.shape[-2], k, a.shape[-1])


def triu_indices_from(arr, k=0):
    a = as_array(arr)
    if a.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(a.shape[-2], k, a.shape[-1])


def mask_indices(n, mask_func, k=0):
    """numpy.mask_indices: the indices where ``mask_func(ones((n, n)), k)`` is non-zero."""
    mask = mask_func(np.ones((n, n), dtype=int), k)
    host = backend.to_numpy(mask._concrete()) if isinstance(mask, Array) else np.asarray(mask)
    return _ints(np.nonzero(host != 0))
