"""numpy's in-place writers as functional updates: fill_diagonal, put, place, putmask.

numpy's versions write into their first argument and return None; funcgrad arrays are
immutable, so, as JAX does, each takes ``inplace=False`` and returns the updated array
(``inplace=True``, the default that mirrors numpy, is a TypeError saying so).  The update is
one scatter (``x.at[idx].set``) at positions computed from the concrete indices or mask, so
the result is differentiable in the array (the kept elements) and in the values written;
where an index repeats, the last write wins, as in numpy.
"""

from __future__ import annotations

import numpy as np

from ._creation import asarray
from ._elementwise import astype
from ._indexing import host_values, take
from ._shape import ravel, reshape

__all__ = ["fill_diagonal", "put", "place", "putmask"]


def _refuse_inplace(inplace, fname, call):
    if inplace:
        raise TypeError(f"{fname} writes into its argument in numpy, and funcgrad arrays are immutable: "
                        f"call {call}, which returns the updated array")


def _write(a, flat_idx, values, fname):
    """a with a.flat[flat_idx[k]] = values.flat[k % values.size] (numpy's cycling of values)."""
    a = asarray(a)
    v = ravel(asarray(values))
    n = len(flat_idx)
    if n == 0:
        return a
    if v.size == 0:
        raise ValueError(f"{fname}: Cannot insert from an empty array!")
    flat_idx = np.asarray(flat_idx, dtype=np.intp)
    _, last = np.unique(flat_idx[::-1], return_index=True)
    keep = np.sort(n - 1 - last)  # the last write to each position wins; earlier ones are dropped
    vals = take(v, keep % v.size)
    flat = ravel(a).at[flat_idx[keep]].set(astype(vals, a.dtype))
    return reshape(flat, tuple(a.shape))


def fill_diagonal(a, val, wrap=False, *, inplace=True):
    """numpy.fill_diagonal as a functional update: ``a`` with its main diagonal set to ``val``."""
    _refuse_inplace(inplace, "fill_diagonal", "fill_diagonal(a, val, inplace=False)")
    a = asarray(a)
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = None if wrap else a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(np.cumprod(a.shape[:-1]).sum())
        end = None
    return _write(a, np.arange(a.size)[:end:step], val, "fill_diagonal")


def put(a, ind, v, mode="raise", *, inplace=True):
    """numpy.put as a functional update: ``a`` with ``a.flat[ind] = v`` (v cycled)."""
    _refuse_inplace(inplace, "put", "put(a, ind, v, inplace=False)")
    a = asarray(a)
    idx = np.asarray(host_values(asarray(ind), "put") if not isinstance(ind, (list, tuple, int)) else ind)
    idx = idx.astype(np.intp).ravel()
    n = a.size
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    if idx.size and n == 0:
        raise IndexError("cannot replace elements of an empty array")
    if mode == "wrap":
        idx = np.mod(idx, n) if n else idx
    elif mode == "clip":
        idx = np.clip(idx, 0, n - 1)
    else:
        bad = (idx >= n) | (idx < -n)
        if bad.any():
            raise IndexError(f"index {int(idx[bad][0])} is out of bounds for axis 0 with size {n}")
        idx = np.where(idx < 0, idx + n, idx)
    return _write(a, idx, v, "put")


def _mask(mask, a, fname):
    m = host_values(asarray(mask), fname).astype(bool)
    if m.size != a.size:
        raise ValueError(f"{fname}: mask and data must be the same size")
    return m.ravel()


def place(arr, mask, vals, *, inplace=True):
    """numpy.place as a functional update: the masked elements, in order, take ``vals`` (cycled)."""
    _refuse_inplace(inplace, "place", "place(arr, mask, vals, inplace=False)")
    arr = asarray(arr)
    return _write(arr, np.flatnonzero(_mask(mask, arr, "place")), vals, "place")


def putmask(a, mask, values, *, inplace=True):
    """numpy.putmask as a functional update: ``a.flat[i] = values.flat[i % values.size]`` where mask."""
    _refuse_inplace(inplace, "putmask", "putmask(a, mask, values, inplace=False)")
    a = asarray(a)
    idx = np.flatnonzero(_mask(mask, a, "putmask"))
    v = ravel(asarray(values))
    if v.size == 0 or idx.size == 0:
        return a
    return _write(a, idx, take(v, idx % v.size), "putmask")
