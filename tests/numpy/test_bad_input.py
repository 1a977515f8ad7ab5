"""Bad input to funcgrad.numpy, generated: wrong axes, shapes, dtypes, orders, integer keywords,
Python objects, NaN/inf and empty sizes.  numpy is the oracle: where numpy raises, funcgrad
raises the same class of exception (naming the argument for the mistakes _validate.py checks);
where numpy returns, funcgrad returns the same value — never a value where numpy raises.  The
one refusal allowed: numpy falling back to an object array, which funcgrad arrays cannot hold."""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import funcgrad.numpy as fnp

_CLASSES = (np.exceptions.AxisError, OverflowError, ZeroDivisionError, IndexError, TypeError, ValueError)


def _outcome(call, module):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return call(module), None
        except Exception as e:  # noqa: BLE001 - the oracle's exception is the point
            return None, e


def check_like_numpy(call, names=(), huge_int=False):
    """``call(np)`` and ``call(fnp)`` agree: the same exception class, or equal results."""
    want, ref = _outcome(call, np)
    got, err = _outcome(call, fnp)
    if huge_int and isinstance(err, (OverflowError, TypeError)):
        return  # numpy computes on Python objects here; funcgrad refuses (its arrays hold numbers)
    if isinstance(err, TypeError) and "not a bool" in str(err) and any(f"'{n}'" in str(err) for n in names):
        return  # a bool axis: numpy takes it as 0/1 in some functions, refuses it in others; funcgrad refuses
    if isinstance(err, TypeError) and "got str" in str(err) and any(f"'{n}'" in str(err) for n in names):
        return  # a string axis: numpy iterates '' as "no axes" in the functions that accept sequences of axes;
        # funcgrad refuses strings everywhere (docs/numpy.md)
    if ref is not None:
        cls = next((c for c in _CLASSES if isinstance(ref, c)), Exception)
        assert err is not None, f"numpy raises {type(ref).__name__}: {ref}; funcgrad returned {got!r}"
        assert isinstance(err, cls), f"numpy raises {type(ref).__name__} ({ref}); funcgrad {type(err).__name__}: {err}"
        if isinstance(err, TypeError) and "must be an integer" in str(err):
            assert any(f"'{n}'" in str(err) for n in names), f"the message does not name the argument: {err}"
        return
    if err is not None:
        assert np.asarray(want).dtype.kind in "OSUV" and isinstance(err, (TypeError, OverflowError)), (
            f"numpy returns {want!r}; funcgrad raises {type(err).__name__}: {err}")
        return
    want, got = np.asarray(want), np.asarray(got)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=0, equal_nan=True)


# --- strategies -------------------------------------------------------------------------------

special = st.sampled_from([0.0, -0.0, 1.5, -2.0, np.nan, np.inf, -np.inf])
small_shapes = st.lists(st.integers(0, 3), min_size=0, max_size=3).map(tuple)


@st.composite
def arrays(draw, shape=small_shapes):
    s = draw(shape)
    return np.array(draw(st.lists(special, min_size=int(np.prod(s)), max_size=int(np.prod(s)))),
                    dtype=np.float64).reshape(s)


axis_like = st.one_of(
    st.none(), st.integers(-5, 5), st.booleans(), st.floats(-3, 3), st.text(max_size=2),
    st.tuples(st.integers(-4, 4), st.integers(-4, 4)), st.lists(st.integers(-3, 3), max_size=3),
    st.tuples(st.floats(0, 2)), st.just(np.int32(1)), st.just(np.float64(1.0)),
)
shape_like = st.one_of(
    st.integers(-2, 4), st.floats(-1, 3), st.text(max_size=2), st.none(), st.booleans(),
    st.lists(st.one_of(st.integers(-2, 3), st.floats(0, 3), st.just("2"), st.just(np.int64(2))), max_size=3).map(tuple),
)
dtype_like = st.sampled_from(
    [None, "foo", "float64", np.float32, "i4", np.int64, np.uint16, bool, complex, "complex64", 1.5, "f9", "float"])
order_like = st.sampled_from(["C", "F", "A", "K", "c", "f", "Q", "", None, 1, "CF"])
HUGE_INTS = (2 ** 70, -(2 ** 64))
python_objects = st.sampled_from([None, "abc", object(), [1, [2, 3]], {1: 2}, 1 + 2j, True, [], [[]], (1.0, 2.0),
                                  [np.nan, np.inf], *HUGE_INTS, b"x"])

AXIS_FUNCS = ["sum", "mean", "prod", "max", "min", "argmax", "argmin", "cumsum", "cumprod", "std", "var", "all",
              "any", "nansum", "nanmean", "count_nonzero", "median", "ptp", "sort", "argsort", "flip", "squeeze"]


@given(a=arrays(), axis=axis_like, name=st.sampled_from(AXIS_FUNCS))
def test_axis(a, axis, name):
    check_like_numpy(lambda m: getattr(m, name)(a, axis=axis), ("axis",))


@given(a=arrays(), axis=axis_like)
def test_axis_of_expand_dims_concatenate_and_keepdims(a, axis):
    check_like_numpy(lambda m: m.expand_dims(a, axis), ("axis",))
    check_like_numpy(lambda m: m.concatenate([a, a], axis=axis), ("axis",))
    check_like_numpy(lambda m: m.sum(a, axis=axis, keepdims=True), ("axis",))


@given(shape=shape_like, name=st.sampled_from(["zeros", "ones", "empty"]))
def test_creation_shape(shape, name):
    call = (lambda m: m.zeros(shape) * 0) if name == "empty" else (lambda m: getattr(m, name)(shape))
    check_like_numpy(call, ("shape",))
    check_like_numpy(lambda m: m.full(shape, 2.5), ("shape",))


@given(a=arrays(st.sampled_from([(6,), (2, 3), (0,), (1, 6)])), shape=shape_like)
def test_reshape_shape(a, shape):
    check_like_numpy(lambda m: m.reshape(a, shape), ("shape",))


@given(dtype=dtype_like, a=arrays())
def test_dtype(dtype, a):
    check_like_numpy(lambda m: m.zeros(2, dtype=dtype))
    check_like_numpy(lambda m: m.asarray([1.0, 2.0], dtype=dtype))
    check_like_numpy(lambda m: m.sum(np.abs(np.nan_to_num(a)), dtype=dtype))
    check_like_numpy(lambda m: m.cumsum(np.nan_to_num(a), dtype=dtype))


@given(order=order_like, a=arrays())
def test_order(order, a):
    check_like_numpy(lambda m: m.ravel(a, order=order))
    check_like_numpy(lambda m: m.zeros((2, 2), order=order))
    check_like_numpy(lambda m: m.ones_like(a, order=order))
    if a.size == 6:
        check_like_numpy(lambda m: m.reshape(a, (3, 2), order=order))


@given(a=arrays(), decimals=st.one_of(st.integers(-3, 3), st.floats(-2, 2), st.text(max_size=1), st.none()))
def test_integer_keywords(a, decimals):
    check_like_numpy(lambda m: m.round(a, decimals=decimals), ("decimals",))


@given(obj=python_objects, name=st.sampled_from(["sin", "sqrt", "negative", "sum", "mean", "asarray", "abs",
                                                 "invert", "sign"]))
def test_python_objects_as_arrays(obj, name):
    check_like_numpy(lambda m: getattr(m, name)(obj), huge_int=obj in HUGE_INTS)


@given(obj=python_objects, a=arrays())
def test_python_objects_as_operands_and_fill_values(obj, a):
    check_like_numpy(lambda m: m.add(a, obj), huge_int=obj in HUGE_INTS)
    check_like_numpy(lambda m: m.full(2, obj), huge_int=obj in HUGE_INTS)


@given(a=arrays(), name=st.sampled_from(AXIS_FUNCS + ["nanmax", "nanmin"]))
def test_special_values_and_empty_sizes(a, name):
    check_like_numpy(lambda m: getattr(m, name)(a))


def test_the_oracle_catches_a_value_where_numpy_raises():
    with pytest.raises(AssertionError, match="funcgrad returned"):
        check_like_numpy(lambda m: m.sum(np.ones(2), axis=1.0) if m is np else 3.0)
