"""Reductions: sum over axes (with keepdims), and ``sum_to_shape`` (unbroadcasting).

``axes`` is always a normalised tuple of non-negative ints (the numpy layer
normalises negative and None axes and raises numpy's AxisError).
"""

from __future__ import annotations

import numpy as np

from ..backend import ML_FLOATS, XP_OF_TYPE, in_float32
from ..core import Primitive, ShapedArray
from ._batching import reduction_rule, to_front
from .shape import broadcast_to, reshape
from .elementwise import convert, equal, logical_and, logical_or, isnan


def reduced_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _sum_impl(x, axes, keepdims):
    if getattr(x, "dtype", None) in ML_FLOATS:  # bfloat16: accumulated in float32 (backend.in_float32)
        return in_float32(_sum_impl, x, axes=axes, keepdims=keepdims)
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
reduce_sum_p.batch = reduction_rule(reduce_sum_p)


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


# --- max / min: ties split the cotangent evenly -------------------------------------

def _minmax_impl(name):
    def impl(x, axes, keepdims):
        xp = XP_OF_TYPE.get(type(x), np)
        return getattr(xp, name)(x, axis=axes, keepdims=keepdims)

    return impl


def _minmax_abstract(x, axes, keepdims):
    if any(x.shape[a] == 0 for a in axes):
        raise ValueError("zero-size array to reduction operation which has no identity")
    return ShapedArray(reduced_shape(x.shape, axes, keepdims), x.dtype)


def _tie_weights(ans, x, axes, keepdims):
    """1/k at each of the k elements equal to the result (NaN results: at the NaNs)."""
    full = ans if keepdims else reshape(ans, reduced_shape(x.shape, axes, True))
    hit = logical_or(equal(x, full), logical_and(isnan(x), isnan(full)))
    hit = convert(hit, x.dtype)
    return hit / reduce_sum(hit, axes, keepdims=True)


def _minmax_vjp(g, ans, x, axes, keepdims):
    if not keepdims:
        g = reshape(g, reduced_shape(x.shape, axes, True))
    return g * _tie_weights(ans, x, axes, keepdims)


def _minmax_jvp(t, ans, x, axes, keepdims):
    return reduce_sum(t * _tie_weights(ans, x, axes, keepdims), axes, keepdims)


reduce_max_p = Primitive("reduce_max", _minmax_impl("max"), _minmax_abstract)
reduce_max_p.defvjp(_minmax_vjp)
reduce_max_p.defjvp(_minmax_jvp)
reduce_max_p.batch = reduction_rule(reduce_max_p)

reduce_min_p = Primitive("reduce_min", _minmax_impl("min"), _minmax_abstract)
reduce_min_p.defvjp(_minmax_vjp)
reduce_min_p.defjvp(_minmax_jvp)
reduce_min_p.batch = reduction_rule(reduce_min_p)


def reduce_max(x, axes, keepdims=False):
    """Maximum over ``axes``; the gradient is split evenly among tied maxima."""
    return reduce_max_p.bind(x, axes=tuple(axes), keepdims=bool(keepdims))


def reduce_min(x, axes, keepdims=False):
    """Minimum over ``axes``; the gradient is split evenly among tied minima."""
    return reduce_min_p.bind(x, axes=tuple(axes), keepdims=bool(keepdims))


# --- argmax / argmin (integer results: no derivative) ----------------------------------

def _arg_impl(name):
    def impl(x, axis, keepdims):
        xp = XP_OF_TYPE.get(type(x), np)
        return getattr(xp, name)(x, axis=axis, keepdims=keepdims)

    return impl


def _arg_abstract(x, axis, keepdims):
    if axis is None:
        if x.size == 0:
            raise ValueError("attempt to get argmax of an empty sequence")
        shape = (1,) * len(x.shape) if keepdims else ()
    else:
        if x.shape[axis] == 0:
            raise ValueError("attempt to get argmax of an empty sequence")
        shape = reduced_shape(x.shape, (axis,), keepdims)
    return ShapedArray(shape, np.intp)


argmax_p = Primitive("argmax", _arg_impl("argmax"), _arg_abstract, differentiable=False)
argmin_p = Primitive("argmin", _arg_impl("argmin"), _arg_abstract, differentiable=False)


def _arg_batch_rule(prim):
    def rule(args, dims, *, axis, keepdims):
        (x,), (d,) = args, dims
        if axis is None:  # per example over the flattened array: flatten all but the batch axis
            x = to_front(x, d)
            shape = tuple(x.shape)
            out = prim.bind(reshape(x, (shape[0], int(np.prod(shape[1:], dtype=np.int64)))), axis=1, keepdims=False)
            return (reshape(out, shape[:1] + (1,) * (len(shape) - 1)) if keepdims else out), 0
        out = prim.bind(x, axis=axis + 1 if axis >= d else axis, keepdims=keepdims)
        return out, d if keepdims or axis >= d else d - 1

    return rule


argmax_p.batch = _arg_batch_rule(argmax_p)
argmin_p.batch = _arg_batch_rule(argmin_p)


def argmax(x, axis=None, keepdims=False):
    return argmax_p.bind(x, axis=axis, keepdims=bool(keepdims))


def argmin(x, axis=None, keepdims=False):
    return argmin_p.bind(x, axis=axis, keepdims=bool(keepdims))
