"""torch.linalg and the decompositions (inverse, det, svd, ...).

funcgrad's core has no linear-algebra decomposition primitives yet (they are
being added on another branch): these compute with numpy, and their results
record a node whose backward raises a clear error naming the operation.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ._dispatch import FUNCS, METHODS, op
from .function import Function
from .tensor import Tensor, wrap


class _NoDerivative(Function):
    @staticmethod
    def forward(ctx, name, compute, *xs):
        ctx.name = name
        out = compute(*(x._value for x in xs))
        if isinstance(out, tuple):
            return tuple(wrap(np.asarray(o)) for o in out)
        return wrap(np.asarray(out))

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(
            f"the derivative for '{ctx.name}' is not implemented in funcgrad.compat yet: funcgrad's core has "
            "no primitive for it (the linear-algebra primitives are on their way)")


def _forward_only(name, compute, *xs):
    for x in xs:
        if x._value.dtype.kind not in "fc":
            raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {x.dtype.name.title()}")
    return _NoDerivative.apply(name, compute, *xs)


def _square(name, a):
    if a.dim() < 2 or a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are {a.shape[-2] if a.dim() > 1 else ''} "
                           f"by {a.shape[-1] if a.dim() else ''} matrices")


def _inv(a):
    if np.any(np.linalg.matrix_rank(a) < a.shape[-1]):
        raise RuntimeError("linalg.inv: The diagonal element 2 is zero, the inversion could not be completed "
                           "because the input matrix is singular.")
    return np.linalg.inv(a)


@op("inverse")
def inverse(input):
    _square("inv", input)
    return _forward_only("inverse", _inv, input)


@op("det")
def det(input):
    _square("det", input)
    return _forward_only("det", np.linalg.det, input)


@op("logdet")
def logdet(input):
    return _forward_only("logdet", lambda a: np.log(np.linalg.det(a)), input)


@op("slogdet")
def slogdet(input):
    return _forward_only("slogdet", lambda a: tuple(np.linalg.slogdet(a)), input)


_SVD = type("svd", (namedtuple("svd", ["U", "S", "V"]),), {"__slots__": ()})
_SVD.__repr__ = lambda self: "torch.return_types.svd(\n" + ",\n".join(f"{k}={v!r}" for k, v in zip(self._fields, self)) + ")"


@op("svd")
def svd(input, some=True, compute_uv=True):
    """Returns (U, S, V) with V (not V^H), as torch.svd."""
    u, s, vh = _forward_only("svd", lambda a: tuple(np.linalg.svd(a, full_matrices=not some)), input)
    v = wrap(np.swapaxes(vh._value, -1, -2).conj())
    if not compute_uv:
        return _SVD(wrap(np.zeros_like(u._value)), s, wrap(np.zeros_like(v._value)))
    return _SVD(u, s, v)


@op("pinverse")
def pinverse(input, rcond=1e-15):
    return _forward_only("pinverse", lambda a: np.linalg.pinv(a, rcond), input)


@op("matrix_power")
def matrix_power(input, n):
    r = None
    base = input if n >= 0 else inverse(input)
    for _ in range(abs(n)):
        r = base if r is None else FUNCS["matmul"](r, base)
    return r if r is not None else wrap(np.broadcast_to(np.eye(input.shape[-1], dtype=input._value.dtype), input.shape).copy())


@op("cholesky")
def cholesky(input, upper=False):
    r = _forward_only("cholesky", np.linalg.cholesky, input)
    return r.mT if upper else r


@op("qr")
def qr(input, some=True):
    return _forward_only("qr", lambda a: tuple(np.linalg.qr(a, "reduced" if some else "complete")), input)


def inv(A):
    return inverse(A)


def norm(A, ord=None, dim=None, keepdim=False):  # noqa: A002
    return FUNCS["norm"](A, "fro" if ord is None else ord, dim, keepdim)


def vector_norm(x, ord=2, dim=None, keepdim=False):  # noqa: A002
    return FUNCS["norm"](x, ord, dim, keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False):  # noqa: A002
    return FUNCS["norm"](A, ord, dim, keepdim)


def svdvals(A):
    return svd(A).S


def eigh(A, UPLO="L"):
    return _forward_only("eigh", lambda a: tuple(np.linalg.eigh(a, UPLO)), A)


def eigvalsh(A, UPLO="L"):
    return _forward_only("eigvalsh", lambda a: np.linalg.eigvalsh(a, UPLO), A)


def solve(A, B):
    return _forward_only("solve", np.linalg.solve, A, B)


def cross(a, b, dim=-1):
    return FUNCS["cross"](a, b, dim)


matmul = FUNCS["matmul"]
multi_dot = lambda ts: __import__("functools").reduce(FUNCS["matmul"], ts)  # noqa: E731
METHODS["det"] = det
_ = Tensor
