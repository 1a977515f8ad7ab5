"""Set operations on 1-d arrays: union1d, intersect1d, setdiff1d, setxor1d, isin.

The values returned are gathers of the inputs (each value taken at its first occurrence),
so they are differentiable; which values are returned depends on the concrete inputs
(not available under vmap).  ``isin`` is elementwise comparisons and an ``any`` (a bool
result, traceable under every transformation).
"""

from __future__ import annotations

import numpy as np

from .. import backend
from ._creation import asarray, zeros
from ._elementwise import equal, logical_not
from ._indexing import _concrete, take
from ._reductions import any as _any
from ._shape import concatenate, expand_dims, ravel, reshape
from ._sorting import unique

__all__ = ["union1d", "intersect1d", "setdiff1d", "setxor1d", "isin"]


def _flat(ar, fname):
    a, buf = _concrete(ravel(asarray(ar)), fname)
    return a, backend.to_numpy(buf)


def union1d(ar1, ar2):
    """numpy.union1d: the sorted unique values of both arrays."""
    return unique(concatenate([ravel(asarray(ar1)), ravel(asarray(ar2))]))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """numpy.intersect1d: the sorted common values (taken from ``ar1``)."""
    a1, h1 = _flat(ar1, "intersect1d")
    a2, h2 = _flat(ar2, "intersect1d")
    vals, i1, i2 = np.intersect1d(h1, h2, assume_unique=assume_unique, return_indices=True)
    dt = np.result_type(a1.dtype, a2.dtype)
    out = take(a1, i1).astype(dt) if vals.size else asarray(vals)
    return (out, asarray(i1), asarray(i2)) if return_indices else out


def setdiff1d(ar1, ar2, assume_unique=False):
    """numpy.setdiff1d: the values of ``ar1`` not in ``ar2`` (sorted unique unless assume_unique)."""
    a1, h1 = _flat(ar1, "setdiff1d")
    _, h2 = _flat(ar2, "setdiff1d")
    if assume_unique:
        return take(a1, np.flatnonzero(~np.isin(h1, h2, assume_unique=True)))
    _, first = np.unique(h1, return_index=True)
    keep = first[~np.isin(h1[first], h2, assume_unique=True)]
    return take(a1, keep)


def setxor1d(ar1, ar2, assume_unique=False):
    """numpy.setxor1d: the sorted values in exactly one of the arrays."""
    a1, h1 = _flat(ar1, "setxor1d")
    a2, h2 = _flat(ar2, "setxor1d")
    vals = np.setxor1d(h1, h2, assume_unique=assume_unique)
    both = np.concatenate([h1, h2])
    order = np.argsort(both, kind="stable")
    first = order[np.searchsorted(both[order], vals, side="left")]
    dt = np.result_type(a1.dtype, a2.dtype)
    return take(concatenate([a1.astype(dt), a2.astype(dt)]), first)


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """numpy.isin: whether each element equals one of ``test_elements`` (bool, element's shape)."""
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    e = asarray(element)
    t = ravel(asarray(test_elements))
    if t.shape[0] == 0:
        found = zeros(e.shape, dtype=bool)
    else:
        found = _any(equal(expand_dims(e, -1), reshape(t, (1,) * e.ndim + (-1,))), axis=-1)
    return logical_not(found) if invert else found
