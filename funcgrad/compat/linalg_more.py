"""More of torch.linalg: triangular and Cholesky solves, the ``*_ex`` forms, LU, eig, lstsq,
matrix_rank/cond/exp, vecdot, vander, diagonal, tensorinv/tensorsolve, householder_product; and
the legacy torch.* spellings (``triangular_solve``, ``cholesky_solve``, ``cholesky_inverse``,
``lu_unpack``, ``lu_solve``, ``frobenius_norm``, ``nuclear_norm``, ``norm_except_dim``).

Everything differentiable is written with compat ops and funcgrad.numpy.linalg (gradients come
from the core's rules); the LU factorisation itself is computed by scipy and is not
differentiable here (an input that requires grad is refused with a clear error).
"""

from __future__ import annotations

import numpy as np

from .. import numpy as fnp
from ..scipy import linalg as _sl
from . import dtypes
from ._dispatch import FUNCS, METHODS, op
from .device import like
from .grad_mode import STATE
from .linalg import LinAlgError, _linalg, _returns, _square, inv, solve
from .tensor import Tensor, wrap

__all__ = ["solve_triangular", "cholesky_ex", "inv_ex", "solve_ex", "lu_factor", "lu_factor_ex", "lu", "lu_solve",
           "eig", "eigvals", "lstsq", "matrix_rank", "cond", "matrix_exp", "vecdot", "vander", "diagonal",
           "tensorinv", "tensorsolve", "householder_product", "matrix_norm", "norm"]

_EX = _returns("linalg_cholesky_ex", ["L", "info"])
_INV_EX = _returns("linalg_inv_ex", ["inverse", "info"])
_SOLVE_EX = _returns("linalg_solve_ex", ["result", "info"])
_LU_FACTOR = _returns("linalg_lu_factor", ["LU", "pivots"])
_LU_FACTOR_EX = _returns("linalg_lu_factor_ex", ["LU", "pivots", "info"])
_LU = _returns("linalg_lu", ["P", "L", "U"])
_EIG = _returns("linalg_eig", ["eigenvalues", "eigenvectors"])
_LSTSQ = _returns("linalg_lstsq", ["solution", "residuals", "rank", "singular_values"])
_TRI = _returns("triangular_solve", ["solution", "cloned_coefficient"])
_UNPACK = _returns("lu_unpack", ["P", "L", "U"])


def _tri(A, upper, unitriangular):
    T = FUNCS["triu"](A) if upper else FUNCS["tril"](A)
    if unitriangular:
        n = A.shape[-1]
        from .creation import eye  # noqa: PLC0415

        T = T - FUNCS["diag_embed"](FUNCS["diagonal"](T, 0, -2, -1)) + eye(n, dtype=A.dtype)
    return T


@_linalg("solve_triangular")
def solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None):
    """X with ``A X = B`` (``X A = B`` if not left), reading only A's upper or lower triangle."""
    _square("solve_triangular", A)
    T = _tri(A, upper, unitriangular)
    if left:
        return fnp.linalg.solve(T, B)
    return fnp.linalg.solve(T.mT, B.mT).mT


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


def lstsq(A, B, rcond=None, *, driver=None):
    """(solution, residuals, rank, singular_values) as PyTorch's default CPU driver (gelsy) returns
    them: residuals only when A is tall and of full rank, no singular values."""
    from .creation import empty, tensor  # noqa: PLC0415

    if driver not in (None, "gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError(f"torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss), "
                           f"got {driver}")
    vec = B.dim() == A.dim() - 1
    Bm = B.unsqueeze(-1) if vec else B
    X = FUNCS["matmul"](FUNCS["pinverse"](A, 1e-15 if rcond is None else rcond), Bm)
    m, n = A.shape[-2:]
    ranks = matrix_rank(A)
    res = empty(0, dtype=A.dtype)
    if driver not in (None, "gelsy") and m > n and bool((ranks._value == n).all()):
        res = ((FUNCS["matmul"](A, X) - Bm).abs() ** 2).sum(-2)
    sv = fnp.linalg.svd(A, compute_uv=False) if driver in ("gelsd", "gelss") else empty(0, dtype=A.dtype)
    rank = ranks if driver != "gels" else tensor([], dtype=dtypes.int64)
    return _LSTSQ(X.squeeze(-1) if vec else X, res, rank, sv)


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False, out=None):
    s = fnp.linalg.svd(A.detach(), compute_uv=False)
    smax = s.amax(-1, keepdim=True) if s.shape[-1] else s.sum(-1, keepdim=True)
    eps = float(np.finfo(A._value.dtype).eps)
    if atol is None and rtol is None:
        rtol = eps * max(A.shape[-2:])
    tol = FUNCS["maximum"](FUNCS["mul"](smax, 0.0 if rtol is None else rtol), FUNCS["mul"](smax, 0.0) + (atol or 0.0))
    return (s > tol).sum(-1)


def cond(A, p=None, *, out=None):
    if p is None or p in (2, -2):
        s = fnp.linalg.svd(A, compute_uv=False)
        return s[..., 0] / s[..., -1] if p != -2 else s[..., -1] / s[..., 0]
    return matrix_norm(A, p) * matrix_norm(inv(A), p)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):  # noqa: A002
    """Frobenius, nuclear, 1 / -1 (max / min column sum), inf / -inf (max / min row sum), 2 / -2
    (largest / smallest singular value) over the two dimensions ``dim``."""
    if dtype is not None:
        A = A.to(dtype)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {tuple(dim)}")
    d0, d1 = (int(d) % A.dim() for d in dim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
    x = FUNCS["movedim"](A, (d0, d1), (-2, -1))
    a = x.abs()
    if ord == "fro":
        r = FUNCS["sqrt"]((a * a).sum((-2, -1)))
    elif ord == "nuc":
        r = fnp.linalg.svd(x, compute_uv=False).sum(-1)
    elif ord in (2, -2):
        sv = fnp.linalg.svd(x, compute_uv=False)
        r = sv[..., 0] if ord == 2 else sv[..., -1]
    elif ord in (1, -1, float("inf"), float("-inf")):
        sums = a.sum(-2) if ord in (1, -1) else a.sum(-1)
        r = sums.amax(-1) if ord > 0 else sums.amin(-1)
    else:
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if keepdim:
        for d in sorted((d0, d1)):
            r = r.unsqueeze(d)
    return r


def norm(A, ord=None, dim=None, keepdim=False, *, out=None, dtype=None):  # noqa: A002
    """torch.linalg.norm: a vector norm over one dim (or of the flattened input when neither ord nor
    dim is given), a matrix norm over two (or of a 2-D input given ord but not dim)."""
    from .linalg import vector_norm  # noqa: PLC0415

    if dtype is not None:
        A = A.to(dtype)
    if isinstance(dim, int):
        dim = (dim,)
    if dim is None:
        if ord is None:
            return vector_norm(A.reshape(-1), 2, 0, False) if not keepdim else \
                vector_norm(A, 2, tuple(range(A.dim())), True)
        if A.dim() not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
                               f"{A.dim()}D.")
        dim = tuple(range(A.dim()))
    if isinstance(ord, str) and len(dim) != 2:  # 'fro'/'nuc' are matrix norms
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions." if A.dim() < 2
                           else f"linalg.norm: If dim is specified with ord={ord!r}, it must be a 2-tuple")
    if len(dim) == 2:
        return matrix_norm(A, "fro" if ord is None else ord, dim, keepdim)
    return vector_norm(A, 2 if ord is None else ord, tuple(dim), keepdim)


def matrix_exp(A):
    _square("matrix_exp", A)
    if A.dim() == 2:
        return _sl.expm(A)
    flat = A.reshape(-1, *A.shape[-2:])
    return FUNCS["stack"]([_sl.expm(flat[i]) for i in range(flat.shape[0])]).reshape(A.shape) if flat.shape[0] else \
        A.clone()


def vecdot(x, y, *, dim=-1, out=None):
    """sum(conj(x) * y) over ``dim`` (broadcasting)."""
    return (FUNCS["conj"](x) * y).sum(dim) if x.is_complex() else (x * y).sum(dim)


def vander(x, *, N=None):
    """Columns x**0, x**1, ..., x**(N-1) (increasing powers, as torch.linalg.vander)."""
    n = x.shape[-1] if N is None else int(N)
    if n < 0 or (N is not None and n < 1):
        raise RuntimeError(f"N must be greater than 1, got {N}")
    if n == 0:
        return x.unsqueeze(-1)[..., :0]
    from .creation import ones_like  # noqa: PLC0415

    cols = [ones_like(x)]
    for _ in range(n - 1):
        cols.append(cols[-1] * x)
    return FUNCS["stack"](cols, -1)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return FUNCS["diagonal"](A, offset, dim1, dim2)


def tensorinv(A, ind=2, *, out=None):
    return fnp.linalg.tensorinv(A, ind=ind)


def tensorsolve(A, B, dims=None, *, out=None):
    return fnp.linalg.tensorsolve(A, B, axes=dims)


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


# --- the torch.* spellings -------------------------------------------------------------
@op("triangular_solve")
def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False, *, out=None):
    T = A.mT if transpose else A
    return _TRI(solve_triangular(T, b, upper=upper != transpose, unitriangular=unitriangular), A.clone())


@op("cholesky_solve")
def cholesky_solve(B, L, upper=False, *, out=None):
    """X with ``(L L^H) X = B`` (``U^H U`` if upper)."""
    if upper:
        L = FUNCS["conj"](L).mT if L.is_complex() else L.mT
    y = solve_triangular(L, B, upper=False)
    return solve_triangular(FUNCS["conj"](L).mT if L.is_complex() else L.mT, y, upper=True)


@op("cholesky_inverse")
def cholesky_inverse(L, upper=False, *, out=None):
    from .creation import eye  # noqa: PLC0415

    return cholesky_solve(eye(L.shape[-1], dtype=L.dtype).expand(*L.shape), L, upper)


@op("lu_solve")
def _torch_lu_solve(b, LU_data, LU_pivots, *, out=None):
    return lu_solve(LU_data, LU_pivots, b)


op("lu_unpack", method=False)(lu_unpack)


@op("frobenius_norm", method=False)
def frobenius_norm(input, dim=(-2, -1), keepdim=False, *, out=None):
    return FUNCS["norm"](input, "fro", dim, keepdim)


@op("nuclear_norm", method=False)
def nuclear_norm(input, dim=(-2, -1), keepdim=False, *, out=None):
    if isinstance(dim, bool):
        dim, keepdim = (-2, -1), dim
    x = FUNCS["movedim"](input, tuple(dim), (-2, -1))
    s = fnp.linalg.svd(x, compute_uv=False).sum(-1)
    if keepdim:
        for d in sorted(int(v) % input.dim() for v in dim):
            s = s.unsqueeze(d)
    return s


@op("norm_except_dim", method=False)
def norm_except_dim(v, pow=2, dim=0):  # noqa: A002
    """The ``pow``-norm over every dimension but ``dim`` (kept, size 1 elsewhere); dim -1: all."""
    if dim == -1:
        return FUNCS["norm"](v, pow)
    others = tuple(i for i in range(v.dim()) if i != dim % v.dim())
    return FUNCS["norm"](v, pow, others, True)


METHODS.setdefault("lu_solve", _torch_lu_solve)


def _tril_ones(A):
    from .creation import ones_like  # noqa: PLC0415

    return FUNCS["tril"](ones_like(A), -1)
