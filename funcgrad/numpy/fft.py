"""funcgrad.numpy.fft: numpy.fft's names and signatures, differentiable to any order.

Complex outputs follow JAX's convention for derivatives (see
funcgrad/primitives/complex.py): differentiate a real-valued function of them
(``fnp.abs(X) ** 2``, ``fnp.real``, ...) and a real input gets a real gradient.
"""

from __future__ import annotations

import operator

import numpy as np

from .. import backend
from ..core import Array
from ..primitives import fft as _fp
from ._elementwise import astype
from ._shape import concatenate
from ._util import as_array, no_out, normalize_axis
from ._complex import conj

__all__ = [
    "fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "fftn", "ifftn", "rfft2", "irfft2", "rfftn",
    "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift",
]

_NORMS = {None: "backward", "backward": "backward", "ortho": "ortho", "forward": "forward"}
_SWAP = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


def _norm(norm):
    try:
        return _NORMS[norm]
    except (KeyError, TypeError):
        raise ValueError(f'Invalid norm value {norm!r}; should be "backward", "ortho" or "forward".') from None


def _as_complex(a):
    a = as_array(a)
    kind = np.dtype(a.dtype).kind
    if kind == "c":
        return a
    return astype(a, np.complex64 if a.dtype == np.float32 else np.complex128)


def _as_real(a, fname):
    a = as_array(a)
    kind = np.dtype(a.dtype).kind
    if kind == "c":
        raise TypeError(f"{fname}: input must be real, got dtype {a.dtype} (use fft for complex input)")
    return a if kind == "f" and a.dtype != np.float16 else astype(a, np.float64)


def _check_n(n):
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"the number of FFT data points must be an integer, got {n!r}") from None
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n


def _axes_and_sizes(a, s, axes):
    """numpy's rules for (s, axes) in the n-dimensional transforms."""
    if axes is None:
        axes = tuple(range(a.ndim)) if s is None else tuple(range(a.ndim - len(s), a.ndim))
    else:
        axes = (axes,) if isinstance(axes, int) else tuple(axes)
    axes = tuple(normalize_axis(ax, a.ndim, "axes") for ax in axes)
    if s is None:
        s = tuple(a.shape[ax] for ax in axes)
    else:
        s = tuple(s)
        if len(s) != len(axes):
            raise ValueError(f"Shape and axes have different lengths: s={s}, axes={axes}")
        s = tuple(_check_n(n) for n in s)
    if not axes:
        raise ValueError("at least one axis must be transformed")
    return axes, s


def _resize_all(a, axes, sizes):
    for ax, n in zip(axes, sizes):
        if a.shape[ax] == 0:
            raise ValueError(f"Invalid number of FFT data points (0) on axis {ax} (input shape {tuple(a.shape)})")
        a = _fp._resize(a, ax, n)
    return a


# --- complex transforms ------------------------------------------------------------------

def fftn(a, s=None, axes=None, norm=None, out=None):
    no_out(out, "fftn")
    a = _as_complex(a)
    axes, s = _axes_and_sizes(a, s, axes)
    return _fp.fftn(_resize_all(a, axes, s), axes, False, _norm(norm))


def ifftn(a, s=None, axes=None, norm=None, out=None):
    no_out(out, "ifftn")
    a = _as_complex(a)
    axes, s = _axes_and_sizes(a, s, axes)
    return _fp.fftn(_resize_all(a, axes, s), axes, True, _norm(norm))


def fft(a, n=None, axis=-1, norm=None, out=None):
    return fftn(a, None if n is None else (n,), (axis,), norm, out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    return ifftn(a, None if n is None else (n,), (axis,), norm, out)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return fftn(a, s, axes, norm, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return ifftn(a, s, axes, norm, out)


# --- real transforms ------------------------------------------------------------------------

def rfftn(a, s=None, axes=None, norm=None, out=None):
    no_out(out, "rfftn")
    a = _as_real(a, "rfftn")
    axes, s = _axes_and_sizes(a, s, axes)
    return _fp.rfftn(_resize_all(a, axes, s), axes, _norm(norm))


def irfftn(a, s=None, axes=None, norm=None, out=None):
    no_out(out, "irfftn")
    a = _as_complex(a)
    given = s is not None
    axes, s = _axes_and_sizes(a, s, axes)
    if not given:  # the last axis is a half spectrum of an even-length signal
        s = s[:-1] + (2 * (a.shape[axes[-1]] - 1),)
        if s[-1] < 1:
            raise ValueError(f"Invalid number of data points ({s[-1]}) specified")
    n = s[-1]
    a = _resize_all(a, axes, s[:-1] + (n // 2 + 1,))
    return _fp.irfftn(a, axes, n, _norm(norm))


def rfft(a, n=None, axis=-1, norm=None, out=None):
    return rfftn(a, None if n is None else (n,), (axis,), norm, out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    no_out(out, "irfft")
    a = _as_complex(a)
    ax = normalize_axis(axis, a.ndim)
    if n is None:
        n = 2 * (a.shape[ax] - 1)
    n = _check_n(n)
    if a.shape[ax] == 0:
        raise ValueError(f"Invalid number of FFT data points (0) on axis {ax} (input shape {tuple(a.shape)})")
    return _fp.irfftn(_fp._resize(a, ax, n // 2 + 1), (ax,), n, _norm(norm))


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return rfftn(a, s, axes, norm, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    return irfftn(a, s, axes, norm, out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """FFT of a signal with Hermitian symmetry (a real spectrum): irfft(conj(a)) rescaled."""
    return irfft(conj(_as_complex(a)), n, axis, _SWAP[_norm(norm)], out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    return conj(rfft(a, n, axis, _SWAP[_norm(norm)], out))


# --- frequencies and shifts ------------------------------------------------------------------

def fftfreq(n, d=1.0, device=None):
    """numpy.fft.fftfreq on the default device (or ``device``): a constant."""
    return Array(np.fft.fftfreq(_check_n(n), d), device=backend.get_device(device))


def rfftfreq(n, d=1.0, device=None):
    return Array(np.fft.rfftfreq(_check_n(n), d), device=backend.get_device(device))


def _roll_axes(x, axes, shift_of):
    x = as_array(x)
    if axes is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axes, int):
        axes = (axes,)
    for ax in axes:
        ax = normalize_axis(ax, x.ndim, "axes")
        n = x.shape[ax]
        k = shift_of(n) % n if n else 0
        if k:
            lead = (slice(None),) * ax
            x = concatenate([x[lead + (slice(n - k, None),)], x[lead + (slice(0, n - k),)]], axis=ax)
    return x


def fftshift(x, axes=None):
    """numpy.fft.fftshift: the zero frequency moved to the centre (differentiable)."""
    return _roll_axes(x, axes, lambda n: n // 2)


def ifftshift(x, axes=None):
    return _roll_axes(x, axes, lambda n: -(n // 2))
