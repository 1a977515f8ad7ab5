"""Window functions: bartlett, blackman, hamming, hanning, kaiser (numpy's formulas).

The first four depend on the integer length only (constants, float64 as numpy);
``kaiser`` is written with funcgrad operations, so it is differentiable in ``beta``.
"""

from __future__ import annotations

import numpy as np

from ..core import Array
from ._creation import asarray
from ._indexing import const_like
from ._elementwise import sqrt
from ._float_functions import i0

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _length(M, fname):
    if isinstance(M, Array):
        M = M.item()
    if isinstance(M, (bool, np.bool_)) or not isinstance(M, (int, float, np.integer, np.floating)):
        raise TypeError(f"{fname}: M must be a number, got {type(M).__name__}")
    return M


def bartlett(M):
    return Array(np.bartlett(_length(M, "bartlett")))


def blackman(M):
    return Array(np.blackman(_length(M, "blackman")))


def hamming(M):
    return Array(np.hamming(_length(M, "hamming")))


def hanning(M):
    return Array(np.hanning(_length(M, "hanning")))


def kaiser(M, beta):
    """numpy.kaiser: i0(beta * sqrt(1 - ((n - alpha) / alpha)**2)) / i0(beta); differentiable in beta."""
    M = _length(M, "kaiser")
    if M == 1:
        return Array(np.ones(1))
    beta = asarray(beta)
    if np.dtype(beta.dtype).kind not in "f":
        beta = beta.astype(np.float64)
    n = const_like(np.arange(0, M, dtype=np.float64), beta)
    alpha = (M - 1) / 2.0
    return i0(beta * sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(beta)
