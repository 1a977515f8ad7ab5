"""Max pooling: the maximum over each sliding window, with PyTorch's gradient rule.

``max_pool(x)`` is ``unfold(x, pad_value=-inf)`` reduced by max over the window
axes, computed as the running maximum of the kernel taps (strided slices of the
window view, whatever the input's memory layout).  Its derivative routes each
window's (co)tangent to one element, the window's first maximum (as PyTorch's
max_pool backward does), instead of splitting it among ties like
``reduce_max``: after a ReLU, windows of equal zeros are common, and PyTorch
users expect its gradients.  The rules are written with ``unfold``/``fold``
and a constant one-hot selection, so they are linear in the (co)tangent and
differentiate again to any order.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import Array, Primitive, ShapedArray
from ._batching import leading_axis_rule
from .conv import _check, _unfold_impl, fold, unfold
from .elementwise import convert, equal
from .reduce import argmax, reduce_sum
from .shape import reshape

__all__ = ["max_pool"]


def _max_pool_impl(x, kernel, stride, padding, dilation):
    xp = XP_OF_TYPE.get(type(x), np)
    unf = _unfold_impl(x, kernel, stride, padding, dilation, -np.inf)
    # the running maximum of the kernel taps, each a strided (N, C, *out) slice of the
    # windows: prod(kernel) - 1 elementwise passes over the output, as fast in any memory
    # layout, where a max-reduction over the small trailing window axes is several times
    # slower (and slowest on a C-contiguous NCHW input)
    taps = itertools.product(*(range(k) for k in kernel))
    out = unf[(Ellipsis,) + next(taps)].copy()
    for t in taps:
        xp.maximum(out, unf[(Ellipsis,) + t], out=out)
    return out


def _max_pool_abstract(x, kernel, stride, padding, dilation):
    if x.dtype.kind != "f":
        raise TypeError(f"max_pool: expected a floating-point input, got {x.dtype}")
    out = _check(x.shape, kernel, stride, padding, dilation, "max_pool")
    return ShapedArray(tuple(x.shape[:2]) + out, x.dtype)


def _selection(x, kernel, stride, padding, dilation):
    """One-hot (N, C, *out, *kernel) marking each window's first maximum (a constant)."""
    unf = unfold(x, kernel, stride, padding, dilation, pad_value=-np.inf)
    k = math.prod(kernel)
    lead = tuple(unf.shape[: unf.ndim - len(kernel)])
    first = argmax(reshape(unf, lead + (k,)), axis=len(lead), keepdims=True)
    taps = Array(np.arange(k).reshape((1,) * len(lead) + (k,)), device=x.device)
    return reshape(convert(equal(first, taps), x.dtype), tuple(unf.shape))


def _max_pool_vjp(g, ans, x, kernel, stride, padding, dilation):
    nd = len(kernel)
    hot = _selection(x, kernel, stride, padding, dilation)
    g = reshape(g, tuple(g.shape) + (1,) * nd)
    return fold(hot * g, x.shape[2:], kernel, stride, padding, dilation)


def _max_pool_jvp(t, ans, x, kernel, stride, padding, dilation):
    hot = _selection(x, kernel, stride, padding, dilation)
    return reduce_sum(unfold(t, kernel, stride, padding, dilation) * hot,
                      tuple(range(2 + len(kernel), 2 + 2 * len(kernel))))


max_pool_p = Primitive("max_pool", _max_pool_impl, _max_pool_abstract)
max_pool_p.defvjp(_max_pool_vjp, saves_out=False)
max_pool_p.defjvp(_max_pool_jvp)
max_pool_p.batch = leading_axis_rule(max_pool_p)


def max_pool(x, kernel, stride, padding, dilation):
    """Max over (N, C, *spatial) windows; (co)tangents go to each window's first maximum."""
    return max_pool_p.bind(x, kernel=tuple(kernel), stride=tuple(stride),
                           padding=tuple(tuple(p) for p in padding), dilation=tuple(dilation))


