"""funcgrad.scipy.linalg: scipy.linalg's helpers, differentiable to any order.

solve_triangular, cholesky, cho_factor/cho_solve, lu_factor/lu_solve, expm, logm, sqrtm,
solve_sylvester, solve_banded, block_diag.  Matrices are 2-d, as in scipy.linalg.
``overwrite_*`` and ``check_finite`` are accepted for compatibility (funcgrad
arrays are never overwritten).  expm, logm, sqrtm and lu_factor need scipy on the cpu
(cupyx.scipy.linalg on cuda); the others work with the array library alone.
"""

from __future__ import annotations

import numpy as np

from ..numpy import _shape
from ..numpy._creation import zeros
from ..numpy._elementwise import where
from ..numpy._util import as_array
from ..primitives import scipy_linalg as _la
from ..primitives.linalg import cholesky as _cholesky
from ..array import Array

__all__ = ["solve_triangular", "cholesky", "cho_factor", "cho_solve", "lu_factor", "lu_solve",
           "expm", "logm", "sqrtm", "solve_sylvester", "solve_banded", "block_diag"]

_TRANS = {0: 0, 1: 1, 2: 1, "N": 0, "T": 1, "C": 1}  # real matrices: conjugate transpose == transpose


def _matrix(a, name, fname):
    a = as_array(a)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"{fname}: expected square 2-d {name}, got shape {tuple(a.shape)}")
    return a


def _rhs(b, n, fname):
    b = as_array(b)
    if b.ndim not in (1, 2) or b.shape[0] != n:
        raise ValueError(f"{fname}: b of shape {tuple(b.shape)} does not match a matrix of size {n}")
    return b


def _with_matrix_rhs(fn, b):
    """Apply fn (which needs a 2-d right-hand side) to a 1-d or 2-d b."""
    if b.ndim == 1:
        return _shape.reshape(fn(_shape.reshape(b, (b.shape[0], 1))), (b.shape[0],))
    return fn(b)


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False,
                     check_finite=True):
    """scipy.linalg.solve_triangular: x with op(a) x = b, reading only a's triangle;
    differentiable in a (its triangle) and b."""
    if trans not in _TRANS:
        raise ValueError(f"solve_triangular: trans must be 0, 1, 2, 'N', 'T' or 'C', got {trans!r}")
    a = _matrix(a, "a", "solve_triangular")
    b = _rhs(b, a.shape[0], "solve_triangular")
    return _with_matrix_rhs(lambda m: _la.triangular_solve(a, m, lower, _TRANS[trans], unit_diagonal), b)


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """scipy.linalg.cholesky: the upper (default) or lower factor of a symmetric
    positive-definite a (reads a's lower triangle; derivatives are those of the symmetric part)."""
    a = _matrix(a, "a", "cholesky")
    factor = _cholesky(a)
    return factor if lower else _shape.transpose(factor)


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """scipy.linalg.cho_factor: (c, lower) for cho_solve (the other triangle of c is zero)."""
    return cholesky(a, lower=lower), lower


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """scipy.linalg.cho_solve: x with A x = b from cho_factor's (c, lower); differentiable in c and b."""
    c, lower = c_and_lower
    c = _matrix(c, "c", "cho_solve")
    b = _rhs(b, c.shape[0], "cho_solve")

    def solve(m):
        if lower:  # A = L L^T
            return _la.triangular_solve(c, _la.triangular_solve(c, m, True, 0), True, 1)
        return _la.triangular_solve(c, _la.triangular_solve(c, m, False, 1), False, 0)  # A = U^T U

    return _with_matrix_rhs(solve, b)


def lu_factor(a, overwrite_a=False, check_finite=True):
    """scipy.linalg.lu_factor: (lu, piv), lu the packed factors of the row-pivoted a;
    differentiable in a (piv is integer)."""
    a = _matrix(a, "a", "lu_factor")
    return _la.lu(a), _la.lu_pivots(a)


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    """scipy.linalg.lu_solve: x with op(A) x = b from lu_factor's (lu, piv); differentiable in lu and b."""
    lu, piv = lu_and_piv
    if trans not in _TRANS:
        raise ValueError(f"lu_solve: trans must be 0, 1, 2, 'N', 'T' or 'C', got {trans!r}")
    lu = _matrix(lu, "lu", "lu_solve")
    b = _rhs(b, lu.shape[0], "lu_solve")
    perm = _la.lu_perm(as_array(piv))

    def solve(m):
        if _TRANS[trans] == 0:  # A[perm] = L U
            return _la.triangular_solve(lu, _la.triangular_solve(lu, m[perm], True, 0, True), False, 0)
        y = _la.triangular_solve(lu, _la.triangular_solve(lu, m, False, 1), True, 1, True)  # (LU)^T y = b
        return (0.0 * y).at[perm].set(y)  # A^T = U^T L^T P^T: x = P y

    return _with_matrix_rhs(solve, b)


def expm(A):
    """scipy.linalg.expm: the matrix exponential (derivatives via the block-matrix Frechet derivative)."""
    return _la.expm(_matrix(A, "A", "expm"))


def sqrtm(A, disp=True, blocksize=64):
    """scipy.linalg.sqrtm: the principal square root; derivatives solve a Sylvester equation.

    Complex where scipy's is: for complex A, and for a real A with a negative real
    eigenvalue (decided from its value; under vmap a real result is assumed and a
    complex one raises, so cast such batches to complex first).
    """
    return _la.sqrtm(_matrix(A, "A", "sqrtm"))


def logm(A, disp=True):
    """scipy.linalg.logm: the principal logarithm (complex where scipy's is, as sqrtm);
    derivatives via the block-matrix Frechet derivative, like expm."""
    return _la.logm(_matrix(A, "A", "logm"))


def solve_sylvester(a, b, q):
    """scipy.linalg.solve_sylvester: x with a x + x b = q; differentiable in a, b and q."""
    return _la.solve_sylvester(as_array(a), as_array(b), as_array(q))


def _banded_to_dense(l_and_u, ab):
    lo, up = (int(v) for v in l_and_u)
    ab = as_array(ab)
    if ab.ndim != 2 or ab.shape[0] != lo + up + 1:
        raise ValueError(f"solve_banded: ab must have {lo + up + 1} rows for (l, u) = ({lo}, {up}), "
                         f"got shape {tuple(ab.shape)}")
    n = ab.shape[1]
    i, j = np.indices((n, n))
    band = (i - j <= lo) & (j - i <= up)
    rows = np.where(band, up + i - j, 0)  # a[i, j] = ab[u + i - j, j]
    dev = ab.device
    gathered = ab[Array(rows, device=dev), Array(j, device=dev)]
    return where(Array(band, device=dev), gathered, 0.0)


def solve_banded(l_and_u, ab, b, overwrite_ab=False, overwrite_b=False, check_finite=True):
    """scipy.linalg.solve_banded: x with A x = b for A given in banded storage ab;
    differentiable in ab and b (solved densely through the LU factorization)."""
    a = _banded_to_dense(l_and_u, ab)
    return lu_solve(lu_factor(a), b)


def block_diag(*arrs):
    """scipy.linalg.block_diag: the arrays (0-d, 1-d or 2-d) on the diagonal of a 2-d array."""
    if not arrs:
        return zeros((1, 0))
    mats = []
    for a in arrs:
        a = as_array(a)
        if a.ndim > 2:
            raise ValueError(f"block_diag: arguments must have at most 2 dimensions, got shape {tuple(a.shape)}")
        mats.append(_shape.reshape(a, (1,) * (2 - a.ndim) + tuple(a.shape)) if a.ndim < 2 else a)
    cols = sum(m.shape[1] for m in mats)
    dtype = np.result_type(*(m.dtype for m in mats))
    rows, start = [], 0
    for m in mats:
        r, c = m.shape
        parts = [zeros((r, start), dtype=dtype, device=m.device), m,
                 zeros((r, cols - start - c), dtype=dtype, device=m.device)]
        rows.append(_shape.concatenate(parts, axis=1))
        start += c
    return _shape.concatenate(rows, axis=0)
