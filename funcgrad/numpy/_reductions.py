"""Reductions: sum, prod, mean, max/min, ptp, argmax/argmin, cumsum/cumprod, all/any,
count_nonzero (statistics in _statistics)."""

from __future__ import annotations

import builtins

import numpy as np

from ..primitives import reduce as _rp
from ..primitives import reduce_cumulative as _cum
from ..primitives import reduce_stats as _rs
from ..primitives.reduce import reduce_sum
from ._elementwise import add, astype, divide, maximum, minimum, multiply
from ._util import as_array, no_out, normalize_axis, normalize_axes
from ..primitives.elementwise import not_equal
from ._creation import full
from ._elementwise import where as _where
from ._shape import broadcast_to, concatenate, ravel

__all__ = [
    "sum", "prod", "mean", "max", "min", "amax", "amin", "ptp", "argmax", "argmin", "cumsum",
    "cumprod", "cumulative_sum", "cumulative_prod", "all", "any", "count_nonzero",
]

_NO_VALUE = object()


def _accumulating(name, prim_fn, ufunc, identity, a, axis, dtype, out, keepdims, initial, where):
    """sum and prod: where-masking with the identity, dtype, and numpy's accumulator dtype."""
    no_out(out, name)
    a = as_array(a)
    if where is not None:
        a = _where(where, a, identity)
    if dtype is not None:
        a = astype(a, dtype)
    axes = normalize_axes(axis, a.ndim, name, ufunc_reduce=True)
    if axes or keepdims:
        res = prim_fn(a, axes, keepdims)
        if dtype is not None and res.dtype != a.dtype:  # dtype= is the accumulator: no int64 widening
            res = astype(res, a.dtype)
    else:
        res = a if dtype is not None else _accumulate_dtype(a, ufunc)
    if initial is not None:
        res = (add if ufunc is np.add else multiply)(res, initial)
    return res


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """numpy.sum; gradient broadcasts the cotangent back over the summed axes."""
    return _accumulating("sum", reduce_sum, np.add, 0, a, axis, dtype, out, keepdims, initial, where)


def _accumulate_dtype(a, ufunc):
    """``a`` cast as a reduction over no axes would cast it (small ints and bool -> int64)."""
    dt = ufunc.reduce(np.zeros(1, a.dtype)).dtype
    return a if dt == a.dtype else astype(a, dt)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    """numpy.mean (integer input gives float64, as numpy)."""
    no_out(out, "mean")
    a = as_array(a)
    if dtype is None and np.dtype(a.dtype).kind in "iub":
        dtype = np.float64
    axes = normalize_axes(axis, a.ndim, "mean", lists=False)
    if where is not None:
        count = sum(broadcast_to(_where(where, 1.0, 0.0), a.shape), axis=axis, keepdims=keepdims)
        return divide(sum(a, axis=axis, dtype=dtype, keepdims=keepdims, where=where), count)
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    return divide(sum(a, axis=axis, dtype=dtype, keepdims=keepdims), n)


def _extremum(name, prim_fn, combine, a, axis, out, keepdims, initial, where):
    no_out(out, name)
    a = as_array(a)
    axes = normalize_axes(axis, a.ndim, name, ufunc_reduce=True)
    if where is not _NO_VALUE and where is not None:
        if initial is _NO_VALUE:
            raise ValueError(
                f"reduction operation '{name}' does not have an identity, so to use a where mask "
                "one has to specify 'initial'"
            )
        a = _where(where, a, initial)
    if initial is not _NO_VALUE and builtins.any(a.shape[ax] == 0 for ax in axes):
        return full(_rp.reduced_shape(a.shape, axes, keepdims), initial, dtype=a.dtype)
    if builtins.any(a.shape[ax] == 0 for ax in axes):
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
    res = prim_fn(a, axes, keepdims) if axes or keepdims else a
    if initial is not _NO_VALUE:
        res = combine(res, initial)
    return res


def max(a, axis=None, out=None, keepdims=False, initial=_NO_VALUE, where=_NO_VALUE):
    """numpy.max; the gradient is split evenly among tied maxima."""
    return _extremum("maximum", _rp.reduce_max, maximum, a, axis, out, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=_NO_VALUE, where=_NO_VALUE):
    """numpy.min; the gradient is split evenly among tied minima."""
    return _extremum("minimum", _rp.reduce_min, minimum, a, axis, out, keepdims, initial, where)


amax, amin = max, min


def _arg(name, prim_fn, a, axis, out, keepdims):
    no_out(out, name)
    a = as_array(a)
    if a.ndim == 0 and type(axis) is int and axis in (0, -1):  # numpy's 0-d quirk
        axis = None
    if axis is not None:
        axis = normalize_axis(axis, a.ndim, fname=name)
    if a.size == 0 and (axis is None or a.shape[axis] == 0):
        raise ValueError(f"attempt to get {name} of an empty sequence")
    return prim_fn(a, axis, keepdims)


def argmax(a, axis=None, out=None, *, keepdims=False):
    return _arg("argmax", _rp.argmax, a, axis, out, keepdims)


def argmin(a, axis=None, out=None, *, keepdims=False):
    return _arg("argmin", _rp.argmin, a, axis, out, keepdims)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """numpy.prod; derivatives are exact where the input has zeros (one or several)."""
    return _accumulating("prod", _rs.reduce_prod, np.multiply, 1, a, axis, dtype, out, keepdims, initial, where)


def ptp(a, axis=None, out=None, keepdims=False):
    """max - min (numpy.ptp); tied extrema share the gradient evenly."""
    return max(a, axis, out, keepdims) - min(a, axis, out, keepdims)


def _cumulative(name, prim_fn, a, axis, dtype, out):
    no_out(out, name)
    a = as_array(a)
    if axis is None or a.ndim == 0:  # numpy treats a 0-d input as 1-d here
        a, axis = ravel(a), 0 if axis is None else axis
    if dtype is not None:
        a = astype(a, dtype)
    res = prim_fn(a, normalize_axis(axis, a.ndim, fname=name))
    return res if dtype is None or res.dtype == a.dtype else astype(res, a.dtype)  # no int64 accumulator


def cumsum(a, axis=None, dtype=None, out=None):
    """numpy.cumsum (flattened for axis=None)."""
    return _cumulative("cumsum", _cum.cumsum, a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    """numpy.cumprod; derivatives exact with zeros in the input, to any order."""
    return _cumulative("cumprod", _cum.cumprod, a, axis, dtype, out)


def _include_initial(res, axis, fill):
    shape = tuple(res.shape[:axis]) + (1,) + tuple(res.shape[axis + 1:])
    return concatenate([full(shape, fill, dtype=res.dtype), res], axis=axis)


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """numpy.cumulative_sum (array API): axis required unless x is 1-d."""
    x = as_array(x)
    if axis is None and x.ndim != 1:
        raise ValueError("axis must be specified for arrays with more than one dimension")
    res = _cumulative("cumulative_sum", _cum.cumsum, x, 0 if axis is None else axis, dtype, out)
    return _include_initial(res, normalize_axis(axis or 0, x.ndim), 0) if include_initial else res


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """numpy.cumulative_prod (array API): axis required unless x is 1-d."""
    x = as_array(x)
    if axis is None and x.ndim != 1:
        raise ValueError("axis must be specified for arrays with more than one dimension")
    res = _cumulative("cumulative_prod", _cum.cumprod, x, 0 if axis is None else axis, dtype, out)
    return _include_initial(res, normalize_axis(axis or 0, x.ndim), 1) if include_initial else res


def _logical(name, prim_fn, a, axis, out, keepdims, where):
    no_out(out, name)
    a = as_array(a)
    if where is not None:
        a = _where(where, a, name == "all")
    axes = normalize_axes(axis, a.ndim, name, ufunc_reduce=True)
    return prim_fn(a, axes, keepdims)


def all(a, axis=None, out=None, keepdims=False, *, where=None):
    """numpy.all (a bool array; no derivative)."""
    return _logical("all", _rs.reduce_all, a, axis, out, keepdims, where)


def any(a, axis=None, out=None, keepdims=False, *, where=None):
    """numpy.any (a bool array; no derivative)."""
    return _logical("any", _rs.reduce_any, a, axis, out, keepdims, where)


def count_nonzero(a, axis=None, *, keepdims=False):
    """Number of non-zero elements (an int64 array; 0-d for axis=None)."""
    a = as_array(a)
    axes = normalize_axes(axis, a.ndim, "count_nonzero", ufunc_reduce=True)
    return reduce_sum(not_equal(a, 0), axes, keepdims)
