"""torch.fft over funcgrad.numpy.fft and the complex helpers, against numpy.fft."""

import numpy as np
import pytest

import funcgrad.compat as torch

rng = np.random.default_rng(0)
A = rng.normal(size=(3, 4, 6))


def _np(t):
    return t.detach().numpy()


@pytest.mark.parametrize("name,kw,npkw", [
    ("fft", {}, {}),
    ("fft", dict(n=8, dim=1, norm="ortho"), dict(n=8, axis=1, norm="ortho")),
    ("ifft", dict(n=3, dim=0, norm="forward"), dict(n=3, axis=0, norm="forward")),
    ("rfft", dict(n=5, dim=-2), dict(n=5, axis=-2)),
    ("ihfft", dict(dim=0), dict(axis=0)),
    ("fft2", {}, {}),
    ("ifft2", dict(s=(3, 5), dim=(0, 2)), dict(s=(3, 5), axes=(0, 2))),
    ("rfft2", dict(norm="ortho"), dict(norm="ortho")),
    ("fftn", {}, {}),
    ("fftn", dict(s=(2, 3)), dict(s=(2, 3), axes=(-2, -1))),
    ("ifftn", dict(dim=(0,)), dict(axes=(0,))),
    ("rfftn", dict(dim=(1, 2)), dict(axes=(1, 2))),
])
def test_forward_transforms(name, kw, npkw):
    r = getattr(torch.fft, name)(torch.tensor(A), **kw)
    assert r.dtype == torch.complex128
    np.testing.assert_allclose(_np(r), getattr(np.fft, name)(A, **npkw), atol=1e-12)


def test_inverse_real_transforms_and_dtypes():
    spec = np.fft.rfft(A)
    np.testing.assert_allclose(_np(torch.fft.irfft(torch.tensor(spec))), np.fft.irfft(spec), atol=1e-12)
    np.testing.assert_allclose(_np(torch.fft.irfft(torch.tensor(spec), n=7, norm="ortho")),
                               np.fft.irfft(spec, n=7, norm="ortho"), atol=1e-12)
    np.testing.assert_allclose(_np(torch.fft.hfft(torch.tensor(spec))), np.fft.hfft(spec), atol=1e-12)
    spec2 = np.fft.rfft2(A)
    np.testing.assert_allclose(_np(torch.fft.irfft2(torch.tensor(spec2))), np.fft.irfft2(spec2), atol=1e-12)
    np.testing.assert_allclose(_np(torch.fft.irfftn(torch.tensor(spec2), s=(4, 10))),
                               np.fft.irfftn(spec2, s=(4, 10), axes=(-2, -1)), atol=1e-12)
    assert torch.fft.fft(torch.tensor([1, 2, 3])).dtype == torch.complex64
    assert torch.fft.rfft(torch.tensor([True, False])).dtype == torch.complex64
    r = torch.fft.fft(torch.tensor(A, dtype=torch.float32))
    assert r.dtype == torch.complex64
    np.testing.assert_allclose(_np(r), np.fft.fft(A), atol=1e-4)
    assert torch.fft.irfft(torch.fft.rfft(torch.ones(4))).dtype == torch.float32


def test_freq_and_shift():
    np.testing.assert_allclose(_np(torch.fft.fftfreq(5)), np.fft.fftfreq(5))
    f = torch.fft.rfftfreq(6, d=0.5, dtype=torch.float64)
    assert f.dtype == torch.float64
    np.testing.assert_allclose(_np(f), np.fft.rfftfreq(6, 0.5))
    assert torch.fft.fftfreq(4).dtype == torch.float32
    np.testing.assert_array_equal(_np(torch.fft.fftshift(torch.tensor(A))), np.fft.fftshift(A))
    np.testing.assert_array_equal(_np(torch.fft.ifftshift(torch.tensor(A), dim=1)), np.fft.ifftshift(A, axes=1))
    np.testing.assert_array_equal(_np(torch.fft.fftshift(torch.tensor(A), dim=(0, -1))),
                                  np.fft.fftshift(A, axes=(0, -1)))
    assert torch.fft.fftshift(torch.tensor(2.0)).item() == 2.0


def test_gradients():
    x0 = A[0]
    x = torch.tensor(x0, requires_grad=True)
    torch.fft.rfft(x).abs().pow(2).sum().backward()
    # Parseval over the half spectrum: d/dx sum |rfft x|^2 = 2 * (2 N x - x_0 terms) -> compare numerically
    eps = 1e-6

    def f(v):
        return (np.abs(np.fft.rfft(v)) ** 2).sum()
    num = np.zeros_like(x0)
    for i in np.ndindex(x0.shape):
        e = np.zeros_like(x0)
        e[i] = eps
        num[i] = (f(x0 + e) - f(x0 - e)) / (2 * eps)
    np.testing.assert_allclose(_np(x.grad), num, rtol=1e-5, atol=1e-6)
    x.grad = None
    torch.fft.fft(x).real.sum().backward()  # sum_k Re X_k = N x_0 per row
    ref = np.zeros_like(x0)
    ref[:, 0] = x0.shape[1]
    np.testing.assert_allclose(_np(x.grad), ref, atol=1e-12)


def test_complex_helpers():
    z = torch.fft.fft(torch.tensor([1.0, 2.0, 3.0, 4.0]))
    ref = np.fft.fft([1.0, 2.0, 3.0, 4.0])
    np.testing.assert_allclose(_np(z.real), ref.real, atol=1e-6)
    np.testing.assert_allclose(_np(z.imag), ref.imag, atol=1e-6)
    np.testing.assert_allclose(_np(torch.view_as_real(z)), np.stack([ref.real, ref.imag], -1), atol=1e-6)
    np.testing.assert_allclose(_np(torch.view_as_complex(torch.view_as_real(z))), ref, atol=1e-6)
    np.testing.assert_allclose(_np(torch.conj(z)), ref.conj(), atol=1e-6)
    np.testing.assert_allclose(_np(torch.angle(z)), np.angle(ref), atol=1e-6)
    np.testing.assert_allclose(_np(torch.angle(torch.tensor([1.0, -2.0, 0.0]))), [0, np.pi, 0], atol=1e-6)
    p = torch.polar(torch.tensor([2.0]), torch.tensor([np.pi / 2]))
    np.testing.assert_allclose(_np(p), [2j], atol=1e-6)
    assert torch.complex(torch.ones(2), torch.zeros(2)).dtype == torch.complex64
    x = torch.tensor([1.0, 2.0])
    assert x.real is x
    with pytest.raises(RuntimeError, match="non-complex"):
        x.imag  # noqa: B018
    with pytest.raises(RuntimeError, match="same|Expected"):
        torch.complex(torch.ones(2), torch.ones(2, dtype=torch.float64))
