"""n-dimensional full convolution, the primitive behind funcgrad.scipy.signal.

``convolve_full(x, y)`` is scipy.signal.convolve(x, y, mode="full"); the other modes
and correlation are slices and flips of it (done by the user layer).  Its
derivatives are correlations, i.e. full convolutions with a flipped operand,
sliced to the operand's shape (so any order works):

    x_bar = convolve_full(g, flip(y))[m-1 : m-1+n]   (per axis; n, m the sizes of x, y)
    y_bar = convolve_full(g, flip(x))[n-1 : n-1+m]

On numpy the impl uses scipy.signal.convolve with the requested method.  On
other backends, and on numpy without scipy, it is device-generic: FFTs of the
array library (method "fft", or "auto" when the smaller operand has more than 32
elements) or a shift-and-add sum over the smaller operand's elements.
"""

from __future__ import annotations

import numpy as np

from ..backend import kind_of, namespace_of
from ..core import Primitive, ShapedArray
from .special import scipy_namespace
from ..array import Array

__all__ = ["convolve_full", "flip_all", "centered"]


def _direct(xp, x, y, dt):
    """Sum over shifts of the smaller operand (convolution commutes): one multiply-add
    of the larger operand per element of the smaller."""
    if y.size > x.size:
        x, y = y, x
    out = xp.zeros(tuple(a + b - 1 for a, b in zip(x.shape, y.shape)), dtype=dt)
    x = x.astype(dt, copy=False)
    for k in np.ndindex(*y.shape):
        sl = tuple(slice(i, i + n) for i, n in zip(k, x.shape))
        out[sl] = out[sl] + y[k] * x
    return out


def _fft(xp, x, y, dt):
    shape = tuple(a + b - 1 for a, b in zip(x.shape, y.shape))
    axes = tuple(range(x.ndim))
    if dt.kind == "c":
        out = xp.fft.ifftn(xp.fft.fftn(x, shape, axes) * xp.fft.fftn(y, shape, axes), shape, axes)
    else:
        out = xp.fft.irfftn(xp.fft.rfftn(x, shape, axes) * xp.fft.rfftn(y, shape, axes), shape, axes)
    return out.astype(dt)


# "auto" away from scipy: FFTs once the direct sum needs more multiply-adds than this
_DIRECT_MAX_SHIFTS = 32


def _conv_impl(x, y, method):
    xp = namespace_of(x, y)
    dt = np.result_type(x.dtype, y.dtype)
    if x.size == 0 or y.size == 0:
        return xp.zeros(_conv_abstract(x, y, method).shape, dtype=dt)
    if xp is np:  # scipy's C implementation, where installed
        ns = scipy_namespace(xp, "signal")
        if ns is not None:
            out = ns.convolve(x, y, mode="full", method=method)
            return out.astype(dt) if out.dtype != dt else out
    # device-generic (cupy.convolve is 1-d only, and cupyx.scipy.signal's method="auto"
    # refuses n-d inputs): FFTs or a sum over shifts, with the backend's own ops
    fft = kind_of(dt) in "fc" and (method == "fft" or (method == "auto" and min(x.size, y.size) > _DIRECT_MAX_SHIFTS))
    return _fft(xp, x, y, dt) if fft else _direct(xp, x, y, dt)


def _conv_abstract(x, y, method):
    if x.ndim != y.ndim:
        raise ValueError(f"convolve: in1 and in2 should have the same dimensionality, got shapes "
                         f"{x.shape} and {y.shape}")
    shape = tuple(a + b - 1 if a and b else 0 for a, b in zip(x.shape, y.shape))
    return ShapedArray(shape, np.result_type(x.dtype, y.dtype))


def flip_all(x):
    """x reversed along every axis."""
    return x[(slice(None, None, -1),) * x.ndim]


def centered(x, shape):
    """The centre ``shape`` part of x (scipy's rule: start = (x.shape - shape) // 2)."""
    idx = tuple(slice((n - s) // 2, (n - s) // 2 + s) for n, s in zip(x.shape, shape))
    return x[idx]


def _corr_valid(g, other, size):
    """The cotangent of one operand: full convolution of g with the other, flipped, sliced."""
    if 0 in g.shape or 0 in other.shape:  # an empty operand: the other's cotangent is 0
        return Array(np.zeros(tuple(size), dtype=g.dtype), device=g.device)
    full = convolve_full(g, flip_all(other), "auto")
    idx = tuple(slice(m - 1, m - 1 + n) for m, n in zip(other.shape, size))
    return full[idx]


convolve_full_p = Primitive("convolve_full", _conv_impl, _conv_abstract)
convolve_full_p.defvjp(
    lambda g, ans, x, y, method: _corr_valid(g, y, x.shape),
    lambda g, ans, x, y, method: _corr_valid(g, x, y.shape),
    saves_out=False,
)
convolve_full_p.defjvp(
    lambda t, ans, x, y, method: convolve_full(t, y, method),
    lambda t, ans, x, y, method: convolve_full(x, t, method),
)


def convolve_full(x, y, method="auto"):
    return convolve_full_p.bind(x, y, method=method)
