"""Linear algebra primitives: matmul, inv, solve, det, slogdet, cholesky, pinv.

Operands are stacks of matrices (leading batch dims, numpy's convention); the
numpy layer (:mod:`funcgrad.numpy.linalg`) checks shapes, promotes integers to
float64 and adapts vector arguments.  Derivative rules are written with
funcgrad operations (matmul, solve, inv, transposes and masks), so they can be
differentiated again.  Decompositions with several results (eigh, svd, qr)
are in :mod:`funcgrad.primitives.linalg_decomp`, the general eigenproblem in
:mod:`funcgrad.primitives.linalg_eig`.

Complex matrices follow the convention of :mod:`funcgrad.primitives.complex`
(a cotangent pairs with a tangent as ``Re(sum(c * dz))``): holomorphic maps
(inv, solve, det) have plain-transpose vjps; rules of Hermitian or unitary
factorisations use ``H`` (conjugate transpose) in their jvps and ``cj``
(conjugate) in their vjps, both no-ops on real data.
"""

from __future__ import annotations

import numpy as np

from ..backend import ML_FLOATS, XP_OF_TYPE, computes_in_float32, in_float32, linalg_raises, namespace_of
from ..core import Primitive, ShapedArray, Zero
from ._batching import ndim_of, stacked_rule, to_front
from .complex import conj, imag, real
from .creation import zeros_like
from .reduce import reduce_sum
from .shape import expand_dims, reshape, swap_last_two

LinAlgError = np.linalg.LinAlgError


def check_stacked_square(fname, *shapes):
    """numpy's LinAlgError for operands that are not stacks of square matrices."""
    for s in shapes:
        if len(s) < 2:
            raise LinAlgError(
                f"{fname}: {len(s)}-dimensional array given (shape {tuple(s)}). "
                "Array must be at least two-dimensional"
            )
        if s[-1] != s[-2]:
            raise LinAlgError(f"{fname}: last 2 dimensions of the array must be square, got shape {tuple(s)}")


def _square_abstract(fname, out=lambda s: s):
    def abstract(a, **params):
        check_stacked_square(fname, a.shape)
        return ShapedArray(out(tuple(a.shape)), a.dtype)

    return abstract


# --- matmul ---------------------------------------------------------------------

def _matmul_impl(x, y):
    if getattr(x, "dtype", None) in ML_FLOATS or getattr(y, "dtype", None) in ML_FLOATS:  # numpy's bfloat16 matmul returns float32
        return in_float32(_matmul_impl, x, y)
    get = XP_OF_TYPE.get
    xp = get(type(x)) or get(type(y), np)
    return xp.matmul(x, y)


def _matmul_abstract(x, y):
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError("matmul: Input operand does not have enough dimensions (0-d); use multiply")
    xs = x.shape if x.ndim > 1 else (1,) + x.shape
    ys = y.shape if y.ndim > 1 else y.shape + (1,)
    if xs[-1] != ys[-2]:
        raise ValueError(
            f"matmul: Input operand 1 has a mismatch in its core dimension 0 (size {ys[-2]} is "
            f"different from {xs[-1]}): shapes {x.shape} and {y.shape}"
        )
    batch = np.broadcast_shapes(xs[:-2], ys[:-2])
    out = batch + (xs[-2], ys[-1])
    if x.ndim == 1:
        out = out[:-2] + out[-1:]
    if y.ndim == 1:
        out = out[:-1]
    return ShapedArray(out, np.result_type(x.dtype, y.dtype))


def _matmul_vjp_x(g, ans, x, y):
    if y.ndim == 1:
        # out[..., i] = sum_k x[..., i, k] y[k]  (or a dot if x is 1-d too)
        return g * y if x.ndim == 1 else expand_dims(g, -1) * y
    if x.ndim == 1:
        # out[..., j] = sum_k x[k] y[..., k, j]: (..., 1, k), summed to (k,) by the driver
        return matmul(expand_dims(g, -2), swap_last_two(y))
    return matmul(g, swap_last_two(y))


def _matmul_vjp_y(g, ans, x, y):
    if x.ndim == 1:
        return g * x if y.ndim == 1 else expand_dims(x, -1) * expand_dims(g, -2)
    if y.ndim == 1:
        # d/dy of x @ y is g @ x: a vector-matrix product (BLAS), not an outer product summed down;
        # with batch axes (..., 1, k), summed to (k,) by the driver
        return matmul(g, x) if x.ndim == 2 else matmul(expand_dims(g, -2), x)
    return matmul(swap_last_two(x), g)


matmul_p = Primitive("matmul", _matmul_impl, _matmul_abstract)
matmul_p.defvjp(_matmul_vjp_x, _matmul_vjp_y, saves_out=False)
matmul_p.defjvp(lambda t, ans, x, y: matmul(t, y), lambda t, ans, x, y: matmul(x, t))
matmul = matmul_p.bind


def _matmul_batch(args, dims):
    (x, y), (dx, dy) = args, dims
    rx, ry = ndim_of(x) - (dx is not None), ndim_of(y) - (dy is not None)
    if dy is None and ry == 2:  # a batch of vectors/stacks times one matrix: one matmul
        if rx >= 2 and dx < ndim_of(x) - 2:
            return matmul(x, y), dx
        return matmul(to_front(x, dx), y), 0
    if dx is None and rx == 2:
        if ry == 1:  # x @ v for a batch of v: (B, k) @ x.T
            return matmul(to_front(y, dy), swap_last_two(x)), 0
        if dy < ndim_of(y) - 2:
            return matmul(x, y), dy
        return matmul(x, to_front(y, dy)), 0
    # general: batch axes first (size 1 if unbatched), vectors as matrices, stack ranks aligned
    xf = to_front(x, dx) if dx is not None else reshape(x, (1,) + tuple(x.shape))
    yf = to_front(y, dy) if dy is not None else reshape(y, (1,) + tuple(y.shape))
    if rx == 1:
        xf = reshape(xf, (xf.shape[0], 1, xf.shape[1]))
    if ry == 1:
        yf = reshape(yf, tuple(yf.shape) + (1,))
    lead = max(xf.ndim, yf.ndim) - 3
    xf = reshape(xf, xf.shape[:1] + (1,) * (lead - (xf.ndim - 3)) + tuple(xf.shape[1:]))
    yf = reshape(yf, yf.shape[:1] + (1,) * (lead - (yf.ndim - 3)) + tuple(yf.shape[1:]))
    out = matmul(xf, yf)
    shape = tuple(out.shape)
    if rx == 1 or ry == 1:
        keep = shape[:-2] + ((shape[-2],) if rx != 1 else ()) + ((shape[-1],) if ry != 1 else ())
        out = reshape(out, keep)
    return out, 0


matmul_p.batch = _matmul_batch
# --- constant masks (identity, triangles) on an operand's device -------------------

tri_like_p = Primitive(
    "tri_like",
    lambda x, n, m, k, dtype: namespace_of(x).tri(n, m, k, dtype=dtype),
    lambda x, n, m, k, dtype: ShapedArray((n, m), dtype),
    differentiable=False,
)


def tri_like(x, n, m=None, k=0, dtype=None):
    """numpy.tri(n, m, k) on x's device, with x's dtype unless given (a constant)."""
    return tri_like_p.bind(x, n=int(n), m=int(n if m is None else m), k=int(k),
                           dtype=np.dtype(dtype or x.dtype))


def eye_like(x, n):
    return tri_like(x, n) - tri_like(x, n, k=-1)


def T(x):
    """Transpose of the last two axes (a stack of matrices)."""
    return swap_last_two(x)


def is_complex(x):
    return np.dtype(x.dtype).kind == "c"


def cj(x):
    """conj(x) for complex x; x itself otherwise (no operation on real data)."""
    return conj(x) if is_complex(x) else x


def H(x):
    """Conjugate transpose of the last two axes (the transpose for real data)."""
    return conj(swap_last_two(x)) if is_complex(x) else swap_last_two(x)


def real_dtype(dtype):
    """float64 for complex128, float32 for complex64; real dtypes unchanged."""
    return np.empty(0, dtype).real.dtype


def sym(x):
    """The Hermitian part (x + x^H) / 2 (symmetric part for real x)."""
    return 0.5 * (x + H(x))


def diagonal(x):
    """The diagonals of a stack of square matrices: (..., n, n) -> (..., n)."""
    return reduce_sum(x * eye_like(x, x.shape[-1]), (x.ndim - 1,))


def diag_embed(v):
    """(..., n) -> (..., n, n) with v on the diagonals."""
    return expand_dims(v, -1) * eye_like(v, v.shape[-1])


def tril(x, k=0):
    return x * tri_like(x, x.shape[-2], x.shape[-1], k)


def trace(x):
    return reduce_sum(diagonal(x), (x.ndim - 2,))


def _scalar_per_matrix(v):
    """(...,) -> (..., 1, 1): one value per matrix, to scale a stack of matrices."""
    return expand_dims(expand_dims(v, -1), -1)


# --- inv ------------------------------------------------------------------------------

def _raising(fn):
    """An impl ``fn(xp, *bufs)`` that raises numpy's LinAlgError on every backend (see
    backend.linalg_raises: cupy reports a singular matrix only when asked to)."""
    def impl(*bufs):
        xp = namespace_of(*bufs)
        if xp is np:
            return fn(xp, *bufs)
        with linalg_raises(xp):
            return fn(xp, *bufs)

    impl.__name__ = f"{fn.__name__}_impl"
    return computes_in_float32(impl)


@_raising
def _inv(xp, a):
    return xp.linalg.inv(a)


inv_p = Primitive("inv", _inv, _square_abstract("inv"))
# d(A^-1) = -A^-1 dA A^-1
inv_p.defvjp(lambda g, ans, a: -matmul(T(ans), matmul(g, T(ans))), unsaved_args=(0,))
inv_p.defjvp(lambda t, ans, a: -matmul(ans, matmul(t, ans)))
inv = inv_p.bind


# --- solve: a (..., n, n), b (..., n, k); batch dims broadcast ---------------------------

def _solve_abstract(a, b):
    check_stacked_square("solve", a.shape)
    if len(b.shape) < 2 or b.shape[-2] != a.shape[-1]:
        raise ValueError(f"solve: b of shape {tuple(b.shape)} does not match a of shape {tuple(a.shape)}")
    batch = np.broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    return ShapedArray(batch + tuple(b.shape[-2:]), np.result_type(a.dtype, b.dtype))


@_raising
def _solve_impl(xp, a, b):
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    # numpy.linalg.solve broadcasts, but cupy needs equal batch dims
    a = xp.broadcast_to(a, batch + a.shape[-2:])
    b = xp.broadcast_to(b, batch + b.shape[-2:])
    return xp.linalg.solve(a, b)


def _solve_vjp(g, ans, a, b):
    gb = solve(T(a), g)
    return -matmul(gb, T(ans)), gb


def _solve_jvp(ts, ans, a, b):
    ta, tb = ts
    rhs = tb if type(ta) is Zero else (-matmul(ta, ans) if type(tb) is Zero else tb - matmul(ta, ans))
    return solve(a, rhs)


solve_p = Primitive("solve", _solve_impl, _solve_abstract)
solve_p.defvjp_joint(_solve_vjp, unsaved_args=(1,))
solve_p.defjvp_joint(_solve_jvp)
solve = solve_p.bind


# --- det and slogdet ----------------------------------------------------------------------

det_p = Primitive("det", lambda a: namespace_of(a).linalg.det(a), _square_abstract("det", lambda s: s[:-2]))
# d det(A) = det(A) tr(A^-1 dA): needs A invertible (an exactly singular A raises LinAlgError)
det_p.defvjp(lambda g, ans, a: _scalar_per_matrix(g * ans) * T(inv(a)))
det_p.defjvp(lambda t, ans, a: ans * trace(solve(a, t)))
det = det_p.bind


def _slogdet_abstract(a):
    check_stacked_square("slogdet", a.shape)
    return ShapedArray(a.shape[:-2], a.dtype), ShapedArray(a.shape[:-2], real_dtype(a.dtype))


# with tau = tr(A^-1 dA): d logabsdet = Re(tau); d sign = sign * i Im(tau) (0 for real A)

def _slogdet_vjp(g, ans, a):
    g_sign, g_log = g
    complex_sign = is_complex(a) and type(g_sign) is not Zero
    if type(g_log) is Zero and not complex_sign:  # a real sign is locally constant
        return (None,)
    coef = 0.0 if type(g_log) is Zero else g_log
    if complex_sign:
        coef = coef + 1j * imag(g_sign * ans[0])
    return (_scalar_per_matrix(coef) * T(inv(a)),)


def _slogdet_jvp(ts, ans, a):
    tau = trace(solve(a, ts[0]))
    if not is_complex(a):
        return zeros_like(ans[0]), tau
    return ans[0] * (1j * imag(tau)), real(tau)


slogdet_p = Primitive("slogdet", lambda a: tuple(namespace_of(a).linalg.slogdet(a)), _slogdet_abstract,
                      multiple_results=True)
slogdet_p.defvjp_joint(_slogdet_vjp)
slogdet_p.defjvp_joint(_slogdet_jvp)
slogdet = slogdet_p.bind


# --- cholesky (lower) -------------------------------------------------------------------------
# Rules take the input as symmetric/Hermitian (the derivative of cholesky(sym(A)), as JAX):
# dL = L Phi(L^-1 sym(dA) L^-H), Phi = lower triangle with the diagonal halved.

def _phi(x):
    n = x.shape[-1]
    return x * (tri_like(x, n) - 0.5 * eye_like(x, n))


def _cholesky_jvp(t, ans, a):
    y = solve(ans, sym(t))  # L^-1 dA
    return matmul(ans, _phi(solve(ans, H(y))))


def _cholesky_vjp(g, ans, a):
    w = solve(T(ans), _phi(matmul(T(ans), g)))  # L^-T Phi(L^T G)
    return sym(T(solve(H(ans), T(w))))  # ... conj(L)^-1, symmetrized


@_raising
def _cholesky(xp, a):
    return xp.linalg.cholesky(a)


cholesky_p = Primitive("cholesky", _cholesky, _square_abstract("cholesky"))
cholesky_p.defvjp(_cholesky_vjp, unsaved_args=(0,))
cholesky_p.defjvp(_cholesky_jvp)
cholesky = cholesky_p.bind


# --- pinv -------------------------------------------------------------------------------------
# Golub & Pereyra: for A of locally constant rank, with P = pinv(A),
# dP = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P.

def _pinv_abstract(a, rcond, atol):
    if len(a.shape) < 2:
        raise LinAlgError(f"pinv: {len(a.shape)}-dimensional array given. Array must be at least two-dimensional")
    return ShapedArray(tuple(a.shape[:-2]) + (a.shape[-1], a.shape[-2]), a.dtype)


def _pinv_jvp(t, ans, a, rcond, atol):
    p = ans
    th = H(t)
    return (-matmul(p, matmul(t, p))
            + matmul(matmul(p, H(p)), th - matmul(th, matmul(a, p)))
            + matmul(th - matmul(p, matmul(a, th)), matmul(H(p), p)))


def _pinv_vjp(g, ans, a, rcond, atol):  # the transpose of the jvp (conj(P), conj(A) where the jvp has H)
    p, pc, ac = ans, cj(ans), cj(a)
    gh = H(g)
    return (-matmul(T(p), matmul(g, T(p)))
            + matmul(gh - matmul(ac, matmul(pc, gh)), matmul(pc, T(p)))
            + matmul(matmul(T(p), pc), gh - matmul(gh, matmul(pc, ac))))


def _pinv_impl(a, rcond, atol):
    """Singular values at or below max(atol, rcond * largest) count as zero (numpy: atol = 0;
    PyTorch's linalg.pinv: both)."""
    xp = namespace_of(a)
    if not atol:
        return xp.linalg.pinv(a, rcond=rcond)
    u, s, vh = xp.linalg.svd(a, full_matrices=False)
    cutoff = xp.maximum(atol, rcond * xp.max(s, axis=-1, keepdims=True, initial=0.0))
    s_inv = xp.where(s > cutoff, 1 / xp.where(s > cutoff, s, 1), 0).astype(s.dtype)
    return xp.matmul(xp.conj(xp.swapaxes(vh, -1, -2)) * s_inv[..., None, :], xp.conj(xp.swapaxes(u, -1, -2)))


pinv_p = Primitive("pinv", _pinv_impl, _pinv_abstract)
pinv_p.defvjp(_pinv_vjp)
pinv_p.defjvp(_pinv_jvp)


def pinv(a, rcond, atol=0.0):
    """Moore-Penrose pseudo-inverse; singular values at or below max(atol, rcond * largest) are cut."""
    return pinv_p.bind(a, rcond=float(rcond), atol=float(atol))


# vmap: these act on the trailing (matrix) axes of stacks, so a batch axis in front is exact
for _p in (inv_p, solve_p, det_p, slogdet_p, cholesky_p, pinv_p):
    _p.batch = stacked_rule(_p)
del _p
