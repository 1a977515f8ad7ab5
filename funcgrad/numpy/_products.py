"""Products: matmul, dot, outer."""

from __future__ import annotations

from ..primitives.linalg import matmul as _matmul
from ._elementwise import multiply
from ._shape import moveaxis, ravel, reshape
from ._util import as_array, no_out

__all__ = ["matmul", "dot", "outer"]


def matmul(x1, x2, /, out=None):
    """numpy.matmul: 1-d operands are promoted and the added dim removed; batches broadcast."""
    no_out(out, "matmul")
    a, b = as_array(x1), as_array(x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(
            f"matmul: Input operand {0 if a.ndim == 0 else 1} does not have enough dimensions "
            "(a 0-d array); use multiply (*) for scalars"
        )
    return _matmul(a, b)


def dot(a, b, out=None):
    """numpy.dot: multiply for scalars, matmul up to 2-d, sum over a's last / b's second-to-last axis."""
    no_out(out, "dot")
    a, b = as_array(a), as_array(b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    if b.ndim <= 2:
        return _matmul(a, b)
    n = a.shape[-1]
    if b.shape[-2] != n:
        raise ValueError(f"shapes {tuple(a.shape)} and {tuple(b.shape)} not aligned: {n} (dim {a.ndim - 1}) != {b.shape[-2]} (dim {b.ndim - 2})")
    bm = reshape(moveaxis(b, -2, 0), (n, -1))
    out = _matmul(reshape(a, (-1, n)), bm)
    return reshape(out, tuple(a.shape[:-1]) + tuple(b.shape[:-2]) + (b.shape[-1],))


def outer(a, b, out=None):
    no_out(out, "outer")
    a, b = ravel(as_array(a)), ravel(as_array(b))
    return multiply(reshape(a, (-1, 1)), reshape(b, (1, -1)))
