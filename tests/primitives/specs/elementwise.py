"""Specs: elementwise primitives (funcgrad.primitives.elementwise)."""

import hypothesis.strategies as st
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.primitives.elementwise import safe_mul
from funcgrad.testing import strategies as fst

from ..spec import Spec, binary_broadcast, floats_of, unary


@st.composite
def _no_ties(draw):
    """x on the grid 0.1 k, y on the grid 0.1 k + 0.05: never within 0.05 of each other."""
    (a, b), _ = draw(binary_broadcast())
    return (np.round(a * 10) / 10, np.round(b * 10) / 10 + 0.05), {}


@st.composite
def _where_args(draw):
    s1, s2, s3 = draw(fst.mutually_broadcastable_shapes(3))
    cond = draw(fst.host_arrays(s1, np.bool_))
    return (draw(floats_of(s2)), draw(floats_of(s3))), {"cond": cond}


@st.composite
def _int_power(draw):
    a = draw(floats_of(fst.shapes()))
    return (a,), {"k": draw(st.sampled_from([0, 1, 2, 3, -1.0, 0.5]))}


SPECS = [
    Spec("add", ("add",), lambda x, y: x + y, binary_broadcast()),
    Spec("subtract", ("subtract",), lambda x, y: x - y, binary_broadcast()),
    Spec("multiply", ("multiply",), lambda x, y: x * y, binary_broadcast()),
    Spec("divide", ("divide",), lambda x, y: x / y, binary_broadcast(low2=0.5, high2=3.0)),
    Spec("power", ("power",), fnp.power, binary_broadcast(0.2, 3.0, -2.0, 2.0)),
    Spec("power_scalar_exponent", ("power",), lambda x, k: fnp.power(x * x + 0.5 if k in (-1.0, 0.5) else x, k), _int_power()),
    Spec("negative", ("negative",), lambda x: -x, unary()),
    Spec("sqrt", ("sqrt",), fnp.sqrt, unary(0.1, 4.0)),
    Spec("exp", ("exp",), fnp.exp, unary()),
    Spec("log", ("log",), fnp.log, unary(0.1, 5.0)),
    Spec("sin", ("sin",), fnp.sin, unary()),
    Spec("cos", ("cos",), fnp.cos, unary()),
    Spec("tanh", ("tanh",), fnp.tanh, unary()),
    Spec("absolute", ("absolute",), fnp.abs, unary(avoid=(0.0,), )),
    Spec("square", ("square",), fnp.square, unary()),
    Spec("maximum", ("maximum",), fnp.maximum, _no_ties()),
    Spec("minimum", ("minimum",), fnp.minimum, _no_ties()),
    Spec("where", ("where",), lambda x, y, cond: fnp.where(fnp.asarray(cond), x, y), _where_args()),
    Spec("convert_f32_roundtrip", ("convert_element_type",),
         lambda x: fnp.astype(fnp.astype(x, np.float32) * 2.0, np.float64), unary(),
         tol={"eps": 1e-2, "rtol": 1e-3, "atol": 1e-3}),
    Spec("safe_mul", ("safe_mul",), safe_mul, binary_broadcast()),
    Spec("sign", ("sign",), lambda x: fnp.sign(x) * x, unary(avoid=(0.0,))),
    Spec("comparisons", ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal"),
         lambda x, y: [x < y, x <= y, x > y, x >= y, x == y, x != y], binary_broadcast(), differentiable=False),
    Spec("logical", ("logical_not", "logical_and", "logical_or", "logical_xor"),
         lambda x, y: [fnp.logical_not(x > 0), fnp.logical_and(x > 0, y > 0),
                       fnp.logical_or(x > 0, y > 0), fnp.logical_xor(x > 0, y > 0)],
         binary_broadcast(), differentiable=False),
    Spec("bitwise", ("bitwise_and", "bitwise_or", "bitwise_xor", "invert"),
         lambda x, y: [fnp.astype(x > 0, np.int32) & fnp.astype(y > 0, np.int32),
                       (x > 0) | (y > 0), (x > 0) ^ (y > 0), ~fnp.astype(x > 0, np.int64)],
         binary_broadcast(), differentiable=False),
]

SPECS += [
    Spec("log1p", ("log1p",), fnp.log1p, unary(-0.9, 3.0)),
    Spec("expm1", ("expm1",), fnp.expm1, unary()),
    Spec("logaddexp", ("logaddexp",), fnp.logaddexp, binary_broadcast(-30.0, 30.0)),
    Spec("isnan_isinf_isfinite", ("isnan", "isinf", "isfinite"),
         lambda x: [fnp.isnan(x), fnp.isinf(x), fnp.isfinite(x)], unary(), differentiable=False),
]
