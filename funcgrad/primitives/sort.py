"""Sorting primitives with integer results (no derivative): argsort, searchsorted.

``sort`` itself is not a primitive: funcgrad.numpy.sort gathers the input at
``argsort``'s indices (``take_along_axis``), so the gradient flows to the
sorted positions through the gather's scatter-add rule, with no extra rule.
"""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import Primitive, ShapedArray


def _xp(*xs):
    get = XP_OF_TYPE.get
    return next((get(type(x)) for x in xs if get(type(x)) is not None), np)


def _argsort_impl(x, axis, stable, descending):
    xp = _xp(x)
    if descending:  # stable descending: sort the reversed array stably, reverse back
        idx = xp.argsort(xp.flip(x, axis), axis=axis, kind="stable")
        return (x.shape[axis] - 1) - xp.flip(idx, axis)
    return xp.argsort(x, axis=axis, kind="stable" if stable else None)


argsort_p = Primitive(
    "argsort", _argsort_impl,
    lambda x, axis, stable, descending: ShapedArray(x.shape, np.intp), differentiable=False,
)


def argsort(x, axis, stable=True, descending=False):
    """Indices that sort ``x`` along ``axis`` (a normalised int)."""
    return argsort_p.bind(x, axis=int(axis), stable=bool(stable), descending=bool(descending))


def _searchsorted_impl(a, v, side):
    return _xp(a, v).searchsorted(a, v, side=side)


searchsorted_p = Primitive(
    "searchsorted", _searchsorted_impl,
    lambda a, v, side: ShapedArray(getattr(v, "shape", ()), np.intp), differentiable=False,
)


def searchsorted(a, v, side="left"):
    return searchsorted_p.bind(a, v, side=side)


def _argpartition_impl(x, kth, axis):
    return _xp(x).argpartition(x, list(kth), axis=axis)


argpartition_p = Primitive(
    "argpartition", _argpartition_impl,
    lambda x, kth, axis: ShapedArray(x.shape, np.intp), differentiable=False,
)


def argpartition(x, kth, axis):
    """Indices that partition ``x`` along ``axis`` around the (normalised) positions ``kth``."""
    return argpartition_p.bind(x, kth=tuple(int(k) for k in kth), axis=int(axis))
