"""funcgrad.scipy.signal: convolve and correlate (n-dimensional; modes full, same,
valid; methods direct, fft, auto), differentiable in both inputs to any order."""

from __future__ import annotations

from ..numpy._util import as_array
from ..primitives.scipy_signal import centered, convolve_full, flip_all

__all__ = ["convolve", "correlate"]


def _check(in1, in2, mode, method, fname):
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"{fname}: acceptable mode flags are 'valid', 'same', or 'full', got {mode!r}")
    if method not in ("auto", "direct", "fft"):
        raise ValueError(f"{fname}: acceptable method flags are 'auto', 'direct', or 'fft', got {method!r}")
    in1, in2 = as_array(in1), as_array(in2)
    if in1.ndim != in2.ndim:
        raise ValueError(f"{fname}: in1 and in2 should have the same dimensionality, got shapes "
                         f"{tuple(in1.shape)} and {tuple(in2.shape)}")
    if mode == "valid":
        ge = all(a >= b for a, b in zip(in1.shape, in2.shape))
        le = all(a <= b for a, b in zip(in1.shape, in2.shape))
        if not (ge or le):
            raise ValueError(f"{fname}: for 'valid' mode, one must be at least as large as the other in "
                             f"every dimension, got shapes {tuple(in1.shape)} and {tuple(in2.shape)}")
    return in1, in2


def _finish(full, in1, in2, mode):
    if mode == "full":
        return full
    if mode == "same":
        return centered(full, in1.shape)
    return centered(full, tuple(abs(a - b) + 1 for a, b in zip(in1.shape, in2.shape)))


def convolve(in1, in2, mode="full", method="auto"):
    """scipy.signal.convolve: the n-dimensional convolution of in1 and in2."""
    in1, in2 = _check(in1, in2, mode, method, "convolve")
    if in1.ndim == 0:
        return in1 * in2
    return _finish(convolve_full(in1, in2, method), in1, in2, mode)


def correlate(in1, in2, mode="full", method="auto"):
    """scipy.signal.correlate: the n-dimensional cross-correlation of in1 and in2 (real data)."""
    in1, in2 = _check(in1, in2, mode, method, "correlate")
    if in1.ndim == 0:
        return in1 * in2
    if mode == "valid" and any(a < b for a, b in zip(in1.shape, in2.shape)):
        # scipy swaps the inputs and reverses the result
        return flip_all(_finish(convolve_full(in2, flip_all(in1), method), in2, in1, mode))
    return _finish(convolve_full(in1, flip_all(in2), method), in1, in2, mode)
