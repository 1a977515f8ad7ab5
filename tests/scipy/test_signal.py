"""funcgrad.scipy.signal: convolve / correlate against scipy.signal, every mode and method."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.signal as fsig
from funcgrad.backend import standin as _standin
from funcgrad.primitives import special as sp_prims

ss = pytest.importorskip("scipy.signal")
rng = np.random.default_rng(0)
SHAPES = [((7,), (3,)), ((3,), (7,)), ((5, 4), (2, 3)), ((2, 3), (5, 4)), ((4, 2), (2, 3)), ((3, 4, 2), (2, 2, 2)), ((1,), (1,))]


@pytest.mark.parametrize("sx, sy", SHAPES)
@pytest.mark.parametrize("fn", ["convolve", "correlate"])
def test_matches_scipy(sx, sy, fn):
    x, y = rng.standard_normal(sx), rng.standard_normal(sy)
    for mode in ("full", "same", "valid"):
        for method in ("direct", "fft", "auto"):
            try:
                want = getattr(ss, fn)(x, y, mode=mode, method=method)
            except ValueError:
                with pytest.raises(ValueError, match="at least as large"):
                    getattr(fsig, fn)(x, y, mode=mode, method=method)
                continue
            got = getattr(fsig, fn)(x, y, mode=mode, method=method)
            assert got.shape == want.shape
            np.testing.assert_allclose(np.asarray(got), want, rtol=1e-10, atol=1e-12)


def test_gradient_is_a_correlation():
    x, y = rng.standard_normal(6), rng.standard_normal(3)
    gx, gy = fg.grad(lambda a, b: fnp.sum(fsig.convolve(a, b) * np.arange(8.0)), argnums=(0, 1))(x, y)
    np.testing.assert_allclose(np.asarray(gx), ss.correlate(np.arange(8.0), y, mode="valid"), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(gy), ss.correlate(np.arange(8.0), x, mode="valid"), rtol=1e-12)


def test_dtypes_and_errors():
    assert fsig.convolve(np.arange(3), np.arange(2)).dtype == np.int64
    assert fsig.convolve(np.ones(3, np.float32), np.ones(2, np.float32)).dtype == np.float32
    np.testing.assert_array_equal(np.asarray(fsig.convolve(np.arange(3), np.arange(2))), [0, 0, 1, 2])
    with pytest.raises(ValueError, match="mode"):
        fsig.convolve([1.0], [1.0], mode="bogus")
    with pytest.raises(ValueError, match="method"):
        fsig.convolve([1.0], [1.0], method="bogus")
    with pytest.raises(ValueError, match="dimensionality"):
        fsig.convolve(np.ones(3), np.ones((2, 2)))


@pytest.mark.parametrize("method", ["direct", "fft"])
def test_without_scipy(method, monkeypatch, device):
    monkeypatch.setitem(sp_prims._NAMESPACES.setdefault("signal", {}), np, None)
    monkeypatch.setitem(sp_prims._NAMESPACES["signal"], _standin.namespace, None)
    x, y = rng.standard_normal((4, 3)), rng.standard_normal((2, 2))
    got = fsig.correlate(fnp.asarray(x), fnp.asarray(y), mode="same", method=method)
    np.testing.assert_allclose(np.asarray(fg.device_put(got, "cpu")), ss.correlate(x, y, mode="same"), rtol=1e-10, atol=1e-12)
    ints = fsig.convolve(fnp.asarray(np.arange(4)), fnp.asarray(np.arange(3)), method=method)
    np.testing.assert_array_equal(np.asarray(fg.device_put(ints, "cpu")), np.convolve(np.arange(4), np.arange(3)))
