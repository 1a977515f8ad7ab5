"""torch.stft / torch.istft against a direct numpy computation, round trips, gradients, errors."""

import numpy as np
import pytest

import funcgrad.compat as torch


def _np_stft(x, n_fft, hop, window, center=True, pad_mode="reflect", onesided=True, normalized=False):
    if center:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(n_fft // 2, n_fft // 2)],
                   mode={"reflect": "reflect", "constant": "constant", "replicate": "edge"}[pad_mode])
    n = 1 + (x.shape[-1] - n_fft) // hop
    frames = np.stack([x[..., i * hop:i * hop + n_fft] * window for i in range(n)], axis=-2)
    spec = np.fft.rfft(frames, axis=-1) if onesided else np.fft.fft(frames, axis=-1)
    if normalized:
        spec = spec / np.sqrt(n_fft)
    return np.swapaxes(spec, -1, -2)


@pytest.mark.parametrize("shape", [(37,), (3, 37)])
@pytest.mark.parametrize("kw", [dict(n_fft=8), dict(n_fft=8, hop_length=3, win_length=5),
                                dict(n_fft=9, center=False, normalized=True),
                                dict(n_fft=8, pad_mode="constant", onesided=False),
                                dict(n_fft=10, pad_mode="replicate", hop_length=4)])
def test_stft_matches_numpy(shape, kw):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape)
    n_fft = kw["n_fft"]
    win = kw.get("win_length", n_fft)
    w = np.hanning(win + 1)[:-1]  # periodic Hann, torch.hann_window's default
    full = np.zeros(n_fft)
    full[(n_fft - win) // 2:(n_fft - win) // 2 + win] = w
    got = torch.stft(torch.tensor(x), window=torch.hann_window(win, dtype=torch.float64), return_complex=True, **kw)
    want = _np_stft(x, n_fft, kw.get("hop_length", n_fft // 4), full, kw.get("center", True),
                    kw.get("pad_mode", "reflect"), kw.get("onesided", True), kw.get("normalized", False))
    assert tuple(got.shape) == want.shape and got.dtype == torch.complex128
    np.testing.assert_allclose(got.numpy(), want, atol=1e-12)


def test_stft_complex_input_is_two_sided_and_align_to_window():
    rng = np.random.default_rng(1)
    x = rng.standard_normal(30) + 1j * rng.standard_normal(30)
    got = torch.stft(torch.tensor(x), 8, return_complex=True)
    assert tuple(got.shape) == (8, 1 + 30 // 2)
    np.testing.assert_allclose(got.numpy(), _np_stft(x, 8, 2, np.ones(8), onesided=False), atol=1e-12)
    xr = x.real
    w = np.hanning(7)[:-1]
    aligned = torch.stft(torch.tensor(xr), 8, 2, 6, torch.tensor(w), center=False, return_complex=True,
                         align_to_window=True)
    frames = np.stack([np.pad(xr[i * 2:i * 2 + 6] * w, (1, 1)) for i in range(1 + (30 - 6) // 2)])
    np.testing.assert_allclose(aligned.numpy(), np.fft.rfft(frames, axis=-1).T, atol=1e-12)


def test_return_complex_false_is_view_as_real_with_a_warning():
    x = torch.randn(20)
    with pytest.warns(UserWarning, match="return_complex=False is deprecated"):
        r = torch.stft(x, 8, return_complex=False)
    assert tuple(r.shape) == (5, 11, 2) and r.dtype == torch.float32
    np.testing.assert_allclose(r.numpy(), torch.view_as_real(x.stft(8, return_complex=True)).numpy())


@pytest.mark.parametrize("kw", [dict(), dict(hop_length=2, win_length=6), dict(center=False, normalized=True)])
def test_istft_inverts_stft(kw):
    rng = np.random.default_rng(2)
    x = torch.tensor(rng.standard_normal((2, 40)))
    w = torch.hann_window(kw.get("win_length", 8), dtype=torch.float64) if kw.get("center", True) else None
    s = torch.stft(x, 8, window=w, return_complex=True, **kw)
    y = torch.istft(s, 8, window=w, length=40 if kw.get("center", True) else None, **kw)
    n = y.shape[-1]
    np.testing.assert_allclose(y.numpy(), x.numpy()[:, :n], atol=1e-12)
    if "win_length" not in kw:  # (a window padded with zeros leaves the tail outside every frame: NOLA fails)
        assert s.istft(8, window=w, length=n + 5, **kw).shape[-1] == n + 5


def test_gradients_match_finite_differences():
    rng = np.random.default_rng(3)
    x = torch.tensor(rng.standard_normal(24), requires_grad=True)
    w = torch.tensor(np.hanning(9)[:-1], requires_grad=True)
    assert torch.autograd.gradcheck(lambda a, b: torch.view_as_real(torch.stft(a, 8, 3, window=b,
                                                                               return_complex=True)), (x, w))
    s = torch.stft(x.detach(), 8, return_complex=True).contiguous().requires_grad_()
    assert torch.autograd.gradcheck(lambda z: torch.istft(z, 8, length=24), (s,))


def test_errors():
    x = torch.randn(20)
    with pytest.raises(RuntimeError, match="requires the return_complex parameter"):
        torch.stft(x, 8)
    with pytest.raises(RuntimeError, match="expected hop_length > 0"):
        torch.stft(x, 8, hop_length=0, return_complex=True)
    with pytest.raises(RuntimeError, match="expected 0 < win_length <= n_fft"):
        torch.stft(x, 8, win_length=9, return_complex=True)
    with pytest.raises(RuntimeError, match="window tensor of size equal to win_length=8"):
        torch.stft(x, 8, window=torch.ones(5), return_complex=True)
    with pytest.raises(RuntimeError, match="expected a 1D or 2D tensor"):
        torch.stft(torch.randn(2, 2, 20), 8, return_complex=True)
    with pytest.raises(RuntimeError, match="expected 0 < n_fft < 20"):
        torch.stft(x, 40, center=False, return_complex=True)
    with pytest.raises(RuntimeError, match="floating point or complex"):
        torch.stft(torch.arange(20, dtype=torch.int32), 8, return_complex=True)
    with pytest.raises(RuntimeError, match="align_to_window should only be set when center = false"):
        torch.stft(x, 8, return_complex=True, align_to_window=True)
    with pytest.raises(RuntimeError, match="istft requires a complex-valued input"):
        torch.istft(torch.randn(5, 3), 8)
    with pytest.raises(RuntimeError, match="NOLA"):
        torch.istft(torch.stft(x, 8, 8, window=torch.hann_window(8), center=False, return_complex=True), 8,
                    8, window=torch.hann_window(8), center=False)
