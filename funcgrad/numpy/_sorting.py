"""Sorting and searching: sort, argsort, searchsorted, unique.

``sort`` gathers the input at ``argsort``'s indices, so its gradient is the
cotangent scattered back to the positions each sorted element came from.
``unique``'s values are a gather at the first occurrence of each value (the
gradient goes to that occurrence); its indices, inverse and counts are
integers and carry no derivative.  unique needs concrete values (its result's
shape depends on them).
"""

from __future__ import annotations

import numpy as np

from .. import backend
from ..core import Array
from ..primitives import sort as _sp
from ._indexing import _concrete, take, take_along_axis
from ._shape import ravel
from ._validate import integer
from ._util import as_array, normalize_axis

__all__ = ["sort", "argsort", "searchsorted", "unique", "unique_values", "unique_counts",
           "unique_inverse", "unique_all", "partition", "argpartition", "lexsort"]


def _stable(kind, stable):
    if kind not in (None, "quicksort", "mergesort", "heapsort", "stable"):
        raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind!r})")
    if stable is not None and kind is not None:
        raise ValueError("`kind` and `stable` parameters can't be provided at the same time. Use only one of them.")
    return bool(stable) or kind in ("mergesort", "stable")


def _prepare(a, axis, order, fname):
    if order is not None:
        raise ValueError(f"{fname}: 'order' (structured arrays) is not supported")
    a = as_array(a)
    if axis is None:
        return ravel(a), 0
    return a, normalize_axis(axis, a.ndim, fname=fname)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """numpy.argsort (integer result, no derivative); ``descending`` as the array API (stable)."""
    if as_array(a).ndim == 0 and axis is not None:  # numpy: a 0-d array argsorts to [0], as a 1-d one
        integer(axis, "axis", "argsort", allow_bool=False)
        normalize_axis(axis, 1, fname="argsort")  # (axis 0 or -1)
        return as_array(np.zeros(1, np.intp))
    a, axis = _prepare(a, axis, order, "argsort")
    return _sp.argsort(a, axis, _stable(kind, stable), descending)


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """numpy.sort: ``a`` gathered at argsort's indices; the gradient flows to the sorted positions."""
    a, axis = _prepare(a, axis, order, "sort")
    if a.ndim == 0:
        return a
    idx = _sp.argsort(a, axis, _stable(kind, stable), descending)
    return take_along_axis(a, idx, axis)


def searchsorted(a, v, side="left", sorter=None):
    """numpy.searchsorted (integer result, no derivative)."""
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right' (got {side!r})")
    a = as_array(a)
    if a.ndim != 1:
        raise ValueError(f"searchsorted: a must be 1-dimensional, got shape {tuple(a.shape)}")
    if sorter is not None:
        a = take(a, sorter)
    return _sp.searchsorted(a, v if isinstance(v, (int, float)) else as_array(v), side)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):
    """numpy.unique; the values are differentiable (a gather at each value's first occurrence)."""
    a, buf = _concrete(ar, "unique")
    xp = backend.namespace_of(buf)
    if axis is not None:
        axis = normalize_axis(axis, a.ndim)
    res = xp.unique(buf, return_index=True, return_inverse=return_inverse,
                    return_counts=return_counts, axis=axis, equal_nan=equal_nan)
    first = res[1]
    values = take(ravel(a) if axis is None else a, Array._from_buffer(first), axis=0 if axis is None else axis)
    out = [values]
    if return_index:
        out.append(Array._from_buffer(first))
    rest = list(res[2:])
    if return_inverse:
        inv = rest.pop(0)
        if axis is None and inv.shape != tuple(a.shape):
            inv = inv.reshape(a.shape)
        out.append(Array._from_buffer(inv))
    if return_counts:
        out.append(Array._from_buffer(rest.pop(0)))
    return out[0] if len(out) == 1 else tuple(out)


def unique_values(x):
    return unique(x)


def unique_counts(x):
    return unique(x, return_counts=True)


def unique_inverse(x):
    return unique(x, return_inverse=True)


def unique_all(x):
    return unique(x, return_index=True, return_inverse=True, return_counts=True)


def _kth(kth, n):
    ks = np.atleast_1d(np.asarray(kth))
    if ks.dtype.kind not in "iu":
        raise TypeError(f"Partition index must be integer, got dtype {ks.dtype}")
    bad = ks[(ks < -n) | (ks >= n)]
    if bad.size:
        raise ValueError(f"kth(={int(bad[0])}) out of bounds ({n})")
    return tuple(int(k) % n for k in ks)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """numpy.argpartition (integer result, no derivative)."""
    a, axis = _prepare(a, axis, order, "argpartition")
    return _sp.argpartition(a, _kth(kth, a.shape[axis]), axis)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """numpy.partition: a gather at argpartition's indices (the gradient follows the elements)."""
    a, axis = _prepare(a, axis, order, "partition")
    return take_along_axis(a, _sp.argpartition(a, _kth(kth, a.shape[axis]), axis), axis)


def lexsort(keys, axis=-1):
    """numpy.lexsort: indices sorting by the last key, then the one before, ... (stable sorts)."""
    keys = [as_array(k) for k in keys] if isinstance(keys, (list, tuple)) else list(as_array(keys))
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    idx = None
    for k in keys:  # the first key sorts first, the last key last (it is the primary key)
        ax = normalize_axis(axis, k.ndim)
        if idx is None:
            idx = _sp.argsort(k, ax, True, False)
        else:
            idx = take_along_axis(idx, _sp.argsort(take_along_axis(k, idx, ax), ax, True, False), ax)
    return idx
