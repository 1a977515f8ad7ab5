"""torch.linalg and the decompositions (inverse, det, svd, qr, cholesky, eigh, solve, ...).

They call funcgrad.numpy.linalg on the tensors themselves (every funcgrad.numpy
function accepts Tensors: they are tracers of the compat trace), so the core's
primitives and their vjp rules give the gradients.  numpy's LinAlgError is
re-raised as :class:`LinAlgError`, a RuntimeError as in PyTorch.
"""

from __future__ import annotations

import functools
from collections import namedtuple

import numpy as np

from ..backend import kind_of
from .. import numpy as fnp
from ..primitives import linalg as _lp
from ..scipy import linalg as _sl
from ._dispatch import FUNCS, METHODS, name_grad, op
from ._validate import op_error, runtime_errors
from .device import xp_of
from .tensor import Tensor


class _LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: a singular or non-positive-definite input (PyTorch's class is
    ``torch._C._LinAlgError``, so its name is the same here)."""


LinAlgError = _LinAlgError


def _returns(name, fields):
    base = namedtuple(name, fields)
    cls = type(name, (base,), {"__slots__": ()})
    cls.__repr__ = lambda self: (f"torch.return_types.{name}(\n"
                                 + ",\n".join(f"{k}={v!r}" for k, v in zip(self._fields, self)) + ")")
    return cls


_SVD = _returns("svd", ["U", "S", "V"])
_SVDH = _returns("linalg_svd", ["U", "S", "Vh"])
_QR = _returns("qr", ["Q", "R"])
_EIGH = _returns("linalg_eigh", ["eigenvalues", "eigenvectors"])
_SLOGDET = _returns("slogdet", ["sign", "logabsdet"])


def _linalg(name, grad_name=None):
    """Wrap a function: float input required, LinAlgError as PyTorch's, grad_fn named."""
    def deco(fn):
        @functools.wraps(fn)
        def f(A, *args, **kwargs):
            if isinstance(A, Tensor) and kind_of(A._value.dtype) not in "fc":
                raise RuntimeError(f"linalg.{name}: Expected a floating point or complex tensor as input. "
                                   f"Got {A.dtype.legacy_name}")
            if isinstance(A, Tensor) and (A.dim() < 2):
                raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
            try:
                r = fn(A, *args, **kwargs)
            except np.linalg.LinAlgError as e:
                raise LinAlgError(f"linalg.{name}: {e}") from None
            except ValueError as e:  # funcgrad's shape checks: PyTorch's RuntimeError (OpError is both)
                if type(e) is not ValueError:
                    raise
                raise op_error(e) from e
            return name_grad(r, grad_name) if grad_name and isinstance(r, Tensor) else r
        return f
    return deco


def _square(name, a):
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are "
                           f"{a.shape[-2]} by {a.shape[-1]} matrices")


@_linalg("inv", "LinalgInvExBackward0")
def inv(A):
    _square("inv", A)
    if bool((xp_of(A._value).linalg.matrix_rank(A._value) < A.shape[-1]).any()):
        raise LinAlgError("linalg.inv: The diagonal element 2 is zero, the inversion could not be completed "
                          "because the input matrix is singular.")
    return fnp.linalg.inv(A)


@_linalg("det", "LinalgDetBackward0")
def det(A):
    _square("det", A)
    return fnp.linalg.det(A)


@_linalg("slogdet")
def slogdet(A):
    _square("slogdet", A)
    return _SLOGDET(*fnp.linalg.slogdet(A))


@_linalg("svd")
def svd(A, full_matrices=True):
    """torch.linalg.svd: (U, S, Vh)."""
    return _SVDH(*fnp.linalg.svd(A, full_matrices=full_matrices))


@_linalg("svdvals")
def svdvals(A):
    return fnp.linalg.svd(A, compute_uv=False)


@_linalg("qr")
def qr(A, mode="reduced"):
    return _QR(*fnp.linalg.qr(A, mode=mode))


@_linalg("cholesky", "LinalgCholeskyExBackward0")
def cholesky(A, *, upper=False):
    L = fnp.linalg.cholesky(A)
    return L.mT if upper else L


@_linalg("eigh")
def eigh(A, UPLO="L"):
    return _EIGH(*fnp.linalg.eigh(A, UPLO=UPLO))


@_linalg("eigvalsh")
def eigvalsh(A, UPLO="L"):
    return fnp.linalg.eigh(A, UPLO=UPLO)[0]


@_linalg("solve", "LinalgSolveExBackward0")
def solve(A, B):
    return fnp.linalg.solve(A, B)


@_linalg("pinv", "LinalgPinvBackward0")
def pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """torch.linalg.pinv: singular values at or below max(atol, rtol * largest) count as zero;
    rtol defaults to eps * max(m, n) when neither is given, to 0 when only atol is
    (the old positional ``rcond`` is rtol)."""
    if rcond is not None:
        if rtol is not None:
            raise RuntimeError("linalg.pinv: rcond and rtol cannot both be given (rcond is the old name of rtol)")
        rtol = rcond
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else np.finfo(A._value.dtype).eps * max(A.shape[-2:])
    return _lp.pinv(A, float(rtol), 0.0 if atol is None else float(atol))


@_linalg("pinverse", "PinverseBackward0")
def pinverse(input, rcond=1e-15):
    """torch.pinverse: singular values at or below rcond * largest count as zero."""
    return _lp.pinv(input, float(rcond))


def vector_norm(x, ord=2, dim=None, keepdim=False):  # noqa: A002
    return FUNCS["norm"](x, ord, dim, keepdim)


def cross(a, b, dim=-1):
    return FUNCS["cross"](a, b, dim)


def matmul(a, b):
    return FUNCS["matmul"](a, b)


def multi_dot(tensors):
    return functools.reduce(FUNCS["matmul"], tensors)


def matrix_power(A, n):
    if n < 0:
        A, n = inv(A), -n
    if n == 0:
        from .creation import eye  # noqa: PLC0415

        return eye(A.shape[-1], dtype=A.dtype).expand(*A.shape).clone()
    r = A
    for _ in range(n - 1):
        r = FUNCS["matmul"](r, A)
    return r


# the torch.* spellings
op("inverse")(inv)
op("det")(det)
op("logdet")(lambda input: name_grad(FUNCS["log"](det(input)), "LogdetBackward0"))
op("slogdet")(slogdet)
op("pinverse")(pinverse)
op("matrix_power")(matrix_power)
op("cholesky")(lambda input, upper=False: cholesky(input, upper=upper))


@op("svd")
def _torch_svd(input, some=True, compute_uv=True):
    """torch.svd: (U, S, V) with V, not V^H."""
    u, s, vh = svd(input, full_matrices=not some)
    return _SVD(u, s, vh.mT)


@op("qr")
def _torch_qr(input, some=True):
    return qr(input, "reduced" if some else "complete")


@op("einsum", method=False)
@runtime_errors
def einsum(equation, *operands):
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return fnp.einsum(equation, *operands)


METHODS["det"] = det


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


from .linalg_decompositions import *  # noqa: E402,F401,F403  (the *_ex forms, LU, eig, householder_product)
from .linalg_norms import *  # noqa: E402,F401,F403  (matrix_norm, norm, matrix_rank, cond)
from .linalg_solvers import *  # noqa: E402,F401,F403  (solve_triangular, lstsq, tensorsolve, ...)

from ._out import install as _install_out  # noqa: E402

_install_out(globals(), "linalg.")  # out= on every function that declares it (see _out.py)
