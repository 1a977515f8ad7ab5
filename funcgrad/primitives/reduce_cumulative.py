"""Cumulative reductions: cumsum, cumprod (exact derivatives with zeros, any order).

``axis`` is a normalised non-negative int (the numpy layer flattens for
``axis=None`` and raises numpy's AxisError).

cumprod's rules never divide by the input: they solve the linear recurrences
of its derivative (``d out_i = x_i d out_{i-1} + out_{i-1} dx_i`` and its
transpose) with a log-depth scan of multiplies, so they are exact where the
input has zeros (one or several) and differentiable again.
"""

from __future__ import annotations

import numpy as np

from ..backend import ML_FLOATS, XP_OF_TYPE, in_float32, kind_of
from ..core import Array, Primitive, ShapedArray
from ._batching import axis_rule
from .creation import full_like
from .index import getitem
from .shape import concatenate


def _xp(x):
    return XP_OF_TYPE.get(type(x), np)


def _along(ndim, axis, sl):
    return (slice(None),) * axis + (sl,)


def flip(x, axis):
    return getitem(x, _along(x.ndim, axis, slice(None, None, -1)))


def shift_right(x, axis, fill, by=1):
    """x shifted ``by`` places towards higher indices along axis, ``fill`` entering at 0."""
    n = x.shape[axis]
    by = min(by, n)
    if by == 0:
        return x
    shape = list(x.shape)
    shape[axis] = by
    pad = full_like(x, fill, shape=tuple(shape))
    if by == n:
        return pad
    return concatenate([pad, getitem(x, _along(x.ndim, axis, slice(0, n - by)))], axis)


def linear_recurrence(a, b, axis):
    """h with h_i = a_i h_{i-1} + b_i (h_{-1} = 0) along axis, by a log-depth scan.

    Pairs (A, B) compose as (A2 A1, A2 B1 + B2); shifted-in identities are (1, 0).
    Only multiplies, adds and shifts: exact, and differentiable to any order.
    """
    n = b.shape[axis]
    s = 1
    while s < n:
        a_prev = shift_right(a, axis, 1, s)
        b_prev = shift_right(b, axis, 0, s)
        a, b = a * a_prev, a * b_prev + b
        s *= 2
    return b


# --- cumsum ----------------------------------------------------------------------

def _cumsum_impl(x, axis, reverse):
    if getattr(x, "dtype", None) in ML_FLOATS:  # bfloat16: accumulated in float32 (backend.in_float32)
        return in_float32(_cumsum_impl, x, axis=axis, reverse=reverse)
    xp = _xp(x)
    if not reverse:
        return xp.cumsum(x, axis=axis)
    idx = _along(x.ndim, axis, slice(None, None, -1))
    return xp.cumsum(x[idx], axis=axis)[idx]


def _accumulator_dtype(dtype):
    return np.add.reduce(np.zeros(1, dtype)).dtype  # numpy's rule: small ints and bool -> int64


def _cum_abstract(x, axis, reverse):
    if not 0 <= axis < max(len(x.shape), 1):
        raise ValueError(f"axis {axis} out of range for shape {x.shape}")
    return ShapedArray(x.shape, _accumulator_dtype(x.dtype))


cumsum_p = Primitive("cumsum", _cumsum_impl, _cum_abstract)
cumsum_p.defvjp(lambda g, ans, x, axis, reverse: cumsum(g, axis, not reverse),
                unsaved_args=(0,), saves_out=False)
cumsum_p.defjvp(lambda t, ans, x, axis, reverse: cumsum(t, axis, reverse))


cumsum_p.batch = axis_rule(cumsum_p)


def cumsum(x, axis, reverse=False):
    """Cumulative sum along ``axis`` (from the end if ``reverse``)."""
    return cumsum_p.bind(x, axis=int(axis), reverse=bool(reverse))


# --- cumprod ---------------------------------------------------------------------

def _cumprod_impl(x, axis):
    if getattr(x, "dtype", None) in ML_FLOATS:
        return in_float32(_cumprod_impl, x, axis=axis)
    return _xp(x).cumprod(x, axis=axis)


def _exclusive(ans, axis):
    """out_{i-1} (1 at i = 0): the product of the elements before i."""
    return shift_right(ans, axis, 1)


def _cumprod_jvp(t, ans, x, axis):
    if has_no_zeros(x):
        return ans * cumsum(t / x, axis)
    # d out_i = x_i d out_{i-1} + out_{i-1} t_i
    return linear_recurrence(x, t * _exclusive(ans, axis), axis)


def _cumprod_vjp(g, ans, x, axis):
    if has_no_zeros(x):
        return cumsum(g * ans, axis, reverse=True) / x
    # transpose: h_k = g_k + x_{k+1} h_{k+1} (from the end), gx_k = out_{k-1} h_k
    a = shift_right(flip(x, axis), axis, 0)  # reversed, a_m = x_{k+1}
    h = flip(linear_recurrence(a, flip(g, axis), axis), axis)
    return _exclusive(ans, axis) * h


cumprod_p = Primitive("cumprod", _cumprod_impl,
                      lambda x, axis: _cum_abstract(x, axis, False))
cumprod_p.defvjp(_cumprod_vjp)
cumprod_p.defjvp(_cumprod_jvp)
cumprod_p.batch = axis_rule(cumprod_p)


def cumprod(x, axis):
    """Cumulative product along ``axis``; derivatives exact with zeros in x."""
    return cumprod_p.bind(x, axis=int(axis))


def has_no_zeros(x):
    """True for a concrete float array (no transformation watching) whose entries are all at
    least sqrt(smallest normal) in magnitude: their reciprocals are finite with room to spare
    (a sum of a few tangents divided by them cannot overflow; 1/x alone could be finite while
    t/x + t/x overflows to inf, and 0 * inf is NaN).

    Rules may then use the cheaper formulas that divide by x: nothing will
    differentiate them further, so their derivatives do not matter.
    """
    if type(x) is not Array or kind_of(x.dtype) != "f":
        return False
    v = x._value
    xp = _xp(v)
    return bool(xp.all(xp.abs(v) >= np.sqrt(np.finfo(v.dtype).tiny)))


def exclusive_products(x, axis):
    """For each i, the product of all elements but x_i along axis (exact with zeros)."""
    before = shift_right(cumprod(x, axis), axis, 1)
    after = flip(shift_right(cumprod(flip(x, axis), axis), axis, 1), axis)
    return before * after
