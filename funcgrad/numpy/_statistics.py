"""Statistics: var, std, median, average, and the NaN-ignoring reductions."""

from __future__ import annotations

import builtins

import numpy as np

from ..primitives import elementwise as _ew
from ..primitives import reduce_stats as _rs
from ..primitives.reduce import reduce_sum
from ..backend import kind_of
from ._elementwise import astype
from ._reductions import max as _max
from ._reductions import min as _min
from ._reductions import prod as _prod
from ._reductions import sum as _sum
from ._shape import broadcast_to
from ._util import as_array, no_out, normalize_axes
from ..backend import namespace_of
from ._reductions import all as _all, mean
from ._shape import reshape, squeeze

__all__ = [
    "var", "std", "median", "average", "nansum", "nanmean", "nanmax", "nanmin", "nanprod",
]


def _float_input(a, dtype):
    if dtype is not None:
        return astype(a, dtype)
    if np.dtype(a.dtype).kind in "iub":
        return astype(a, np.float64)
    return a


def _count(a, axes):
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    return n


def _ddof(ddof, correction):
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None,
        correction=None):
    """numpy.var: mean of squared deviations, divided by n - ddof (``correction`` is ddof)."""
    no_out(out, "var")
    ddof = _ddof(ddof, correction)
    a = _float_input(as_array(a), dtype)
    axes = normalize_axes(axis, a.ndim, lists=False)
    if where is not None:
        real = np.finfo(a.dtype).dtype if np.dtype(a.dtype).kind == "c" else a.dtype
        w = broadcast_to(astype(_ew.not_equal(as_array(where), 0), real), a.shape)
        n = reduce_sum(w, axes, True)
        m = reduce_sum(a * w, axes, True) / n if mean is None else mean
        d = a - m
        return reduce_sum(_squared_magnitude(d) * w, axes, keepdims) / _reduce_like(n - ddof, axes, keepdims)
    n = _count(a, axes)
    m = (reduce_sum(a, axes, True) / n) if mean is None else mean
    sq = _squared_magnitude(a - m)
    return (reduce_sum(sq, axes, keepdims) if axes or keepdims else sq) / builtins.max(n - ddof, 0)


def _squared_magnitude(d):
    return _ew.square(_ew.absolute(d)) if np.dtype(d.dtype).kind == "c" else d * d


def _reduce_like(n_keep, axes, keepdims):
    return n_keep if keepdims else squeeze(n_keep, axes)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None,
        correction=None):
    """numpy.std; the gradient at a constant input (std == 0) is 0."""
    no_out(out, "std")
    if where is not None or mean is not None:
        return _ew.sqrt(var(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean,
                            correction=correction))
    ddof = _ddof(ddof, correction)
    a = _float_input(as_array(a), dtype)
    axes = normalize_axes(axis, a.ndim, lists=False)
    return _rs.reduce_std(a, axes, ddof, keepdims)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """numpy.median (mean of the two middle values for even counts).

    The gradient goes to the middle element(s): 1/2 each to the two middle values
    for even counts, split evenly among ties.
    """
    no_out(out, "median")
    a = as_array(a)
    axes = normalize_axes(axis, a.ndim)
    if not axes:  # nothing to reduce (0-d input or axis=())
        return _float_input(a, None)
    return _rs.reduce_median(a, axes, keepdims)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """numpy.average: the weighted mean (differentiable in a and in the weights)."""
    a = as_array(a)
    if weights is None:
        avg = mean(a, axis=axis, keepdims=keepdims)
        if returned:
            n = a.size if axis is None else _count(a, normalize_axes(axis, a.ndim))
            return avg, broadcast_to(astype(n, avg.dtype), avg.shape)
        return avg
    w = as_array(weights)
    if tuple(w.shape) != tuple(a.shape):
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        axes = normalize_axes(axis, a.ndim)
        if w.ndim != len(axes):
            raise TypeError("1D weights expected when a and weights have different shapes.")
        if tuple(w.shape) != tuple(a.shape[ax] for ax in axes):
            raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
        w = reshape(w, tuple(a.shape[i] if i in axes else 1 for i in range(a.ndim)))
    if np.dtype(a.dtype).kind in "iub" and np.dtype(w.dtype).kind in "iub":
        a = astype(a, np.float64)
    scale = _sum(broadcast_to(w, a.shape), axis=axis, keepdims=keepdims)
    _check_nonzero(scale)
    avg = _sum(a * w, axis=axis, keepdims=keepdims) / scale
    if returned:
        return avg, broadcast_to(astype(scale, avg.dtype), avg.shape)
    return avg


def _check_nonzero(scale):
    try:
        host = scale._concrete()
    except Exception:  # traced without a concrete value (vmap): numpy's check is skipped
        return
    if bool(namespace_of(host).any(host == 0)):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")


# --- NaN-ignoring reductions -------------------------------------------------------------------

def _nan_fill(a, fill):
    a = as_array(a)
    if kind_of(a.dtype) not in "fc":
        return a
    return _ew.where(_ew.isnan(a), fill, a)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """numpy.nansum: NaNs count as 0 (their gradient is 0)."""
    return _sum(_nan_fill(a, 0), axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """numpy.nanprod: NaNs count as 1 (their gradient is 0)."""
    return _prod(_nan_fill(a, 1), axis, dtype, out, keepdims, initial, where)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    """numpy.nanmean: the mean of the non-NaN values (nan where there are none)."""
    no_out(out, "nanmean")
    a = as_array(a)
    if kind_of(a.dtype) not in "fc":
        return mean(a, axis, dtype, None, keepdims, where=where)
    ok = _ew.logical_not(_ew.isnan(a))
    if where is not None:
        ok = _ew.logical_and(ok, as_array(where))
    count = _sum(ok, axis=axis, keepdims=keepdims)
    total = _sum(_ew.where(ok, a, 0), axis=axis, dtype=dtype, keepdims=keepdims)
    return total / astype(count, total.dtype)


def _nan_extremum(name, fn, fill, a, axis, out, keepdims, initial, where):
    a = as_array(a)
    if kind_of(a.dtype) not in "fc":
        kw = {} if initial is None else {"initial": initial}
        return fn(a, axis, out, keepdims, **kw) if where is None else fn(a, axis, out, keepdims, where=where, **kw)
    nan = _ew.isnan(a)
    kw = {} if initial is None else {"initial": initial}
    if where is not None:
        kw["where"] = where
    res = fn(_ew.where(nan, fill, a), axis, out, keepdims, **kw)
    if initial is None:  # all-NaN slices give NaN, as numpy (which also warns)
        res = _ew.where(_all(nan, axis=axis, keepdims=keepdims), np.nan, res)
    return res


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """numpy.nanmax: the maximum ignoring NaNs (NaN for all-NaN slices)."""
    return _nan_extremum("nanmax", _max, -np.inf, a, axis, out, keepdims, initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """numpy.nanmin: the minimum ignoring NaNs (NaN for all-NaN slices)."""
    return _nan_extremum("nanmin", _min, np.inf, a, axis, out, keepdims, initial, where)
