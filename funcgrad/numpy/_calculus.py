"""Finite differences and integration, interpolation, 1-D convolution and covariance:
diff, ediff1d, gradient, trapezoid, interp, unwrap, convolve, correlate, cov, corrcoef.

Everything is written with funcgrad operations (slices, arithmetic, gathers), so each
function is differentiable in all of its floating-point arguments, to any order,
in both modes: gradient and trapezoid in the sample coordinates too, interp in
``x``, ``xp`` and ``fp`` (piecewise linear: the derivative in ``x`` is the slope of
the segment, at a knot the one to its right, as numpy's ``searchsorted`` picks it).
"""

from __future__ import annotations

import numpy as np

from ..primitives import scipy_signal as _sig
from ..primitives.index import getitem
from ..backend import kind_of
from ._complex import conj
from ._elementwise import absolute, astype, where
from ._math import clip, remainder
from ._reductions import cumsum, sum as _sum
from ._shape import concatenate, expand_dims, moveaxis, reshape, broadcast_to
from ._util import as_array, dtype_of, normalize_axis
from ._complex import imag, real
from ._elementwise import sqrt
from ._indexing import diagonal, take
from ._sorting import argsort, searchsorted

__all__ = ["diff", "ediff1d", "gradient", "trapezoid", "interp", "unwrap", "convolve", "correlate",
           "cov", "corrcoef"]


def _slice(a, axis, start=None, stop=None, step=None):
    index = [slice(None)] * a.ndim
    index[axis] = slice(start, stop, step)
    return getitem(a, tuple(index))


def _inexact(a):
    return a if kind_of(dtype_of(a)) in "fc" else astype(a, np.float64)


def diff(a, n=1, axis=-1, prepend=np._NoValue, append=np._NoValue):
    """numpy.diff: the n-th discrete difference along ``axis`` (bools: not-equal, as numpy)."""
    if n == 0:
        return as_array(a)
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    a = as_array(a)
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = normalize_axis(axis, a.ndim)
    parts = []
    for value, first in ((prepend, True), (append, False)):
        if value is np._NoValue:
            continue
        v = as_array(value)
        if v.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            v = broadcast_to(v, tuple(shape))
        parts.append((first, v))
    if parts:
        a = concatenate([v for f, v in parts if f] + [a] + [v for f, v in parts if not f], axis=axis)
    for _ in range(int(n)):
        hi, lo = _slice(a, axis, 1), _slice(a, axis, None, -1)
        a = (hi != lo) if dtype_of(a).kind == "b" else hi - lo
    return a


def ediff1d(ary, to_end=None, to_begin=None):
    """numpy.ediff1d: differences of the flattened array, with optional ends."""
    a = reshape(as_array(ary), (-1,))
    out = a[1:] - a[:-1]
    pieces = []
    if to_begin is not None:
        pieces.append(astype(reshape(as_array(to_begin), (-1,)), out.dtype))
    pieces.append(out)
    if to_end is not None:
        pieces.append(astype(reshape(as_array(to_end), (-1,)), out.dtype))
    return concatenate(pieces) if len(pieces) > 1 else out


def _spacings(varargs, f, axes):
    """Per axis: a Python/0-d spacing, or the 1-D differences of a coordinate array."""
    n = len(varargs)
    if n == 0:
        return [1.0] * len(axes)
    if n == 1 and as_array(varargs[0]).ndim == 0:
        return [varargs[0]] * len(axes)
    if n != len(axes):
        raise TypeError("invalid number of arguments")
    out = []
    for d, ax in zip(varargs, axes):
        d = as_array(d)
        if d.ndim == 0:
            out.append(d)
            continue
        if d.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if d.shape[0] != f.shape[ax]:
            raise ValueError("when 1d, distances must match the length of the corresponding dimension")
        d = _inexact(d)
        dx = d[1:] - d[:-1]
        out.append(dx)
    return out


def _along(v, axis, ndim):
    """A 1-D array of coefficients shaped to broadcast along ``axis``."""
    shape = [1] * ndim
    shape[axis] = v.shape[0]
    return reshape(v, tuple(shape))


def _gradient_axis(f, ax, dx, edge_order):
    n = f.shape[ax]
    if n < edge_order + 1:
        raise ValueError("Shape of array too small to calculate a numerical gradient, "
                         "at least (edge_order + 1) elements are required.")
    uniform = as_array(dx).ndim == 0
    s = lambda *a: _slice(f, ax, *a)  # noqa: E731
    if uniform:
        interior = (s(2, None) - s(None, -2)) / (2.0 * dx)
    else:
        dx1, dx2 = dx[:-1], dx[1:]
        a = _along(-dx2 / (dx1 * (dx1 + dx2)), ax, f.ndim)
        b = _along((dx2 - dx1) / (dx1 * dx2), ax, f.ndim)
        c = _along(dx1 / (dx2 * (dx1 + dx2)), ax, f.ndim)
        interior = a * s(None, -2) + b * s(1, -1) + c * s(2, None)
    if edge_order == 1:
        d0, d1 = (dx, dx) if uniform else (dx[0], dx[-1])
        first = (s(1, 2) - s(0, 1)) / d0
        last = (s(-1, None) - s(-2, -1)) / d1
    else:
        if uniform:
            a0, b0, c0 = -1.5 / dx, 2.0 / dx, -0.5 / dx
            a1, b1, c1 = 0.5 / dx, -2.0 / dx, 1.5 / dx
        else:
            dx1, dx2 = dx[0], dx[1]
            a0 = -(2.0 * dx1 + dx2) / (dx1 * (dx1 + dx2))
            b0 = (dx1 + dx2) / (dx1 * dx2)
            c0 = -dx1 / (dx2 * (dx1 + dx2))
            dx1, dx2 = dx[-2], dx[-1]
            a1 = dx2 / (dx1 * (dx1 + dx2))
            b1 = -(dx2 + dx1) / (dx1 * dx2)
            c1 = (2.0 * dx2 + dx1) / (dx2 * (dx1 + dx2))
        first = a0 * s(0, 1) + b0 * s(1, 2) + c0 * s(2, 3)
        last = a1 * s(-3, -2) + b1 * s(-2, -1) + c1 * s(-1, None)
    return concatenate([first, interior, last], axis=ax)


def gradient(f, *varargs, axis=None, edge_order=1):
    """numpy.gradient: second-order central differences inside, first- or second-order
    one-sided differences at the edges; spacings may be scalars or coordinate arrays."""
    f = as_array(f)
    if f.ndim == 0:
        raise ValueError("Shape of array too small to calculate a numerical gradient, "
                         "at least (edge_order + 1) elements are required.")
    if axis is None:
        axes = tuple(range(f.ndim))
    else:
        axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
        axes = tuple(normalize_axis(ax, f.ndim, fname="gradient") for ax in axes)
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
    if edge_order not in (1, 2):
        raise ValueError("'edge_order' greater than 2 not supported")
    f = _inexact(f)
    spacings = _spacings(varargs, f, axes)
    out = tuple(_gradient_axis(f, ax, dx, edge_order) for ax, dx in zip(axes, spacings))
    return out[0] if len(out) == 1 else out


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """numpy.trapezoid: the trapezoidal rule along ``axis`` (x: sample points, 1-D or y's shape)."""
    y = as_array(y)
    axis = normalize_axis(axis, y.ndim)
    if x is None:
        d = dx
    else:
        x = as_array(x)
        if x.ndim == 1:
            d = _along(x[1:] - x[:-1], axis, y.ndim)
        else:
            d = diff(x, axis=axis)
    return _sum(d * (_slice(y, axis, 1) + _slice(y, axis, None, -1)) / 2.0, axis=axis)


def interp(x, xp, fp, left=None, right=None, period=None):
    """numpy.interp: 1-D piecewise linear interpolation (complex fp allowed)."""
    x, xp, fp = _inexact(as_array(x)), _inexact(as_array(xp)), as_array(fp)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("object too deep for desired array" if max(xp.ndim, fp.ndim) > 1
                         else "object of too small depth for desired array")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    fp = fp if dtype_of(fp).kind == "c" else astype(fp, np.float64)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x, xp = remainder(x, period), remainder(xp, period)
        order = argsort(xp)
        xp, fp = take(xp, order), take(fp, order)
        xp = concatenate([xp[-1:] - period, xp, xp[0:1] + period])
        fp = concatenate([fp[-1:], fp, fp[0:1]])
    n = xp.shape[0]
    if n == 1:
        k0 = k1 = as_array(np.zeros(x.shape, np.intp))
        t = 0.0 * x
    else:
        k1 = clip(searchsorted(xp, x, side="right"), 1, n - 1)
        k0 = k1 - 1
        x0, x1 = take(xp, k0), take(xp, k1)
        t = (x - x0) / (x1 - x0)
    f0, f1 = take(fp, k0), take(fp, k1)
    out = f0 + t * (f1 - f0)
    lo = fp[0] if left is None else left
    hi = fp[-1] if right is None else right
    out = where(x == xp[-1], fp[-1], out)
    return where(x < xp[0], lo, where(x > xp[-1], hi, out))


def unwrap(p, discont=None, axis=-1, *, period=2 * np.pi):
    """numpy.unwrap: add multiples of ``period`` so that jumps stay below ``discont``
    (the corrections are piecewise constant: the derivative is the identity)."""
    p = as_array(p)
    axis = normalize_axis(axis, p.ndim)
    p = _inexact(p)
    half = period / 2
    discont = half if discont is None else max(discont, half)
    dd = diff(p, axis=axis)
    ddmod = remainder(dd + half, period) - half
    ddmod = where((ddmod == -half) & (dd > 0), half, ddmod)
    correct = where(absolute(dd) < discont, 0.0, ddmod - dd)
    head = _slice(p, axis, None, 1)
    return concatenate([head, _slice(p, axis, 1) + cumsum(correct, axis=axis)], axis=axis)


def _conv_1d(a, v, mode, fname):
    a, v = as_array(a), as_array(v)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError(f"{fname}: object too deep for desired array (1-D inputs only), "
                         f"got shapes {tuple(a.shape)} and {tuple(v.shape)}")
    if a.shape[0] == 0 or v.shape[0] == 0:
        raise ValueError(f"{fname}: {'a' if a.shape[0] == 0 else 'v'} cannot be empty")
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"{fname}: mode must be one of 'full', 'same', 'valid', got {mode!r}")
    return a, v


def _conv_mode(full, n, m, mode):
    if mode == "full":
        return full
    if mode == "same":
        start = (min(n, m) - 1) // 2
        return full[start:start + max(n, m)]
    return full[min(n, m) - 1:max(n, m)]


def convolve(a, v, mode="full"):
    """numpy.convolve of two 1-D sequences."""
    a, v = _conv_1d(a, v, mode, "convolve")
    return _conv_mode(_sig.convolve_full(a, v), a.shape[0], v.shape[0], mode)


def correlate(a, v, mode="valid"):
    """numpy.correlate: c[k] = sum_n a[n + k] conj(v[n])."""
    a, v = _conv_1d(a, v, mode, "correlate")
    n, m = a.shape[0], v.shape[0]
    if m > n:  # numpy: the reversed, conjugated correlation of the swapped pair
        return conj(correlate(v, a, mode))[::-1]
    vr = v[::-1]
    vr = conj(vr) if dtype_of(vr).kind == "c" else vr
    return _conv_mode(_sig.convolve_full(a, vr), n, m, mode)


def _observations(m, rowvar, dtype):
    m = as_array(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    m = reshape(m, (1, -1)) if m.ndim < 2 else m
    if not rowvar and m.shape[0] != 1:
        m = moveaxis(m, 0, 1)
    if dtype is None:
        dtype = np.result_type(m.dtype, np.float64)
    return astype(m, dtype)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """numpy.cov: the (weighted) covariance matrix of the rows (variables) of m (and y)."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    X = _observations(m, rowvar, dtype)
    if y is not None:
        X = concatenate([X, _observations(y, rowvar, X.dtype)], axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    n = X.shape[1]
    w = None
    for name, wt in (("fweights", fweights), ("aweights", aweights)):
        if wt is None:
            continue
        wt = as_array(wt)
        if wt.ndim > 1:
            raise RuntimeError(f"cannot handle multidimensional {name}")
        if wt.shape[0] != n:
            raise RuntimeError(f"incompatible numbers of samples and {name}")
        if name == "fweights" and dtype_of(wt).kind not in "iub":
            raise TypeError("fweights must be integer")
        w = astype(wt, X.dtype if kind_of(dtype_of(X)) == "f" else np.float64) if w is None else w * wt
    if w is None:
        avg = _sum(X, axis=1) / n
        fact = n - ddof
        Xc = X - expand_dims(avg, 1)
        c = Xc @ conj(Xc.T)
        c = c / fact
    else:
        w_sum = _sum(w)
        avg = _sum(X * w, axis=1) / w_sum
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * _sum(w * as_array(aweights)) / w_sum
        Xc = X - expand_dims(avg, 1)
        c = (Xc * w) @ conj(Xc.T) / fact
    return reshape(c, ()) if c.shape == (1, 1) else c


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """numpy.corrcoef: Pearson correlation coefficients, clipped to [-1, 1] (real part)."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = diagonal(c)
    std = sqrt(d.real if dtype_of(d).kind == "c" else d)
    c = c / expand_dims(std, 1) / expand_dims(std, 0)
    if dtype_of(c).kind == "c":
        return clip(real(c), -1, 1) + 1j * clip(imag(c), -1, 1)
    return clip(c, -1, 1)
