"""erf / erfc: the scipy-free implementation, the scipy fast path, special values."""

import math

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.special as fsp
from funcgrad.backend import standin as _standin
from funcgrad.backend import NoDeviceImplementationError
from funcgrad.primitives import special as sp_prims
from funcgrad.testing import check_grads

_GRID = np.concatenate([np.linspace(-26.5, 26.5, 8001), np.geomspace(1e-300, 1.0, 200)])


@pytest.fixture
def no_scipy(monkeypatch):
    """Special functions behave as if scipy (and the stand-in's copy of it) were missing."""
    monkeypatch.setitem(sp_prims._SPECIAL, np, None)
    monkeypatch.setitem(sp_prims._SPECIAL, _standin.namespace, None)


@pytest.mark.parametrize("fallback, ref", [(sp_prims.erf_fallback, math.erf), (sp_prims.erfc_fallback, math.erfc)])
def test_fallback_accuracy_against_math(fallback, ref):
    got = fallback(np, _GRID)
    want = np.array([ref(v) for v in _GRID])
    ok = np.abs(want) > 1e-300  # erfc underflows to subnormals beyond x ~ 26.5
    rel = np.abs(got[ok] - want[ok]) / np.abs(want[ok])
    assert rel.max() < 3e-15
    x32 = _GRID.astype(np.float32)
    got32 = fallback(np, x32)
    assert got32.dtype == np.float32
    want32 = np.array([ref(float(v)) for v in x32])
    ok = np.abs(want32) > 1e-37
    assert (np.abs(got32[ok] - want32[ok]) / np.abs(want32[ok])).max() < 3e-6


def test_fallback_special_values():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 40.0, -40.0])
    e = sp_prims.erf_fallback(np, x)
    np.testing.assert_array_equal(e, [0.0, -0.0, 1.0, -1.0, np.nan, 1.0, -1.0])
    assert np.signbit(e[1])
    np.testing.assert_array_equal(sp_prims.erfc_fallback(np, x), [1.0, 1.0, 0.0, 2.0, np.nan, 0.0, 2.0])


def test_without_scipy_values_and_gradients(no_scipy, device):
    x = fnp.asarray([-3.0, -0.5, 0.0, 0.25, 1.5, 4.0])
    host = np.asarray(fg.device_put(x, "cpu"))
    np.testing.assert_allclose(np.asarray(fg.device_put(fsp.erf(x), "cpu")), [math.erf(v) for v in host], rtol=3e-15)
    np.testing.assert_allclose(np.asarray(fg.device_put(fsp.erfc(x), "cpu")), [math.erfc(v) for v in host], rtol=3e-15)
    g = fg.grad(lambda v: fnp.sum(fsp.erf(v)))(x)
    np.testing.assert_allclose(np.asarray(fg.device_put(g, "cpu")), 2 / math.sqrt(math.pi) * np.exp(-host**2), rtol=1e-14)
    check_grads(fsp.erfc, (x,), order=2)


def test_without_scipy_other_functions_name_the_fix(no_scipy):
    with pytest.raises(ImportError, match="pip install scipy"):
        fsp.erfinv(fnp.asarray([0.5], device="cpu"))
    with pytest.raises(NoDeviceImplementationError, match="erfinv has no implementation on device 'standin'"):
        fsp.erfinv(fnp.asarray([0.5], device="standin"))


def test_dtype_rule():
    assert fsp.erf(fnp.asarray(np.float32(0.5))).dtype == np.float32
    assert fsp.erf(fnp.asarray([1, 2], dtype=np.int16)).dtype == np.float64  # as scipy
    assert fsp.erf(fnp.asarray([1, 2], dtype=np.int64)).dtype == np.float64
    assert fsp.erf(fnp.asarray([True])).dtype == np.float64
    assert fsp.erf(fnp.asarray([1.0], dtype=np.float16)).dtype == np.float64
    assert fsp.erf(0.5).dtype == np.float64
    assert fsp.erf(fnp.zeros((0, 3))).shape == (0, 3)
    with pytest.raises(TypeError, match="complex"):
        fsp.erf(fnp.asarray([1j]))


def test_agrees_with_scipy():
    scipy_special = pytest.importorskip("scipy.special")
    x = np.linspace(-5, 5, 101)
    # scipy itself on the cpu; cupyx's own implementations differ in the last bit or two
    rtol = 1e-15 if fg.default_device() == "cpu" else 4e-15
    np.testing.assert_allclose(np.asarray(fsp.erf(x)), scipy_special.erf(x), rtol=rtol)
    np.testing.assert_allclose(np.asarray(fsp.erfc(x)), scipy_special.erfc(x), rtol=rtol)
    y = np.linspace(-0.999, 0.999, 101)
    np.testing.assert_allclose(np.asarray(fsp.erfinv(y)), scipy_special.erfinv(y), rtol=rtol)
    np.testing.assert_allclose(np.asarray(fsp.erfcinv(1 - y)), scipy_special.erfcinv(1 - y), rtol=rtol)


def test_erfinv_near_plus_minus_one():
    scipy_special = pytest.importorskip("scipy.special")
    x = np.array([-1 + 1e-12, 1 - 1e-12, 1 - 1e-15])
    np.testing.assert_allclose(np.asarray(fsp.erfinv(x)), scipy_special.erfinv(x), rtol=1e-14)
    assert np.asarray(fsp.erfinv(fnp.asarray([1.0, -1.0]))).tolist() == [np.inf, -np.inf]
    # the derivative grows like exp(erfinv^2) but stays finite short of 1; at 1 a zero
    # cotangent (a masked branch) gives 0, not nan
    g = fg.grad(lambda v: fnp.sum(fsp.erfinv(v)))(fnp.asarray(x))
    want = math.sqrt(math.pi) / 2 * np.exp(scipy_special.erfinv(x) ** 2)
    np.testing.assert_allclose(np.asarray(g), want, rtol=1e-6)
    g1 = fg.grad(lambda v: fnp.sum(fnp.where(v < 1, fsp.erfinv(v), 0.0)))(fnp.asarray([0.5, 1.0]))
    assert np.isfinite(np.asarray(g1)).all() and np.asarray(g1)[1] == 0.0


def test_log_ndtr_fallback_against_scipy():
    scipy_special = pytest.importorskip("scipy.special")
    x = np.concatenate([-np.geomspace(1e5, 1e-3, 300), np.linspace(-40, 40, 4001), [-1e300, np.inf, -np.inf, np.nan]])
    got = sp_prims.log_ndtr_fallback(np, x)
    want = scipy_special.log_ndtr(x)
    ok = np.abs(want) > 1e-300
    # (x / sqrt(2) rounds: ~x^2 eps relative error in the far tails, as any double-precision impl)
    np.testing.assert_allclose(got[ok], want[ok], rtol=1e-13)
    np.testing.assert_allclose(got[~ok], want[~ok], rtol=1e-12, atol=1e-305)


def test_log_ndtr_tails_without_scipy(no_scipy):
    x = fnp.asarray([-1e4, -40.0, 0.0, 10.0])
    v = np.asarray(fsp.log_ndtr(x))
    assert np.isfinite(v).all() and v[0] < -4e7 and v[2] == pytest.approx(-math.log(2))
    g = np.asarray(fg.grad(lambda u: fnp.sum(fsp.log_ndtr(u)))(x))
    np.testing.assert_allclose(g[:2], [1e4 + 1e-4, 40.0 + 1 / 40], rtol=1e-5)  # pdf/cdf ~ -x - 1/x
    assert 0 < g[3] < 1e-20
