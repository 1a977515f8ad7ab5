"""Floating-point and complex predicates and helpers: fabs, nan_to_num, frexp, ldexp, modf,
spacing, nextafter, i0, real_if_close, iscomplex, isreal, isneginf, isposinf, sort_complex,
and the integer bit functions (left_shift, right_shift, gcd, lcm, bitwise_count).

Differentiable where numpy's function has a derivative: fabs (sign), nan_to_num (1 where
the value is kept), frexp's mantissa (2**-e), ldexp in x1 (2**x2), modf's fractional part
(1), i0 (i1), real_if_close (real part).  spacing, frexp's exponent and the integer
functions have none.
"""

from __future__ import annotations

import numpy as np

from ..primitives import bits as _bits
from ..primitives import special_bessel as _sb
from ..backend import kind_of
from ._complex import imag, real
from ._elementwise import _binary, _unary, absolute, astype, isinf, isnan, logical_and, where
from ._math import copysign, signbit, trunc
from ._util import as_array, dtype_of, no_out, operand
from .. import backend
from ._elementwise import invert
from ._indexing import _concrete
from ._math import exp2
from ._sorting import sort

__all__ = [
    "fabs", "nan_to_num", "frexp", "ldexp", "modf", "spacing", "nextafter", "i0", "real_if_close",
    "iscomplex", "isreal", "isneginf", "isposinf", "sort_complex", "left_shift", "right_shift",
    "bitwise_left_shift", "bitwise_right_shift", "bitwise_invert", "gcd", "lcm", "bitwise_count",
]

spacing = _unary(_bits.spacing, "spacing")
nextafter = _binary(_bits.nextafter, "nextafter")
left_shift = bitwise_left_shift = _binary(_bits.left_shift, "left_shift")
right_shift = bitwise_right_shift = _binary(_bits.right_shift, "right_shift")
gcd = _binary(_bits.gcd, "gcd")
lcm = _binary(_bits.lcm, "lcm")
bitwise_count = _unary(_bits.bitwise_count, "bitwise_count")


def bitwise_invert(x, /):
    """The Array API's name for numpy.invert."""
    return invert(x)


def _real_float(x, fname):
    x = operand(x)
    kind = dtype_of(x).kind
    if kind == "c":
        raise TypeError(f"{fname}: ufunc '{fname}' not supported for complex inputs (dtype {dtype_of(x)})")
    return x


def _float_like(x, ufunc):
    """Integer/bool input cast to the float dtype numpy's ``ufunc`` computes in."""
    if dtype_of(x).kind not in "iub":
        return x
    return astype(as_array(x), ufunc(np.zeros((), dtype_of(x))).dtype)


def fabs(x, /, out=None):
    """numpy.fabs: the absolute value of real inputs as a float (complex: TypeError, as numpy)."""
    no_out(out, "fabs")
    x = _real_float(x, "fabs")
    return absolute(_float_like(x, np.fabs))


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """numpy.nan_to_num: NaN -> ``nan``, +inf -> ``posinf`` (default: the largest finite value),
    -inf -> ``neginf``; complex parts separately; integers unchanged."""
    x = as_array(x)
    dt = dtype_of(x)
    if kind_of(dt) not in "fc":
        return x
    if dt.kind == "c":
        return _nan_to_num_real(real(x), nan, posinf, neginf) + 1j * _nan_to_num_real(imag(x), nan, posinf, neginf)
    return _nan_to_num_real(x, nan, posinf, neginf)


def _nan_to_num_real(x, nan, posinf, neginf):
    fi = np.finfo(dtype_of(x))
    hi = fi.max if posinf is None else posinf
    lo = fi.min if neginf is None else neginf
    out = where(isnan(x), astype(as_array(nan), x.dtype), x)
    inf = isinf(x)
    return where(logical_and(inf, x > 0), astype(as_array(hi), x.dtype),
                 where(logical_and(inf, x < 0), astype(as_array(lo), x.dtype), out))


def _pow2(e, dtype):
    """2.0 ** e (integer e) as two factors, so that |e| up to twice the float range stays finite."""
    half = e // 2
    return exp2(astype(half, dtype)), exp2(astype(e - half, dtype))


def frexp(x, /, out=(None, None)):
    """numpy.frexp: (mantissa, exponent) with x = mantissa * 2**exponent, 0.5 <= |mantissa| < 1."""
    if out not in (None, (None, None)):
        no_out(out, "frexp")
    x = _float_like(as_array(_real_float(x, "frexp")), lambda v: np.frexp(v)[0])
    e = _bits.frexp_exponent(x)
    a, b = _pow2(-e, x.dtype)
    m = where(isinf(x) | isnan(x), x, x * a * b)
    return m, e


def ldexp(x1, x2, /, out=None):
    """numpy.ldexp: x1 * 2**x2 (x2 integers); differentiable in x1."""
    no_out(out, "ldexp")
    x1 = as_array(_real_float(x1, "ldexp"))
    x2 = as_array(x2)
    if dtype_of(x2).kind not in "iub":
        raise TypeError(f"ldexp: the exponent must be integers, got dtype {dtype_of(x2)} "
                        "(ufunc 'ldexp' not supported for the input types)")
    dt = np.ldexp(np.zeros((), dtype_of(x1)), np.zeros((), dtype_of(x2))).dtype
    x1 = astype(x1, dt)
    a, b = _pow2(astype(x2, np.int64), dt)
    return x1 * a * b


def modf(x, /, out=(None, None)):
    """numpy.modf: (fractional part, integral part), both with x's sign."""
    if out not in (None, (None, None)):
        no_out(out, "modf")
    x = _float_like(as_array(_real_float(x, "modf")), lambda v: np.modf(v)[0])
    whole = trunc(x)
    frac = copysign(where(isinf(x), 0.0, x - whole), x)
    return frac, whole


def i0(x):
    """numpy.i0: the modified Bessel function of the first kind, order 0 (real inputs)."""
    x = as_array(_real_float(x, "i0"))
    if dtype_of(x).kind in "iub":
        x = astype(x, np.float64)
    return _sb.i0(x)


def real_if_close(a, tol=100):
    """numpy.real_if_close: the real part if every imaginary part is within ``tol`` machine
    epsilons (tol > 1) or ``tol`` (tol <= 1) of 0; otherwise ``a`` (decided on the values)."""
    a = as_array(a)
    if dtype_of(a).kind != "c":
        return a
    if tol > 1:
        tol = np.finfo(dtype_of(a)).eps * tol
    _, buf = _concrete(a, "real_if_close")
    if bool(np.all(np.abs(backend.to_numpy(buf).imag) < tol)):
        return real(a)
    return a


def iscomplex(x):
    """numpy.iscomplex: elementwise imag(x) != 0 (all False for real input)."""
    x = as_array(x)
    return imag(x) != 0


def isreal(x):
    """numpy.isreal: elementwise imag(x) == 0 (all True for real input)."""
    x = as_array(x)
    return imag(x) == 0


def _isinf_signed(x, negative, fname, out):
    no_out(out, fname)
    x = as_array(x)
    if dtype_of(x).kind == "c":
        raise TypeError(f"{fname}: This operation is not supported for complex values because "
                        "it would be ambiguous.")
    sb = signbit(x)
    return logical_and(isinf(x), sb if negative else ~sb)


def isposinf(x, out=None):
    return _isinf_signed(x, False, "isposinf", out)


def isneginf(x, out=None):
    return _isinf_signed(x, True, "isneginf", out)


def sort_complex(a):
    """numpy.sort_complex: sorted by real part, then imaginary part; always complex."""
    a = as_array(a)
    dt = dtype_of(a)
    if dt.kind != "c":
        a = astype(a, "F" if dt.char in "bhBH" else "G" if dt.char == "g" else "D")
    return sort(a)
