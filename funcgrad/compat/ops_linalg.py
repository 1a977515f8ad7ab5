"""Linear algebra: mm/bmm/matmul/mv/dot/outer, the add* family, cross, trace, diag, triu/tril.

Products bind the core's matmul primitive; trace/diag gather with getitem;
triu/tril select with where; cross combines slices.  inverse/det/svd/... live in
:mod:`funcgrad.compat.linalg`.
"""

from __future__ import annotations

import numpy as np

from ..primitives.index import getitem_p, parse_index
from ..primitives.linalg import matmul_p
from . import _validate as check
from ._dispatch import FUNCS, apply, name_grad, op, promote
from .dtypes import buf_of
from .device import check_same, like, xp_of
from .ops_nn_aliases import constant_pad_nd
from .tensor import Tensor, _dim, wrap


# PyTorch's products do not promote: operands of two dtypes are a RuntimeError, with each kernel's message
_DTYPE_MESSAGES = {"BmmBackward0": "bmm: expected scalar type {A} but found {B}",
                   "MvBackward0": "addmv input tensors must have the same dtype, but got {A} and {B}",
                   "DotBackward0": "dot : expected both vectors to have same dtype, but found {A} and {B}"}


def _mm(a, b, name):
    check.same_dtype(buf_of(a).dtype, buf_of(b).dtype, _DTYPE_MESSAGES.get(
        name, "expected m1 and m2 to have the same dtype, but got: {a} != {b}"))
    return name_grad(apply(matmul_p, a, b), name)


@op("matmul")
def matmul(input, other, *, out=None):
    if input.ndim == 0 or other.ndim == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {input.ndim}D and {other.ndim}D")
    if input.shape[-1] != other.shape[-2 if other.ndim > 1 else 0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_shp(input)} and {_shp(other)})")
    name = {(2, 2): "MmBackward0", (1, 1): "DotBackward0", (2, 1): "MvBackward0"}.get((input.ndim, other.ndim), "UnsafeViewBackward0")
    return _mm(input, other, name)


def _shp(t):
    return "x".join(map(str, t.shape))


@op("mm")
def mm(input, mat2, *, out=None):
    if input.ndim != 2 or mat2.ndim != 2:
        raise RuntimeError("self must be a matrix" if input.ndim != 2 else "mat2 must be a matrix")
    if input.shape[1] != mat2.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_shp(input)} and {_shp(mat2)})")
    return _mm(input, mat2, "MmBackward0")


@op("bmm")
def bmm(input, mat2, *, out=None):
    if input.ndim != 3 or mat2.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor" if input.ndim != 3 else "batch2 must be a 3D tensor")
    if input.shape[0] != mat2.shape[0] or input.shape[2] != mat2.shape[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{input.shape[0]}, "
                           f"{input.shape[2]}] but got: [{mat2.shape[0]}, {mat2.shape[1]}].")
    return _mm(input, mat2, "BmmBackward0")


@op("mv")
def mv(input, vec, *, out=None):
    if input.ndim != 2 or vec.ndim != 1:
        raise RuntimeError("vector + matrix @ vector expected, got " + f"{input.ndim}, {vec.ndim}")
    if input.shape[1] != vec.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({input.shape[0]}), mat ({_shp(input)}), vec ({vec.shape[0]})")
    return _mm(input, vec, "MvBackward0")


@op("dot", "inner")
def dot(input, other, *, out=None):
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {other.ndim}D tensors")
    if input.shape[0] != other.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{input.shape[0]}] and src [{other.shape[0]}] "
                           "to have the same number of elements, but got different.")
    return _mm(input, other, "DotBackward0")


op("vdot")(dot)


@op("outer", "ger")
def outer(input, vec2):
    for name, v in (("self", input), ("vec2", vec2)):
        if buf_of(v).ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {buf_of(v).ndim}-D")
    return name_grad(FUNCS["mul"](input.reshape(-1, 1), vec2.reshape(1, -1)), "OuterBackward0")


def _scaled(x, s):
    return x if s == 1 else FUNCS["mul"](x, s)


def _addx(name):
    def deco(prod):
        def f(input, a, b, *, beta=1, alpha=1, out=None):
            p = _scaled(prod(a, b), alpha)
            base = _scaled(input, beta) if beta != 0 else None
            r = p if base is None else FUNCS["add"](base, p)
            return name_grad(r, name)
        return f
    return deco


op("addmm")(_addx("AddmmBackward0")(mm))
op("addmv")(_addx("AddmvBackward0")(mv))
op("addr")(_addx("AddrBackward0")(outer))
op("baddbmm")(_addx("BaddbmmBackward0")(bmm))
op("addbmm")(_addx("AddbmmBackward0")(lambda a, b: FUNCS["sum"](bmm(a, b), 0)))


@op("cross")
def cross(input, other, dim=None):
    """Cross product along ``dim`` (default: the first dimension of size 3)."""
    if input.shape != other.shape:
        (input, other), _ = promote(input, other)
        shape = np.broadcast_shapes(buf_of(input).shape, buf_of(other).shape)
        input, other = input.expand(shape), other.expand(shape)
    if dim is None:
        dims = [i for i, n in enumerate(input.shape) if n == 3]
        if not dims:
            raise RuntimeError("no dimension of size 3 in input")
        dim = dims[0]
    d = _dim(dim, input.ndim)
    if input.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {d} must have length 3. Got {input.shape[d]} and {other.shape[d]}")
    a = [input.select(d, i) for i in range(3)]
    b = [other.select(d, i) for i in range(3)]
    mul, sub = FUNCS["mul"], FUNCS["sub"]
    c = [sub(mul(a[1], b[2]), mul(a[2], b[1])), sub(mul(a[2], b[0]), mul(a[0], b[2])),
         sub(mul(a[0], b[1]), mul(a[1], b[0]))]
    return name_grad(FUNCS["stack"](c, d), "LinalgCrossBackward0")


def _diag_index(shape, offset):
    n, m = shape
    i = np.arange(max(0, -offset), min(n, m - offset)) if min(n, m - offset) > max(0, -offset) else np.arange(0)
    return i, i + offset


@op("diagonal")
def diagonal(input, offset=0, dim1=0, dim2=1):
    x = input.movedim((_dim(dim1, input.ndim), _dim(dim2, input.ndim)), (-2, -1))
    r, c = _diag_index(tuple(x.shape[-2:]), offset)
    template, arrays = parse_index((Ellipsis, wrap(like(r, x._value)), wrap(like(c, x._value))), x.dim())
    return name_grad(apply(getitem_p, x, *arrays, template=template), "DiagonalBackward0")


@op("diag")
def diag(input, diagonal=0):  # noqa: F811  (PyTorch's argument name shadows the function)
    return _diag(input, diagonal)


def _diag(input, offset):
    diagonal = offset
    if input.ndim == 1:
        n = input.shape[0] + abs(diagonal)
        r, c = _diag_index((n, n), diagonal)
        from ..primitives.index import scatter_set_p  # noqa: PLC0415

        template, arrays = parse_index((wrap(like(r, input._value)), wrap(like(c, input._value))), 2)
        z = wrap(xp_of(input._value).zeros((n, n), buf_of(input).dtype))
        return name_grad(apply(scatter_set_p, z, input, *arrays, template=template), "DiagEmbedBackward0")
    if input.ndim != 2:
        raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + f"{input.ndim}D")
    return FUNCS["diagonal"](input, offset)


@op("diag_embed")
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Matrices (in dims ``dim1``, ``dim2`` of the result) whose ``offset`` diagonal is the last dim of ``input``:
    one vectorized product with the identity, padded for the offset (no loop over the matrices)."""
    nd = input.ndim + 1
    d1, d2 = check.dim(dim1, nd), check.dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    n, k = input.shape[-1], abs(int(offset))
    eye = wrap(like(np.eye(n, dtype=bool), input._value))
    out = FUNCS["where"](eye, input.unsqueeze(-1), wrap(xp_of(input._value).zeros((), buf_of(input).dtype)))
    if k:  # the n x n block sits above (offset > 0) or below the main diagonal of an (n+k) x (n+k) matrix
        out = constant_pad_nd(out, (k, 0, 0, k) if offset > 0 else (0, k, k, 0))
    return FUNCS["movedim"](out, (-2, -1), (d1, d2))


@op("trace")
def trace(input):
    if input.ndim != 2:
        raise RuntimeError("trace: expected a matrix, but got tensor with dim " + str(input.ndim))
    return name_grad(FUNCS["sum"](diagonal(input)), "TraceBackward0")


def _tri(upper):
    def f(input, diagonal=0):
        if input.ndim < 2:
            raise RuntimeError(f"{'triu' if upper else 'tril'}: input tensor must have at least 2 dimensions")
        n, m = input.shape[-2:]
        mask = np.triu(np.ones((n, m), bool), diagonal) if upper else np.tril(np.ones((n, m), bool), diagonal)
        r = FUNCS["where"](wrap(like(mask, input._value)), input, wrap(xp_of(input._value).zeros((), buf_of(input).dtype)))
        return name_grad(r, "TriuBackward0" if upper else "TrilBackward0")
    return f


op("triu")(_tri(True))
op("tril")(_tri(False))


@op("kron")
def kron(input, other):
    a = input.reshape(input.shape[0], 1, input.shape[1], 1) if input.ndim == 2 else input.reshape(-1, 1)
    b = other.reshape(1, other.shape[0], 1, other.shape[1]) if other.ndim == 2 else other.reshape(1, -1)
    r = FUNCS["mul"](a, b)
    return r.reshape(input.shape[0] * other.shape[0], -1) if input.ndim == 2 else r.reshape(-1)


@op("einsum", method=False)
def einsum(equation, *operands):
    """Forward-only when any operand requires grad is not supported: matmul-based cases only."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if any(o.requires_grad for o in operands):
        raise RuntimeError("einsum with operands that require grad is not supported by funcgrad.compat yet; "
                           "use matmul/mul/sum instead")
    check_same(*(o._value for o in operands))
    xp = xp_of(operands[0]._value)
    return wrap(xp.asarray(xp.einsum(equation, *(o._value for o in operands))))


__all__ = ["matmul", "mm", "Tensor"]
