"""torch.linalg norms and rank: ``matrix_norm``, ``norm``, ``matrix_rank``, ``cond``, and the legacy
``torch.frobenius_norm``, ``torch.nuclear_norm``, ``torch.norm_except_dim``; differentiable."""

from __future__ import annotations

import numpy as np

from .. import numpy as fnp
from ._dispatch import FUNCS, op
from .linalg import inv

__all__ = ["matrix_rank", "cond", "matrix_norm", "norm", "frobenius_norm", "nuclear_norm", "norm_except_dim"]


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
