"""Comparisons of whole arrays: isclose, allclose, array_equal, array_equiv (no derivative)."""

from __future__ import annotations

import numpy as np

from ..primitives import elementwise as _ew
from ..primitives.reduce_stats import reduce_all
from ..primitives.stop_gradient import stop_gradient
from ..backend import kind_of
from ._util import as_array

__all__ = ["isclose", "allclose", "array_equal", "array_equiv"]


def _value(x):
    return stop_gradient(as_array(x))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """numpy.isclose: |a - b| <= atol + rtol |b| elementwise (infinities equal only to
    themselves; NaNs equal each other with equal_nan)."""
    a, b = _value(a), _value(b)
    dt = np.result_type(a.dtype, b.dtype, np.float16)
    if kind_of(dt) not in "fc":
        dt = np.dtype(np.float64)
    x, y = _ew.convert(a, dt), _ew.convert(b, dt)
    finite = _ew.logical_and(_ew.isfinite(x), _ew.isfinite(y))
    close = _ew.less_equal(_ew.absolute(x - y), atol + rtol * _ew.absolute(y))
    out = _ew.where(finite, close, _ew.equal(x, y))
    if equal_nan:
        out = _ew.logical_or(out, _ew.logical_and(_ew.isnan(x), _ew.isnan(y)))
    return out


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """numpy.allclose, as a 0-d bool array (usable in ``if``; stays an array under vmap)."""
    c = isclose(a, b, rtol, atol, equal_nan)
    return reduce_all(c, tuple(range(c.ndim)))


def array_equal(a1, a2, equal_nan=False):
    """True if the two arrays have the same shape and elements (0-d bool array, or
    Python False when the shapes differ, as numpy)."""
    a1, a2 = _value(a1), _value(a2)
    if tuple(a1.shape) != tuple(a2.shape):
        return False
    eq = _ew.equal(a1, a2)
    if equal_nan and kind_of(np.result_type(a1.dtype, a2.dtype)) in "fc":
        eq = _ew.logical_or(eq, _ew.logical_and(_ew.isnan(a1), _ew.isnan(a2)))
    return reduce_all(eq, tuple(range(eq.ndim)))


def array_equiv(a1, a2):
    """True if the arrays are equal after broadcasting (False if they do not broadcast)."""
    a1, a2 = _value(a1), _value(a2)
    try:
        np.broadcast_shapes(tuple(a1.shape), tuple(a2.shape))
    except ValueError:
        return False
    eq = _ew.equal(a1, a2)
    return reduce_all(eq, tuple(range(eq.ndim)))
