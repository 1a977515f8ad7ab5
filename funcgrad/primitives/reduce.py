"""Reductions: sum over axes (with keepdims), and ``sum_to_shape`` (unbroadcasting).

``axes`` is always a normalised tuple of non-negative ints (the numpy layer
normalises negative and None axes and raises numpy's AxisError).
"""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import Primitive, ShapedArray
from .shape import broadcast_to, reshape


def reduced_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _sum_impl(x, axes, keepdims):
    xp = XP_OF_TYPE.get(type(x), np)
    return xp.sum(x, axis=axes, keepdims=keepdims)


def _sum_abstract(x, axes, keepdims):
    dtype = np.add.reduce(np.zeros(1, x.dtype)).dtype  # numpy's accumulator rule (int32 -> int64)
    return ShapedArray(reduced_shape(x.shape, axes, keepdims), dtype)


def _sum_vjp(g, ans, x, axes, keepdims):
    if not keepdims:
        g = reshape(g, reduced_shape(x.shape, axes, True))
    return broadcast_to(g, x.shape)


reduce_sum_p = Primitive("reduce_sum", _sum_impl, _sum_abstract)
reduce_sum_p.defvjp(_sum_vjp, unsaved_args=(0,), saves_out=False)
reduce_sum_p.defjvp(lambda t, ans, x, axes, keepdims: reduce_sum(t, axes, keepdims))


def reduce_sum(x, axes, keepdims=False):
    return reduce_sum_p.bind(x, axes=tuple(axes), keepdims=bool(keepdims))


def sum_to_shape(x, shape):
    """Sum ``x`` down to ``shape`` (the inverse of broadcasting ``shape`` to x.shape)."""
    shape = tuple(shape)
    xs = tuple(x.shape)
    if xs == shape:
        return x
    lead = len(xs) - len(shape)
    if lead < 0:  # numpy also lets leading size-1 dims vanish (x[0] = v with v of shape (1, n))
        if all(d == 1 for d in shape[: -lead]) and shape[-lead:] == xs:
            return reshape(x, shape)
        raise ValueError(f"cannot sum an array of shape {xs} down to shape {shape}")
    axes = list(range(lead))
    for i, d in enumerate(shape):
        xd = xs[lead + i]
        if d == 1 and xd != 1:
            axes.append(lead + i)
        elif d != xd:
            raise ValueError(f"cannot sum an array of shape {xs} down to shape {shape}")
    out = reduce_sum(x, tuple(axes), keepdims=True) if axes else x
    return reshape(out, shape) if tuple(out.shape) != shape else out
