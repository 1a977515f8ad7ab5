"""Decompositions with several results: eigh, svd, qr (joint derivative rules).

Conventions (as JAX):
- eigh's rules take the input as symmetric (Hermitian): they are the derivatives of
  ``eigh(sym(A))``, ``sym(A) = (A + A^H) / 2``, whichever triangle ``UPLO`` reads.
  Complex eigenvectors are fixed only up to a phase each: the derivative keeps
  ``diag(V^H dV) = 0``, so only phase-invariant functions of them have meaningful
  derivatives.  Eigenvector derivatives need
  distinct eigenvalues; eigenvalue derivatives alone (``eigvalsh``) do not.
- svd: derivatives of U and Vh need distinct, nonzero singular values; those of
  the singular values alone (``compute_uv=False``) do not.  With
  ``full_matrices=True`` and a non-square input the extra columns of U (or rows
  of Vh) are not unique, so there is no derivative (an error says so).
  Complex: U takes the phase freedom (``diag(V^H dV)`` real), as JAX.
- qr: derivatives for ``m >= n`` (reduced, or square complete); R must be
  nonsingular.
Complex matrices: the jvps use conjugate transposes ``H``; the vjps are their
transposes under the pairing ``Re(sum(c * dz))``, hence the ``cj`` (conj) factors.
A cotangent that is a symbolic Zero (an unused result) costs nothing.
"""

from __future__ import annotations

from ..backend import namespace_of
from ..core import Primitive, ShapedArray, Zero
from ._batching import stacked_rule
from .linalg import (
    H, LinAlgError, T, check_stacked_square, cj, diag_embed, diagonal, eye_like, is_complex, matmul,
    real_dtype, solve, sym, tril,
)
from .complex import imag
from .shape import expand_dims


def _not_zero(g):
    return type(g) is not Zero


def _gap_inverse(w):
    """F[..., i, j] = 1 / (w_j - w_i) off the diagonal, 0 on it."""
    eye = eye_like(w, w.shape[-1])
    return 1.0 / (expand_dims(w, -2) - expand_dims(w, -1) + eye) - eye


# --- eigh ----------------------------------------------------------------------------

def _eigh_abstract(a, UPLO):
    check_stacked_square("eigh", a.shape)
    return ShapedArray(tuple(a.shape[:-1]), real_dtype(a.dtype)), ShapedArray(tuple(a.shape), a.dtype)


def _eigh_jvp(ts, ans, a, UPLO):
    w, v = ans
    m = matmul(H(v), matmul(sym(ts[0]), v))
    return diagonal(m), matmul(v, _gap_inverse(w) * m)  # (the driver takes dw's real part)


def _eigh_vjp(g, ans, a, UPLO):
    w, v = ans
    gw, gv = g
    inner = None
    if _not_zero(gw):
        inner = diag_embed(gw)
    if _not_zero(gv):
        part = _gap_inverse(w) * matmul(T(v), gv)
        inner = part if inner is None else inner + part
    return (sym(matmul(cj(v), matmul(inner, T(v)))),)


eigh_p = Primitive("eigh", lambda a, UPLO: tuple(namespace_of(a).linalg.eigh(a, UPLO=UPLO)), _eigh_abstract,
                   multiple_results=True)
eigh_p.defvjp_joint(_eigh_vjp, unsaved_args=(0,))
eigh_p.defjvp_joint(_eigh_jvp)


def eigh(a, UPLO="L"):
    return eigh_p.bind(a, UPLO=UPLO)


# --- svd -------------------------------------------------------------------------------

def _svd_abstract(a, full_matrices, compute_uv):
    if len(a.shape) < 2:
        raise LinAlgError(f"svd: {len(a.shape)}-dimensional array given. Array must be at least two-dimensional")
    *batch, m, n = a.shape
    k = min(m, n)
    s = ShapedArray(tuple(batch) + (k,), real_dtype(a.dtype))
    if not compute_uv:
        return (s,)
    mu, nv = (m, n) if full_matrices else (k, k)
    return ShapedArray(tuple(batch) + (m, mu), a.dtype), s, ShapedArray(tuple(batch) + (nv, n), a.dtype)


def _svd_impl(a, full_matrices, compute_uv):
    xp = namespace_of(a)
    if not compute_uv:
        return (xp.linalg.svd(a, compute_uv=False),)
    return tuple(xp.linalg.svd(a, full_matrices=full_matrices))


def _svd_parts(ans, a, full_matrices, compute_uv, vectors=True):
    """(u, s, vh) of the reduced decomposition, recomputed when the primitive did not return them.

    ``vectors``: whether derivatives of U or Vh are needed (not for S alone).
    """
    m, n = a.shape[-2:]
    if full_matrices and m != n and compute_uv:
        if vectors:
            raise ValueError(
                f"svd: no derivative of U and Vh with full_matrices=True for a non-square input "
                f"(shape {tuple(a.shape)}): the extra singular vectors are not unique. Use "
                "full_matrices=False (or compute_uv=False for the singular values alone)"
            )
        compute_uv = False
    if not compute_uv:
        return svd(a, full_matrices=False, compute_uv=True)
    return ans


def _svd_jvp(ts, ans, a, full_matrices, compute_uv):
    u, s, vh = _svd_parts(ans, a, full_matrices, compute_uv)
    t = ts[0]
    v = H(vh)
    ds_mat = matmul(H(u), matmul(t, v))
    ds = diagonal(ds_mat)  # (the driver takes the real part for complex a)
    if not compute_uv:
        return (ds,)
    s_row, s_col = expand_dims(s, -2), expand_dims(s, -1)
    f = _gap_inverse(s * s)
    du = matmul(u, f * (ds_mat * s_row + s_col * H(ds_mat)))
    dv = matmul(v, f * (s_col * ds_mat + H(ds_mat) * s_row))
    if is_complex(a):  # the phase of each pair (u_k, v_k) is moved into u_k
        du = du + matmul(u, diag_embed(1j * imag(ds) / s))
    m, n = a.shape[-2:]
    if m > n:
        du = du + (matmul(t, v) - matmul(u, ds_mat)) / s_row
    elif n > m:
        dv = dv + (matmul(H(t), u) - matmul(v, H(ds_mat))) / s_row
    return du, ds, H(dv)


def _svd_vjp(g, ans, a, full_matrices, compute_uv):
    if compute_uv:
        gu, gs, gvh = g
    else:
        (gs,), gu, gvh = g, None, None
    vectors = (gu is not None and _not_zero(gu)) or (gvh is not None and _not_zero(gvh))
    u, s, vh = _svd_parts(ans, a, full_matrices, compute_uv, vectors)
    if not vectors:
        gu, gvh = Zero(u), Zero(vh)
    v, vt = H(vh), cj(vh)  # V and V^T
    m, n = a.shape[-2:]
    s_row, s_col = expand_dims(s, -2), expand_dims(s, -1)
    inner = diag_embed(gs) if _not_zero(gs) else None
    extra = None
    if _not_zero(gu) or _not_zero(gvh):
        f = _gap_inverse(s * s)
    if _not_zero(gu):
        ug = matmul(T(u), gu)
        j = f * ug
        part = (j + H(j)) * s_row
        if is_complex(a):
            part = part + diag_embed(1j * imag(diagonal(ug)) / s)
        inner = part if inner is None else inner + part
        if m > n:
            gus = gu / s_row
            extra = matmul(gus - matmul(cj(u), matmul(T(u), gus)), vt)
    if _not_zero(gvh):
        gv = H(gvh)
        k = f * matmul(vt, gv)
        part = s_col * (k + H(k))
        inner = part if inner is None else inner + part
        if n > m:
            gvs = gv / s_row
            part = matmul(cj(u), H(gvs - matmul(cj(v), matmul(vt, gvs))))
            extra = part if extra is None else extra + part
    out = matmul(cj(u), matmul(inner, vt))
    return (out if extra is None else out + extra,)


svd_p = Primitive("svd", _svd_impl, _svd_abstract, multiple_results=True)
svd_p.defvjp_joint(_svd_vjp)
svd_p.defjvp_joint(_svd_jvp)


def svd(a, full_matrices=True, compute_uv=True):
    """(u, s, vh), or (s,) with compute_uv=False."""
    return svd_p.bind(a, full_matrices=bool(full_matrices), compute_uv=bool(compute_uv))


# --- qr ------------------------------------------------------------------------------------

def _qr_abstract(a, mode):
    if len(a.shape) < 2:
        raise LinAlgError(f"qr: {len(a.shape)}-dimensional array given. Array must be at least two-dimensional")
    *batch, m, n = a.shape
    k = min(m, n)
    batch = tuple(batch)
    if mode == "r":
        return (ShapedArray(batch + (k, n), a.dtype),)
    mq = m if mode == "complete" else k
    return ShapedArray(batch + (m, mq), a.dtype), ShapedArray(batch + (mq, n), a.dtype)


def _qr_impl(a, mode):
    out = namespace_of(a).linalg.qr(a, mode=mode)
    return (out,) if mode == "r" else tuple(out)


def _qr_parts(ans, a, mode):
    m, n = a.shape[-2:]
    if m < n or (mode == "complete" and m != n):
        raise ValueError(
            f"qr: derivatives need m >= n and, for mode='complete', a square input; got shape "
            f"{tuple(a.shape)} with mode={mode!r} (Q's extra columns are not unique)"
        )
    return qr(a, "reduced") if mode == "r" else ans


def _right_solve_transpose(x, r):
    """x @ inv(r).T, i.e. solve(r, x.T).T."""
    return T(solve(r, T(x)))


def _qr_jvp(ts, ans, a, mode):
    q, r = _qr_parts(ans, a, mode)
    x = T(solve(T(r), T(ts[0])))  # dA R^-1
    c = matmul(H(q), x)
    low = tril(c, -1)
    omega = low - H(low)
    if is_complex(a):  # R's diagonal stays real
        omega = omega + diag_embed(1j * imag(diagonal(c)))
    dr = matmul(c - omega, r)
    if mode == "r":
        return (dr,)
    return matmul(q, omega - c) + x, dr


def _qr_vjp(g, ans, a, mode):
    q, r = _qr_parts(ans, a, mode)
    gq, gr = (Zero(q), g[0]) if mode == "r" else g
    m = None
    if _not_zero(gq):
        m = matmul(T(q), gq)
    if _not_zero(gr):
        m = -matmul(gr, T(r)) if m is None else m - matmul(gr, T(r))
    c_bar = tril(m - H(m), -1) - m
    if is_complex(a):
        c_bar = c_bar + diag_embed(1j * imag(diagonal(m)))
    x_bar = matmul(cj(q), c_bar)
    if _not_zero(gq):
        x_bar = x_bar + gq
    return (_right_solve_transpose(x_bar, r),)


qr_p = Primitive("qr", _qr_impl, _qr_abstract, multiple_results=True)
qr_p.defvjp_joint(_qr_vjp)
qr_p.defjvp_joint(_qr_jvp)


def qr(a, mode="reduced"):
    """(q, r), or (r,) with mode='r'."""
    return qr_p.bind(a, mode=mode)


# vmap: decompositions act on the trailing (matrix) axes of stacks
for _p in (eigh_p, svd_p, qr_p):
    _p.batch = stacked_rule(_p)
del _p
