"""``dense(x, w[, b]) = x @ w.T (+ b)``: a dense layer's product, PyTorch's (out, in) weights.

A primitive of its own (rather than ``matmul(x, transpose(w)) + b``) so that
(1) both cotangents come out of one BLAS call already in their arguments'
layout, ``g @ w`` for x and ``g.T @ x`` for w (C-contiguous, like a
hand-written backward, where matmul + transpose would hand the optimizer a
transposed view), and (2) the bias is added into the product's fresh buffer,
without another temporary (numpy's ``x @ w.T + b`` gets the same by eliding
temporaries).
"""

from __future__ import annotations

import numpy as np

from ..backend import ML_FLOATS, XP_OF_TYPE, in_float32
from ..core import Primitive, ShapedArray
from ._batching import at_front, batch_size, to_front
from .linalg import matmul
from .shape import reshape, swap_last_two


def _dense_impl(x, w, *b):
    if x.dtype in ML_FLOATS or w.dtype in ML_FLOATS or (b and b[0].dtype in ML_FLOATS):
        return in_float32(_dense_impl, x, w, *b)  # bfloat16: a float32 product, rounded once
    get = XP_OF_TYPE.get
    xp = get(type(x)) or get(type(w), np)
    out = xp.matmul(x, w.T)
    if b:
        (b,) = b
        if xp.result_type(out, b) == out.dtype and getattr(out, "ndim", 0):
            out += b  # a fresh buffer of our own: adding in place is safe
        else:
            out = out + b
    return out


def _dense_abstract(x, w, *b):
    if len(w.shape) != 2 or len(x.shape) < 1 or x.shape[-1] != w.shape[1]:
        raise ValueError(f"dense: input {tuple(x.shape)} does not match weight {tuple(w.shape)} "
                         "(weight is (out_features, in_features))")
    dtype = np.result_type(x.dtype, w.dtype)
    if b:
        (b,) = b
        if tuple(b.shape) != (w.shape[0],):
            raise ValueError(f"dense: bias must have shape ({w.shape[0]},), got {tuple(b.shape)}")
        dtype = np.result_type(dtype, b.dtype)
    return ShapedArray(tuple(x.shape[:-1]) + (w.shape[0],), dtype)


def _dense_vjp_w(g, ans, x, w, *b):
    if len(x.shape) == 2:
        return matmul(swap_last_two(g), x)
    k = x.shape[-1]
    x2 = reshape(x, (int(np.prod(x.shape[:-1], dtype=np.int64)), k))
    g2 = reshape(g, (x2.shape[0], w.shape[0]))
    return matmul(swap_last_two(g2), x2)


dense_p = Primitive("dense", _dense_impl, _dense_abstract)
dense_p.defvjp(
    lambda g, ans, x, w, *b: matmul(g, w),
    _dense_vjp_w,
    lambda g, ans, x, w, *b: g,  # summed over the leading axes by the reverse driver
    unsaved_args=(2,), saves_out=False,
)
dense_p.defjvp(
    lambda t, ans, x, w, *b: dense(t, w),
    lambda t, ans, x, w, *b: dense(x, t),
    lambda t, ans, x, w, *b: t,  # broadcast to the output by the forward driver
)


def dense(x, w, b=None):
    """``x @ w.T + b`` for weights ``w`` of shape (out, in) and an optional bias (out,)."""
    return dense_p.bind(x, w) if b is None else dense_p.bind(x, w, b)


def _dense_batch(args, dims):
    (x, w), (dx, dw) = args[:2], dims[:2]
    b, db = (args[2], dims[2]) if len(args) == 3 else (None, None)
    if dw is None and db is None:  # one weight and bias: still one dense call
        if dx < len(x.shape) - 1:
            return dense(x, w, b), dx
        return dense(to_front(x, dx), w, b), 0
    n = batch_size(args, dims)
    x = at_front(x, dx, n)
    lead = tuple(x.shape[1:-1])
    if dw is None:
        out = dense(x, w)
    else:
        wf = to_front(w, dw)  # (n, out, in)
        x3 = reshape(x, (n, int(np.prod(lead, dtype=np.int64)), x.shape[-1]))
        out = reshape(matmul(x3, swap_last_two(wf)), (n,) + lead + (wf.shape[1],))
    if b is not None:
        bf = at_front(b, db, n)  # (n, out)
        out = out + reshape(bf, (n,) + (1,) * len(lead) + (bf.shape[1],))
    return out, 0


dense_p.batch = _dense_batch
