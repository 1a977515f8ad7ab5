"""funcgrad.numpy reductions: numpy semantics and the documented derivative rules."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp


def test_max_min_match_numpy():
    x = np.array([[1.0, 5.0, 2.0], [7.0, -1.0, 7.0]])
    for axis in (None, 0, 1, -1, (0, 1)):
        for keepdims in (False, True):
            assert np.array_equal(fnp.max(x, axis=axis, keepdims=keepdims), np.max(x, axis=axis, keepdims=keepdims))
            assert np.array_equal(fnp.min(x, axis=axis, keepdims=keepdims), np.min(x, axis=axis, keepdims=keepdims))
    assert float(fnp.max(x, initial=10.0)) == 10.0
    assert np.array_equal(fnp.max(x, axis=1, where=x < 6, initial=-5.0), np.max(x, axis=1, where=x < 6, initial=-5.0))
    assert np.array_equal(fnp.argmax(x, axis=1), np.argmax(x, axis=1))
    assert int(fnp.argmin(x)) == int(np.argmin(x))
    assert fnp.asarray(x).max(axis=0).shape == (3,)


def test_max_errors_as_numpy():
    with pytest.raises(ValueError, match="zero-size array"):
        fnp.max(fnp.zeros((0, 3)), axis=0)
    with pytest.raises(np.exceptions.AxisError):
        fnp.max(fnp.zeros((2, 3)), axis=2)
    with pytest.raises(ValueError, match="initial"):
        fnp.max(fnp.ones(3), where=fnp.ones(3) > 0)
    with pytest.raises(ValueError, match="empty sequence"):
        fnp.argmax(fnp.zeros(0))


def test_max_ties_split_the_gradient_evenly():
    g = fg.grad(lambda v: fnp.max(v))(fnp.asarray([1.0, 3.0, 3.0, 2.0]))
    assert np.array_equal(g, [0.0, 0.5, 0.5, 0.0])
    g = fg.grad(lambda v: fnp.sum(fnp.min(v, axis=1)))(fnp.asarray([[1.0, 1.0, 1.0], [0.0, 2.0, 3.0]]))
    assert np.allclose(g, [[1 / 3, 1 / 3, 1 / 3], [1.0, 0.0, 0.0]])
    # forward mode gives the transposed rule: the average of the tied tangents
    _, t = fg.jvp(lambda v: fnp.max(v), (fnp.asarray([3.0, 3.0]),), (fnp.asarray([1.0, 0.0]),))
    assert float(t) == 0.5


def test_elementwise_maximum_ties_split_half_half():
    ga, gb = fg.grad(lambda a, b: fnp.maximum(a, b), argnums=(0, 1))(2.0, 2.0)
    assert (float(ga), float(gb)) == (0.5, 0.5)


def test_logaddexp_is_stable_for_huge_inputs():
    g = fg.grad(lambda a: fnp.logaddexp(a, 1000.0))(1000.0)
    assert np.isclose(g, 0.5)
    g = fg.grad(lambda a: fnp.logaddexp(a, -1e5))(1e5)
    assert float(g) == 1.0
    g = fg.grad(lambda a: fnp.logaddexp(a, -np.inf))(-np.inf)
    assert np.isfinite(float(g))


def test_sum_mean_dtypes_and_axes():
    x = fnp.arange(6).reshape(2, 3)
    assert fnp.sum(x).dtype == np.sum(np.arange(6)).dtype
    assert fnp.mean(x).dtype == np.float64
    assert np.allclose(fnp.mean(x, axis=-1), [1.0, 4.0])
    assert fnp.sum(fnp.ones((2, 3), dtype=np.float32), axis=(0, -1), keepdims=True).shape == (1, 1)
    with pytest.raises(ValueError, match="duplicate"):
        fnp.sum(x, axis=(0, -2))
