"""torch.signal.windows: scipy.signal.windows' definitions (``sym=True`` symmetric, ``sym=False``
periodic), computed in float64 and returned in ``dtype`` (the default float dtype)."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..creation import tensor as _tensor

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine", "general_hamming",
           "hamming", "hann", "kaiser", "nuttall"]

_COSINE_FAMILY = ("hann", "hamming", "blackman", "nuttall", "general_hamming", "general_cosine")


def _sw():
    import scipy.signal.windows as sw  # noqa: PLC0415  (imported on first use: it is slow to import)

    return sw


def _make(name, M, sym, dtype, device, requires_grad, values):
    family = "general_cosine" if name in _COSINE_FAMILY else name
    if not isinstance(M, (int, np.integer)) or isinstance(M, bool):
        raise TypeError(f"{name}(): argument 'M' must be int, not {type(M).__name__}")
    if M < 0:
        raise ValueError(f"{family} requires non-negative window length, got M={M}")
    d = dtypes.get_default_dtype() if dtype is None else dtypes.as_dtype(dtype)
    if d.dtype not in (np.float32, np.float64):
        raise ValueError(f"{family} expects float32 or float64 dtypes, got: {d}")
    buf = np.ones(M) if M == 1 else np.zeros(0) if M == 0 else np.asarray(values(), dtype=np.float64)
    return _tensor(buf.astype(d.dtype), device=device, requires_grad=requires_grad)


def _simple(name):
    def window(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
        return _make(name, M, sym, dtype, device, requires_grad, lambda: getattr(_sw(), name)(M, sym=sym))

    window.__name__ = name
    window.__doc__ = f"The {name} window of M points (scipy.signal.windows.{name})."
    return window


bartlett, blackman, cosine, hamming, hann, nuttall = (_simple(n) for n in
                                                      ("bartlett", "blackman", "cosine", "hamming", "hann", "nuttall"))


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    return _make("gaussian", M, sym, dtype, device, requires_grad, lambda: _sw().gaussian(M, std, sym=sym))


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    return _make("exponential", M, sym, dtype, device, requires_grad,
                 lambda: _sw().exponential(M, center, tau, sym=sym))


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    return _make("kaiser", M, sym, dtype, device, requires_grad, lambda: _sw().kaiser(M, beta, sym=sym))


def general_cosine(M, *, a, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    coeffs = [float(c) for c in a]
    if not coeffs:
        raise ValueError("Coefficients cannot be empty")
    return _make("general_cosine", M, sym, dtype, device, requires_grad,
                 lambda: _sw().general_cosine(M, coeffs, sym=sym))


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    return _make("general_hamming", M, sym, dtype, device, requires_grad,
                 lambda: _sw().general_hamming(M, alpha, sym=sym))
