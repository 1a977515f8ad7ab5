"""Linear-algebra primitives behind funcgrad.scipy.linalg: triangular solve, Cholesky,
the matrix exponential, the Sylvester equation and the principal square root.

Matrices are 2-d (scipy.linalg's functions are); right-hand sides 2-d (the user
layer reshapes vectors).  Impls use the backend's scipy.linalg namespace where it
has the function (scipy on the cpu, cupyx.scipy.linalg on cuda) and the array
namespace's own ``linalg`` otherwise.  Rules are written with these primitives and
funcgrad operations, so every derivative can be differentiated again:

- triangular solve X = op(A)^-1 B:  B_bar = op(A)^-T X_bar, A_bar = -(op(A)^-T X_bar) X^T
  (transposed for op = transpose), restricted to A's triangle;
  (Cholesky itself is funcgrad.primitives.linalg.cholesky, numpy.linalg's);
- expm: dX = the upper-right block of expm([[A, dA], [0, A]]); A_bar the same
  with A^T and X_bar;
- lu (packed L\\U of P^T A, pivots separately): X = L^-1 P^T dA U^-1, dLU = L tril(X, -1)
  + triu(X) U; A_bar = P L^-T (tril(L^T G_L, -1) + triu(G_U U^T)) U^-T;
- solve_sylvester A X + X B = Q: dX = solve_sylvester(A, B, dQ - dA X - X dB),
  Q_bar = solve_sylvester(A^T, B^T, X_bar), A_bar = -Q_bar X^T, B_bar = -X^T Q_bar;
- sqrtm X^2 = A: dX = solve_sylvester(X, X, dA), A_bar = solve_sylvester(X^T, X^T, X_bar);
- logm: dX = the upper-right block of logm([[A, dA], [0, A]]) (as expm); A_bar the same with A^T.
sqrtm and logm of a real matrix are complex where scipy's are (a negative real eigenvalue):
the result dtype is a parameter, chosen from the concrete value (``principal_dtype``).
Complex matrices: all these maps are holomorphic, so the vjps are plain transposes.
"""

from __future__ import annotations

import numpy as np

from ..backend import kind_of, namespace_of
from ..core import Primitive, ShapedArray
from .linalg import T as _T
from .linalg import eye_like, matmul, tri_like
from .special import missing_error, scipy_namespace
from ..backend import backend_of, device_of, put_buffer, to_numpy
from .shape import concatenate

__all__ = ["triangular_solve", "expm", "logm", "solve_sylvester", "sqrtm", "principal_dtype", "lu", "lu_pivots",
           "lu_perm"]


def _linalg(xp):
    return scipy_namespace(xp, "linalg")


def _float_dtype(*avals):
    dt = np.result_type(*(a.dtype for a in avals))
    return dt if kind_of(dt) in "fc" else np.dtype(np.float64)


# --- triangular solve -------------------------------------------------------------------------

_SMALL = 32  # below this size a general LAPACK solve (numpy's gufunc) beats trtrs' call overhead


def _tri_solve_impl(a, b, lower, trans, unit_diagonal):
    xp = namespace_of(a, b)
    dt = np.result_type(a.dtype, b.dtype, np.float32)
    n = a.shape[0]
    if xp is not np and not unit_diagonal and n and bool((xp.diagonal(a) == 0).any()):
        # as scipy (cupyx's trsm and cupy's solve do not check): a zero pivot is singular
        bad = int(xp.argmax(xp.diagonal(a) == 0))
        raise np.linalg.LinAlgError(f"singular matrix: resolution failed at diagonal {bad}")
    ns = _linalg(xp) if n > _SMALL else None
    if ns is not None and hasattr(ns, "solve_triangular"):
        out = ns.solve_triangular(a, b, trans=trans, lower=lower, unit_diagonal=unit_diagonal,
                                  check_finite=False)  # (its finiteness check costs ~1000x the solve)
        return out.astype(dt) if out.dtype != dt else out
    keep = np.tri(n, n, -1 if unit_diagonal else 0, dtype=bool)
    keep = xp.asarray(keep if lower else keep.T)
    t = xp.where(keep, a, xp.zeros((), a.dtype))
    if unit_diagonal:
        t = t + xp.eye(n, dtype=a.dtype)
    return xp.linalg.solve(t.T if trans else t, b).astype(dt)


def _tri_solve_abstract(a, b, lower, trans, unit_diagonal):
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"solve_triangular: expected a square 2-d matrix a, got shape {a.shape}")
    if b.ndim != 2 or b.shape[0] != a.shape[0]:
        raise ValueError(f"solve_triangular: shapes of a {a.shape} and b {b.shape} are incompatible")
    return ShapedArray(b.shape, np.result_type(a.dtype, b.dtype, np.float32))


def _triangle(m, lower, unit_diagonal):
    """m restricted to the triangle a triangular solve reads (strict if unit diagonal)."""
    n = m.shape[-1]
    k = -1 if unit_diagonal else 0
    return m * (tri_like(m, n, n, k) if lower else _T(tri_like(m, n, n, k)))


def _tri_vjp_a(g, ans, a, b, lower, trans, unit_diagonal):
    gb = triangular_solve(a, g, lower, 1 - trans, unit_diagonal)  # op(A)^-T g
    ga_op = -matmul(gb, _T(ans))  # cotangent of op(A)
    return _triangle(_T(ga_op) if trans else ga_op, lower, unit_diagonal)


def _tri_jvp_a(t, ans, a, b, lower, trans, unit_diagonal):
    ta = _triangle(t, lower, unit_diagonal)
    return -triangular_solve(a, matmul(_T(ta) if trans else ta, ans), lower, trans, unit_diagonal)


triangular_solve_p = Primitive("triangular_solve", _tri_solve_impl, _tri_solve_abstract)
triangular_solve_p.defvjp(
    _tri_vjp_a,
    lambda g, ans, a, b, lower, trans, unit_diagonal: triangular_solve(a, g, lower, 1 - trans, unit_diagonal),
    unsaved_args=(1,),
)
triangular_solve_p.defjvp(
    _tri_jvp_a,
    lambda t, ans, a, b, lower, trans, unit_diagonal: triangular_solve(a, t, lower, trans, unit_diagonal),
)


def triangular_solve(a, b, lower=True, trans=0, unit_diagonal=False):
    """op(a)^-1 b for triangular 2-d ``a`` (op: identity if trans == 0, transpose if 1)."""
    return triangular_solve_p.bind(a, b, lower=bool(lower), trans=int(trans), unit_diagonal=bool(unit_diagonal))


# --- shared shape rule ------------------------------------------------------------------

def _square_abstract(name):
    def abstract(a, *rest, **params):
        if a.ndim != 2 or a.shape[0] != a.shape[1]:
            raise ValueError(f"{name}: expected a square 2-d matrix, got shape {a.shape}")
        return ShapedArray(a.shape, _float_dtype(a))
    return abstract


# --- expm --------------------------------------------------------------------------------------

def _expm_impl(a):
    xp = namespace_of(a)
    ns = _linalg(xp)
    dt = _float_dtype(a)
    a = a.astype(dt) if a.dtype != dt else a
    if ns is None or not hasattr(ns, "expm"):
        raise missing_error("expm", xp, "linalg")
    out = ns.expm(a)
    return out.astype(dt) if out.dtype != dt else out


def _block_upper(a, e):
    """[[a, e], [0, a]]."""
    z = 0.0 * a
    return concatenate([concatenate([a, e], 1), concatenate([z, a], 1)], 0)


def _frechet(a, e):
    """The Frechet derivative of expm at a in direction e (a block of a 2n expm)."""
    n = a.shape[-1]
    big = expm(_block_upper(a, e))
    return big[:n, n:]


expm_p = Primitive("expm", _expm_impl, _square_abstract("expm"))
expm_p.defvjp(lambda g, ans, a: _frechet(_T(a), g), saves_out=False)
expm_p.defjvp(lambda t, ans, a: _frechet(a, t))
expm = expm_p.bind


# --- Sylvester equation and sqrtm -------------------------------------------------------------

def _sylvester_impl(a, b, q):
    xp = namespace_of(a, b, q)
    dt = np.result_type(_float_dtype(a), _float_dtype(b), _float_dtype(q))
    ns = _linalg(xp)
    if ns is not None and hasattr(ns, "solve_sylvester"):
        out = ns.solve_sylvester(a, b, q)
        return out.astype(dt) if out.dtype != dt else out
    # (I kron A + B^T kron I) vec(X) = vec(Q), column-major vec: O(n^3 m^3), for small systems
    n, m = q.shape
    big = xp.kron(xp.eye(m, dtype=dt), a) + xp.kron(b.T, xp.eye(n, dtype=dt))
    x = xp.linalg.solve(big, q.T.reshape(n * m).astype(dt))
    return x.reshape(m, n).T


def _sylvester_abstract(a, b, q):
    for name, x in (("a", a), ("b", b)):
        if x.ndim != 2 or x.shape[0] != x.shape[1]:
            raise ValueError(f"solve_sylvester: {name} must be a square 2-d matrix, got shape {x.shape}")
    if q.shape != (a.shape[0], b.shape[0]):
        raise ValueError(f"solve_sylvester: q must have shape {(a.shape[0], b.shape[0])} for a {a.shape} "
                         f"and b {b.shape}, got {q.shape}")
    return ShapedArray(q.shape, np.result_type(_float_dtype(a), _float_dtype(b), _float_dtype(q)))


def _sylvester_qbar(g, a, b):
    return solve_sylvester(_T(a), _T(b), g)


solve_sylvester_p = Primitive("solve_sylvester", _sylvester_impl, _sylvester_abstract)
solve_sylvester_p.defvjp(
    lambda g, ans, a, b, q: -matmul(_sylvester_qbar(g, a, b), _T(ans)),
    lambda g, ans, a, b, q: -matmul(_T(ans), _sylvester_qbar(g, a, b)),
    lambda g, ans, a, b, q: _sylvester_qbar(g, a, b),
    unsaved_args=(2,),
)
solve_sylvester_p.defjvp(
    lambda t, ans, a, b, q: solve_sylvester(a, b, -matmul(t, ans)),
    lambda t, ans, a, b, q: solve_sylvester(a, b, -matmul(ans, t)),
    lambda t, ans, a, b, q: solve_sylvester(a, b, t),
)


def solve_sylvester(a, b, q):
    """X with a X + X b = q."""
    return solve_sylvester_p.bind(a, b, q)


def _host_stack(a):
    """a's concrete value as a host stack of matrices: a batch (vmap's values, found through
    their ``val``/``bdim``) gives all its examples; None without a concrete value (make_graph)."""
    try:
        return to_numpy(a._concrete())
    except Exception:  # noqa: BLE001 - any tracer that refuses conversion
        val, bdim = getattr(a, "val", None), getattr(a, "bdim", None)
        if val is None or bdim is None:
            return None
        inner = _host_stack(val)
        return None if inner is None else np.moveaxis(inner, bdim, 0)


def principal_dtype(a):
    """The dtype of scipy's sqrtm/logm of ``a``: complex for complex ``a`` and for a real ``a`` with
    a negative real eigenvalue (under vmap: in any example; without a concrete value, real: the
    impl then raises if the result is complex)."""
    dt = np.dtype(_float_dtype(a))
    if dt.kind == "c":
        return dt
    host = _host_stack(a)
    if host is None or host.size == 0:
        return dt
    w = np.linalg.eigvals(host)
    negative = (w.real < 0) & (np.abs(w.imag) <= 1e-12 * (1 + np.abs(w.real)))
    return np.result_type(dt, np.complex64) if negative.any() else dt


def _matrix_function_impl(name):
    def impl(a, dtype):
        xp = namespace_of(a)
        ns = _linalg(xp)
        if ns is None or not hasattr(ns, name):
            raise missing_error(name, xp, "linalg")
        out = getattr(ns, name)(a)
        if isinstance(out, tuple):  # older scipy: (result, errest) with disp=False
            out = out[0]
        if out.dtype.kind == "c" and np.dtype(dtype).kind != "c":
            if bool(xp.any(xp.abs(out.imag) > 1e-10 * (1 + xp.abs(out.real).max()))):
                raise ValueError(f"{name}: the principal {'square root' if name == 'sqrtm' else 'logarithm'} "
                                 "of this matrix is complex (a negative real eigenvalue), and without a "
                                 "concrete value (under make_graph) funcgrad assumed a real result; cast the "
                                 "matrix to complex first")
            out = out.real
        return out.astype(dtype) if out.dtype != dtype else out

    impl.__name__ = f"{name}_impl"
    return impl


def _matrix_function_abstract(name):
    square = _square_abstract(name)

    def abstract(a, dtype):
        return ShapedArray(square(a).shape, np.dtype(dtype))

    return abstract


sqrtm_p = Primitive("sqrtm", _matrix_function_impl("sqrtm"), _matrix_function_abstract("sqrtm"))
sqrtm_p.defvjp(lambda g, ans, a, dtype: solve_sylvester(_T(ans), _T(ans), g), unsaved_args=(0,))
sqrtm_p.defjvp(lambda t, ans, a, dtype: solve_sylvester(ans, ans, t))


def sqrtm(a, dtype=None):
    return sqrtm_p.bind(a, dtype=np.dtype(dtype or principal_dtype(a)))


def _logm_frechet(a, e, dtype):
    n = a.shape[-1]
    return logm(_block_upper(a, e), dtype)[:n, n:]


logm_p = Primitive("logm", _matrix_function_impl("logm"), _matrix_function_abstract("logm"))
logm_p.defvjp(lambda g, ans, a, dtype: _logm_frechet(_T(a), g, dtype), saves_out=False)
logm_p.defjvp(lambda t, ans, a, dtype: _logm_frechet(a, t, dtype))


def logm(a, dtype=None):
    return logm_p.bind(a, dtype=np.dtype(dtype or principal_dtype(a)))


# --- LU with partial pivoting ---------------------------------------------------------------
#
# lu(a) is the packed factor (unit L below the diagonal, U on and above it) of P^T a, as
# scipy.linalg.lu_factor's first result; lu_pivots(a) its LAPACK pivots (no derivative),
# lu_perm(piv) the row order: a[perm] == L @ U.  (The pivots come from a second
# factorization: deterministic, so they always match the factor.)

def _lu_factor(a):
    xp = namespace_of(a)
    ns = _linalg(xp)
    dt = _float_dtype(a)
    a = a.astype(dt) if a.dtype != dt else a
    if ns is None or not hasattr(ns, "lu_factor"):
        raise missing_error("lu_factor", xp, "linalg")
    return ns.lu_factor(a, check_finite=False)


lu_p = Primitive("lu_factor", lambda a: _lu_factor(a)[0], _square_abstract("lu_factor"))
lu_pivots_p = Primitive("lu_pivots", lambda a: _lu_factor(a)[1],
                        lambda a: ShapedArray(a.shape[:1], np.dtype(np.int32)), differentiable=False)


def _lu_perm_impl(piv):
    host = backend_of(piv).to_numpy(piv)
    perm = np.arange(host.shape[0])
    for i, p in enumerate(host):
        perm[i], perm[p] = perm[p], perm[i]
    return put_buffer(perm, device_of(piv))


lu_perm_p = Primitive("lu_perm", _lu_perm_impl, lambda piv: ShapedArray(piv.shape, np.dtype(np.int64)),
                      differentiable=False)
lu_pivots = lu_pivots_p.bind
lu_perm = lu_perm_p.bind


def _unit_lower(lu_, m, trans=0):
    return triangular_solve(lu_, m, True, trans, True)


def _lu_jvp(t, ans, a):
    perm = lu_perm(lu_pivots(a))
    n = a.shape[-1]
    x = _T(triangular_solve(ans, _T(_unit_lower(ans, t[perm])), False, 1))  # L^-1 P^T dA U^-1
    strict = tri_like(x, n, n, -1)
    low = x * strict
    dl = matmul(ans * strict + eye_like(x, n), low)
    du = matmul(x - low, ans - ans * strict)
    return dl + du


def _lu_vjp(g, ans, a):
    perm = lu_perm(lu_pivots(a))
    n = a.shape[-1]
    strict = tri_like(g, n, n, -1)
    upper = 1.0 - strict
    l_mat = ans * strict + eye_like(g, n)
    u_mat = ans * upper
    xbar = matmul(_T(l_mat), g * strict) * strict + matmul(g * upper, _T(u_mat)) * upper
    y = _T(triangular_solve(ans, _T(_unit_lower(ans, xbar, 1)), False, 0))  # L^-T xbar U^-T
    return (0.0 * y).at[perm].set(y)  # P y: row perm[i] of the result is row i of y


lu_p.defvjp(_lu_vjp)
lu_p.defjvp(_lu_jvp)
lu = lu_p.bind
