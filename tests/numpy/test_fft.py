"""fnp.fft: numpy's values, shapes, dtypes and errors; the complex derivative convention."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

NORMS = [None, "backward", "ortho", "forward"]


def _host(x):
    return np.asarray(fg.device_put(x, "cpu"))


@pytest.mark.parametrize("norm", NORMS)
def test_match_numpy(norm, device, rng):
    x = rng.standard_normal((3, 4, 5))
    z = x + 1j * rng.standard_normal((3, 4, 5))
    fx, fz = fnp.asarray(x), fnp.asarray(z)
    cases = [
        ("fft", fz, {}), ("fft", fx, {"n": 7, "axis": 0}), ("ifft", fz, {"n": 3, "axis": 1}),
        ("rfft", fx, {}), ("rfft", fx, {"n": 4, "axis": -2}), ("irfft", fz, {}), ("irfft", fz, {"n": 7}),
        ("fft2", fz, {}), ("ifft2", fz, {"s": (2, 6)}), ("fftn", fz, {}), ("fftn", fx, {"axes": (0, 2)}),
        ("ifftn", fz, {"s": (5, 2), "axes": (2, 0)}), ("rfftn", fx, {}), ("rfft2", fx, {"s": (3, 3)}),
        ("irfftn", fz, {}), ("irfftn", fz, {"s": (4, 7), "axes": (1, 2)}), ("irfft2", fz, {}),
        ("hfft", fz, {}), ("hfft", fz, {"n": 5}), ("ihfft", fx, {}),
    ]
    for name, arg, kw in cases:
        got = getattr(fnp.fft, name)(arg, norm=norm, **kw)
        want = getattr(np.fft, name)(_host(arg), norm=norm, **kw)
        assert got.shape == want.shape and got.dtype == want.dtype, (name, kw)
        assert np.allclose(_host(got), want), (name, kw)


def test_dtypes():
    x32 = np.ones(4, np.float32)
    assert fnp.fft.fft(x32).dtype == np.complex64 == np.fft.fft(x32).dtype
    assert fnp.fft.rfft(x32).dtype == np.complex64
    assert fnp.fft.irfft(fnp.fft.rfft(x32)).dtype == np.float32
    assert fnp.fft.fft(np.arange(4)).dtype == np.complex128
    assert fnp.fft.rfft(np.array([True, False])).dtype == np.complex128


def test_freqs_and_shifts(rng):
    assert np.allclose(fnp.fft.fftfreq(7, 0.5), np.fft.fftfreq(7, 0.5))
    assert np.allclose(fnp.fft.rfftfreq(8), np.fft.rfftfreq(8))
    x = rng.standard_normal((4, 5))
    for axes in (None, 0, (1,), (0, 1), -1):
        assert np.array_equal(fnp.fft.fftshift(x, axes), np.fft.fftshift(x, axes))
        assert np.array_equal(fnp.fft.ifftshift(x, axes), np.fft.ifftshift(x, axes))
    assert np.array_equal(fnp.fft.ifftshift(fnp.fft.fftshift(x)), x)
    check_grads(lambda x: fnp.fft.fftshift(x) * x, (x,), order=2)


def test_errors():
    with pytest.raises(ValueError, match="Invalid norm value 'bad'"):
        fnp.fft.fft(np.ones(4), norm="bad")
    with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(0\)"):
        fnp.fft.fft(np.ones(4), n=0)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        fnp.fft.fft(np.ones(0))
    with pytest.raises(ValueError, match="different lengths"):
        fnp.fft.fftn(np.ones((2, 2)), s=(2,), axes=(0, 1))
    with pytest.raises(np.exceptions.AxisError):
        fnp.fft.fft(np.ones(4), axis=1)
    with pytest.raises(TypeError, match="must be real"):
        fnp.fft.rfft(np.ones(4) + 1j)
    with pytest.raises(ValueError, match=r"Invalid number of FFT data points \(0\)"):
        fnp.fft.irfft(np.ones(1, complex))  # n = 2 * (1 - 1)


def test_parseval_gradient():
    """sum |fft(x)|^2 = n sum x^2, so its gradient is 2 n x (a real cotangent for a real input)."""
    x = np.array([0.5, -1.0, 2.0, 0.25, 3.0])
    for f in (lambda x: fnp.sum(fnp.real(fnp.fft.fft(x)) ** 2 + fnp.imag(fnp.fft.fft(x)) ** 2),
              lambda x: fnp.sum(fnp.real(fnp.conj(fnp.fft.fft(x)) * fnp.fft.fft(x)))):
        g = fg.grad(f)(x)
        assert g.dtype == np.float64 and np.allclose(g, 2 * 5 * x)
    g = fg.grad(lambda x: fnp.sum(fnp.real(fnp.conj(fnp.fft.fft(x, norm="ortho")) * fnp.fft.fft(x, norm="ortho"))))(x)
    assert np.allclose(g, 2 * x)


def test_complex_convention_matches_real_and_imag_parts(rng):
    """Gradients w.r.t. the real and imaginary parts of an input z = a + ib."""
    a, b = rng.standard_normal(4), rng.standard_normal(4)

    def f(a, b):
        return fnp.sum(fnp.real(fnp.fft.ifft(a + 1j * b)) * fnp.arange(4.0))

    ga, gb = fg.grad(f, argnums=(0, 1))(a, b)
    w = np.arange(4.0)
    # real(ifft(z)) . w is linear: its gradient is the matrix row sums, computed with numpy
    eye = np.eye(4)
    assert np.allclose(ga, [np.real(np.fft.ifft(e)) @ w for e in eye])
    assert np.allclose(gb, [np.real(np.fft.ifft(1j * e)) @ w for e in eye])


def test_irfft_round_trip_gradients(rng):
    x = rng.standard_normal((2, 6))
    check_grads(lambda x: fnp.fft.irfft(fnp.fft.rfft(x) * fnp.fft.rfft(x)), (x,), order=3)
    check_grads(lambda x: fnp.fft.irfftn(fnp.fft.rfftn(x, axes=(0, 1)), s=x.shape, axes=(0, 1)) * x, (x,), order=2)


def test_abs_of_complex_values():
    """|z| of complex z: gradient conj(z)/|z| under the convention, 0 at z == 0; any order."""
    x = np.array([0.5, -1.0, 2.0, 0.25, 3.0])
    assert np.allclose(fg.grad(lambda x: fnp.sum(fnp.abs(fnp.fft.fft(x)) ** 2))(x), 10 * x)
    check_grads(lambda x: fnp.abs(fnp.fft.fft(x)) ** 2, (x,), order=3)
    check_grads(lambda a, b: fnp.abs(a + 1j * b), (x, x[::-1].copy()), order=2)
    ga, gb = fg.grad(lambda a, b: fnp.sum(fnp.abs(a + 1j * b)), argnums=(0, 1))(np.zeros(2), np.zeros(2))
    assert np.array_equal(ga, [0.0, 0.0]) and np.array_equal(gb, [0.0, 0.0])


def test_no_complex_warning_from_gradients():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        fg.grad(lambda x: fnp.sum(fnp.real(fnp.fft.fft(x))))(np.ones(4))
        fg.jvp(lambda x: fnp.abs(fnp.fft.fft(x)), (np.ones(4),), (np.ones(4),))


def test_float32_gradients(rng):
    x = rng.standard_normal(6).astype(np.float32)
    g = fg.grad(lambda x: fnp.sum(fnp.real(fnp.fft.fft(x)) * fnp.arange(6.0, dtype=np.float32)))(x)
    assert g.dtype == np.float32
    check_grads(lambda x: fnp.fft.irfft(fnp.fft.rfft(x) * 2), (x,), order=2)
