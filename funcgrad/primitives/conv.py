"""Sliding windows: ``unfold`` (im2col) and its transpose ``fold`` (col2im).

Convolutions and pooling are built on these two primitives (see
``funcgrad.nn.functional``): a convolution is ``unfold``, one im2col copy and
one matmul per layer (``funcgrad/nn/_conv.py`` picks the copy's layout), a
pooling is a reduction over the window axes.  Reverse mode then saves exactly
what a hand-written backward keeps (the im2col matrix for the weight
gradient), and the rules compose to any order.

Layout: ``x`` is ``(N, C, *spatial)``; ``unfold(x)`` is ``(N, C, *out, *kernel)``
with ``unf[n, c, o.., k..] = xpad[n, c, o*stride + k*dilation ..]``, where
``xpad`` is x padded by ``padding`` (a ``(lo, hi)`` pair per spatial axis) with
``pad_value``.  The impl is a strided view of the (padded) input: no copy.
``fold`` sums windows back into an array of the input's shape (overlaps add):
it is unfold's transpose, so each one's vjp is the other.
"""

from __future__ import annotations

import itertools

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import Primitive, ShapedArray
from ._batching import leading_axis_rule


def _xp(x):
    return XP_OF_TYPE.get(type(x), np)


def window_out_sizes(spatial, kernel, stride, padding, dilation):
    """Output sizes of a sliding window (floor mode) over padded ``spatial`` sizes."""
    return tuple(
        (s + lo + hi - d * (k - 1) - 1) // st + 1
        for s, k, st, (lo, hi), d in zip(spatial, kernel, stride, padding, dilation)
    )


def _check(shape, kernel, stride, padding, dilation, what):
    nd = len(kernel)
    if len(shape) != nd + 2:
        raise ValueError(
            f"{what}: expected a {nd + 2}-d input (N, C, {', '.join('LHWD'[-nd:] if nd == 1 else 'HWD'[:nd])}) "
            f"for a {nd}-d window, got shape {tuple(shape)}"
        )
    out = window_out_sizes(shape[2:], kernel, stride, padding, dilation)
    if any(o < 1 for o in out):
        raise ValueError(
            f"{what}: the window (kernel {kernel}, dilation {dilation}) is larger than the padded "
            f"input {tuple(s + lo + hi for s, (lo, hi) in zip(shape[2:], padding))}: "
            f"output size {out} would be empty"
        )
    return out


# --- unfold ---------------------------------------------------------------------------

def _unfold_impl(x, kernel, stride, padding, dilation, pad_value):
    xp = _xp(x)
    _check(x.shape, kernel, stride, padding, dilation, "unfold")
    if any(lo or hi for lo, hi in padding):
        x = xp.pad(x, ((0, 0), (0, 0)) + tuple(padding), constant_values=pad_value)
    out = window_out_sizes(x.shape[2:], kernel, stride, ((0, 0),) * len(kernel), dilation)
    st = x.strides
    shape = x.shape[:2] + out + tuple(kernel)
    strides = st[:2] + tuple(s * k for s, k in zip(st[2:], stride)) + tuple(s * d for s, d in zip(st[2:], dilation))
    return xp.lib.stride_tricks.as_strided(x, shape, strides)


def _unfold_abstract(x, kernel, stride, padding, dilation, pad_value):
    out = _check(x.shape, kernel, stride, padding, dilation, "unfold")
    return ShapedArray(tuple(x.shape[:2]) + out + tuple(kernel), x.dtype)


unfold_p = Primitive("unfold", _unfold_impl, _unfold_abstract)
unfold_p.defvjp(
    lambda g, ans, x, kernel, stride, padding, dilation, pad_value:
        fold(g, x.shape[2:], kernel, stride, padding, dilation),
    unsaved_args=(0,), saves_out=False,
)
# the padding is a constant: its tangent is 0 whatever pad_value is
unfold_p.defjvp(lambda t, ans, x, kernel, stride, padding, dilation, pad_value:
                unfold(t, kernel, stride, padding, dilation))


unfold_p.batch = leading_axis_rule(unfold_p)


def unfold(x, kernel, stride, padding, dilation, pad_value=0.0):
    """Sliding windows of ``x`` (N, C, *spatial) as a (N, C, *out, *kernel) array (a view)."""
    return unfold_p.bind(x, kernel=tuple(kernel), stride=tuple(stride),
                         padding=tuple(tuple(p) for p in padding), dilation=tuple(dilation),
                         pad_value=float(pad_value))


# --- fold -------------------------------------------------------------------------------

def _fold_impl(cols, spatial, kernel, stride, padding, dilation):
    xp = _xp(cols)
    nd = len(kernel)
    n, c = cols.shape[:2]
    out = cols.shape[2:2 + nd]
    padded = tuple(s + lo + hi for s, (lo, hi) in zip(spatial, padding))
    acc = xp.zeros((n, c) + padded, dtype=cols.dtype)
    # one strided add per kernel tap (k*k of them), each over every window at once
    for taps in itertools.product(*(range(k) for k in kernel)):
        dst = tuple(slice(t * d, t * d + st * (o - 1) + 1, st)
                    for t, d, st, o in zip(taps, dilation, stride, out))
        acc[(slice(None), slice(None)) + dst] += cols[(Ellipsis,) + taps]
    crop = tuple(slice(lo, lo + s) for s, (lo, _) in zip(spatial, padding))
    return acc[(slice(None), slice(None)) + crop]


def _fold_abstract(cols, spatial, kernel, stride, padding, dilation):
    nd = len(kernel)
    out = _check(tuple(cols.shape[:2]) + tuple(spatial), kernel, stride, padding, dilation, "fold")
    expect = tuple(cols.shape[:2]) + out + tuple(kernel)
    if len(cols.shape) != 2 + 2 * nd or tuple(cols.shape) != expect:
        raise ValueError(f"fold: windows of shape {tuple(cols.shape)} do not match {expect} "
                         f"(input size {tuple(spatial)}, kernel {kernel}, stride {stride})")
    return ShapedArray(tuple(cols.shape[:2]) + tuple(spatial), cols.dtype)


fold_p = Primitive("fold", _fold_impl, _fold_abstract)
fold_p.defvjp(
    lambda g, ans, cols, spatial, kernel, stride, padding, dilation:
        unfold(g, kernel, stride, padding, dilation),
    unsaved_args=(0,), saves_out=False,
)
fold_p.defjvp(lambda t, ans, cols, spatial, kernel, stride, padding, dilation:
              fold(t, spatial, kernel, stride, padding, dilation))


fold_p.batch = leading_axis_rule(fold_p)


def fold(cols, spatial, kernel, stride, padding, dilation):
    """Sum (N, C, *out, *kernel) windows back into an (N, C, *spatial) array (col2im)."""
    return fold_p.bind(cols, spatial=tuple(int(s) for s in spatial), kernel=tuple(kernel),
                       stride=tuple(stride), padding=tuple(tuple(p) for p in padding),
                       dilation=tuple(dilation))
