"""Window functions (_windows.py) against numpy; kaiser's derivative in beta."""

import numpy as np
import pytest

import funcgrad.numpy as fnp
from funcgrad.testing import check_grads


@pytest.mark.parametrize("M", [-1, 0, 1, 2, 5, 6, 7.0])
def test_windows_match_numpy(M):
    for name in ("bartlett", "blackman", "hamming", "hanning"):
        r, e = getattr(fnp, name)(M), getattr(np, name)(M)
        assert r.dtype == e.dtype and r.shape == e.shape
        np.testing.assert_allclose(r, e, atol=1e-15)
    for beta in (0.0, 3.5, 14):
        r, e = fnp.kaiser(M, beta), np.kaiser(M, beta)
        assert r.dtype == e.dtype and r.shape == e.shape
        np.testing.assert_allclose(r, e, rtol=1e-12)


def test_bad_length():
    with pytest.raises(TypeError, match="M must be a number"):
        fnp.hanning("5")


def test_kaiser_derivative_in_beta():
    check_grads(lambda b: fnp.kaiser(7, b), (np.array(2.5),))
