"""Rounding, integer division and sign manipulation: floor, ceil, rint, trunc, round,
floor_divide, remainder, fmod, heaviside, copysign, fmax, fmin, signbit.

Rounding functions are piecewise constant: ``zero_derivative=True`` (their
derivative is 0 wherever it exists; differentiation treats them as constants).
``remainder`` and ``fmod`` have derivative 1 in x and ``-floor(x / y)`` /
``-trunc(x / y)`` in y away from their jumps.  ``fmax``/``fmin`` ignore NaNs
and, like maximum/minimum, split the (co)tangent evenly on ties.
"""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import Primitive, ShapedArray
from ._batching import passthrough_rule
from .creation import zeros_like
from .elementwise import _aval_dtype, equal, greater, isnan, less, logical_or, ufunc_primitive, where

__all__ = [
    "floor", "ceil", "rint", "trunc", "round", "floor_divide", "remainder", "fmod", "heaviside",
    "copysign", "fmax", "fmin", "signbit",
]

floor = ufunc_primitive("floor", zero_derivative=True).bind
ceil = ufunc_primitive("ceil", zero_derivative=True).bind
trunc = ufunc_primitive("trunc", zero_derivative=True).bind
rint = ufunc_primitive("rint", zero_derivative=True).bind
floor_divide = ufunc_primitive("floor_divide", nin=2, zero_derivative=True).bind
signbit = ufunc_primitive("signbit", differentiable=False).bind


def _round_impl(x, decimals):
    xp = XP_OF_TYPE.get(type(x), np)
    return xp.round(x, decimals)


round_p = Primitive("round", _round_impl,
                    lambda x, decimals: ShapedArray(getattr(x, "shape", ()), _aval_dtype(x)), zero_derivative=True)


round_p.batch = passthrough_rule(round_p)


def round(x, decimals=0):  # noqa: A001  (numpy's name)
    """Round half to even at ``decimals`` places (numpy.round)."""
    return round_p.bind(x, decimals=int(decimals))


def _zero(g, ans, *args):
    return zeros_like(g)


remainder_p = ufunc_primitive("remainder", nin=2)
remainder_p.defvjp(lambda g, ans, x, y: g, lambda g, ans, x, y: -g * floor_divide(x, y), saves_out=False)
remainder_p.defjvp(lambda t, ans, x, y: t, lambda t, ans, x, y: -t * floor_divide(x, y))
remainder = remainder_p.bind


def _trunc_quotient(ans, x, y):
    return rint((x - ans) / y)  # exact integer quotient: x = q y + fmod(x, y)


fmod_p = ufunc_primitive("fmod", nin=2)
fmod_p.defvjp(lambda g, ans, x, y: g, lambda g, ans, x, y: -g * _trunc_quotient(ans, x, y))
fmod_p.defjvp(lambda t, ans, x, y: t, lambda t, ans, x, y: -t * _trunc_quotient(ans, x, y))
fmod = fmod_p.bind

heaviside_p = ufunc_primitive("heaviside", nin=2)
# the value at x1 == 0 is x2: derivative 1 in x2 there, 0 elsewhere; 0 in x1 everywhere
heaviside_p.defvjp(_zero, lambda g, ans, x1, x2: where(equal(x1, 0), g, 0.0), unsaved_args=(1,), saves_out=False)
heaviside_p.defjvp(_zero, lambda t, ans, x1, x2: where(equal(x1, 0), t, 0.0))
heaviside = heaviside_p.bind


def _copysign_factor(x1, x2):
    """+1 where x1 keeps its sign, -1 where copysign flips it."""
    return where(equal(signbit(x1), signbit(x2)), 1.0, -1.0)


copysign_p = ufunc_primitive("copysign", nin=2)
copysign_p.defvjp(lambda g, ans, x1, x2: g * _copysign_factor(x1, x2), _zero, saves_out=False)
copysign_p.defjvp(lambda t, ans, x1, x2: t * _copysign_factor(x1, x2), _zero)
copysign = copysign_p.bind


def _fmax_weight(x, y):
    """1 where x is chosen (x > y, or y is NaN), 0.5 on ties, else 0."""
    return where(logical_or(greater(x, y), isnan(y)), 1.0, where(equal(x, y), 0.5, 0.0))


def _fmin_weight(x, y):
    return where(logical_or(less(x, y), isnan(y)), 1.0, where(equal(x, y), 0.5, 0.0))


fmax_p = ufunc_primitive("fmax", nin=2)
fmax_p.defvjp(lambda g, ans, x, y: g * _fmax_weight(x, y), lambda g, ans, x, y: g * _fmax_weight(y, x),
              saves_out=False)
fmax_p.defjvp(lambda t, ans, x, y: t * _fmax_weight(x, y), lambda t, ans, x, y: t * _fmax_weight(y, x))
fmax = fmax_p.bind

fmin_p = ufunc_primitive("fmin", nin=2)
fmin_p.defvjp(lambda g, ans, x, y: g * _fmin_weight(x, y), lambda g, ans, x, y: g * _fmin_weight(y, x),
              saves_out=False)
fmin_p.defjvp(lambda t, ans, x, y: t * _fmin_weight(x, y), lambda t, ans, x, y: t * _fmin_weight(y, x))
fmin = fmin_p.bind
