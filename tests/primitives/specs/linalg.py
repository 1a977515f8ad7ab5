"""Specs: linear algebra (funcgrad.primitives.linalg, linalg_decomp) through fnp.linalg.

Inputs are kept well away from where the functions are singular (dominant
diagonals, spread-out eigen/singular values) so that finite differences are
accurate: the functions add ``step * (1, 2, ...)`` to the diagonal of drawn
matrices with small entries, so this holds for any rearrangement of the drawn
values too (the vmap test rolls them).  Behaviour at singular points is tested
in tests/numpy/test_linalg*.py.
"""

import hypothesis.strategies as st
import numpy as np

import funcgrad.numpy as fnp

from ..spec import Spec, floats_of

la = fnp.linalg


def _batch(draw):
    return draw(st.sampled_from([(), (), (2,), (1, 2)]))


def _spread(x, step):
    """Add step * (1, 2, ...) along the main diagonal of every matrix in x (in place)."""
    k = min(x.shape[-2:])
    idx = np.arange(k)
    x[..., idx, idx] += step * (idx + 1)
    return x


def _spread_fn(x, step):
    """x + step * diag(1, 2, ...) (rectangular), inside the function under test."""
    return x + fnp.asarray(_spread(np.zeros(x.shape[-2:]), step))


def shifted(fn, step=4.0):
    """fn with its first argument's diagonal spread out (see the module docstring)."""
    def f(x, *rest, **kwargs):
        return fn(_spread_fn(x, step), *rest, **kwargs)

    f.__name__ = getattr(fn, "__name__", "f")
    return f


@st.composite
def _square(draw, n_min=1, n_max=3, low=-1.0, high=1.0, avoid=()):
    """|entries| <= 1, n <= 3: x + 4 diag(1, 2, ...) is invertible (||x|| <= 3)."""
    n = draw(st.integers(n_min, n_max))
    return np.array(draw(floats_of(_batch(draw) + (n, n), low, high, avoid)))


@st.composite
def _rect(draw, tall=None, low=-0.3, high=0.3, batch=True, avoid=()):
    m, n = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    if tall is True and m < n or tall is False and m > n:
        m, n = n, m
    return np.array(draw(floats_of((_batch(draw) if batch else ()) + (m, n), low, high, avoid)))


def one(strategy, **kwargs):
    return strategy.map(lambda x: ((x,), dict(kwargs)))


@st.composite
def _solve_args(draw):
    a = draw(_square())
    n = a.shape[-1]
    kind = draw(st.sampled_from(["vector", "matrix", "batched_b", "broadcast_a"]))
    if kind == "vector":
        b_shape = (n,)
    elif kind == "matrix":
        b_shape = (n, draw(st.integers(1, 2)))
    elif kind == "batched_b":
        b_shape = (3,) + a.shape[:-2][-1:] + (n, 2)
    else:
        b_shape = a.shape[:-2] + (n, 1)
    return (a, draw(floats_of(b_shape))), {}


@st.composite
def _power_args(draw):
    return (draw(_square()),), {"n": draw(st.sampled_from([-2, -1, 1, 2, 3, 5]))}


@st.composite
def _multi_dot_args(draw):
    k = draw(st.integers(2, 4))
    dims = [draw(st.integers(1, 3)) for _ in range(k + 1)]
    arrays = [draw(floats_of((dims[i], dims[i + 1]))) for i in range(k)]
    if draw(st.booleans()):
        arrays[0] = arrays[0][0]
    if draw(st.booleans()):
        arrays[-1] = arrays[-1][:, 0]
    return tuple(arrays), {}


@st.composite
def _lstsq_args(draw):
    a = draw(_rect(tall=True, batch=False))
    b_shape = a.shape[:1] + draw(st.sampled_from([(), (2,)]))
    return (a, draw(floats_of(b_shape))), {}


def _lstsq_fn(a, b):
    x, residuals, _, s = la.lstsq(a, b)  # the rank is an integer: no derivative
    return [x, residuals, s]


def _eigh_fn(x, UPLO):
    w, v = la.eigh(_spread_fn(x + fnp.swapaxes(x, -1, -2), 5.0), UPLO=UPLO)
    return [w, v * v]  # v * v: independent of each eigenvector's sign


def _svd_fn(x):
    u, s, vh = la.svd(x, full_matrices=False)
    return [u * u, s, vh * vh]  # squares: independent of the singular vectors' signs


SPECS = [
    Spec("inv", ("inv",), shifted(la.inv), one(_square())),
    Spec("solve", ("solve",), shifted(la.solve), _solve_args()),
    Spec("det", ("det",), shifted(la.det), one(_square())),
    Spec("slogdet", ("slogdet",), shifted(lambda x: list(la.slogdet(x))), one(_square())),
    Spec("linalg_cholesky", ("cholesky",),
         lambda x, upper: la.cholesky(x @ fnp.swapaxes(x, -1, -2) + fnp.eye(x.shape[-1]), upper=upper),
         _square().map(lambda x: ((x,), {"upper": bool(x.shape[-1] % 2)}))),
    Spec("pinv", ("pinv",), shifted(la.pinv), one(_rect())),
    Spec("matrix_power", (), shifted(la.matrix_power), _power_args()),
    Spec("matrix_power_0", ("tri_like",), lambda x: la.matrix_power(x, 0), one(_square()), order=1),
    Spec("multi_dot", ("matmul",), lambda *xs: la.multi_dot(xs), _multi_dot_args()),
    Spec("lstsq", ("pinv", "svd"), shifted(_lstsq_fn),
         _lstsq_args()),
    Spec("eigh", ("eigh",), _eigh_fn,
         _square(low=-0.3, high=0.3).map(lambda x: ((x,), {"UPLO": "LU"[x.shape[-1] % 2]}))),
    Spec("eigvalsh", ("eigh",), lambda x: la.eigvalsh(_spread_fn(x + fnp.swapaxes(x, -1, -2), 5.0)),
         one(_square())),
    Spec("svd", ("svd",), shifted(_svd_fn), one(_rect())),
    Spec("svd_full_square", ("svd",), shifted(lambda x: [y * y for y in la.svd(x)]),
         one(_square(low=-0.3, high=0.3))),
    Spec("svdvals", ("svd",), shifted(la.svdvals), one(_rect())),
    Spec("qr", ("qr",), shifted(lambda x: list(la.qr(x))), one(_rect(tall=True, avoid=(0.0,)))),
    Spec("qr_complete_square", ("qr",), shifted(lambda x: list(la.qr(x, mode="complete"))),
         one(_square(avoid=(0.0,)))),
    Spec("qr_r", ("qr",), shifted(lambda x: la.qr(x, mode="r")), one(_rect(tall=True, avoid=(0.0,)))),
    Spec("cond", ("svd",), shifted(la.cond), one(_rect())),
    Spec("cond_fro", ("inv",), shifted(lambda x: la.cond(x, "fro")), one(_square())),
]


# --- norms ----------------------------------------------------------------------

@st.composite
def _vector_norm_args(draw):
    ord = draw(st.sampled_from([None, 2, 1, np.inf, -np.inf, 3, 0.5, -1.5, 0]))
    shape = draw(st.sampled_from([(3,), (2, 3), (4, 1, 2)]))
    x = draw(floats_of(shape, -2.0, 2.0, avoid=(0.0,)))
    if ord in (np.inf, -np.inf):  # distinct magnitudes: max/min are differentiable
        x = np.sign(x) * (np.abs(x) + 0.1 * np.arange(x.size).reshape(x.shape))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    return (x,), {"ord": ord, "axis": axis, "keepdims": draw(st.booleans())}


@st.composite
def _matrix_norm_args(draw):
    ord = draw(st.sampled_from([None, "fro", "nuc", 2, -2, 1, -1, np.inf, -np.inf]))
    x = _spread(draw(_rect()), 4.0)
    if ord in (1, -1, np.inf, -np.inf):  # distinct row/column sums
        x = x + np.arange(x.shape[-1]) * 0.05 + np.arange(x.shape[-2])[:, None] * 0.11
        # and entries away from |x|'s kink at 0, which finite differences would straddle
        x = np.where(np.abs(x) < 0.05, x + np.where(x < 0, -0.1, 0.1), x)
    axis = draw(st.sampled_from([(-2, -1), (-1, -2)])) if x.ndim > 2 else draw(st.sampled_from([None, (0, 1), (1, 0)]))
    return (x,), {"ord": ord, "axis": axis, "keepdims": draw(st.booleans()) if axis is not None else False}


SPECS += [
    Spec("norm_vector", (), la.norm, _vector_norm_args()),
    Spec("norm_matrix", (), la.norm, _matrix_norm_args()),
    Spec("norm_default", (), la.norm,
         st.tuples(floats_of(st.sampled_from([(), (3,), (2, 2), (2, 1, 2)]), avoid=(0.0,))).map(lambda a: (a, {}))),
]
