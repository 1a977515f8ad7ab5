"""``dense(x, w) = x @ w.T``: the product of a dense layer, with PyTorch's (out, in) weights.

A primitive of its own (rather than ``matmul(x, transpose(w))``) so that both
cotangents come out of one BLAS call already in their arguments' layout:
``g @ w`` for x and ``g.T @ x`` for w (C-contiguous, like a hand-written
backward), where matmul + transpose would hand the optimizer a transposed view.
"""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import Primitive, ShapedArray
from ._batching import to_front
from .linalg import matmul, matmul_p
from .shape import reshape, swap_last_two


def _dense_impl(x, w):
    get = XP_OF_TYPE.get
    xp = get(type(x)) or get(type(w), np)
    return xp.matmul(x, w.T)


def _dense_abstract(x, w):
    if len(w.shape) != 2 or len(x.shape) < 1 or x.shape[-1] != w.shape[1]:
        raise ValueError(f"dense: input {tuple(x.shape)} does not match weight {tuple(w.shape)} "
                         "(weight is (out_features, in_features))")
    return ShapedArray(tuple(x.shape[:-1]) + (w.shape[0],), np.result_type(x.dtype, w.dtype))


def _dense_vjp_w(g, ans, x, w):
    k = x.shape[-1]
    x2 = reshape(x, (int(np.prod(x.shape[:-1], dtype=np.int64)), k))
    g2 = reshape(g, (x2.shape[0], w.shape[0]))
    return matmul(swap_last_two(g2), x2)


dense_p = Primitive("dense", _dense_impl, _dense_abstract)
dense_p.defvjp(lambda g, ans, x, w: matmul(g, w), _dense_vjp_w, saves_out=False)
dense_p.defjvp(lambda t, ans, x, w: dense(t, w), lambda t, ans, x, w: dense(x, t))
dense = dense_p.bind


def _dense_batch(args, dims):
    (x, w), (dx, dw) = args, dims
    if dw is None:  # one weight for the whole batch: still one dense call
        if dx < len(x.shape) - 1:
            return dense(x, w), dx
        return dense(to_front(x, dx), w), 0
    return matmul_p.batch((x, swap_last_two(to_front(w, dw))), (dx, 0))  # a weight per example


dense_p.batch = _dense_batch
