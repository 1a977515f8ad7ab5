"""torch.signal.windows against closed forms."""

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat.signal import windows as W


def test_closed_forms():
    n = np.arange(7)
    np.testing.assert_allclose(W.hann(7, dtype=torch.float64).numpy(), 0.5 - 0.5 * np.cos(2 * np.pi * n / 6),
                               atol=1e-15)
    np.testing.assert_allclose(W.hann(8, sym=False, dtype=torch.float64).numpy(),
                               torch.hann_window(8, dtype=torch.float64).numpy(), atol=1e-15)
    np.testing.assert_allclose(W.hamming(7, dtype=torch.float64).numpy(), 0.54 - 0.46 * np.cos(2 * np.pi * n / 6),
                               atol=1e-15)
    np.testing.assert_allclose(W.gaussian(7, std=2.0, dtype=torch.float64).numpy(), np.exp(-0.5 * ((n - 3) / 2) ** 2),
                               atol=1e-15)
    np.testing.assert_allclose(W.exponential(7, tau=2.0, dtype=torch.float64).numpy(), np.exp(-np.abs(n - 3) / 2),
                               atol=1e-15)
    np.testing.assert_allclose(W.bartlett(7, dtype=torch.float64).numpy(), 1 - np.abs(n - 3) / 3, atol=1e-15)
    np.testing.assert_allclose(W.cosine(7, dtype=torch.float64).numpy(), np.sin(np.pi * (n + 0.5) / 7), atol=1e-15)
    np.testing.assert_allclose(W.kaiser(7, beta=3.0, dtype=torch.float64).numpy(),
                               np.i0(3 * np.sqrt(1 - ((n - 3) / 3) ** 2)) / np.i0(3), atol=1e-14)
    a = [0.5, 0.3, 0.2]
    want = sum((-1) ** k * c * np.cos(2 * np.pi * k * n / 6) for k, c in enumerate(a))
    np.testing.assert_allclose(W.general_cosine(7, a=a, dtype=torch.float64).numpy(), want, atol=1e-15)
    assert W.blackman(5).dtype == torch.float32 and W.nuttall(5).shape == (5,)
    assert W.hann(0).shape == (0,) and W.hann(1).numpy().tolist() == [1.0]


def test_errors():
    with pytest.raises(ValueError, match="requires non-negative window length, got M=-1"):
        W.hann(-1)
    with pytest.raises(ValueError, match="Standard deviation must be positive"):
        W.gaussian(5, std=-1.0)
    with pytest.raises(ValueError, match="Center must be None for symmetric windows"):
        W.exponential(5, center=1.0)
    with pytest.raises(ValueError, match="expects float32 or float64 dtypes"):
        W.hann(3, dtype=torch.int64)
    with pytest.raises(ValueError, match="beta must be non-negative"):
        W.kaiser(5, beta=-1.0)
    assert torch.signal.windows is W
