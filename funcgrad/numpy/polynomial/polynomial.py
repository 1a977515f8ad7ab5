"""numpy.polynomial.polynomial's functions (power series, coefficients lowest degree first).

Each follows numpy's code (``as_series`` trims trailing zeros and converts to an inexact
type; results are trimmed where numpy trims them, on the concrete values), written with
funcgrad operations, so each is differentiable in coefficients, points, roots and data.
"""

from __future__ import annotations

import functools
import operator

import numpy as np

from ...core import Array, Tracer
from .._calculus import convolve
from .._creation import asarray
from .._elementwise import absolute, astype, sqrt
from .._indexing import const_like, host_values
from .._reductions import prod, sum as _sum
from .._shape import concatenate, moveaxis, reshape, stack
from .._sorting import sort
from .._util import normalize_axis
from .. import linalg
from .._complex import real

__all__ = ["polyadd", "polycompanion", "polyder", "polydiv", "polydomain", "polyfit", "polyfromroots",
           "polygrid2d", "polygrid3d", "polyint", "polyline", "polymul", "polymulx", "polyone", "polypow",
           "polyroots", "polysub", "polytrim", "polyval", "polyval2d", "polyval3d", "polyvalfromroots",
           "polyvander", "polyvander2d", "polyvander3d", "polyx", "polyzero"]

polydomain = Array(np.array([-1.0, 1.0]))
polyzero = Array(np.array([0]))
polyone = Array(np.array([1]))
polyx = Array(np.array([0, 1]))

_INTEGER_CHARS = "?bBhHiIlLqQpP"


def _host(c):
    return host_values(c, "numpy.polynomial")


def _trimseq(c):
    h = _host(c)
    if h.shape[0] == 0 or h[-1] != 0:
        return c
    nz = np.flatnonzero(h)
    return c[:int(nz[-1]) + 1] if nz.size else c[:1]


def _as_series(alist, trim=True):
    arrays = [atleast(a) for a in alist]
    for a in arrays:
        if a.size == 0:
            raise ValueError("Coefficient array is empty")
        if a.ndim != 1:
            raise ValueError("Coefficient array is not 1-d")
    if trim:
        arrays = [_trimseq(a) for a in arrays]
    dt = np.result_type(*(a.dtype for a in arrays), np.float16)
    dt = np.dtype(np.float64) if dt.kind in "iub" or dt == np.float16 else dt
    return [astype(a, dt) for a in arrays]


def atleast(a):
    a = asarray(a)
    return reshape(a, (1,)) if a.ndim == 0 else a


def _inexact(c):
    c = atleast(c)
    return astype(c, np.float64) if np.dtype(c.dtype).char in _INTEGER_CHARS else c


def _zeros_like_first(c):
    return c[:1] * 0


def polyline(off, scl):
    if isinstance(scl, (int, float, complex)) and scl == 0:
        return asarray([off])
    return asarray([off, scl])


def _pad_to(c, n):
    if c.shape[0] == n:
        return c
    return concatenate([c, const_like(np.zeros(n - c.shape[0], dtype=c.dtype), c)])


def polyadd(c1, c2):
    c1, c2 = _as_series([c1, c2])
    n = max(c1.shape[0], c2.shape[0])
    return _trimseq(_pad_to(c1, n) + _pad_to(c2, n))


def polysub(c1, c2):
    c1, c2 = _as_series([c1, c2])
    n = max(c1.shape[0], c2.shape[0])
    return _trimseq(_pad_to(c1, n) - _pad_to(c2, n))


def polymulx(c):
    [c] = _as_series([c])
    if c.shape[0] == 1 and _host(c)[0] == 0:
        return c
    return concatenate([c[:1] * 0, c])


def polymul(c1, c2):
    c1, c2 = _as_series([c1, c2])
    return _trimseq(convolve(c1, c2))


def polydiv(c1, c2):
    c1, c2 = _as_series([c1, c2])
    if _host(c2)[-1] == 0:
        raise ZeroDivisionError("Leading coefficient of divisor is zero")
    lc1, lc2 = c1.shape[0], c2.shape[0]
    if lc1 < lc2:
        return c1[:1] * 0, c1
    if lc2 == 1:
        return c1 / c2[-1], c1[:1] * 0
    scl = c2[-1]
    c2 = c2[:-1] / scl
    i, j = lc1 - lc2, lc1 - 1
    while i >= 0:
        c1 = c1.at[i:j].add(-(c2 * c1[j]))
        i, j = i - 1, j - 1
    return c1[j + 1:] / scl, _trimseq(c1[:j + 1])


def polypow(c, pow, maxpower=None):
    [c] = _as_series([c])
    power = int(pow)
    if power != pow or power < 0:
        raise ValueError("Power must be a non-negative integer.")
    if maxpower is not None and power > maxpower:
        raise ValueError("Power is too large")
    if power == 0:
        return const_like(np.array([1], dtype=c.dtype), c)
    prd = c
    for _ in range(2, power + 1):
        prd = convolve(prd, c)
    return prd


def polyval(x, c, tensor=True):
    """sum_i c[i] * x**i by Horner's scheme; with ``tensor`` each column of c is evaluated at every x."""
    c = _inexact(c)
    if isinstance(x, (tuple, list)):
        x = asarray(x)
    if isinstance(x, (Array, Tracer, np.ndarray)) and tensor:
        x = asarray(x)
        c = reshape(c, tuple(c.shape) + (1,) * x.ndim)
    c0 = c[-1] + x * 0
    for i in range(2, c.shape[0] + 1):
        c0 = c[-i] + c0 * x
    return c0


def polyvalfromroots(x, r, tensor=True):
    r = _inexact(r)
    if isinstance(x, (tuple, list)):
        x = asarray(x)
    if isinstance(x, (Array, Tracer, np.ndarray)):
        x = asarray(x)
        if tensor:
            r = reshape(r, tuple(r.shape) + (1,) * x.ndim)
        elif x.ndim >= r.ndim:
            raise ValueError("x.ndim must be < r.ndim when tensor == False")
    return prod(x - r, axis=0)


def _as_int(v, desc):
    try:
        return operator.index(v)
    except TypeError as e:
        raise TypeError(f"{desc} must be an integer, received {v}") from e


def polyder(c, m=1, scl=1, axis=0):
    c = _inexact(c)
    cnt = _as_int(m, "the order of derivation")
    iaxis = _as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of derivation must be non-negative")
    iaxis = normalize_axis(iaxis, c.ndim)
    if cnt == 0:
        return c
    c = moveaxis(c, iaxis, 0)
    n = c.shape[0]
    if cnt >= n:
        c = c[:1] * 0
    else:
        for _ in range(cnt):
            n -= 1
            c = c * scl
            j = const_like(np.arange(1, n + 1, dtype=np.float64).reshape((n,) + (1,) * (c.ndim - 1)), c)
            c = astype(c[1:] * j, c.dtype)
    return moveaxis(c, 0, iaxis)


def polyint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006  (numpy's signature)
    c = _inexact(c)
    if not np.iterable(k) or isinstance(k, (Array, Tracer)) and k.ndim == 0:
        k = [k]
    cnt = _as_int(m, "the order of integration")
    iaxis = _as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError("The order of integration must be non-negative")
    if len(k) > cnt:
        raise ValueError("Too many integration constants")
    if np.ndim(lbnd) != 0:
        raise ValueError("lbnd must be a scalar.")
    if np.ndim(scl) != 0:
        raise ValueError("scl must be a scalar.")
    iaxis = normalize_axis(iaxis, c.ndim)
    if cnt == 0:
        return c
    k = list(k) + [0] * (cnt - len(k))
    c = moveaxis(c, iaxis, 0)
    for i in range(cnt):
        n = c.shape[0]
        c = c * scl
        if n == 1 and bool(np.all(_host(c)[0] == 0)):
            c = c.at[0].add(k[i])
            continue
        j = const_like(np.arange(1, n + 1, dtype=np.float64).reshape((n,) + (1,) * (c.ndim - 1)), c)
        tmp = concatenate([c[:1] * 0, astype(c / j, c.dtype)])
        tmp = tmp.at[0].add(k[i] - polyval(lbnd, tmp))
        c = tmp
    return moveaxis(c, 0, iaxis)


def polyfromroots(roots):
    r = atleast(roots)
    if r.shape[0] == 0:
        return const_like(np.ones(1), r)
    [r] = _as_series([r], trim=False)
    r = sort(r)
    p = [stack([-r[i], const_like(np.ones((), dtype=r.dtype), r)]) for i in range(r.shape[0])]
    n = len(p)
    while n > 1:
        m, rem = divmod(n, 2)
        tmp = [polymul(p[i], p[i + m]) for i in range(m)]
        if rem:
            tmp[0] = polymul(tmp[0], p[-1])
        p, n = tmp, m
    return p[0]


def polyvander(x, deg):
    ideg = _as_int(deg, "deg")
    if ideg < 0:
        raise ValueError("deg must be non-negative")
    x = atleast(x)
    x = x + 0.0 if np.dtype(x.dtype).kind in "iub" else x
    cols = [x * 0 + 1]
    for _ in range(ideg):
        cols.append(cols[-1] * x)
    return stack(cols, axis=-1)


def _vander_nd(points, degrees):
    n = len(points)
    if n != len(degrees):
        raise ValueError(f"Expected {n} dimensions of sample points, got {len(degrees)}")
    points = [asarray(p) for p in points]
    shapes = {tuple(p.shape) for p in points}
    if len(shapes) != 1:
        raise ValueError("x, y, z are incompatible" if n == 3 else "x, y are incompatible")
    arrays = []
    for i, (p, d) in enumerate(zip(points, degrees)):
        v = polyvander(p, d)
        index = (Ellipsis,) + tuple(slice(None) if j == i else None for j in range(n))
        arrays.append(v[index])
    v = functools.reduce(operator.mul, arrays)
    return reshape(v, tuple(v.shape[:-n]) + (-1,))


def polyvander2d(x, y, deg):
    return _vander_nd((x, y), [int(d) for d in deg])


def polyvander3d(x, y, z, deg):
    return _vander_nd((x, y, z), [int(d) for d in deg])


def _valnd(c, *args):
    args = [asarray(a) for a in args]
    if any(tuple(a.shape) != tuple(args[0].shape) for a in args[1:]):
        raise ValueError("x, y, z are incompatible" if len(args) == 3 else "x, y are incompatible")
    c = polyval(args[0], c)
    for xi in args[1:]:
        c = polyval(xi, c, tensor=False)
    return c


def polyval2d(x, y, c):
    return _valnd(c, x, y)


def polyval3d(x, y, z, c):
    return _valnd(c, x, y, z)


def polygrid2d(x, y, c):
    for xi in (x, y):
        c = polyval(xi, c)
    return c


def polygrid3d(x, y, z, c):
    for xi in (x, y, z):
        c = polyval(xi, c)
    return c


def polycompanion(c):
    [c] = _as_series([c])
    if c.shape[0] < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if c.shape[0] == 2:
        return reshape(-c[0] / c[1], (1, 1))
    n = c.shape[0] - 1
    sub = const_like(np.eye(n, k=-1, dtype=c.dtype), c)
    last = reshape(-c[:-1] / c[-1], (n, 1))
    return concatenate([sub[:, :-1], sub[:, -1:] + last], axis=1)


def polyroots(c):
    [c] = _as_series([c])
    if c.shape[0] < 2:
        return const_like(np.array([], dtype=c.dtype), c)
    if c.shape[0] == 2:
        return reshape(-c[0] / c[1], (1,))
    m = polycompanion(c)[::-1, ::-1]
    r = linalg.eigvals(m)
    if np.dtype(c.dtype).kind != "c" and np.all(_host(r).imag == 0):
        r = real(r)
    return sort(r)


def polytrim(c, tol=0):
    if tol < 0:
        raise ValueError("tol must be non-negative")
    [c] = _as_series([c])
    ind = np.flatnonzero(np.abs(_host(c)) > tol)
    return c[:1] * 0 if ind.size == 0 else c[:int(ind[-1]) + 1]


def polyfit(x, y, deg, rcond=None, full=False, w=None):
    """Least squares fit of a power series (numpy's _fit: row-scaled Vandermonde + lstsq)."""
    x, y = _inexact(x), _inexact(y)
    degh = np.asarray(deg)
    if degh.ndim > 1 or degh.dtype.kind not in "iu" or degh.size == 0:
        raise TypeError("deg must be an int or non-empty 1-D array of int")
    if degh.min() < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if degh.ndim == 0:
        lmax = int(degh)
        order = lmax + 1
        van = polyvander(x, lmax)
    else:
        degh = np.sort(degh)
        lmax = int(degh[-1])
        order = len(degh)
        van = polyvander(x, lmax)[:, degh]
    lhs, rhs = van.T, y.T
    if w is not None:
        w = _inexact(w)
        if w.ndim != 1:
            raise TypeError("expected 1D vector for w")
        if x.shape[0] != w.shape[0]:
            raise TypeError("expected x and w to have same length")
        lhs, rhs = lhs * w, rhs * w
    if rcond is None:
        rcond = x.shape[0] * np.finfo(x.dtype).eps
    sq = absolute(lhs) ** 2 if np.dtype(lhs.dtype).kind == "c" else lhs * lhs
    scl = _sum(sq, axis=1)
    scl = sqrt(scl + const_like((_host(scl) == 0).astype(np.float64), scl))  # zero rows scale by 1
    c, resids, rank, s = linalg.lstsq(lhs.T / scl, rhs.T, rcond)
    c = (c.T / scl).T
    if degh.ndim > 0:
        cc = const_like(np.zeros((lmax + 1,) + tuple(c.shape[1:]), dtype=c.dtype), c)
        c = cc.at[degh].set(c)
    del order
    return (c, [resids, rank, s, rcond]) if full else c
