"""Specs: Bessel functions (funcgrad.primitives.special_bessel), differentiable in x."""

import hypothesis.strategies as st

import funcgrad.scipy.special as fsp

from ..spec import Spec, unary
from .special import _with_const

_real_orders = st.sampled_from([0, 0.5, 1, 2.5])

SPECS = [
    Spec("i0", ("i0",), fsp.i0, unary(-3.0, 3.0)),
    Spec("i1", ("i1",), fsp.i1, unary(-3.0, 3.0)),
    Spec("i0e", ("i0e",), fsp.i0e, unary(-3.0, 3.0, avoid=(0.0,))),
    Spec("i1e", ("i1e",), fsp.i1e, unary(-3.0, 3.0, avoid=(0.0,))),
    Spec("iv", ("iv",), lambda x, v: fsp.iv(v, x), _with_const(0.2, 3.0, "v", _real_orders)),
    Spec("ive", ("ive",), lambda x, v: fsp.ive(v, x), _with_const(0.2, 3.0, "v", _real_orders)),
    Spec("j0", ("j0",), fsp.j0, unary(-5.0, 5.0)),
    Spec("j1", ("j1",), fsp.j1, unary(-5.0, 5.0)),
    Spec("jv", ("jv",), lambda x, v: fsp.jv(v, x), _with_const(0.2, 5.0, "v", _real_orders)),
    Spec("y0", ("y0",), fsp.y0, unary(0.3, 5.0)),
    Spec("y1", ("y1",), fsp.y1, unary(0.3, 5.0)),
    Spec("yn", ("yn",), lambda x, n: fsp.yn(n, x), _with_const(0.5, 5.0, "n", st.sampled_from([0, 1, 2, 3]))),
]
