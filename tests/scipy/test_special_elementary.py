"""funcgrad.scipy.special's compositions (_special_elementary.py): values against scipy on a
grid with the edge values (0, negative, inf, nan), derivatives against central differences
to second order, and the poles/singular points where the compositions must stay smooth."""

import math

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.special as fsp
from funcgrad.testing import check_grads

ss = pytest.importorskip("scipy.special")

DEG = np.array([-720.0, -450, -315, -270, -180, -135, -90, -45, -30, -0.0, 0, 1e-20, 30, 45, 60, 90, 135, 180,
                225, 270, 315, 360, 405, 1e5 + 0.3, np.inf, -np.inf, np.nan])
REAL = np.array([-800.0, -200.5, -200, -171.5, -170, -5, -3.5, -3, -1, -0.5, -1e-300, 0, -0.0, 1e-20, 1e-3,
                 0.4999, 0.5, 1.5, 2.5, 3, 30, 171, 172, 709, 710, 800, np.inf, -np.inf, np.nan])
UNARY = [("cosdg", DEG), ("sindg", DEG), ("tandg", DEG), ("cotdg", DEG), ("cosm1", DEG / 40), ("exprel", REAL),
         ("softplus", REAL), ("cbrt", REAL), ("exp2", REAL), ("exp10", REAL / 3), ("log1p", REAL), ("expm1", REAL),
         ("rgamma", REAL), ("loggamma", REAL), ("round", REAL), ("sinc", REAL)]


@pytest.mark.parametrize("name, x", UNARY, ids=[u[0] for u in UNARY])
def test_unary_values_match_scipy(name, x):
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(x)
    np.testing.assert_allclose(np.asarray(getattr(fsp, name)(x)), want, rtol=1e-12, atol=1e-300, equal_nan=True)


_V = np.array([-2.0, -1, -0.5, 0, 0.5, 1, 2, np.inf, -np.inf, np.nan])
BINARY = ["kl_div", "boxcox", "boxcox1p", "inv_boxcox", "inv_boxcox1p", "powm1", "huber", "pseudo_huber"]


# where scipy's value is an artefact of overflow handling, funcgrad gives the limit
DEVIATIONS = {"powm1": [(0.5, -np.inf, np.inf)]}  # 0.5**-inf - 1 = inf (scipy: 0)


@pytest.mark.parametrize("name", BINARY)
def test_binary_values_match_scipy_on_an_edge_grid(name):
    a, b = np.meshgrid(_V, _V, indexing="ij")
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(a, b)
    for x, y, value in DEVIATIONS.get(name, ()):
        want[(a == x) & (b == y)] = value
    np.testing.assert_allclose(np.asarray(getattr(fsp, name)(a, b)), want, rtol=1e-12, atol=1e-300, equal_nan=True)


def test_combinatorics_match_scipy():
    n, k = np.meshgrid(np.array([-1.0, 0, 2.5, 4, 7, np.nan]), np.array([-1.0, 0, 1, 2.5, 4, 8]), indexing="ij")
    for name in ("comb", "perm"):
        np.testing.assert_allclose(np.asarray(getattr(fsp, name)(n, k)), getattr(ss, name)(n, k), rtol=1e-12,
                                   equal_nan=True, err_msg=name)
    np.testing.assert_allclose(np.asarray(fsp.comb(n, k, repetition=True)), ss.comb(n, k, repetition=True),
                               rtol=1e-12, equal_nan=True)
    x = np.array([-2.0, -0.5, 0, 0.5, 3, 20, 171, np.nan])
    np.testing.assert_allclose(np.asarray(fsp.factorial(x)), ss.factorial(x), rtol=1e-12, equal_nan=True)
    with pytest.raises(ValueError, match="exact=True"):
        fsp.factorial(3, exact=True)


GRADS = [("exprel", [-3.0, -1e-3, 0.0, 2e-3, 1.5]), ("softplus", [-30.0, -1.0, 0.0, 2.0, 40.0]),
         ("cosm1", [-1.0, 0.0, 1e-4, 2.0]), ("cosdg", [-100.0, 0.0, 45.0, 90.0, 200.0]),
         ("sindg", [-100.0, 0.0, 30.0, 90.0]), ("tandg", [-30.0, 0.0, 45.0, 100.0]), ("cotdg", [-30.0, 45.0, 100.0]),
         ("rgamma", [-3.7, -2.0, -1.0, 0.0, 0.3, 0.5, 2.5, 6.0]), ("loggamma", [0.3, 2.5]),
         ("exp10", [-1.0, 0.5]), ("exp2", [-1.0, 0.5]), ("cbrt", [-2.0, 0.5]), ("factorial", [0.5, 3.0])]


@pytest.mark.parametrize("name, x", GRADS, ids=[g[0] for g in GRADS])
def test_unary_derivatives(name, x):
    check_grads(getattr(fsp, name), (fnp.asarray(np.array(x)),), order=2)


BINARY_GRADS = [("kl_div", [0.3, 2.0], [1.5, 0.4]), ("boxcox", [0.4, 2.5], [-0.7, 0.0]),
                ("boxcox", [1.3, 3.0], [1e-12, 1.5]), ("boxcox1p", [0.4, -0.3], [0.0, 1.5]),
                ("inv_boxcox", [0.4, -0.3], [0.0, 1.5]), ("inv_boxcox1p", [0.4, 1.3], [1e-9, -0.5]),
                ("powm1", [0.4, 2.5], [-0.7, 1e-8]), ("huber", [1.0, 0.5], [0.3, -2.0]),
                ("pseudo_huber", [1.0, 0.5], [0.3, -2.0]), ("comb", [5.5, 7.0], [2.0, 3.3]),
                ("perm", [5.5, 7.0], [2.0, 3.3]), ("radian", None, None)]


@pytest.mark.parametrize("name, a, b", BINARY_GRADS, ids=[f"{g[0]}-{i}" for i, g in enumerate(BINARY_GRADS)])
def test_binary_derivatives(name, a, b):
    if name == "radian":
        check_grads(fsp.radian, (fnp.asarray([10.0, -3.0]), fnp.asarray([20.0, 5.0]), fnp.asarray([1.0, 30.0])))
        return
    check_grads(getattr(fsp, name), (fnp.asarray(a), fnp.asarray(b)), order=2)


def test_rgamma_is_entire_through_the_poles():
    """1/gamma is 0 at 0, -1, -2, ... with derivative (-1)^n n! there (every order finite)."""
    for n in range(5):
        assert float(fsp.rgamma(-float(n))) == 0.0
        g = fg.grad(fsp.rgamma)(-float(n))
        assert float(g) == pytest.approx((-1) ** n * math.factorial(n), rel=1e-12)
        assert np.isfinite(float(fg.grad(fg.grad(fsp.rgamma))(-float(n))))
    # agreement with 1/gamma's own derivative -digamma/gamma away from the poles
    x = np.array([-2.5, -0.3, 0.7, 4.2])
    g = fg.vmap(fg.grad(fsp.rgamma))(fnp.asarray(x))
    np.testing.assert_allclose(np.asarray(g), -ss.digamma(x) / ss.gamma(x), rtol=1e-11)


def test_boxcox_is_smooth_at_lambda_zero():
    """d/dlambda boxcox(x, 0) = log(x)^2 / 2, the limit of the lambda != 0 formula."""
    g = fg.grad(lambda lam: fsp.boxcox(3.0, lam))(0.0)
    assert float(g) == pytest.approx(math.log(3.0) ** 2 / 2, rel=1e-12)
    assert float(fg.grad(fsp.exprel)(0.0)) == pytest.approx(0.5, rel=1e-14)
    # d/dlambda (1 + lambda y)^(1/lambda) at 0: -y^2/2 e^y
    assert float(fg.grad(fsp.inv_boxcox, argnums=1)(2.0, 0.0)) == pytest.approx(-2.0 * math.exp(2.0), rel=1e-12)


def test_float32_0d_and_out():
    x = fnp.asarray(np.array([0.5, 2.0], np.float32))
    for f in (fsp.exprel, fsp.rgamma, fsp.cosdg, fsp.softplus, lambda v: fsp.boxcox(v, np.float32(0.3)),
              lambda v: fsp.kl_div(v, v + 1), lambda v: fsp.huber(np.float32(1.0), v)):
        assert f(x).dtype == np.float32
    assert fsp.rgamma(2.0).shape == () and fsp.kl_div(1.0, 2.0).shape == ()
    assert fsp.boxcox(np.ones((3, 1)), np.zeros(4)).shape == (3, 4)
    with pytest.raises(TypeError, match="out="):
        fsp.kl_div(1.0, 2.0, out=np.empty(()))
