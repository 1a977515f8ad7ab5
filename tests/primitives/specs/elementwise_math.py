"""Specs: trig.py, exp_log.py and rounding.py primitives (complex parts: specs/fft.py)."""

import hypothesis.strategies as st
import numpy as np

import funcgrad.numpy as fnp

from ..spec import Spec, binary_broadcast, unary
from .elementwise import _no_ties


@st.composite
def _away_from_jumps(draw):
    """x / y stays at least 0.05 away from the integers, where remainder and fmod jump."""
    (x, y), _ = draw(binary_broadcast(-3.0, 3.0, 0.5, 2.0))
    q = x / y
    q = np.floor(q) + np.clip(q - np.floor(q), 0.05, 0.95)
    return (q * y, y), {}


@st.composite
def _rounding_args(draw):
    """x on the grid 0.1 k + 0.025 (away from every jump of floor, rint, round(x, 1)),
    y a power of 2 (x / y then stays away from the integers)."""
    (x, y), _ = draw(binary_broadcast(-3.0, 3.0, -1.0, 1.0))
    return (np.round(x * 10) / 10 + 0.025, 2.0 ** np.round(y)), {}


@st.composite
def _sinc_args(draw):
    (x,), _ = draw(unary(-2.0, 2.0))
    tiny = draw(st.booleans())  # also exercise the Taylor branch near 0
    return ((x * 1e-4 if tiny else x),), {}


SPECS = [
    Spec("tan", ("tan",), fnp.tan, unary(-1.2, 1.2)),
    Spec("arcsin", ("arcsin",), fnp.arcsin, unary(-0.9, 0.9)),
    Spec("arccos", ("arccos",), fnp.arccos, unary(-0.9, 0.9)),
    Spec("arctan", ("arctan",), fnp.arctan, unary(-3.0, 3.0)),
    Spec("sinh", ("sinh",), fnp.sinh, unary()),
    Spec("cosh", ("cosh",), fnp.cosh, unary()),
    Spec("arcsinh", ("arcsinh",), fnp.arcsinh, unary(-3.0, 3.0)),
    Spec("arccosh", ("arccosh",), fnp.arccosh, unary(1.1, 4.0)),
    Spec("arctanh", ("arctanh",), fnp.arctanh, unary(-0.9, 0.9)),
    Spec("deg2rad_rad2deg", ("deg2rad", "rad2deg"), lambda x: [fnp.deg2rad(x), fnp.rad2deg(x)], unary()),
    Spec("arctan2", ("arctan2",), fnp.arctan2, binary_broadcast(-2.0, 2.0, 0.3, 2.0)),
    Spec("hypot", ("hypot",), fnp.hypot, binary_broadcast(0.3, 2.0)),
    Spec("sinc", ("sinc",), fnp.sinc, _sinc_args(), tol={"rtol": 1e-4, "atol": 1e-4}),
    Spec("exp2", ("exp2",), fnp.exp2, unary()),
    Spec("log2", ("log2",), fnp.log2, unary(0.2, 4.0)),
    Spec("log10", ("log10",), fnp.log10, unary(0.2, 4.0)),
    Spec("cbrt", ("cbrt",), fnp.cbrt, unary(0.2, 4.0)),
    Spec("reciprocal", ("reciprocal",), fnp.reciprocal, unary(0.3, 3.0)),
    Spec("logaddexp2", ("logaddexp2",), fnp.logaddexp2, binary_broadcast(-30.0, 30.0)),
    Spec("rounding", ("floor", "ceil", "rint", "trunc", "round", "floor_divide"),
         lambda x, y: [fnp.floor(x) * x, fnp.ceil(x) * x, fnp.rint(x) * x, fnp.trunc(x) * x,
                       fnp.round(x, 1) * x, fnp.floor_divide(x, y) * x],
         _rounding_args()),
    Spec("remainder", ("remainder",), fnp.remainder, _away_from_jumps()),
    Spec("fmod", ("fmod",), fnp.fmod, _away_from_jumps()),
    Spec("fmax", ("fmax",), fnp.fmax, _no_ties()),
    Spec("fmin", ("fmin",), fnp.fmin, _no_ties()),
    Spec("copysign", ("copysign",), fnp.copysign, binary_broadcast(0.1, 2.0, -2.0, 2.0, avoid2=(0.0,))),
    # (the derivative in x2, nonzero only where x1 == 0, is tested in tests/numpy)
    Spec("heaviside", ("heaviside",), lambda h, x: fnp.heaviside(x, h), binary_broadcast(avoid2=(0.0,))),
    Spec("signbit", ("signbit",), fnp.signbit, unary(), differentiable=False),
    Spec("complex_parts_of_real_input", ("real", "arctan2"),
         lambda x: [fnp.real(x), fnp.imag(x) + x, fnp.angle(x) * 0.0 + x, fnp.conj(x)], unary(avoid=(0.0,))),
]
