"""numpy's polynomial functions on coefficient arrays (highest power first): poly, polyadd,
polysub, polymul, polydiv, polyder, polyint, polyval, polyfit, roots, vander.

All are written with funcgrad operations (Horner steps, convolve, functional updates,
``linalg.lstsq``, ``linalg.eigvals``), so each is differentiable in its coefficients,
points and roots, to any order.  Where numpy's result depends on values (trimming leading
zeros, real results for conjugate roots), the decision is taken on the concrete values.
"""

from __future__ import annotations

import numpy as np

from ..core import Array, Tracer
from ._calculus import convolve
from ._creation import asarray, ones_like, zeros_like
from ._elementwise import astype, sqrt
from ._math import iscomplexobj
from ._indexing import const_like, host_values
from ._complex import real
from ._joining import atleast_1d
from ._shape import concatenate, reshape, stack
from ._reductions import sum as _sum
from . import linalg

__all__ = ["poly", "polyadd", "polysub", "polymul", "polydiv", "polyder", "polyint", "polyval",
           "polyfit", "roots", "vander"]


def _coefficients(p, fname):
    p = atleast_1d(asarray(p))
    if p.ndim != 1:
        raise ValueError(f"{fname}: the coefficients must be a 1-d array, got shape {tuple(p.shape)}")
    return p


def _host(x, fname):
    return host_values(x, fname)


def polyval(p, x):
    """numpy.polyval by Horner's scheme: p[0] * x**(N-1) + ... + p[N-1]."""
    p = _coefficients(p, "polyval")
    x = asarray(x)
    y = zeros_like(x)
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y


def _aligned(a1, a2, fname):
    a1, a2 = _coefficients(a1, fname), _coefficients(a2, fname)
    n1, n2 = a1.shape[0], a2.shape[0]
    if n1 < n2:
        a1 = concatenate([const_like(np.zeros(n2 - n1, dtype=a1.dtype), a1), a1])
    elif n2 < n1:
        a2 = concatenate([const_like(np.zeros(n1 - n2, dtype=a2.dtype), a2), a2])
    return a1, a2


def polyadd(a1, a2):
    a1, a2 = _aligned(a1, a2, "polyadd")
    return a1 + a2


def polysub(a1, a2):
    a1, a2 = _aligned(a1, a2, "polysub")
    return a1 - a2


def polymul(a1, a2):
    return convolve(_coefficients(a1, "polymul"), _coefficients(a2, "polymul"))


def polydiv(u, v):
    """numpy.polydiv: (quotient, remainder); leading (numerically) zero remainder terms trimmed."""
    u, v = _coefficients(u, "polydiv"), _coefficients(v, "polydiv")
    dt = np.result_type(u.dtype, v.dtype, np.float64 if np.dtype(u.dtype).kind in "iub" else u.dtype)
    u, v = astype(u, dt), astype(v, dt)
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1.0 / v[0]
    q = const_like(np.zeros(max(m - n + 1, 1), dtype=dt), u)
    r = u
    for k in range(m - n + 1):
        d = scale * r[k]
        q = q.at[k].set(d)
        r = r.at[k:k + n + 1].add(-d * v)
    rh = _host(r, "polydiv")
    start = 0
    while start < rh.shape[0] - 1 and np.allclose(rh[start], 0, rtol=1e-14):
        start += 1
    return q, r[start:]


def polyder(p, m=1):
    """numpy.polyder: the m-th derivative's coefficients."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = _coefficients(p, "polyder")
    for _ in range(m):
        n = p.shape[0] - 1
        p = p[:-1] * const_like(np.arange(n, 0, -1), p)
    return p


def polyint(p, m=1, k=None):
    """numpy.polyint: the m-th antiderivative, integration constants ``k`` (lowest order last)."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    if k is None:
        ks = [0.0] * m
    else:
        kh = atleast_1d(asarray(k))
        if kh.shape[0] == 1 and m > 1:
            ks = [kh[0]] * m
        elif kh.shape[0] < m:
            raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
        else:
            ks = [kh[i] for i in range(m)]
    p = _coefficients(p, "polyint")
    for i in range(m):
        p = p / const_like(np.arange(p.shape[0], 0, -1), p)
        k_i = ks[i] if isinstance(ks[i], (Array, Tracer)) else const_like(np.asarray(ks[i]), p)
        p = concatenate([p, reshape(astype(k_i, p.dtype), (1,))])
    return p


def vander(x, N=None, increasing=False):
    """numpy.vander: columns x**(N-1), ..., x**0 (products, so derivatives are finite at 0)."""
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    x = astype(x, np.promote_types(x.dtype, int))  # numpy's dtype (float32 -> float64)
    N = x.shape[0] if N is None else int(N)
    if N < 0:
        raise ValueError("negative dimensions are not allowed")
    cols, col = [], ones_like(x)
    for _ in range(N):
        cols.append(col)
        col = col * x
    out = stack(cols, axis=1) if cols else const_like(np.zeros((x.shape[0], 0), dtype=x.dtype), x)
    return out if increasing or N == 0 else out[:, ::-1]


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """numpy.polyfit: least squares on the column-scaled Vandermonde matrix (``linalg.lstsq``)."""
    order = int(deg) + 1
    x, y = asarray(x), asarray(y)
    x = x if np.dtype(x.dtype).kind in "fc" else astype(x, np.float64)
    y = y if np.dtype(y.dtype).kind in "fc" else astype(y, np.float64)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.shape[0] == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = x.shape[0] * np.finfo(x.dtype).eps
    lhs, rhs = vander(x, order), y
    if w is not None:
        w = asarray(w)
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w if rhs.ndim == 1 else w[:, None])
    scale = sqrt(_sum(real(lhs * lhs.conj()) if iscomplexobj(lhs) else lhs * lhs, axis=0))
    lhs = lhs / scale
    c, resids, rank, s = linalg.lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if full:
        return c, resids, rank, s, rcond
    if cov:
        return c, _fit_cov(lhs, scale, resids, x.shape[0], order, cov, rhs.ndim)
    return c


def _fit_cov(lhs, scale, resids, n, order, cov, y_ndim):
    vbase = linalg.inv(lhs.T @ lhs) / (scale[:, None] * scale[None, :])
    if cov == "unscaled":
        fac = 1
    else:
        if n <= order:
            raise ValueError("the number of data points must exceed order to scale the covariance matrix")
        fac = resids / (n - order)
    if y_ndim == 1:
        return vbase * fac
    return vbase[:, :, None] * fac


def roots(p):
    """numpy.roots: eigenvalues of the companion matrix (real when they all are, as numpy)."""
    p = _coefficients(p, "roots")
    nz = np.flatnonzero(_host(p, "roots"))
    if nz.size == 0:
        return const_like(np.array([]), p)
    trailing = p.shape[0] - int(nz[-1]) - 1
    p = p[int(nz[0]):int(nz[-1]) + 1]
    n = p.shape[0]
    if n > 1:
        first = reshape(-p[1:] / p[0], (1, n - 1))
        companion = concatenate([first, const_like(np.eye(n - 2, n - 1, dtype=first.dtype), p)]) \
            if n > 2 else first
        r = linalg.eigvals(companion)
        if not iscomplexobj(p) and np.all(_host(r, "roots").imag == 0):
            r = real(r)
    else:
        r = const_like(np.array([]), p)
    if trailing:
        r = concatenate([r, const_like(np.zeros(trailing, dtype=r.dtype), p)])
    return r


def poly(seq_of_zeros):
    """numpy.poly: the monic polynomial with the given roots (or a square matrix's eigenvalues)."""
    z = asarray(seq_of_zeros)
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] != 0:
        z = linalg.eigvals(z)
    elif z.ndim != 1:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return asarray(1.0)
    dt = np.result_type(z.dtype, np.float64)
    one = const_like(np.ones(1, dtype=dt), z)
    a = one
    for i in range(z.shape[0]):
        a = convolve(a, concatenate([one, reshape(-astype(z[i], dt), (1,))]))
    if np.dtype(dt).kind == "c":
        zh = _host(z, "poly").astype(complex)
        if np.all(np.sort(zh) == np.sort(zh.conjugate())):
            a = real(a)
    return a
