"""numpy's index tricks: r_, c_ (concatenation by indexing), mgrid, ogrid (grids from
slices), s_, index_exp (index expressions), ndenumerate.

``r_``/``c_`` concatenate with funcgrad's ``concatenate``, so they are differentiable in
the arrays they join (``fnp.r_[x, 0.0, 2 * x]`` inside ``grad``).  Slices become
``arange``/``linspace`` ranges (concrete numbers, as numpy needs them).  The ``'r'``/``'c'``
directives give the 2-d row/column array that numpy wraps in its ``matrix`` class
(funcgrad has no matrix class).
"""

from __future__ import annotations

import numpy as np

from ..core import Array, Tracer
from ._creation import arange, array, asarray, linspace
from ._indexing import const_like
from ._shape import concatenate, ndim, swapaxes, transpose

__all__ = ["r_", "c_", "s_", "index_exp", "mgrid", "ogrid", "ndenumerate"]

s_ = np.s_
index_exp = np.index_exp


def _range(item):
    start = 0 if item.start is None else item.start
    step = 1 if item.step is None else item.step
    if isinstance(step, (complex, np.complexfloating)):
        return linspace(start, item.stop, num=int(abs(step)))
    return arange(start, item.stop, step)


class AxisConcatenator:
    """Translates index expressions to a concatenation along an axis (numpy's r_/c_)."""

    __slots__ = ("axis", "ndmin", "trans1d")

    def __init__(self, axis=0, ndmin=1, trans1d=-1):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key):
        if isinstance(key, str):
            raise TypeError("r_/c_ with a string (numpy.bmat's matrix syntax) is not supported: "
                            "funcgrad has no matrix class")
        key = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d, matrix = self.axis, self.ndmin, self.trans1d, None
        objs, kinds = [], []
        for k, item in enumerate(key):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                axis, ndmin, trans1d, matrix = _directive(item, axis, ndmin, trans1d)
                continue
            if isinstance(item, slice):
                obj = _range(item)
                if ndmin > 1:
                    obj = array(obj, ndmin=ndmin)
                    if trans1d != -1:
                        obj = swapaxes(obj, -1, trans1d)
                kinds.append(obj.dtype)
            elif type(item) in np.ScalarType:
                obj = item
                kinds.append(item)
            else:
                item_ndim = ndim(item)
                obj = array(item, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
                    axes = list(range(ndmin))
                    obj = transpose(obj, axes[:k1] + axes[k2:] + axes[k1:k2])
                kinds.append(obj.dtype)
            objs.append(obj)
        if kinds:
            dt = np.result_type(*kinds)
            like = next((o for o in objs if isinstance(o, (Array, Tracer))), None)
            objs = [array(o if like is None or isinstance(o, (Array, Tracer)) else const_like(np.asarray(o), like),
                          dtype=dt, ndmin=ndmin) for o in objs]
        res = concatenate(tuple(objs), axis=axis)
        if matrix is not None:
            old_ndim = res.ndim
            res = array(res, ndmin=2)
            if old_ndim == 1 and matrix == "c":
                res = transpose(res)
        return res

    def __len__(self):
        return 0


def _directive(item, axis, ndmin, trans1d):
    if item in ("r", "c"):
        return axis, ndmin, trans1d, item
    if "," in item:
        vec = item.split(",")
        try:
            axis, ndmin = [int(x) for x in vec[:2]]
            if len(vec) == 3:
                trans1d = int(vec[2])
            return axis, ndmin, trans1d, None
        except Exception as e:
            raise ValueError(f"unknown special directive {item!r}") from e
    try:
        return int(item), ndmin, trans1d, None
    except (ValueError, TypeError) as e:
        raise ValueError("unknown special directive") from e


r_ = AxisConcatenator(0)
c_ = AxisConcatenator(-1, ndmin=2, trans1d=0)


class _Grid:
    """mgrid / ogrid: numpy's grids of concrete slices, as Arrays."""

    __slots__ = ("_grid",)

    def __init__(self, grid):
        self._grid = grid

    def __getitem__(self, key):
        out = self._grid[key]
        return tuple(Array(o) for o in out) if isinstance(out, (tuple, list)) else Array(out)


mgrid = _Grid(np.mgrid)
ogrid = _Grid(np.ogrid)


def ndenumerate(arr):
    """numpy.ndenumerate: (index, element) pairs; the elements are funcgrad 0-d arrays
    (indexing, so differentiable)."""
    a = asarray(arr)
    for idx in np.ndindex(*a.shape):
        yield idx, a[idx]
