"""funcgrad.scipy.special's multi-result and elliptic/spherical/Struve functions
(_special_multi.py): values against scipy with edge values, derivatives against central
differences to second order (including through the removable singularities)."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.special as fsp
from funcgrad.testing import check_grads

ss = pytest.importorskip("scipy.special")

X = np.array([-3.0, -1, -0.0, 0, 1e-300, 0.3, 0.999, 1, 2.5, 30, np.inf, -np.inf, np.nan])


def _close(got, want):
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-300, equal_nan=True)


@pytest.mark.parametrize("name", ["sici", "shichi", "fresnel", "airy"])
def test_multi_result_values(name):
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(X)
    got = getattr(fsp, name)(X)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _close(g, w)


def test_elliptic_spherical_struve_values():
    for name in ("ellipk", "ellipe", "ellipkm1"):
        _close(getattr(fsp, name)(X), getattr(ss, name)(X))
    for g, w in zip(fsp.ellipj(X, 0.3), ss.ellipj(X, 0.3)):
        _close(g, w)
    for name in ("spherical_jn", "spherical_yn", "spherical_in", "spherical_kn"):
        for n in (0, 2):
            for d in (False, True):
                with np.errstate(all="ignore"):
                    _close(getattr(fsp, name)(n, X, d), getattr(ss, name)(n, X, d))
    for name in ("struve", "modstruve"):
        _close(getattr(fsp, name)(1.5, X), getattr(ss, name)(1.5, X))


RESULTS = ([(n, i) for n, k in (("sici", 2), ("shichi", 2), ("fresnel", 2), ("airy", 4)) for i in range(k)])


@pytest.mark.parametrize("name, i", RESULTS)
def test_multi_result_derivatives(name, i):
    check_grads(lambda v: getattr(fsp, name)(v)[i], (fnp.asarray([0.3, 1.2, 2.5]),), order=2)


@pytest.mark.parametrize("i", range(4))
def test_ellipj_derivatives_in_u(i):
    check_grads(lambda u: fsp.ellipj(u, 0.3)[i], (fnp.asarray([-0.7, 0.3, 2.0]),), order=2)


@pytest.mark.parametrize("name", ["spherical_jn", "spherical_yn", "spherical_in", "spherical_kn"])
def test_spherical_derivatives_to_second_order(name):
    f = getattr(fsp, name)
    for n in (0, 2):
        for d in (False, True):
            check_grads(lambda z: f(n, z, d), (fnp.asarray([0.3, 1.2, 2.5]),), order=2)
    g = fg.grad(lambda z: f(2, z))(1.3)
    assert float(g) == pytest.approx(getattr(ss, name)(2, 1.3, True), rel=1e-13)


def test_elliptic_integrals_through_m_zero():
    """The derivative formulas are 0/0 at m = 0: the series takes over there."""
    m = fnp.asarray([-0.5, -1e-4, 0.0, 2e-4, 0.3, 0.9])
    check_grads(fsp.ellipk, (m,), order=2)
    check_grads(fsp.ellipe, (m,), order=2)
    check_grads(fsp.ellipkm1, (fnp.asarray([0.1, 0.5, 0.9999, 1.0]),), order=2)
    assert float(fg.grad(fsp.ellipk)(0.0)) == pytest.approx(np.pi / 8, rel=1e-14)
    assert float(fg.grad(fsp.ellipe)(0.0)) == pytest.approx(-np.pi / 8, rel=1e-14)


def test_struve_derivatives_and_sici_at_zero():
    for f in (fsp.struve, fsp.modstruve):
        for v in (0.0, 1.5):
            check_grads(lambda x: f(v, x), (fnp.asarray([0.3, 1.2, 4.0]),), order=2)
    assert float(fg.grad(lambda v: fsp.sici(v)[0])(0.0)) == 1.0
    assert float(fg.grad(lambda v: fsp.shichi(v)[0])(0.0)) == 1.0


def test_float32_and_broadcasting():
    x = fnp.asarray(np.array([[0.3], [1.5]], np.float32))
    for out in (*fsp.sici(x), *fsp.airy(x), fsp.ellipk(x * 0.5), fsp.spherical_jn(1, x), fsp.struve(0.5, x)):
        assert out.dtype == np.float32 and out.shape == (2, 1)
    assert fsp.ellipj(x, fnp.asarray(np.array([0.1, 0.5], np.float32)))[0].shape == (2, 2)


def test_incomplete_elliptic_integrals():
    phi = np.array([-1.0, 0.0, 0.4, 1.2, 3.0, np.inf, np.nan])
    for name in ("ellipkinc", "ellipeinc"):
        for m in (-0.5, 0.0, 0.3, 0.9, 1.0):
            with np.errstate(all="ignore"):
                _close(getattr(fsp, name)(phi, m), getattr(ss, name)(phi, m))
        check_grads(lambda p: getattr(fsp, name)(p, 0.6), (fnp.asarray([-1.0, 0.4, 1.2, 3.0]),), order=2)
    g = fg.grad(lambda p: fsp.ellipkinc(p, 0.6))(0.7)
    assert float(g) == pytest.approx(1 / np.sqrt(1 - 0.6 * np.sin(0.7) ** 2), rel=1e-14)
