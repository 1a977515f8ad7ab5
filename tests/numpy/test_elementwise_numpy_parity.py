"""Property test: elementwise functions give numpy's values and dtypes for every pair of
operand dtypes (bool, small and large ints, float32/64, Python scalars) and broadcast
shapes, including 0-d and empty arrays."""

import warnings

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given, settings

import funcgrad.numpy as fnp
from funcgrad.testing import strategies as fst

DTYPES = [np.bool_, np.uint8, np.int32, np.int64, np.float32, np.float64]
UNARY = ["negative", "abs", "sqrt", "exp", "log", "sin", "cos", "tan", "tanh", "arcsin", "arctan", "sinh",
         "arcsinh", "exp2", "log2", "log10", "log1p", "expm1", "cbrt", "square", "sign", "floor", "ceil",
         "rint", "trunc", "deg2rad", "rad2deg", "isnan", "isfinite", "signbit", "sinc", "real", "imag",
         "conj", "angle", "reciprocal"]
BINARY = ["add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "fmax", "fmin",
          "arctan2", "hypot", "logaddexp", "logaddexp2", "remainder", "fmod", "floor_divide",
          "copysign", "heaviside", "float_power", "less", "equal", "logical_and"]


def _operand(draw, shape):
    kind = draw(st.sampled_from(DTYPES + ["int", "float"]))
    if kind == "int":
        return draw(st.integers(1, 3))
    if kind == "float":
        return draw(st.floats(0.1, 3.0))
    elements = st.integers(1, 3) if np.dtype(kind).kind in "iu" else None
    if np.dtype(kind).kind == "f":
        elements = fst.floats(0.125, 3.0, width=np.dtype(kind).itemsize * 8)
    return draw(fst.host_arrays(shape, kind, elements))


@st.composite
def _binary_case(draw):
    s1, s2 = draw(fst.mutually_broadcastable_shapes(2))
    return _operand(draw, s1), _operand(draw, s2)


def _compare(name, fn_np, fn_fg, args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            want = fn_np(*args)
        except TypeError as e:  # numpy has no loop for these dtypes: funcgrad raises too
            with pytest.raises(TypeError):
                fn_fg(*args)
            return e
        got = fn_fg(*args)
    want = np.asarray(want)
    assert tuple(got.shape) == want.shape, name
    assert got.dtype == want.dtype, (name, [getattr(a, "dtype", type(a)) for a in args], got.dtype, want.dtype)
    tol = 1e-3 if want.dtype in (np.float16, np.float32) else 1e-10
    assert np.allclose(np.asarray(got), want, rtol=tol, atol=tol, equal_nan=True), name
    return None


@pytest.mark.parametrize("name", BINARY)
@settings(max_examples=12)
@given(case=_binary_case())
def test_binary_matches_numpy(name, case):
    _compare(name, getattr(np, name), getattr(fnp, name), case)


@pytest.mark.parametrize("name", UNARY)
@settings(max_examples=12)
@given(data=st.data())
def test_unary_matches_numpy(name, data):
    x = _operand(data.draw, data.draw(fst.shapes()))
    if name == "conj" and np.result_type(x) == np.bool_:
        return  # numpy's conjugate of bools is int8 (no bool loop); funcgrad returns the bools
    _compare(name, getattr(np, name), getattr(fnp, name), (x,))
