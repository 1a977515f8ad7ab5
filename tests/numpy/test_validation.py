"""funcgrad.numpy's argument validation (_validate.py): numpy's exception classes for bad axes,
shapes, orders and keyword types, and the arguments numpy honours (order='F', dtype=)."""

import numpy as np
import pytest

import funcgrad.numpy as fnp

X = np.arange(6.0).reshape(2, 3)


@pytest.mark.parametrize("axis", [1.0, "1", True, np.float64(0)])
@pytest.mark.parametrize("name", ["sum", "mean", "max", "argmax", "cumsum", "prod", "std", "all", "squeeze",
                                  "expand_dims"])
def test_a_non_integer_axis_is_a_type_error_as_numpy(name, axis):
    a = X[:1] if name == "squeeze" else X
    try:
        want = getattr(np, name)(a, axis=axis)
    except TypeError:
        with pytest.raises(TypeError, match="'axis' must be an integer"):
            getattr(fnp, name)(fnp.asarray(a), axis=axis)
    else:  # numpy takes a bool axis as an int in some functions
        np.testing.assert_array_equal(getattr(fnp, name)(fnp.asarray(a), axis=axis), want)


def test_an_axis_out_of_range_is_numpys_axis_error_naming_the_function():
    with pytest.raises(np.exceptions.AxisError, match="sum: axis 5 is out of bounds for array of dimension 2"):
        fnp.sum(fnp.asarray(X), axis=5)
    with pytest.raises(np.exceptions.AxisError):
        fnp.concatenate([X, X], axis=-3)
    assert fnp.sum(fnp.asarray(X), axis=np.int64(-1)).shape == (2,)


@pytest.mark.parametrize("shape", [2.0, (2, 2.0), "2", ("a",), None])
@pytest.mark.parametrize("name", ["zeros", "ones", "empty"])
def test_a_non_integer_shape_is_a_type_error(name, shape):
    with pytest.raises(TypeError):
        getattr(np, name)(shape)
    with pytest.raises(TypeError, match=f"{name}\\(\\): 'shape' must be an integer"):
        getattr(fnp, name)(shape)


def test_negative_shapes_and_reshape_sizes():
    with pytest.raises(ValueError, match="negative dimensions"):
        fnp.zeros((2, -1))
    with pytest.raises(TypeError):
        fnp.reshape(fnp.asarray(X), (3.0, 2))
    with pytest.raises(TypeError):
        fnp.full((2.5,), 1.0)
    assert fnp.reshape(fnp.asarray(X), (-1, 2)).shape == (3, 2)


@pytest.mark.parametrize("order", ["F", "f", "A", "K", "C"])
def test_ravel_flatten_reshape_honour_order(order):
    a = fnp.asarray(X)
    ref = np.ravel(X, order="F" if order in "Ff" else "C")
    np.testing.assert_array_equal(fnp.ravel(a, order=order), ref)
    np.testing.assert_array_equal(a.ravel(order), ref)
    np.testing.assert_array_equal(a.flatten(order=order), ref)
    if order.upper() in "CFA":
        want = np.reshape(X, (3, 2), order="F" if order in "Ff" else "C")
        np.testing.assert_array_equal(fnp.reshape(a, (3, 2), order=order), want)
        np.testing.assert_array_equal(a.reshape(3, 2, order=order), want)


def test_fortran_reshape_is_differentiable():
    import funcgrad as fg

    w = np.arange(6.0).reshape(3, 2)
    g = fg.grad(lambda x: fnp.sum(fnp.reshape(x, (3, 2), order="F") * w))(fnp.asarray(X))
    np.testing.assert_array_equal(g, np.reshape(w, (2, 3), order="F"))


@pytest.mark.parametrize("call", [
    lambda m: m.ravel(X, order="Q"), lambda m: m.zeros(2, order="K"), lambda m: m.ones(2, order=1),
    lambda m: m.zeros_like(X, order="Z"), lambda m: m.reshape(X, (3, 2), order="K"),
])
def test_a_bad_order_is_numpys_error(call):
    with pytest.raises((ValueError, TypeError)) as ref:
        call(np)
    with pytest.raises(type(ref.value), match="order must be"):
        call(fnp)


def test_keyword_types():
    with pytest.raises(TypeError, match="'decimals' must be an integer"):
        fnp.round(fnp.asarray(X), decimals=1.5)
    with pytest.raises(TypeError, match="fill_value=None is not a number"):
        fnp.full(2, None)
    with pytest.raises(TypeError, match="fill_value='a' is not a number"):
        fnp.full_like(fnp.asarray(X), "a")
    np.testing.assert_array_equal(fnp.round(fnp.asarray(X) / 7, decimals=np.int32(2)), np.round(X / 7, 2))


@pytest.mark.parametrize("name", ["sum", "nansum", "mean", "nanmean", "prod", "nanprod", "std", "var",
                                  "cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_dtype_is_honoured(name, dtype):
    if name in ("std", "var") and dtype == np.complex128:
        pytest.skip("numpy returns a complex std/var (zero imaginary part) here; funcgrad a real one")
    want = getattr(np, name)(X, dtype=dtype)
    got = getattr(fnp, name)(fnp.asarray(X), dtype=dtype)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("name", ["sum", "mean", "cumsum", "max", "std", "add", "sin", "concatenate"])
def test_out_is_refused_with_a_clear_error(name):
    fn = getattr(fnp, name)
    args = {"add": (X, X), "concatenate": ([X, X],)}.get(name, (X,))
    name = "maximum" if name == "max" else name  # numpy's name for the max reduction
    with pytest.raises(TypeError, match=f"{name}: the 'out' argument is not supported: funcgrad arrays are immutable"):
        fn(*args, out=np.zeros(1))


def test_comparison_with_none_is_elementwise_as_numpy():
    a = fnp.asarray(X)
    np.testing.assert_array_equal(a == None, X == None)  # noqa: E711
    np.testing.assert_array_equal(a != None, X != None)  # noqa: E711
    assert (a == None).dtype == np.bool_ and (a == None).shape == (2, 3)  # noqa: E711


def test_index_assignment_with_none_is_refused():
    with pytest.raises(TypeError, match="NoneType"):
        fnp.zeros(3).at[0].set(None)
