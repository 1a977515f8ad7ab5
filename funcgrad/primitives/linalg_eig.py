"""The general (non-symmetric) eigenproblem: eig -> (w, v), both complex (as JAX).

``A v_j = w_j v_j`` fixes each eigenvector only up to a complex scalar; LAPACK's
geev (numpy.linalg.eig) picks unit 2-norm and a real largest-magnitude component,
and the derivatives follow that choice (as JAX, nondegenerate perturbation theory):

    P  = V^-1 dA V,   dw = diag(P),   U = V (F * P),   F_ij = 1 / (w_j - w_i) (0 on the diagonal)
    dv_j = u_j + c_j v_j,   c_j = -Re(v_j^H u_j) - i Im(u_kj) / Re(v_kj),   k = argmax_i |v_ij|

The vjp is the transpose of this map under the pairing ``Re(sum(c * dz))``
(primitives/complex.py).  Eigenvalues must be distinct (for eigenvectors) and the
largest component of each eigenvector unique; eigenvalue derivatives alone need
distinct eigenvalues only where they are used through the eigenvectors (a symbolic
Zero cotangent of V costs nothing).
"""

from __future__ import annotations

import numpy as np

from ..backend import NoDeviceImplementationError, namespace_of
from ..core import Primitive, ShapedArray, Zero
from ._batching import stacked_rule
from .complex import conj, imag, real
from .elementwise import absolute, equal, where
from .linalg import T, check_stacked_square, diag_embed, diagonal, eye_like, matmul, solve
from .reduce import reduce_max, reduce_sum
from .shape import expand_dims

__all__ = ["eig"]


def _complex_dtype(dtype):
    return np.result_type(dtype, np.complex64)


def _eig_abstract(a):
    check_stacked_square("eig", a.shape)
    dt = _complex_dtype(a.dtype)
    return ShapedArray(tuple(a.shape[:-1]), dt), ShapedArray(tuple(a.shape), dt)


def _eig_impl(a):
    xp = namespace_of(a)
    fn = getattr(xp.linalg, "eig", None)
    if fn is None:
        raise NoDeviceImplementationError(f"eig: the {xp.__name__} backend has no linalg.eig (general "
                                          "eigenproblem); move the matrix to the cpu first")
    dt = _complex_dtype(a.dtype)
    w, v = fn(a)
    return w.astype(dt, copy=False), v.astype(dt, copy=False)


def _gap(w):
    """F[..., i, j] = 1 / (w_j - w_i) off the diagonal, 0 on it."""
    eye = eye_like(w, w.shape[-1])
    return 1.0 / (expand_dims(w, -2) - expand_dims(w, -1) + eye) - eye


def _column_sum(x):
    return reduce_sum(x, (x.ndim - 2,))


def _largest(v):
    """(mask of each column's largest-magnitude entry, that entry's real part)."""
    mag = absolute(v)
    mask = equal(mag, reduce_max(mag, (v.ndim - 2,), keepdims=True))
    return mask, real(_column_sum(where(mask, v, 0.0)))


def _eig_jvp(ts, ans, a):
    w, v = ans
    p = matmul(solve(v, ts[0]), v)
    u = matmul(v, _gap(w) * p)
    mask, r = _largest(v)
    c = -real(_column_sum(conj(v) * u)) - 1j * (imag(_column_sum(where(mask, u, 0.0))) / r)
    return diagonal(p), u + v * expand_dims(c, -2)


def _eig_vjp(g, ans, a):
    w, v = ans
    gw, gv = g
    p_bar = diag_embed(gw) if type(gw) is not Zero else None
    if type(gv) is not Zero:
        mask, r = _largest(v)
        c_bar = _column_sum(gv * v)
        u_bar = gv - expand_dims(real(c_bar), -2) * conj(v) \
            - where(mask, 1j * expand_dims(imag(c_bar) / r, -2), 0.0)
        part = _gap(w) * matmul(T(v), u_bar)
        p_bar = part if p_bar is None else p_bar + part
    if p_bar is None:
        return (None,)
    return (solve(T(v), matmul(p_bar, T(v))),)  # V^-T P_bar V^T


eig_p = Primitive("eig", _eig_impl, _eig_abstract, multiple_results=True)
eig_p.defvjp_joint(_eig_vjp, unsaved_args=(0,))
eig_p.defjvp_joint(_eig_jvp)
eig_p.batch = stacked_rule(eig_p)


def eig(a):
    """(eigenvalues, right eigenvectors) of a stack of square matrices, complex."""
    return eig_p.bind(a)
