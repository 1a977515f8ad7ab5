"""Max pooling: the maximum over each sliding window, with PyTorch's gradient rule.

``max_pool(x)`` is ``unfold(x, pad_value=-inf)`` reduced by max over the window
axes, computed as the running maximum of the kernel taps (strided slices of the
window view, whatever the input's memory layout).  Its derivative routes each
window's (co)tangent to one element, the window's first maximum (as PyTorch's
max_pool backward does), instead of splitting it among ties like
``reduce_max``: after a ReLU, windows of equal zeros are common, and PyTorch
users expect its gradients.  The rules are written with ``unfold``/``fold``
and a constant one-hot selection (``window_first_max``, a primitive without
derivative), so they are linear in the (co)tangent and differentiate again to
any order.
"""

from __future__ import annotations

import itertools

import numpy as np

from ..backend import XP_OF_TYPE, kind_of
from ..core import Primitive, ShapedArray
from ._batching import leading_axis_rule
from .conv import _check, _unfold_impl, fold, unfold
from .reduce import reduce_sum
from .shape import reshape

__all__ = ["max_pool", "window_first_max"]


def _taps(kernel):
    return list(itertools.product(*(range(k) for k in kernel)))


def _tap_max(xp, unf, taps):
    """The running maximum of the kernel taps, each a strided (N, C, *out) slice of the windows:
    prod(kernel) - 1 elementwise passes over the output, as fast in any memory layout, where a
    max-reduction over the small trailing window axes is several times slower (and slowest on
    a C-contiguous NCHW input)."""
    out = unf[(Ellipsis,) + taps[0]].copy()
    for t in taps[1:]:
        xp.maximum(out, unf[(Ellipsis,) + t], out=out)
    return out


def _max_pool_impl(x, kernel, stride, padding, dilation):
    xp = XP_OF_TYPE.get(type(x), np)
    return _tap_max(xp, _unfold_impl(x, kernel, stride, padding, dilation, -np.inf), _taps(kernel))


def _max_pool_abstract(x, kernel, stride, padding, dilation):
    if kind_of(x.dtype) != "f":
        raise TypeError(f"max_pool: expected a floating-point input, got {x.dtype}")
    out = _check(x.shape, kernel, stride, padding, dilation, "max_pool")
    return ShapedArray(tuple(x.shape[:2]) + out, x.dtype)


# --- the selection: each window's first maximum --------------------------------------------

def _first_max_impl(x, kernel, stride, padding, dilation):
    # np.argmax's choice over the flattened window (taps in C order; a NaN is the maximum),
    # tap by tap against the window maximum: a few elementwise passes over the output where
    # argmax needs the windows copied out first (its one axis)
    xp = XP_OF_TYPE.get(type(x), np)
    _first_max_abstract(x, kernel, stride, padding, dilation)  # dtype and geometry errors
    unf = _unfold_impl(x, kernel, stride, padding, dilation, -np.inf)
    taps = _taps(kernel)
    m = _tap_max(xp, unf, taps)
    nan = xp.isnan(m)
    any_nan = bool(nan.any())
    hot = xp.empty(tuple(kernel) + tuple(m.shape), dtype=bool)  # taps first: each slot contiguous
    free = xp.ones(m.shape, dtype=bool)  # windows whose maximum is not found yet
    for t in taps:
        v, hit = unf[(Ellipsis,) + t], hot[t]
        xp.equal(v, m, out=hit)
        if any_nan:
            xp.logical_or(hit, xp.logical_and(xp.isnan(v), nan), out=hit)
        xp.logical_and(hit, free, out=hit)
        xp.not_equal(free, hit, out=free)  # free and not hit (hit implies free)
    nd = len(kernel)
    return xp.transpose(hot, tuple(range(nd, 2 * nd + 2)) + tuple(range(nd)))


def _first_max_abstract(x, kernel, stride, padding, dilation):
    if kind_of(x.dtype) != "f":
        raise TypeError(f"window_first_max: expected a floating-point input, got {x.dtype}")
    out = _check(x.shape, kernel, stride, padding, dilation, "window_first_max")
    return ShapedArray(tuple(x.shape[:2]) + out + tuple(kernel), np.dtype(bool))


window_first_max_p = Primitive("window_first_max", _first_max_impl, _first_max_abstract, differentiable=False)
window_first_max_p.batch = leading_axis_rule(window_first_max_p)


def window_first_max(x, kernel, stride, padding, dilation):
    """Boolean (N, C, *out, *kernel), True at each window's first maximum (-inf padding)."""
    return window_first_max_p.bind(x, kernel=tuple(kernel), stride=tuple(stride),
                                   padding=tuple(tuple(p) for p in padding), dilation=tuple(dilation))


def _max_pool_vjp(g, ans, x, kernel, stride, padding, dilation):
    nd = len(kernel)
    hot = window_first_max(x, kernel, stride, padding, dilation)
    g = reshape(g, tuple(g.shape) + (1,) * nd)
    return fold(hot * g, x.shape[2:], kernel, stride, padding, dilation)


def _max_pool_jvp(t, ans, x, kernel, stride, padding, dilation):
    hot = window_first_max(x, kernel, stride, padding, dilation)
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


