"""torch.linalg factorizations: the checked ``*_ex`` forms (``cholesky_ex``, ``inv_ex``,
``solve_ex``: an ``info`` tensor instead of an error), LU (``lu_factor``, ``lu``, ``lu_solve``,
``lu_unpack`` and the legacy ``torch.lu_solve``), ``eig``/``eigvals`` of general matrices and
``householder_product``.

The LU factorisation itself is computed by scipy and is not differentiable here (an input that
requires grad is refused with a clear error); the rest is written with compat ops and
funcgrad.numpy.linalg, so gradients come from the core's rules."""

from __future__ import annotations

import numpy as np

from .. import numpy as fnp
from . import dtypes
from ._dispatch import FUNCS, METHODS, op
from .device import like
from .autograd.grad_mode import STATE
from .linalg import LinAlgError, _linalg, _returns, _square, inv, solve
from .linalg_solvers import solve_triangular
from .tensor import Tensor, wrap

__all__ = ["cholesky_ex", "inv_ex", "solve_ex", "lu_factor_ex", "lu_factor", "lu_unpack", "lu", "lu_solve", "eig", "eigvals", "householder_product"]


_EX = _returns("linalg_cholesky_ex", ["L", "info"])


_INV_EX = _returns("linalg_inv_ex", ["inverse", "info"])


_SOLVE_EX = _returns("linalg_solve_ex", ["result", "info"])


_LU_FACTOR = _returns("linalg_lu_factor", ["LU", "pivots"])


_LU_FACTOR_EX = _returns("linalg_lu_factor_ex", ["LU", "pivots", "info"])


_LU = _returns("linalg_lu", ["P", "L", "U"])


_EIG = _returns("linalg_eig", ["eigenvalues", "eigenvectors"])


_UNPACK = _returns("lu_unpack", ["P", "L", "U"])


def _info(A, fails):
    """Per-matrix LAPACK-style info (0 = success) as an int32 tensor of A's batch shape."""
    batch = tuple(A.shape[:-2])
    mats = A.detach()._value.reshape((-1,) + tuple(A.shape[-2:]))
    out = np.array([fails(_host(m)) for m in mats], np.int32)
    return wrap(like(out.reshape(batch), A._value))


def _host(buf):
    return buf.get() if hasattr(buf, "get") else np.asarray(buf)


def _chol_info(m):
    n = m.shape[-1]
    for k in range(1, n + 1):
        try:
            np.linalg.cholesky(m[:k, :k])
        except np.linalg.LinAlgError:
            return k
    return 0


def _singular_info(m):
    if m.shape[0] == 0:
        return 0
    import scipy.linalg  # noqa: PLC0415

    with np.errstate(all="ignore"), __import__("warnings").catch_warnings():
        __import__("warnings").simplefilter("ignore")
        lu_, _ = scipy.linalg.lu_factor(m, check_finite=False)
    zero = np.nonzero(np.diagonal(lu_) == 0)[0]
    return int(zero[0]) + 1 if zero.size else 0


def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    """(L, info): info 0 where A is positive-definite, else the order of the first leading minor
    that is not (L is then not a factor)."""
    from .linalg import cholesky  # noqa: PLC0415

    info = _info(A, _chol_info)
    if not bool((info._value != 0).any()):
        return _EX(cholesky(A, upper=upper), info)
    if check_errors:
        raise LinAlgError(f"linalg.cholesky_ex: The factorization could not be completed because the input is not "
                          f"positive-definite (the leading minor of order {int(info._value.max())} is not "
                          "positive-definite).")
    return _EX(A * float("nan"), info)


def inv_ex(A, *, check_errors=False, out=None):
    info = _info(A, _singular_info)
    if bool((info._value != 0).any()):
        if check_errors:
            raise LinAlgError("linalg.inv_ex: The diagonal element {} is zero, the inversion could not be completed "
                              "because the input matrix is singular.".format(int(info._value.max())))
        return _INV_EX(A * float("nan"), info)
    return _INV_EX(inv(A), info)


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    info = _info(A, _singular_info)
    if bool((info._value != 0).any()):
        if check_errors:
            raise LinAlgError("linalg.solve_ex: The solver failed because the input matrix is singular.")
        return _SOLVE_EX(B * float("nan"), info)
    return _SOLVE_EX(solve(A, B) if left else solve(A.mT, B.mT).mT, info)


def _no_grad_lu(A, name):
    if STATE.enabled and isinstance(A, Tensor) and A.requires_grad:
        raise NotImplementedError(f"torch.linalg.{name}: the derivative of the LU factorisation is not implemented "
                                  "in funcgrad.compat (detach the input, or use linalg.solve, which is "
                                  "differentiable)")


def _lu_raw(A):
    import scipy.linalg  # noqa: PLC0415

    m, n = A.shape[-2:]
    mats = _host(A.detach()._value).reshape((-1, m, n))
    lus, pivs, infos = [], [], []
    for a in mats:
        if m == n:
            infos.append(_singular_info(a))
            with np.errstate(all="ignore"), __import__("warnings").catch_warnings():
                __import__("warnings").simplefilter("ignore")
                lu_, piv = scipy.linalg.lu_factor(a, check_finite=False)
        else:
            p, l_, u = scipy.linalg.lu(a)
            k = min(m, n)
            lu_ = np.zeros((m, n), a.dtype)
            lu_[:, :k] += np.tril(l_[:, :k], -1)
            lu_[:k, :] += np.triu(u[:k, :])
            perm = p.argmax(axis=0)  # row i of P^T A is row perm[i] of A
            piv, cur = np.zeros(k, np.int64), list(range(m))
            pos = {r: i for i, r in enumerate(cur)}
            for i in range(k):
                j = pos[perm[i]]
                piv[i] = j
                cur[i], cur[j] = cur[j], cur[i]
                pos[cur[i]], pos[cur[j]] = i, j
            infos.append(0)
        lus.append(lu_)
        pivs.append(np.asarray(piv, np.int32) + 1)
    batch = tuple(A.shape[:-2])
    k = min(m, n)
    return (wrap(like(np.asarray(lus).reshape(batch + (m, n)), A._value)),
            wrap(like(np.asarray(pivs, np.int32).reshape(batch + (k,)), A._value)),
            wrap(like(np.asarray(infos, np.int32).reshape(batch), A._value)))


def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    """(LU, pivots, info): L (unit diagonal, below) and U packed; 1-based row swaps (LAPACK's)."""
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    _no_grad_lu(A, "lu_factor")
    lu_, piv, info = _lu_raw(A)
    if check_errors and bool((info._value != 0).any()):
        raise LinAlgError("linalg.lu_factor_ex: the input matrix is singular.")
    return _LU_FACTOR_EX(lu_, piv, info)


def lu_factor(A, *, pivot=True, out=None):
    lu_, piv, info = lu_factor_ex(A, pivot=pivot)
    if bool((info._value != 0).any()):
        raise LinAlgError(f"linalg.lu_factor: U[{int(info._value.max())},{int(info._value.max())}] is zero and "
                          "using it on lu_solve would result in a division by zero. If you still want to perform "
                          "the factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")
    return _LU_FACTOR(lu_, piv)


def _perm_matrix(piv, m, like_t):
    """P with ``A = P L U`` from 1-based LAPACK row swaps (batched)."""
    p = _host(piv._value).reshape((-1, piv.shape[-1])) - 1
    mats = []
    for row in p:
        perm = list(range(m))
        for i, j in enumerate(row):
            perm[i], perm[j] = perm[j], perm[i]
        P = np.zeros((m, m))
        P[perm, np.arange(m)] = 1.0
        mats.append(P)
    P = np.asarray(mats).reshape(tuple(piv.shape[:-1]) + (m, m)).astype(like_t._value.dtype)
    return wrap(like(P, like_t._value))


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None):
    """(P, L, U) of a packed LU factorisation."""
    m, n = LU_data.shape[-2:]
    k = min(m, n)
    from .creation import eye  # noqa: PLC0415

    L = U = P = None
    if unpack_data:
        L = FUNCS["tril"](LU_data[..., :, :k], -1) + eye(m, k, dtype=LU_data.dtype)
        U = FUNCS["triu"](LU_data[..., :k, :])
    if unpack_pivots:
        P = _perm_matrix(LU_pivots, m, LU_data)
    from .creation import empty  # noqa: PLC0415

    nothing = empty(0, dtype=LU_data.dtype)
    return _UNPACK(P if P is not None else nothing, L if L is not None else nothing, U if U is not None else nothing)


def lu(A, *, pivot=True, out=None):
    return _LU(*lu_unpack(*lu_factor_ex(A, pivot=pivot)[:2]))


def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    """X with ``A X = B`` from A's packed LU factors (differentiable in LU and B)."""
    P, L, U = lu_unpack(LU, pivots)
    if left and not adjoint:
        y = solve_triangular(L, P.mT @ B, upper=False, unitriangular=True)
        return solve_triangular(U, y, upper=True)
    A = P @ L @ U
    A = A.mH if adjoint else A
    return solve(A, B) if left else solve(A.mT, B.mT).mT


@_linalg("eig")
def eig(A, *, out=None):
    _square("eig", A)
    w, v = fnp.linalg.eig(A)
    return _EIG(_complex(w, A), _complex(v, A))


def _complex(x, A):
    want = np.complex64 if A._value.dtype in (np.float32, np.complex64) else np.complex128
    return x.to(dtypes.complex64 if want == np.complex64 else dtypes.complex128) if x._value.dtype != want else x


@_linalg("eigvals")
def eigvals(A, *, out=None):
    _square("eigvals", A)
    return _complex(fnp.linalg.eigvals(A), A)


def householder_product(A, tau, *, out=None):
    """The first n columns of H_1 ... H_k, H_i = I - tau_i v_i v_i^H (v_i: 1 at i, A[i+1:, i] below)."""
    m, n = A.shape[-2:]
    k = tau.shape[-1]
    if n > m or k > n:
        raise RuntimeError(f"torch.linalg.householder_product: expected m >= n >= k, got A of shape "
                           f"{tuple(A.shape)} and tau of shape {tuple(tau.shape)}")
    from .creation import eye  # noqa: PLC0415

    Q = eye(m, dtype=A.dtype).expand(*A.shape[:-2], m, m)
    mask = _tril_ones(A)
    V = A * mask + eye(m, n, dtype=A.dtype)
    for i in range(k):
        v = V[..., :, i:i + 1]
        Q = Q - (Q @ v) @ (FUNCS["conj"](v).mT if A.is_complex() else v.mT) * tau[..., i, None, None]
    return Q[..., :, :n]


@op("lu_solve")
def _torch_lu_solve(b, LU_data, LU_pivots, *, out=None):
    return lu_solve(LU_data, LU_pivots, b)


op("lu_unpack", method=False)(lu_unpack)


METHODS.setdefault("lu_solve", _torch_lu_solve)


def _tril_ones(A):
    from .creation import ones_like  # noqa: PLC0415

    return FUNCS["tril"](ones_like(A), -1)
