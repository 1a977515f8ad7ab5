"""Discrete Fourier transforms: fftn / ifftn (complex), rfftn (real -> half spectrum), irfftn.

Each primitive transforms over ``axes`` at the input's own lengths (the numpy
layer crops or zero-pads first), with numpy's ``norm`` ("backward", "ortho",
"forward").  All are linear, so their jvp is the primitive applied to the
tangent.  Their vjps are transposes under the pairing ``Re(sum(c * dz))`` (see
:mod:`funcgrad.primitives.complex`): the DFT matrix is symmetric, so the
transpose of fftn is fftn itself (and ifftn's is ifftn); rfftn's is the real
part of fftn of the zero-padded cotangent; irfftn's is ifftn of the cotangent,
cropped to the half spectrum, with the bins that stand for two (all but the
zero-frequency and, for even lengths, the Nyquist bin) counted twice.
"""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import Primitive, ShapedArray
from ._batching import axes_param_rule
from .complex import real
from .creation import full_like, zeros_like
from .index import getitem
from .shape import concatenate, reshape


def _xp(x):
    return XP_OF_TYPE.get(type(x), np)


def _complex_dtype(dtype):
    return np.result_type(dtype, np.complex64)


# --- fftn / ifftn: complex -> complex ------------------------------------------------

def _fftn_impl(x, axes, inverse, norm):
    fft = _xp(x).fft
    return (fft.ifftn if inverse else fft.fftn)(x, axes=axes, norm=norm).astype(x.dtype, copy=False)


fftn_p = Primitive("fftn", _fftn_impl, lambda x, axes, inverse, norm: ShapedArray(tuple(x.shape), x.dtype))
fftn_p.defvjp(lambda g, ans, x, axes, inverse, norm: fftn(g, axes, inverse, norm), unsaved_args=(0,), saves_out=False)
fftn_p.defjvp(lambda t, ans, x, axes, inverse, norm: fftn(t, axes, inverse, norm))


def fftn(x, axes, inverse=False, norm="backward"):
    return fftn_p.bind(x, axes=tuple(axes), inverse=bool(inverse), norm=norm)


# --- rfftn: real -> half spectrum along the last axis ------------------------------------

def _rfftn_abstract(x, axes, norm):
    shape = list(x.shape)
    shape[axes[-1]] = shape[axes[-1]] // 2 + 1
    return ShapedArray(tuple(shape), _complex_dtype(x.dtype))


def _rfftn_impl(x, axes, norm):
    return _xp(x).fft.rfftn(x, axes=axes, norm=norm).astype(_complex_dtype(x.dtype), copy=False)


def _resize(x, axis, n):
    """Crop or zero-pad x to length n along axis (differentiable)."""
    m = x.shape[axis]
    if m > n:
        return getitem(x, (slice(None),) * axis + (slice(0, n),))
    if m < n:
        shape = list(x.shape)
        shape[axis] = n - m
        return concatenate([x, zeros_like(x, shape=shape)], axis)
    return x


def _rfftn_vjp(g, ans, x, axes, norm):
    return real(fftn(_resize(g, axes[-1], x.shape[axes[-1]]), axes, False, norm))


rfftn_p = Primitive("rfftn", _rfftn_impl, _rfftn_abstract)
rfftn_p.defvjp(_rfftn_vjp, unsaved_args=(0,), saves_out=False)
rfftn_p.defjvp(lambda t, ans, x, axes, norm: rfftn(t, axes, norm))


def rfftn(x, axes, norm="backward"):
    return rfftn_p.bind(x, axes=tuple(axes), norm=norm)


# --- irfftn: half spectrum (length n // 2 + 1 on the last axis) -> real, length n ------------

def _irfftn_abstract(x, axes, n, norm):
    if x.shape[axes[-1]] != n // 2 + 1:
        raise ValueError(f"irfftn: the last transformed axis has length {x.shape[axes[-1]]}, expected {n // 2 + 1} for n={n}")
    shape = list(x.shape)
    shape[axes[-1]] = n
    return ShapedArray(tuple(shape), np.empty(0, x.dtype).real.dtype)


def _irfftn_impl(x, axes, n, norm):
    s = [x.shape[a] for a in axes[:-1]] + [n]
    out = _xp(x).fft.irfftn(x, s=s, axes=axes, norm=norm)
    return out.astype(np.empty(0, x.dtype).real.dtype, copy=False)


def _half_spectrum_weights(like, n, axis, ndim):
    """2 for bins that stand for a frequency and its mirror, 1 for zero and Nyquist."""
    m = n // 2 + 1
    dtype = np.empty(0, like.dtype).real.dtype
    parts = [full_like(like, 1.0, shape=(1,), dtype=dtype)]
    twos = m - 1 - (1 if n % 2 == 0 and m > 1 else 0)
    if twos:
        parts.append(full_like(like, 2.0, shape=(twos,), dtype=dtype))
    if n % 2 == 0 and m > 1:
        parts.append(full_like(like, 1.0, shape=(1,), dtype=dtype))
    w = concatenate(parts, 0) if len(parts) > 1 else parts[0]
    return reshape(w, tuple(m if i == axis else 1 for i in range(ndim)))


def _irfftn_vjp(g, ans, x, axes, n, norm):
    last = axes[-1]
    full = fftn(g + 0j, axes, True, norm)
    return _resize(full, last, n // 2 + 1) * _half_spectrum_weights(g, n, last, g.ndim)


irfftn_p = Primitive("irfftn", _irfftn_impl, _irfftn_abstract)
irfftn_p.defvjp(_irfftn_vjp, unsaved_args=(0,), saves_out=False)
irfftn_p.defjvp(lambda t, ans, x, axes, n, norm: irfftn(t, axes, n, norm))


def irfftn(x, axes, n, norm="backward"):
    return irfftn_p.bind(x, axes=tuple(axes), n=int(n), norm=norm)


# vmap: the transforms act on their ``axes``; the batch axis goes in front of them
for _p in (fftn_p, rfftn_p, irfftn_p):
    _p.batch = axes_param_rule(_p)
del _p
