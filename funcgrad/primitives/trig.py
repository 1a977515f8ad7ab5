"""Trigonometric and hyperbolic functions and their inverses, arctan2, hypot, sinc.

Derivatives that are infinite at the edge of the domain (arcsin and arccos at
+-1, arccosh at 1, arctanh at +-1) multiply with ``safe_mul``: a zero incoming
(co)tangent gives exactly 0 there.
"""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE, kind_of
from ..core import Primitive, ShapedArray
from ._batching import passthrough_rule
from .elementwise import _aval_dtype, absolute, cos, defderiv, safe_mul, sqrt, ufunc_primitive, where

__all__ = [
    "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "arcsinh", "arccosh", "arctanh",
    "arctan2", "hypot", "deg2rad", "rad2deg", "sinc",
]

tan_p = ufunc_primitive("tan")
defderiv(tan_p, lambda ans, x: 1.0 + ans * ans, unsaved_args=(0,))
tan = tan_p.bind

arcsin_p = ufunc_primitive("arcsin")
defderiv(arcsin_p, lambda ans, x: 1.0 / sqrt(1.0 - x * x), safe=True, saves_out=False)
arcsin = arcsin_p.bind

arccos_p = ufunc_primitive("arccos")
defderiv(arccos_p, lambda ans, x: -1.0 / sqrt(1.0 - x * x), safe=True, saves_out=False)
arccos = arccos_p.bind

arctan_p = ufunc_primitive("arctan")
defderiv(arctan_p, lambda ans, x: 1.0 / (1.0 + x * x), saves_out=False)
arctan = arctan_p.bind

sinh_p = ufunc_primitive("sinh")
defderiv(sinh_p, lambda ans, x: cosh(x), saves_out=False)
sinh = sinh_p.bind

cosh_p = ufunc_primitive("cosh")
defderiv(cosh_p, lambda ans, x: sinh(x), saves_out=False)
cosh = cosh_p.bind

arcsinh_p = ufunc_primitive("arcsinh")
# 1/sqrt(x^2 + 1) overflows for |x| > 1e154: 1/|x| there (the same value in floating point)
defderiv(arcsinh_p, lambda ans, x: 1.0 / sqrt(x * x + 1.0), saves_out=False)
arcsinh = arcsinh_p.bind

arccosh_p = ufunc_primitive("arccosh")
defderiv(arccosh_p, lambda ans, x: 1.0 / sqrt((x - 1.0) * (x + 1.0)), safe=True, saves_out=False)
arccosh = arccosh_p.bind

arctanh_p = ufunc_primitive("arctanh")
defderiv(arctanh_p, lambda ans, x: 1.0 / ((1.0 - x) * (1.0 + x)), safe=True, saves_out=False)
arctanh = arctanh_p.bind

_DEG = np.pi / 180.0

deg2rad_p = ufunc_primitive("deg2rad")
deg2rad_p.defvjp(lambda g, ans, x: g * _DEG, unsaved_args=(0,), saves_out=False)
deg2rad_p.defjvp(lambda t, ans, x: t * _DEG)
deg2rad = deg2rad_p.bind

rad2deg_p = ufunc_primitive("rad2deg")
rad2deg_p.defvjp(lambda g, ans, x: g * (1.0 / _DEG), unsaved_args=(0,), saves_out=False)
rad2deg_p.defjvp(lambda t, ans, x: t * (1.0 / _DEG))
rad2deg = rad2deg_p.bind


# --- arctan2(y, x) and hypot(x, y) -------------------------------------------------------

def _atan2_dy(ans, y, x):
    return x / (x * x + y * y)


def _atan2_dx(ans, y, x):
    return -y / (x * x + y * y)


arctan2_p = ufunc_primitive("arctan2", nin=2)
# singular only at the origin: safe_mul keeps masked-off origins at 0
arctan2_p.defvjp(lambda g, ans, y, x: safe_mul(g, _atan2_dy(ans, y, x)),
                 lambda g, ans, y, x: safe_mul(g, _atan2_dx(ans, y, x)), saves_out=False)
arctan2_p.defjvp(lambda t, ans, y, x: safe_mul(t, _atan2_dy(ans, y, x)),
                 lambda t, ans, y, x: safe_mul(t, _atan2_dx(ans, y, x)))
arctan2 = arctan2_p.bind

hypot_p = ufunc_primitive("hypot", nin=2)
hypot_p.defvjp(lambda g, ans, x, y: safe_mul(g, x / ans), lambda g, ans, x, y: safe_mul(g, y / ans))
hypot_p.defjvp(lambda t, ans, x, y: safe_mul(t, x / ans), lambda t, ans, x, y: safe_mul(t, y / ans))
hypot = hypot_p.bind


# --- sinc ----------------------------------------------------------------------------------

_PI2 = np.pi ** 2


def _sinc_deriv(ans, x):
    """(cos(pi x) - sinc(x)) / x, by its Taylor polynomial near 0 (exact to every order there)."""
    small = absolute(x) < 1e-3
    xs = where(small, 1.0, x)
    far = (cos(np.pi * xs) - sinc(xs)) / xs
    near = x * (-_PI2 / 3.0 + x * x * (_PI2 * _PI2 / 30.0 - x * x * (_PI2 ** 3 / 840.0)))
    return where(small, near, far)


def _sinc_dtype(dt):
    """numpy.sinc's: inexact dtypes kept, any other float64 (cupy's sinc of bools is float16)."""
    dt = np.dtype(dt) if not isinstance(dt, type) else np.result_type(dt(0))
    return dt if kind_of(dt) in "fc" else np.dtype(np.float64)


def _sinc_abstract(x):
    return ShapedArray(getattr(x, "shape", ()), _sinc_dtype(_aval_dtype(x)))


def _sinc_impl(x):
    xp = XP_OF_TYPE.get(type(x), np)
    if xp is not np and kind_of(x.dtype) not in "fc":
        x = x.astype(np.float64)
    return xp.sinc(x)


# numpy.sinc is a Python function, not a ufunc
sinc_p = Primitive("sinc", _sinc_impl, _sinc_abstract)
defderiv(sinc_p, _sinc_deriv, saves_out=False)
sinc_p.batch = passthrough_rule(sinc_p)
sinc = sinc_p.bind
