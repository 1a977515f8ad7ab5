"""Linear algebra primitives: matmul (numpy's rules for 1-d and batched operands)."""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import Primitive, ShapedArray
from ._batching import ndim_of, to_front
from .shape import expand_dims, reshape, swap_last_two


def _matmul_impl(x, y):
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
        return expand_dims(g, -1) * x  # (..., n, k), summed to (k,) by the driver
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
