"""torch.linalg solvers beyond ``solve``: ``solve_triangular``, ``lstsq``, ``tensorinv``,
``tensorsolve`` and the legacy torch.* spellings ``triangular_solve``, ``cholesky_solve``,
``cholesky_inverse``; differentiable through compat ops and funcgrad.numpy.linalg."""

from __future__ import annotations


from .. import numpy as fnp
from . import dtypes
from ._dispatch import FUNCS, op
from .linalg import _linalg, _returns, _square
from .linalg_norms import matrix_rank

__all__ = ["solve_triangular", "lstsq", "tensorinv", "tensorsolve", "triangular_solve", "cholesky_solve", "cholesky_inverse"]


_LSTSQ = _returns("linalg_lstsq", ["solution", "residuals", "rank", "singular_values"])


_TRI = _returns("triangular_solve", ["solution", "cloned_coefficient"])


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


def tensorinv(A, ind=2, *, out=None):
    return fnp.linalg.tensorinv(A, ind=ind)


def tensorsolve(A, B, dims=None, *, out=None):
    return fnp.linalg.tensorsolve(A, B, axes=dims)


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
