"""funcgrad.numpy.linalg: numpy.linalg's names and signatures, differentiable to any order.

Stacks of matrices (leading batch dims) work wherever numpy accepts them.
Integer and boolean inputs are computed in float64, as numpy does.  Bad input
raises numpy's exception types (``LinAlgError`` for non-square or singular
matrices, ``ValueError`` for mismatched shapes and unknown norm orders).
Derivative conventions (symmetric inputs for eigh/cholesky, distinct
eigen/singular values for vectors, norm subgradients at 0) are described in
docs/linalg-fft.md.
"""

from __future__ import annotations

import operator
from collections import namedtuple

import numpy as np

from ..primitives import linalg as _lp
from ..primitives import linalg_decomp as _dp
from ..primitives import linalg_eig as _ep
from ..core import ConcretizationTypeError
from ..backend import kind_of
from ._elementwise import astype, not_equal
from ._linalg_norms import matrix_norm, norm, vector_norm
from ._products import matmul
from ._products import outer as _outer
from ._reductions import max as _max
from ._reductions import sum as _sum
from ._shape import broadcast_to, expand_dims, moveaxis, reshape, stack
from ._util import as_array, no_out, normalize_axis
from ._array_api_names import diagonal, tensordot, trace  # noqa: F401  (numpy.linalg's Array-API names)
from ._complex import conj

__all__ = [
    "LinAlgError", "inv", "solve", "det", "slogdet", "cholesky", "qr", "svd", "svdvals", "eig", "eigvals",
    "eigh", "eigvalsh", "norm", "vector_norm", "matrix_norm", "pinv", "matrix_power", "lstsq",
    "matrix_rank", "cond", "multi_dot", "matmul", "matrix_transpose", "outer", "vecdot", "cross",
    "tensorinv", "tensorsolve", "diagonal", "trace", "tensordot",
]

LinAlgError = np.linalg.LinAlgError

SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])
QRResult = namedtuple("QRResult", ["Q", "R"])
LstsqResult = namedtuple("LstsqResult", ["x", "residuals", "rank", "singular_values"])


def _inexact(a, fname, square=False, min_ndim=2):
    """a as an Array of a float or complex dtype (ints and bools -> float64), shape checked."""
    a = as_array(a)
    kind = kind_of(a.dtype)
    if kind not in "fc":
        a = astype(a, np.float64)
    if a.ndim < min_ndim:
        raise LinAlgError(f"{fname}: {a.ndim}-dimensional array given (shape {tuple(a.shape)}). "
                          f"Array must be at least {'two' if min_ndim == 2 else min_ndim}-dimensional")
    if square:
        _lp.check_stacked_square(fname, a.shape)
    return a


def matrix_transpose(x, /):
    x = as_array(x)
    if x.ndim < 2:
        raise ValueError(f"matrix_transpose: input must be at least 2-d, got shape {tuple(x.shape)}")
    return _lp.T(x)


# --- inverses and solves -------------------------------------------------------------

def inv(a):
    """numpy.linalg.inv; LinAlgError for singular matrices."""
    return _lp.inv(_inexact(a, "inv", square=True))


def solve(a, b):
    """numpy.linalg.solve: b is a vector (..., M) only if 1-d, else (..., M, K); batches broadcast."""
    a = _inexact(a, "solve", square=True)
    b = as_array(b)
    if kind_of(b.dtype) not in "fc":
        b = astype(b, np.result_type(a.dtype, np.float64))
    n = a.shape[-1]
    if b.ndim == 0:
        raise ValueError(f"solve: b must be at least 1-dimensional, got a 0-d array (a has shape {tuple(a.shape)})")
    if b.ndim == 1:
        if b.shape[0] != n:
            raise ValueError(f"solve: b of shape {tuple(b.shape)} does not match a of shape {tuple(a.shape)} "
                             f"(b needs {n} rows)")
        return _lp.solve(a, reshape(b, (n, 1)))[..., 0]
    if b.shape[-2] != n:
        raise ValueError(f"solve: b of shape {tuple(b.shape)} does not match a of shape {tuple(a.shape)} "
                         f"(b's second-to-last dimension must be {n}; a 1-d b is a vector)")
    try:
        np.broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    except ValueError:
        raise ValueError(f"solve: batch dimensions of a {tuple(a.shape)} and b {tuple(b.shape)} "
                         "do not broadcast") from None
    return _lp.solve(a, b)


def det(a):
    """numpy.linalg.det.  Its derivative needs a nonsingular matrix (else LinAlgError)."""
    return _lp.det(_inexact(a, "det", square=True))


def slogdet(a):
    """numpy.linalg.slogdet -> (sign, logabsdet); a real sign has zero derivative (a complex one
    moves with the phase of det)."""
    return SlogdetResult(*_lp.slogdet(_inexact(a, "slogdet", square=True)))


def cholesky(a, /, *, upper=False):
    """numpy.linalg.cholesky (lower factor; upper=True gives its conjugate transpose).

    Derivatives treat ``a`` as symmetric (Hermitian): that of cholesky((a + a^H) / 2).
    """
    low = _lp.cholesky(_inexact(a, "cholesky", square=True))
    return _lp.H(low) if upper else low


_NO_VALUE = object()


def pinv(a, rcond=None, hermitian=False, *, rtol=_NO_VALUE):
    """numpy.linalg.pinv; derivatives hold where the rank is locally constant."""
    a = _inexact(a, "pinv")
    if rcond is None:
        if rtol is _NO_VALUE:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * np.finfo(a.dtype).eps
        else:
            rcond = rtol
    elif rtol is not _NO_VALUE:
        raise ValueError("pinv: `rtol` and `rcond` can't be both set.")
    return _lp.pinv(a, rcond)


def matrix_power(a, n):
    """numpy.linalg.matrix_power by repeated squaring; negative n inverts first."""
    a = as_array(a)
    if a.ndim < 2:
        raise LinAlgError(f"matrix_power: {a.ndim}-dimensional array given. Array must be at least two-dimensional")
    _lp.check_stacked_square("matrix_power", a.shape)
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"matrix_power: exponent must be an integer, got {type(n).__name__}") from None
    if n == 0:
        return broadcast_to(_lp.eye_like(a, a.shape[-1]), a.shape)
    if n < 0:
        a = inv(a)
        n = -n
    result = None
    z = a
    while True:
        if n & 1:
            result = z if result is None else _lp.matmul(result, z)
        n >>= 1
        if not n:
            return result
        z = _lp.matmul(z, z)


def lstsq(a, b, rcond=None):
    """numpy.linalg.lstsq -> (x, residuals, rank, s); x and s are differentiable.

    x = pinv(a, rcond) @ b, the same minimum-norm solution numpy returns (its
    derivative holds where the rank of a is locally constant).  Under vmap the
    rank is an array and the residuals are returned whenever m > n (as JAX does).
    """
    a = _inexact(a, "lstsq")
    if a.ndim != 2:
        raise LinAlgError(f"lstsq: {a.ndim}-dimensional array given (shape {tuple(a.shape)}). "
                          "Array must be two-dimensional")
    b = as_array(b)
    if kind_of(b.dtype) not in "fc":
        b = astype(b, np.float64)
    m, n = a.shape
    if b.ndim not in (1, 2) or b.shape[0] != m:
        raise LinAlgError(f"lstsq: Incompatible dimensions: a has shape {tuple(a.shape)}, b has shape {tuple(b.shape)}")
    if rcond is None:
        rcond = float(np.finfo(np.result_type(a.dtype, b.dtype)).eps * max(m, n))
    rcond = float(rcond)
    s = svdvals(a)
    x = matmul(_lp.pinv(a, rcond), b) if m and n else _zeros_solution(a, b)
    rank_arr = _sum(s > rcond * _max(s), dtype=np.int32) if min(m, n) else _lp.zeros_like(s, shape=(), dtype=np.int32)
    try:
        rank = np.int32(int(rank_arr))
    except ConcretizationTypeError:  # under vmap/jit the rank is an array (as JAX; BatchedValueError is one)
        rank = None
    if (rank is None or rank == n) and m > n:
        r = b - matmul(a, x)
        residuals = _sum(r * _lp.cj(r), axis=0)
        if np.dtype(residuals.dtype).kind == "c":
            residuals = _lp.real(residuals)
        if b.ndim == 1:
            residuals = reshape(residuals, (1,))
    else:
        residuals = _lp.zeros_like(s, shape=(0,), dtype=np.result_type(a.dtype, b.dtype))
    return LstsqResult(x, residuals, rank_arr if rank is None else rank, s)


def _zeros_solution(a, b):
    shape = (a.shape[1],) + tuple(b.shape[1:])
    return _lp.zeros_like(b, shape=shape, dtype=np.result_type(a.dtype, b.dtype))


def multi_dot(arrays, *, out=None):
    """numpy.linalg.multi_dot: the product in the cheapest order (1-d ends are vectors)."""
    no_out(out, "multi_dot")
    arrays = [as_array(x) for x in arrays]
    if len(arrays) < 2:
        raise ValueError("multi_dot: expecting at least two arrays.")
    first_1d, last_1d = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first_1d:
        arrays[0] = reshape(arrays[0], (1, -1))
    if last_1d:
        arrays[-1] = reshape(arrays[-1], (-1, 1))
    for i, x in enumerate(arrays):
        if x.ndim != 2:
            raise ValueError(f"multi_dot: array {i} has {x.ndim} dimensions (shape {tuple(x.shape)}); "
                             "only the first and last may be 1-d, the others must be 2-d")
    dims = [arrays[0].shape[0]] + [x.shape[1] for x in arrays]
    for i in range(len(arrays) - 1):
        if arrays[i].shape[1] != arrays[i + 1].shape[0]:
            raise ValueError(f"multi_dot: shapes {tuple(arrays[i].shape)} (array {i}) and "
                             f"{tuple(arrays[i + 1].shape)} (array {i + 1}) not aligned")
    split = _chain_order(dims)

    def product(i, j):
        if i == j:
            return arrays[i]
        k = split[i][j]
        return _lp.matmul(product(i, k), product(k + 1, j))

    res = product(0, len(arrays) - 1)
    if first_1d and last_1d:
        return res[0, 0]
    if first_1d:
        return res[0]
    if last_1d:
        return res[:, 0]
    return res


def _chain_order(dims):
    """Matrix-chain dynamic programme: split[i][j] is where to split the product i..j."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = float("inf")
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


# --- decompositions ----------------------------------------------------------------------

def eig(a):
    """numpy.linalg.eig for general square matrices -> (eigenvalues, eigenvectors), always complex
    (as JAX: the dtype cannot depend on the values; numpy returns real arrays when every
    eigenvalue is real).

    Eigenvectors are LAPACK's: unit 2-norm, largest-magnitude component real; their
    derivatives keep that normalisation (as JAX) and need distinct eigenvalues.
    """
    return EigResult(*_ep.eig(_inexact(a, "eig", square=True)))


def eigvals(a):
    """numpy.linalg.eigvals (complex, see :func:`eig`); differentiable at distinct eigenvalues."""
    return eig(a).eigenvalues


def eigh(a, UPLO="L"):
    """numpy.linalg.eigh -> (eigenvalues, eigenvectors).

    Only the triangle ``UPLO`` names ('L' lower, 'U' upper) is read, the other is taken
    as its (conjugate) transpose.  Derivatives treat ``a`` as symmetric (Hermitian): they
    are those of eigh((a + a^H) / 2), so a perturbation of either triangle counts half.
    Eigenvector derivatives need distinct eigenvalues (eigenvalue derivatives do not).
    """
    if UPLO not in ("L", "U"):
        raise ValueError(f"eigh: UPLO argument must be 'L' or 'U', got {UPLO!r}")
    return EighResult(*_dp.eigh(_inexact(a, "eigh", square=True), UPLO))


def eigvalsh(a, UPLO="L"):
    """numpy.linalg.eigvalsh; differentiable even at repeated eigenvalues."""
    return eigh(a, UPLO).eigenvalues


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """numpy.linalg.svd -> (U, S, Vh), or S with compute_uv=False.

    U and Vh derivatives need distinct nonzero singular values (and, for a
    non-square input, full_matrices=False); S alone is differentiable anywhere
    its values are distinct... and its sum (the nuclear norm) everywhere.
    """
    a = _inexact(a, "svd")
    if not compute_uv:
        return _dp.svd(a, compute_uv=False)[0]
    return SVDResult(*_dp.svd(a, full_matrices=full_matrices))


def svdvals(x, /):
    return svd(x, compute_uv=False)


def qr(a, mode="reduced"):
    """numpy.linalg.qr for modes 'reduced', 'complete' and 'r' (derivatives for m >= n)."""
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(
            f"qr: unrecognized mode {mode!r}; funcgrad supports 'reduced', 'complete' and 'r' "
            "('raw' and 'economic' return LAPACK's internal Householder form)"
        )
    a = _inexact(a, "qr")
    if mode == "r":
        return _dp.qr(a, "r")[0]
    return QRResult(*_dp.qr(a, mode))


# --- rank and condition number (no derivative for rank) -------------------------------------

def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    A = as_array(A)
    if A.ndim < 2:
        return np.int64(int(_sum(not_equal(A, 0))) > 0)
    s = svdvals(A)
    if tol is None:
        if rtol is None:
            rtol = float(max(A.shape[-2:]) * np.finfo(s.dtype).eps)
        tol = _max(s, axis=-1, keepdims=True) * float(rtol)
    else:
        tol = expand_dims(as_array(tol), -1)
    return _sum(s > tol, axis=-1)


def cond(x, p=None):
    """numpy.linalg.cond: ratio of extreme singular values (p None, 2, -2) or norm(x) norm(inv(x))."""
    x = _inexact(x, "cond")
    if p in (None, 2, -2):
        s = svdvals(x)
        return s[..., 0] / s[..., -1] if p != -2 else s[..., -1] / s[..., 0]
    _lp.check_stacked_square("cond", x.shape)
    return norm(x, p, axis=(-2, -1)) * norm(inv(x), p, axis=(-2, -1))


# --- products and tensor equations --------------------------------------------------------

def outer(x1, x2, /):
    """numpy.linalg.outer: 1-d inputs only (unlike numpy.outer)."""
    x1, x2 = as_array(x1), as_array(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"outer: input arrays must be one-dimensional, got shapes {tuple(x1.shape)} and {tuple(x2.shape)}")
    return _outer(x1, x2)


def vecdot(x1, x2, /, *, axis=-1):
    """numpy.linalg.vecdot: sum(conj(x1) * x2) over ``axis``, broadcasting the rest."""
    x1, x2 = as_array(x1), as_array(x2)
    if np.dtype(x1.dtype).kind == "c":
        x1 = conj(x1)
    prod = x1 * x2
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"vecdot: shapes {tuple(x1.shape)} and {tuple(x2.shape)} differ along axis {axis}")
    return _sum(prod, axis=axis, dtype=prod.dtype)  # a ufunc: no int64 accumulation


def cross(x1, x2, /, *, axis=-1):
    """numpy.linalg.cross of 3-element vectors along ``axis``."""
    x1, x2 = as_array(x1), as_array(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"cross: both inputs must have 3 elements along axis {axis}, got shapes "
                         f"{tuple(x1.shape)} and {tuple(x2.shape)}")
    a = moveaxis(x1, axis, -1)
    b = moveaxis(x2, axis, -1)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    out = stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return moveaxis(out, -1, axis)


def tensorinv(a, ind=2):
    """numpy.linalg.tensorinv: the inverse of a reshaped to a square matrix."""
    a = as_array(a)
    if ind <= 0:
        raise ValueError(f"tensorinv: invalid ind argument {ind!r} (must be positive)")
    old = tuple(a.shape)
    rows = int(np.prod(old[:ind], dtype=np.int64))
    inv_a = inv(reshape(a, (rows, int(np.prod(old[ind:], dtype=np.int64)))))
    return reshape(inv_a, old[ind:] + old[:ind])


def tensorsolve(a, b, axes=None):
    """numpy.linalg.tensorsolve: x with tensordot(a, x, x.ndim) == b."""
    a, b = as_array(a), as_array(b)
    if axes is not None:
        axes = tuple(normalize_axis(ax, a.ndim, "axes") for ax in axes)
        rest = [i for i in range(a.ndim) if i not in axes]
        a = moveaxis(a, axes, tuple(range(len(rest), a.ndim)))
    old = tuple(a.shape[b.ndim:])
    n = int(np.prod(old, dtype=np.int64))
    if int(np.prod(a.shape[:b.ndim], dtype=np.int64)) != n or b.size != n:
        raise LinAlgError(f"tensorsolve: a of shape {tuple(a.shape)} and b of shape {tuple(b.shape)} do not "
                          "give a square system (prod(a.shape[:b.ndim]) must equal prod(a.shape[b.ndim:]))")
    x = solve(reshape(a, (n, n)), reshape(b, (n,)))
    return reshape(x, old)
