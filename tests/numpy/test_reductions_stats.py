"""funcgrad.numpy prod, cumsum/cumprod, var/std, median, average, all/any, nan*: numpy
semantics and the documented derivative rules at special points."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

X = np.array([[1.0, 2.0, 0.0], [3.0, 0.0, 0.0], [0.5, -2.0, 3.0]])


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_values_match_numpy(axis, keepdims):
    for name in ("prod", "var", "std", "median", "all", "any", "nansum", "nanmean", "ptp", "sum", "mean"):
        got = getattr(fnp, name)(X, axis=axis, keepdims=keepdims)
        want = getattr(np, name)(X, axis=axis, keepdims=keepdims)
        assert got.shape == np.shape(want) and np.allclose(got, want), name
    assert np.array_equal(fnp.count_nonzero(X, axis=axis, keepdims=keepdims),
                          np.count_nonzero(X, axis=axis, keepdims=keepdims))


def test_prod_gradient_with_one_and_several_zeros():
    assert np.array_equal(fg.grad(fnp.prod)(np.array([2.0, 0.0, 3.0])), [0.0, 6.0, 0.0])
    assert np.array_equal(fg.grad(fnp.prod)(np.array([0.0, 0.0, 3.0])), [0.0, 0.0, 0.0])
    # second derivatives at zeros: d2/dx0 dx1 prod = x2 = 3
    h = fg.grad(lambda v: fg.grad(fnp.prod)(v)[1])(np.array([0.0, 0.0, 3.0]))
    assert np.array_equal(h, [3.0, 0.0, 0.0])
    check_grads(lambda v: fnp.prod(v, axis=1), (X,), order=3)


def test_cumprod_gradient_with_zeros():
    x = np.array([2.0, 0.0, 3.0, 0.0, 4.0])
    check_grads(fnp.cumprod, (x,), order=3)
    g = fg.grad(lambda v: fnp.sum(fnp.cumprod(v)))(x)
    assert np.allclose(g, [1.0, 2.0 + 6.0, 0.0, 0.0, 0.0])
    assert np.array_equal(fnp.cumprod(X, axis=0), np.cumprod(X, axis=0))
    assert np.array_equal(fnp.cumsum(X), np.cumsum(X))
    assert fnp.cumsum(np.arange(3, dtype=np.int32)).dtype == np.cumsum(np.arange(3, dtype=np.int32)).dtype


def test_std_var_at_constant_input_and_ddof():
    c = np.full(4, 2.5)
    assert np.array_equal(fg.grad(fnp.std)(c), np.zeros(4))
    assert np.array_equal(fg.grad(fnp.var)(c), np.zeros(4))
    _, t = fg.jvp(fnp.std, (c,), (np.ones(4),))
    assert float(t) == 0.0
    y = np.arange(6.0).reshape(2, 3) ** 2
    for ddof in (0, 1, 2):
        assert np.allclose(fnp.var(y, axis=1, ddof=ddof), np.var(y, axis=1, ddof=ddof))
        assert np.allclose(fnp.std(y, ddof=ddof), np.std(y, ddof=ddof))
    assert np.allclose(fnp.var(y, correction=1), np.var(y, ddof=1))
    assert fnp.std(np.ones(3, np.float32)).dtype == np.float32
    assert fnp.var(np.arange(4)).dtype == np.float64
    mask = np.array([[True, False, True], [True, True, False]])
    assert np.allclose(fnp.var(y, axis=1, where=mask), np.var(y, axis=1, where=mask))


def test_median_even_count_and_gradient():
    x = np.array([3.0, 1.0, 4.0, 2.0])
    assert float(fnp.median(x)) == 2.5
    assert np.array_equal(fg.grad(fnp.median)(x), [0.5, 0.0, 0.0, 0.5])
    assert np.array_equal(fg.grad(fnp.median)(np.array([3.0, 1.0, 2.0])), [0.0, 0.0, 1.0])
    # ties share evenly: the middle value 2 appears twice
    assert np.array_equal(fg.grad(fnp.median)(np.array([2.0, 1.0, 2.0])), [0.5, 0.0, 0.5])
    assert fnp.median(np.arange(4)).dtype == np.float64


def test_average():
    a = np.arange(6.0).reshape(2, 3)
    w = np.array([1.0, 2.0, 3.0])
    avg, scl = fnp.average(a, axis=1, weights=w, returned=True)
    wavg, wscl = np.average(a, axis=1, weights=w, returned=True)
    assert np.allclose(avg, wavg) and np.allclose(scl, wscl)
    assert np.allclose(fnp.average(a), np.average(a))
    check_grads(lambda a, w: fnp.average(a, axis=1, weights=w), (a, w), order=2)
    with pytest.raises(TypeError, match="Axis must be specified"):
        fnp.average(a, weights=w)
    with pytest.raises(ZeroDivisionError):
        fnp.average(a, axis=1, weights=np.zeros(3))


def test_nan_reductions():
    x = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan]])
    with np.errstate(invalid="ignore"), pytest.warns(RuntimeWarning):
        for name in ("nanmax", "nanmin", "nanmean"):
            assert np.allclose(getattr(fnp, name)(x, axis=1), getattr(np, name)(x, axis=1), equal_nan=True), name
    assert np.allclose(fnp.nansum(x, axis=1), np.nansum(x, axis=1))
    assert np.allclose(fnp.nanprod(x, axis=1), np.nanprod(x, axis=1))
    g = fg.grad(lambda v: fnp.nansum(v))(x)
    assert np.array_equal(g, ~np.isnan(x) * 1.0)
    g = fg.grad(lambda v: fnp.nanmean(v[0]))(x)
    assert np.allclose(g[0], [0.5, 0.0, 0.5])


def test_all_any_count():
    assert bool(fnp.all([])) and not bool(fnp.any([]))
    assert np.array_equal(fnp.any(X > 2, axis=0), np.any(X > 2, axis=0))
    assert fnp.all(X, axis=1).dtype == np.bool_
    assert np.array_equal(fnp.all(X, axis=1, where=X != 0), np.all(X, axis=1, where=X != 0))


def test_errors_as_numpy():
    with pytest.raises(np.exceptions.AxisError):
        fnp.prod(X, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        fnp.cumsum(X, axis=-3)
    with pytest.raises(np.exceptions.AxisError):
        fnp.median(X, axis=5)
    with pytest.raises(ValueError, match="correction"):
        fnp.var(X, ddof=1, correction=1)


def test_float32_stays_float32():
    x = np.array([1.0, 2.0, 3.0], np.float32)
    for name in ("prod", "var", "std", "median", "cumsum", "cumprod", "nansum", "nanmean"):
        assert getattr(fnp, name)(x).dtype == np.float32, name
    assert fg.grad(fnp.prod)(x).dtype == np.float32


def test_prod_cumprod_fast_and_exact_paths_agree():
    # concrete inputs without zeros use ans / x; traced ones (higher order) the exact rule
    x = np.array([[1.5, -2.0, 0.5], [3.0, 0.25, -1.0]])
    for f in (lambda v: fnp.sum(fnp.prod(v, axis=1)), lambda v: fnp.sum(fnp.cumprod(v, axis=1) ** 2)):
        fast = fg.grad(f)(x)
        exact = fg.jvp(lambda v: fg.grad(f)(v), (x,), (np.zeros_like(x),))[0]
        assert np.allclose(fast, exact, rtol=1e-13)
    tiny = np.array([1e-310, 2.0])  # 1 / x overflows: the exact rule is used
    assert np.array_equal(fg.grad(fnp.prod)(tiny), [2.0, 1e-310])
    _, t = fg.jvp(fnp.cumprod, (tiny,), (np.ones(2),))
    assert np.all(np.isfinite(t))
