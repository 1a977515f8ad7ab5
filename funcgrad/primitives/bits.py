"""Bit-level primitives: integer shifts, gcd/lcm, bitwise_count, and the float
bit-level functions spacing, nextafter and frexp's exponent.

All are numpy ufuncs (their loops and result dtypes on every backend).  The integer
ones take integer or bool inputs only; none has a derivative: ``spacing`` and
``frexp_exponent`` are piecewise constant (``zero_derivative``), ``nextafter`` is the
neighbouring float (no derivative, as in JAX).  frexp's mantissa and ldexp are
written with these and differentiable operations (funcgrad/numpy/_float_functions.py).
"""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import Primitive, ShapedArray
from ._batching import passthrough_rule
from .elementwise import _aval_dtype, ufunc_primitive

__all__ = ["left_shift", "right_shift", "gcd", "lcm", "bitwise_count", "spacing", "nextafter", "frexp_exponent"]

left_shift = ufunc_primitive("left_shift", nin=2, differentiable=False).bind
right_shift = ufunc_primitive("right_shift", nin=2, differentiable=False).bind
gcd = ufunc_primitive("gcd", nin=2, differentiable=False).bind
lcm = ufunc_primitive("lcm", nin=2, differentiable=False).bind
bitwise_count = ufunc_primitive("bitwise_count", differentiable=False).bind
spacing = ufunc_primitive("spacing", zero_derivative=True).bind
nextafter = ufunc_primitive("nextafter", nin=2, differentiable=False).bind


def _frexp_exponent_impl(x):
    return XP_OF_TYPE.get(type(x), np).frexp(x)[1]


def _frexp_exponent_abstract(x):
    return ShapedArray(getattr(x, "shape", ()), np.dtype(np.int32))


frexp_exponent_p = Primitive("frexp_exponent", _frexp_exponent_impl, _frexp_exponent_abstract, zero_derivative=True)
frexp_exponent_p.batch = passthrough_rule(frexp_exponent_p)
frexp_exponent = frexp_exponent_p.bind
