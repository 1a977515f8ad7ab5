"""More elementwise math: trigonometric and hyperbolic functions, exponentials and logs,
rounding, integer division, clip, complex parts (numpy names and dtype rules)."""

from __future__ import annotations

import numpy as np

from ..primitives import elementwise as _ew
from ..primitives import exp_log as _el
from ..primitives import rounding as _rd
from ..primitives import trig as _tr
from ._elementwise import _binary, _unary, astype, maximum, minimum
from ._validate import integer
from ._util import as_array, dtype_of, no_out, operand
from ._complex import imag, real

__all__ = [
    "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "arcsinh", "arccosh", "arctanh",
    "asin", "acos", "atan", "asinh", "acosh", "atanh", "atan2",
    "arctan2", "hypot", "deg2rad", "rad2deg", "degrees", "radians", "sinc",
    "exp2", "log2", "log10", "logaddexp2", "cbrt", "reciprocal", "float_power",
    "floor", "ceil", "rint", "trunc", "fix", "round", "around", "floor_divide", "remainder",
    "mod", "fmod", "divmod", "heaviside", "copysign", "fmax", "fmin", "signbit", "clip",
    "angle", "iscomplexobj", "isrealobj",
]

tan = _unary(_tr.tan, "tan")
arcsin = asin = _unary(_tr.arcsin, "arcsin")
arccos = acos = _unary(_tr.arccos, "arccos")
arctan = atan = _unary(_tr.arctan, "arctan")
sinh = _unary(_tr.sinh, "sinh")
cosh = _unary(_tr.cosh, "cosh")
arcsinh = asinh = _unary(_tr.arcsinh, "arcsinh")
arccosh = acosh = _unary(_tr.arccosh, "arccosh")
arctanh = atanh = _unary(_tr.arctanh, "arctanh")
arctan2 = atan2 = _binary(_tr.arctan2, "arctan2")
hypot = _binary(_tr.hypot, "hypot")
deg2rad = radians = _unary(_tr.deg2rad, "deg2rad")
rad2deg = degrees = _unary(_tr.rad2deg, "rad2deg")
exp2 = _unary(_el.exp2, "exp2")
log2 = _unary(_el.log2, "log2")
log10 = _unary(_el.log10, "log10")
logaddexp2 = _binary(_el.logaddexp2, "logaddexp2")
cbrt = _unary(_el.cbrt, "cbrt")
reciprocal = _unary(_el.reciprocal, "reciprocal")
floor = _unary(_rd.floor, "floor")
ceil = _unary(_rd.ceil, "ceil")
rint = _unary(_rd.rint, "rint")
trunc = _unary(_rd.trunc, "trunc")
floor_divide = _binary(_rd.floor_divide, "floor_divide")
remainder = mod = _binary(_rd.remainder, "remainder")
fmod = _binary(_rd.fmod, "fmod")
heaviside = _binary(_rd.heaviside, "heaviside")
copysign = _binary(_rd.copysign, "copysign")
fmax = _binary(_rd.fmax, "fmax")
fmin = _binary(_rd.fmin, "fmin")
signbit = _unary(_rd.signbit, "signbit")


def sinc(x, /):
    """numpy.sinc: sin(pi x) / (pi x), 1 at 0 (derivatives exact at 0 to any order)."""
    return _tr.sinc(operand(x))


def float_power(x1, x2, /, out=None):
    """numpy.float_power: power computed in float64 (complex128 for complex inputs)."""
    no_out(out, "float_power")
    x1, x2 = operand(x1), operand(x2)
    kind = "c" if "c" in (dtype_of(x1).kind, dtype_of(x2).kind) else "f"
    target = np.complex128 if kind == "c" else np.float64
    return _ew.power(astype(as_array(x1), target), astype(as_array(x2), target))


def fix(x, /, out=None):
    """numpy.fix: round towards zero (derivative 0)."""
    no_out(out, "fix")
    return trunc(x)


def round(a, decimals=0, out=None):  # noqa: A001
    """numpy.round: half to even at ``decimals`` places (derivative 0)."""
    no_out(out, "round")
    return _rd.round(operand(a), integer(decimals, "decimals", "round"))


around = round


def divmod(x1, x2, /, out=(None, None)):  # noqa: A001
    """numpy.divmod: (floor_divide(x1, x2), remainder(x1, x2))."""
    if out not in (None, (None, None)):
        no_out(out, "divmod")
    return floor_divide(x1, x2), remainder(x1, x2)


def clip(a, a_min=np._NoValue, a_max=np._NoValue, out=None, *, min=np._NoValue, max=np._NoValue):  # noqa: A002
    """numpy.clip = minimum(maximum(a, a_min), a_max); at the bounds the gradient is split
    evenly (like maximum/minimum): 1/2 at a == a_min or a == a_max."""
    no_out(out, "clip")
    lo = a_min if a_min is not np._NoValue else (None if min is np._NoValue else min)
    hi = a_max if a_max is not np._NoValue else (None if max is np._NoValue else max)
    if (a_min is not np._NoValue and min is not np._NoValue) or (a_max is not np._NoValue and max is not np._NoValue):
        raise TypeError("clip: pass each bound once (a_min or min, a_max or max)")
    out = operand(a)
    if lo is not None:
        out = maximum(out, lo)
    if hi is not None:
        out = minimum(out, hi)
    return out


def angle(z, deg=False):
    """The argument of complex values (0 or pi for real ones); degrees with deg=True.

    arctan2(imag(z), real(z)): differentiable under the complex convention of
    funcgrad/primitives/complex.py (real inputs: derivative 0).
    """
    z = as_array(z)
    if dtype_of(z).kind == "b":  # numpy: arctan2(0, bools) promotes through int64
        z = astype(z, np.int64)
    a = _tr.arctan2(imag(z), real(z))
    return _tr.rad2deg(a) if deg else a


def iscomplexobj(x):
    return dtype_of(operand(x)).kind == "c"


def isrealobj(x):
    return not iscomplexobj(x)
