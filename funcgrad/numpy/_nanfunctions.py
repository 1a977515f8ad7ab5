"""NaN-ignoring functions beside those in _statistics.py (nansum, nanmean, nanmax, nanmin,
nanprod) and _quantiles.py (nanquantile, nanpercentile, nanmedian): nanvar, nanstd,
nanargmax, nanargmin, nancumsum, nancumprod.

Each replaces the NaNs (by a neutral value or a mask) and calls the ordinary function, so
the derivatives are those of the ordinary function and NaN elements get gradient 0.
"""

from __future__ import annotations

import numpy as np

from ._elementwise import isnan, logical_and, logical_not, sqrt
from ._elementwise import where as select_where
from ._indexing import host_values
from ._reductions import all as _all, argmax, argmin, cumprod, cumsum, sum as _sum
from ._statistics import _ddof, var
from ._util import as_array, no_out, normalize_axes

__all__ = ["nanvar", "nanstd", "nanargmax", "nanargmin", "nancumsum", "nancumprod"]

def _inexact(a):
    return np.dtype(a.dtype).kind in "fc"

def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None,
           correction=None):
    """numpy.nanvar: the variance of the non-NaN values; NaN where ``count - ddof <= 0``."""
    no_out(out, "nanvar")
    ddof = _ddof(ddof, correction)
    a = as_array(a)
    if not _inexact(a):
        return var(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean)
    if a.ndim == 0 and axis is not None:  # numpy's nanvar reduces with ufuncs: axis 0 / -1 of a 0-d array
        normalize_axes(axis, 0, "nanvar", ufunc_reduce=True)
        axis = None
    ok = logical_not(isnan(a))
    if where is not None:
        ok = logical_and(ok, as_array(where))
    filled = _zero_filled(ok, a)
    res = var(filled, axis, dtype, None, ddof, keepdims, where=ok, mean=mean)
    dof = _sum(ok, axis=axis, keepdims=keepdims) - ddof
    return select_where(dof <= 0, np.nan, res)

def _zero_filled(ok, a):
    """a with its NaNs (and masked-out values) replaced by 0, so no NaN reaches a derivative."""
    return select_where(ok, a, 0)

def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None,
           correction=None):
    """numpy.nanstd: sqrt(nanvar); the gradient at a constant slice (std == 0) is 0, as ``std``."""
    no_out(out, "nanstd")
    v = nanvar(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean, correction=correction)
    positive = v > 0
    return select_where(positive, sqrt(select_where(positive, v, 1)), v)

def _nanarg(fname, fn, fill, a, axis, out, keepdims):
    no_out(out, fname)
    a = as_array(a)
    if not _inexact(a):
        return fn(a, axis, keepdims=keepdims)
    nan = isnan(a)
    if a.size and bool(np.any(host_values(_all(nan, axis=axis), fname))):  # numpy's order of checks
        raise ValueError("All-NaN slice encountered")
    return fn(select_where(nan, fill, a), axis, keepdims=keepdims)

def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """numpy.nanargmax: argmax ignoring NaNs (a ValueError for an all-NaN slice)."""
    return _nanarg("nanargmax", argmax, -np.inf, a, axis, out, keepdims)

def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """numpy.nanargmin: argmin ignoring NaNs (a ValueError for an all-NaN slice)."""
    return _nanarg("nanargmin", argmin, np.inf, a, axis, out, keepdims)

def nancumsum(a, axis=None, dtype=None, out=None):
    """numpy.nancumsum: cumsum with NaNs counted as 0 (their gradient is 0)."""
    no_out(out, "nancumsum")
    a = as_array(a)
    return cumsum(select_where(isnan(a), 0, a) if _inexact(a) else a, axis, dtype)

def nancumprod(a, axis=None, dtype=None, out=None):
    """numpy.nancumprod: cumprod with NaNs counted as 1 (their gradient is 0)."""
    no_out(out, "nancumprod")
    a = as_array(a)
    return cumprod(select_where(isnan(a), 1, a) if _inexact(a) else a, axis, dtype)
