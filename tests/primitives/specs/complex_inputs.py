"""Specs on complex inputs: which specs also run with complex arrays, and the specs that need
complex-aware constructions (Hermitian inputs, phase-invariant outputs).

``COMPLEX_VARIANTS`` names specs (of any module) that run again as ``NAME[complex]``
with an imaginary part added to every float argument (tests/primitives/spec.py);
check_grads then perturbs both real directions of each complex input.  Left out, with
the reason: functions numpy refuses for complex input (rfft/rfftn/ihfft, arctan2,
hypot, fmod, copysign, floor & co., sort-based ones, scipy.special, logsumexp,
activations, pooling and convolution layers; convolve and correlate_valid only for time:
correlate runs); specs whose construction is real-only
(eigh, svd, cholesky: their complex versions are below; ``sign``, ``var``: the complex
function binds other primitives).
"""

import hypothesis.strategies as st
import numpy as np

import funcgrad.numpy as fnp
import funcgrad.scipy.linalg as fl

from ..spec import Spec, floats_of, unary
from .linalg import _rect, _spread_fn, _square, one, shifted

la = fnp.linalg

COMPLEX_VARIANTS = (
    # elementwise (holomorphic functions and abs), where, safe_mul, comparisons-based selects
    "add", "subtract", "multiply", "divide", "negative", "power", "power_scalar_exponent", "sqrt", "exp",
    "log", "sin", "cos", "tanh", "absolute", "square", "maximum", "minimum", "where", "safe_mul", "log1p",
    "expm1", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "arcsinh", "arccosh", "arctanh", "sinc",
    "exp2", "log2", "log10", "reciprocal", "complex_parts_of_real_input", "complex_parts",
    # FFTs of complex input
    "fft", "ifft", "fft_of_real", "irfft", "fftn", "ifftn", "irfftn", "fftshift",
    # indexing, scatter, shape
    "getitem_basic", "getitem_advanced", "getitem_mask", "getitem_mixed", "getitem_transpose", "scatter_set",
    "scatter_add", "scatter_multiply", "scatter_min", "scatter_max", "reshape", "transpose", "broadcast_to",
    "concatenate", "pad_constant", "pad_gather_modes", "pad_composed_modes", "split", "split_all_pieces",
    "rearrange", "device_put",
    # products and reductions
    "matmul", "einsum", "tensordot", "kron_inner_vdot", "cross", "reduce_sum", "sum_of_0d_or_no_axes", "mean",
    "reduce_max", "reduce_min", "reduce_prod", "cumsum", "cumprod", "reduce_std", "reduce_median",
    "correlate",
    # linalg
    "inv", "solve", "det", "slogdet", "pinv", "matrix_power", "matrix_power_0", "multi_dot", "lstsq", "svdvals",
    "qr", "qr_complete_square", "qr_r", "cond", "cond_fro", "norm_vector", "norm_matrix", "norm_default",
    "eig", "eigvals", "eigh_hermitian", "eigvalsh_hermitian", "cholesky_hermitian", "svd_phase_invariant",
    "svd_full_phase_invariant",
    # scipy.linalg
    "expm", "solve_sylvester", "sqrtm", "sign_nonzero",  # (logm of complex: tests/scipy/test_linalg_complex.py)
)


def _h(x):
    return fnp.conj(fnp.swapaxes(x, -1, -2))


def _eigh_fn(x, UPLO):
    w, v = la.eigh(_spread_fn(x + _h(x), 5.0), UPLO=UPLO)
    return [w, v * fnp.conj(v)]  # |v|^2: independent of each eigenvector's phase


def _svd_fn(x, full=False):
    u, s, vh = la.svd(x, full_matrices=full)
    # phase-invariant: |u|^2, |vh|^2, and u vh (each pair's phases cancel)
    out = [u * fnp.conj(u), s, vh * fnp.conj(vh)]
    return out + ([u @ vh] if full or u.shape[-1] == vh.shape[-2] else [])


_S = np.array([[1.0, 0.5, 0.2], [0.3, 1.0, 0.4], [0.1, 0.6, 1.0]])


def _eig_base(n):
    """A dense matrix with eigenvalues 1, 2, 3 and eigenvectors the columns of _S (clear largest
    entries). Dense, not triangular: LAPACK's eigenvalue order is then locally constant (for a
    triangular matrix it can jump under perturbation, which finite differences cannot follow)."""
    s = _S[:n, :n]
    return fnp.asarray(s @ np.diag(np.arange(1.0, n + 1)) @ np.linalg.inv(s))


def _eig_fn(x):
    w, v = la.eig(_eig_base(x.shape[-1]) + 0.1 * x)
    return [w, v]


def _spd(m):
    return m @ _h(m) + 2.0 * fnp.eye(m.shape[0])


@st.composite
def _matrix(draw, n_max=3):
    n = draw(st.integers(1, n_max))
    return (draw(floats_of((n, n), -1.0, 1.0)),), {}


SPECS = [
    Spec("eig", ("eig",), _eig_fn, one(_square())),
    Spec("eigvals", ("eig",), lambda x: la.eigvals(_eig_base(x.shape[-1]) + 0.1 * x), one(_square())),
    Spec("eigh_hermitian", ("eigh",), _eigh_fn,
         _square(low=-0.3, high=0.3).map(lambda x: ((x,), {"UPLO": "LU"[x.shape[-1] % 2]}))),
    Spec("eigvalsh_hermitian", ("eigh",), lambda x, UPLO: la.eigvalsh(_spread_fn(x + _h(x), 5.0), UPLO),
         _square().map(lambda x: ((x,), {"UPLO": "UL"[x.shape[-1] % 2]}))),
    Spec("cholesky_hermitian", ("cholesky",),
         lambda x, upper: la.cholesky(x @ _h(x) + fnp.eye(x.shape[-1]), upper=upper),
         _square().map(lambda x: ((x,), {"upper": bool(x.shape[-1] % 2)}))),
    Spec("svd_phase_invariant", ("svd",), shifted(_svd_fn), one(_rect())),
    Spec("svd_full_phase_invariant", ("svd",), shifted(lambda x: _svd_fn(x, True)),
         one(_square(low=-0.3, high=0.3))),
    # scipy.linalg.logm (sqrtm/logm of real matrices with complex results, whose dtype depends on the
    # values, are tested in tests/scipy/test_linalg_complex.py: not in the vmap test's empty batches)
    # logm's derivatives are logm of block matrices (2n, then 4n at second order), and scipy's logm
    # is slow: first order here, second order at one point in tests/scipy/test_linalg_complex.py
    Spec("logm", ("logm",), lambda a: fl.logm(_spd(a)), _matrix(2), order=1, few_draws=True),
    # sign of complex z is z / |z| (differentiable; of real x the zero-derivative primitive)
    Spec("sign_nonzero", (), lambda x: fnp.sign(x) * fnp.exp(x), unary(avoid=(0.0,))),
]
