"""funcgrad.numpy.emath against numpy.emath: values and dtypes (complex exactly where numpy's
are), derivatives against central differences."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

INPUTS = [np.array([4.0, 2.0]), np.array([-4.0, 2.0]), np.array([-4.0, 2.0], np.float32), np.array([0.5, -0.3]),
          np.array([1.5, 0.2]), np.array([-2, 3]), np.float64(-1.0), 3.0, np.array([1 + 1j, -2]),
          np.zeros((0, 2)), np.array([[-0.5, 2.5]])]


def _same(r, e):
    r = np.asarray(r)
    e = np.asarray(e)
    assert r.shape == e.shape and r.dtype == e.dtype, (r.shape, e.shape, r.dtype, e.dtype)
    np.testing.assert_allclose(r, e, rtol=1e-6)


@pytest.mark.parametrize("x", INPUTS, ids=range(len(INPUTS)))
def test_unary_match_numpy(x):
    with np.errstate(all="ignore"):
        for name in ("sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"):
            _same(getattr(fnp.emath, name)(x), getattr(np.emath, name)(x))
        _same(fnp.emath.logn(2, x), np.emath.logn(2, x))
        _same(fnp.emath.logn(-2, x), np.emath.logn(-2, x))


def test_power_matches_numpy():
    for x, p in [([2.0, -2.0], 2), ([2.0, 4.0], -2), (np.array([2, 4]), np.array([-1, 2])), ([-8.0], 1 / 3), (2, 3)]:
        _same(fnp.emath.power(x, p), np.emath.power(x, p))


def test_derivatives():
    check_grads(lambda x: fnp.real(fnp.emath.sqrt(x)), (np.array([-4.0, 2.0]),))
    check_grads(lambda x: fnp.imag(fnp.emath.log(x)) + fnp.real(fnp.emath.log(x)), (np.array([-4.0, 2.0]),))
    check_grads(lambda x: fnp.real(fnp.emath.arcsin(x)), (np.array([0.3, -0.6]),))
    g = fg.grad(lambda x: fnp.imag(fnp.emath.sqrt(x)))(-4.0)
    np.testing.assert_allclose(g, -1 / (2 * np.sqrt(4.0)))  # d/dx sqrt(-x) * 1j = -1/(2 sqrt(-x)) (imag part)
    with pytest.raises(TypeError, match="concrete"):
        fg.vmap(fnp.emath.sqrt)(np.array([1.0, -1.0]))
