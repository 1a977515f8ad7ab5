"""Convolutions and pooling (functional), on the ``unfold``/``fold`` primitives.

Layouts are PyTorch's: inputs ``(N, C, *spatial)`` (a missing batch axis is
allowed), weights ``(O, C // groups, *kernel)`` (``(C_in, C_out // groups,
*kernel)`` for transposed convolutions).  A convolution is one im2col copy and
one product (per group): a batch of per-sample products whose result is the
C-contiguous NCHW output, or, for layers with more output channels than output
positions, one product over the stacked positions (see ``_product_nchw``); its
weight gradient reuses that im2col matrix.
"""

from __future__ import annotations

import math

import numpy as np

from ..backend import kind_of
from .. import numpy as fnp
from ..core import Array, Tracer
from ..primitives.conv import fold, unfold, window_out_sizes
from ..primitives.dense import dense
from ..primitives.linalg import matmul
from ..primitives.pool import max_pool
from ..primitives.shape import reshape, swap_last_two, transpose

__all__ = [
    "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "max_pool1d",
    "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
    "max_pool3d", "avg_pool3d", "adaptive_avg_pool3d",
]


def _tuple(v, n, name, fname):
    if isinstance(v, (int, np.integer)):
        return (int(v),) * n
    v = tuple(int(i) for i in v)
    if len(v) == 1:
        return v * n
    if len(v) != n:
        raise ValueError(f"{fname}: {name} must be an int or a tuple of {n} ints, got {v}")
    return v


def _batched(x, nd, fname):
    x = fnp.asarray(x) if not isinstance(x, (Array, Tracer)) else x
    if x.ndim == nd + 1:
        return reshape(x, (1,) + tuple(x.shape)), True
    if x.ndim != nd + 2:
        raise ValueError(f"{fname}: expected a {nd + 1}-d (unbatched) or {nd + 2}-d (batched) input, "
                         f"got shape {tuple(x.shape)}")
    return x, False


def _padding(padding, kernel, stride, dilation, fname):
    nd = len(kernel)
    if isinstance(padding, str):
        if padding == "valid":
            return ((0, 0),) * nd
        if padding == "same":
            if any(s != 1 for s in stride):
                raise ValueError(f"{fname}: padding='same' is not supported for strided convolutions")
            total = [d * (k - 1) for k, d in zip(kernel, dilation)]
            return tuple((t // 2, t - t // 2) for t in total)
        raise ValueError(f"{fname}: padding must be 'valid', 'same', an int or a tuple, got {padding!r}")
    p = _tuple(padding, nd, "padding", fname)
    if any(i < 0 for i in p):
        raise ValueError(f"{fname}: negative padding {p}")
    return tuple((i, i) for i in p)


def _conv(x, weight, bias, stride, padding, dilation, groups, nd, fname):
    x, unbatched = _batched(x, nd, fname)
    if weight.ndim != nd + 2:
        raise ValueError(f"{fname}: weight must be {nd + 2}-d (out_channels, in_channels/groups, *kernel), "
                         f"got shape {tuple(weight.shape)}")
    n, c = x.shape[:2]
    o, cg = weight.shape[:2]
    kernel = tuple(weight.shape[2:])
    stride = _tuple(stride, nd, "stride", fname)
    dilation = _tuple(dilation, nd, "dilation", fname)
    pad = _padding(padding, kernel, stride, dilation, fname)
    g = int(groups)
    if g < 1 or c % g or o % g or cg * g != c:
        raise ValueError(
            f"{fname}: input {tuple(x.shape)} has {c} channels, weight {tuple(weight.shape)} expects "
            f"{cg} x groups={g} = {cg * g} (and out_channels {o} must be divisible by groups)"
        )
    if bias is not None and tuple(bias.shape) != (o,):
        raise ValueError(f"{fname}: bias must have shape ({o},), got {tuple(bias.shape)}")
    if any(size < 1 for size in window_out_sizes(x.shape[2:], kernel, stride, pad, dilation)):
        raise ValueError(f"{fname}: the kernel {kernel} (dilation {dilation}) is larger than the input "
                         f"{tuple(x.shape[2:])} padded by {tuple(p[0] for p in pad)}")
    unf = unfold(x, kernel, stride, pad, dilation)  # (N, C, *out, *kernel): a view
    if o // g <= math.prod(unf.shape[2:2 + nd]):
        y = _product_nchw(unf, weight, g, nd)
    else:
        y, bias = _product_positions_major(unf, weight, bias, g, nd)
    if bias is not None:
        y = y + reshape(bias, (o,) + (1,) * nd)
    return reshape(y, tuple(y.shape[1:])) if unbatched else y


# The product of the windows with the weights, (N, O, *out), in one of two layouts. Per sample
# it is W (O, C*K) @ cols (C*K, P) for P output positions: batching it over the samples gives the
# NCHW output directly, but its weight gradient, the batch of products g @ cols.T summed over
# the samples, materialises N*O*C*K numbers, more than the im2col matrix (N*C*K*P) when
# O > P. So layers with more (per-group) output channels than positions (deep, small feature
# maps) stack the positions instead: one (N*P, C*K) @ W.T product whose gradients are single
# BLAS calls, its output a channels-last view (small there: P is small).

def _window_layout(unf, nd):
    """(N, C, out sizes, P, K, spatial axes, kernel axes) of a (N, C, *out, *kernel) unfold."""
    out = tuple(unf.shape[2:2 + nd])
    return (unf.shape[0], unf.shape[1], out, math.prod(out), math.prod(unf.shape[2 + nd:]),
            tuple(range(2, 2 + nd)), tuple(range(2 + nd, 2 + 2 * nd)))


def _product_nchw(unf, weight, g, nd):
    """im2col as (N, [groups,] C/groups * K, P), kernel taps before positions (the one copy,
    reading runs along the input's rows); W @ cols is then C-contiguous NCHW, and so is its
    input cotangent W.T @ g (fold's kernel taps are runs of it)."""
    n, c, out, p, kk, sp, kp = _window_layout(unf, nd)
    o, cg = weight.shape[:2]
    if g == 1:
        cols = reshape(transpose(unf, (0, 1) + kp + sp), (n, c * kk, p))
        w = reshape(weight, (o, c * kk))
    else:
        u = reshape(unf, (n, g, cg) + tuple(unf.shape[2:]))
        cols = reshape(transpose(u, (0, 1, 2) + tuple(i + 1 for i in kp) + tuple(i + 1 for i in sp)),
                       (n, g, cg * kk, p))
        w = reshape(weight, (g, o // g, cg * kk))
    return reshape(matmul(w, cols), (n, o) + out)


def _product_positions_major(unf, weight, bias, g, nd):
    """im2col as ([groups,] N*P, C/groups * K) @ W.T; returns (y, the bias still to add)."""
    n, c, out, p, kk, sp, kp = _window_layout(unf, nd)
    o, cg = weight.shape[:2]
    if g == 1:
        cols = reshape(transpose(unf, (0,) + sp + (1,) + kp), (n * p, c * kk))
        y = dense(cols, reshape(weight, (o, c * kk)), bias)  # (N*P, O), bias added in place
        return transpose(reshape(y, (n,) + out + (o,)), (0, nd + 1) + tuple(range(1, nd + 1))), None
    u = reshape(unf, (n, g, cg) + tuple(unf.shape[2:]))
    perm = (1, 0) + tuple(i + 1 for i in sp) + (2,) + tuple(i + 1 for i in kp)
    cols = reshape(transpose(u, perm), (g, n * p, cg * kk))
    y = matmul(cols, swap_last_two(reshape(weight, (g, o // g, cg * kk))))  # (g, N*P, O/g)
    y = reshape(y, (g, n) + out + (o // g,))
    return reshape(transpose(y, (1, 0, nd + 2) + tuple(range(2, nd + 2))), (n, o) + out), bias


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-d convolution (cross-correlation) of (N, C, L) with weight (O, C/groups, K)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-d convolution (cross-correlation) of (N, C, H, W) with weight (O, C/groups, kH, kW).

    ``padding``: an int, a pair, ``'valid'`` (0) or ``'same'`` (stride 1; an odd
    total goes on the right/bottom, as PyTorch).
    """
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """3-d convolution of (N, C, D, H, W) with weight (O, C/groups, kD, kH, kW)."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def _conv_transpose(x, weight, bias, stride, padding, output_padding, groups, dilation, nd, fname):
    x, unbatched = _batched(x, nd, fname)
    n, cin = x.shape[:2]
    if weight.ndim != nd + 2 or weight.shape[0] != cin:
        raise ValueError(f"{fname}: weight must be (in_channels={cin}, out_channels/groups, *kernel), "
                         f"got shape {tuple(weight.shape)}")
    g = int(groups)
    if g < 1 or cin % g:
        raise ValueError(f"{fname}: in_channels {cin} must be divisible by groups={g}")
    cog = weight.shape[1]
    co = cog * g
    kernel = tuple(weight.shape[2:])
    stride = _tuple(stride, nd, "stride", fname)
    dilation = _tuple(dilation, nd, "dilation", fname)
    pad = _tuple(padding, nd, "padding", fname)
    opad = _tuple(output_padding, nd, "output_padding", fname)
    if any(op >= max(s, d) for op, s, d in zip(opad, stride, dilation)):
        raise ValueError(f"{fname}: output_padding {opad} must be smaller than stride {stride} or dilation {dilation}")
    spatial_in = tuple(x.shape[2:])
    spatial = tuple((i - 1) * s - 2 * p + d * (k - 1) + op + 1
                    for i, s, p, d, k, op in zip(spatial_in, stride, pad, dilation, kernel, opad))
    if any(s < 1 for s in spatial):
        raise ValueError(f"{fname}: output size {spatial} is too small")
    p, kk = math.prod(spatial_in), math.prod(kernel)
    cig = cin // g
    xs = transpose(reshape(x, (n, g, cig, p)), (1, 0, 3, 2))  # (g, N, P, Cin/g)
    cols = matmul(reshape(xs, (g, n * p, cig)), reshape(weight, (g, cig, cog * kk)))  # (g, N*P, Cout/g*K)
    cols = reshape(cols, (g, n) + spatial_in + (cog,) + kernel)
    perm = (1, 0, nd + 2) + tuple(range(2, nd + 2)) + tuple(range(nd + 3, 2 * nd + 3))
    cols = reshape(transpose(cols, perm), (n, co) + spatial_in + kernel)
    # fold every window (lo padding cropped), then cut or zero-extend the far side to size
    reach = tuple((i - 1) * st + d * (k - 1) + 1 - p
                  for i, st, d, k, p in zip(spatial_in, stride, dilation, kernel, pad))
    if any(r < 1 for r in reach):
        raise ValueError(f"{fname}: padding {pad} is larger than the transposed convolution's extent")
    y = fold(cols, reach, kernel, stride, tuple((q, 0) for q in pad), dilation)
    for i, (r, s_out) in enumerate(zip(reach, spatial)):
        if r > s_out:
            y = y[(slice(None),) * (2 + i) + (slice(0, s_out),)]
        elif r < s_out:
            zshape = tuple(y.shape[:2 + i]) + (s_out - r,) + tuple(y.shape[3 + i:])
            y = fnp.concatenate([y, fnp.zeros(zshape, y.dtype, device=y.device)], axis=2 + i)
    if bias is not None:
        y = y + reshape(bias, (co,) + (1,) * nd)
    return reshape(y, tuple(y.shape[1:])) if unbatched else y


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Transposed 1-d convolution (the gradient of conv1d with respect to its input)."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1,
                           "conv_transpose1d")


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Transposed 2-d convolution of (N, C_in, H, W) with weight (C_in, C_out/groups, kH, kW)."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2,
                           "conv_transpose2d")


# --- pooling --------------------------------------------------------------------------

def _pool_geometry(x, kernel_size, stride, padding, dilation, ceil_mode, nd, fname):
    kernel = _tuple(kernel_size, nd, "kernel_size", fname)
    stride = kernel if stride is None or stride == () or stride == [] else _tuple(stride, nd, "stride", fname)
    pad = _tuple(padding, nd, "padding", fname)
    dilation = _tuple(dilation, nd, "dilation", fname)
    if any(2 * p > d * (k - 1) + 1 for p, k, d in zip(pad, kernel, dilation)):
        raise ValueError(f"{fname}: pad should be at most half of effective kernel size, got padding {pad} "
                         f"for kernel {kernel}")
    spatial = tuple(x.shape[2:])
    out = []
    for s, k, st, p, d in zip(spatial, kernel, stride, pad, dilation):
        span = s + 2 * p - d * (k - 1) - 1
        o = (-(-span // st) if ceil_mode else span // st) + 1
        if ceil_mode and (o - 1) * st >= s + p:  # the last window must start inside the input or left pad
            o -= 1
        if o < 1:
            raise ValueError(f"{fname}: input {tuple(x.shape)} is too small for kernel {kernel} "
                             f"(output size would be {o})")
        out.append(o)
    pads = tuple((p, max(p, (o - 1) * st + d * (k - 1) + 1 - s - p))
                 for s, k, st, p, d, o in zip(spatial, kernel, stride, pad, dilation, out))
    return kernel, stride, pads, dilation, tuple(out)


def _max_pool(x, kernel_size, stride, padding, dilation, ceil_mode, nd, fname):
    x, unbatched = _batched(x, nd, fname)
    if kind_of(x.dtype) != "f":
        raise TypeError(f"{fname}: expected a floating-point input, got {x.dtype}")
    kernel, stride, pads, dilation, _ = _pool_geometry(x, kernel_size, stride, padding, dilation,
                                                       ceil_mode, nd, fname)
    y = max_pool(x, kernel, stride, pads, dilation)
    return reshape(y, tuple(y.shape[1:])) if unbatched else y


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    """Max over sliding windows of (N, C, L); gradients go to each window's first maximum."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 1, "max_pool1d")


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    """Max over sliding windows of (N, C, H, W) (padding counts as -inf; gradients go to each
    window's first maximum, as PyTorch)."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 2, "max_pool2d")


def _avg_divisor(spatial, kernel, stride, pads, out, count_include_pad):
    """Per-window element counts (host numpy, shape ``out``): PyTorch's divisor rule."""
    div = np.ones((), dtype=np.float64)
    for s, k, st, (p, _), o in zip(spatial, kernel, stride, pads, out):
        start = np.arange(o) * st - p
        end = np.minimum(start + k, s + p)
        if not count_include_pad:
            start, end = np.maximum(start, 0), np.minimum(end, s)
        div = np.multiply.outer(div, (end - start).astype(np.float64))
    return div


def _avg_pool(x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, nd, fname):
    x, unbatched = _batched(x, nd, fname)
    if kind_of(x.dtype) != "f":
        raise TypeError(f"{fname}: expected a floating-point input, got {x.dtype}")
    kernel, stride, pads, dilation, out = _pool_geometry(x, kernel_size, stride, padding, 1, ceil_mode, nd, fname)
    unf = unfold(x, kernel, stride, pads, dilation)
    s = fnp.sum(unf, axis=tuple(range(-nd, 0)))
    if divisor_override:
        y = s / float(divisor_override)
    else:
        div = _avg_divisor(x.shape[2:], kernel, stride, pads, out, count_include_pad)
        if (div == div.flat[0]).all():
            y = s / float(div.flat[0])
        else:
            y = s / fnp.asarray(div.astype(x.dtype), device=x.device)
    return reshape(y, tuple(y.shape[1:])) if unbatched else y


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """Mean over sliding windows of (N, C, L) (PyTorch's divisor rules)."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, None, 1, "avg_pool1d")


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """Mean over sliding windows of (N, C, H, W): zero padding counts unless count_include_pad=False."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 2,
                     "avg_pool2d")


def _adaptive_matrix(size, out, dtype, device):
    """(out, size) averaging matrix: row i averages [floor(i*size/out), ceil((i+1)*size/out))."""
    m = np.zeros((out, size), dtype=dtype)
    for i in range(out):
        lo, hi = (i * size) // out, -(-((i + 1) * size) // out)
        m[i, lo:hi] = 1.0 / (hi - lo)
    return fnp.asarray(m, device=device)


def _adaptive_avg(x, output_size, nd, fname):
    x, unbatched = _batched(x, nd, fname)
    if kind_of(x.dtype) != "f":
        raise TypeError(f"{fname}: expected a floating-point input, got {x.dtype}")
    out = tuple(s if o is None else int(o) for o, s in zip(
        (output_size,) * nd if isinstance(output_size, (int, np.integer)) or output_size is None
        else tuple(output_size), x.shape[2:]))
    if len(out) != nd or any(o < 1 for o in out):
        raise ValueError(f"{fname}: output_size must be {nd} positive ints, got {output_size}")
    y = x
    for i, (s, o) in enumerate(zip(x.shape[2:], out)):  # one small matmul per spatial axis
        a = swap_last_two(_adaptive_matrix(s, o, x.dtype, x.device))
        axis = 2 + i
        perm = tuple(j for j in range(nd + 2) if j != axis) + (axis,)
        moved = matmul(transpose(y, perm), a)
        inv = tuple(np.argsort(perm))
        y = transpose(moved, inv)
    return reshape(y, tuple(y.shape[1:])) if unbatched else y


def adaptive_avg_pool1d(input, output_size):
    """Average pooling to a fixed output length (PyTorch's window boundaries)."""
    return _adaptive_avg(input, output_size, 1, "adaptive_avg_pool1d")


def adaptive_avg_pool2d(input, output_size):
    """Average pooling to a fixed (H, W) output (an int, a pair, or None to keep a size)."""
    return _adaptive_avg(input, output_size, 2, "adaptive_avg_pool2d")


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False):
    """Max over sliding windows of (N, C, D, H, W) (as ``max_pool2d``)."""
    return _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, 3, "max_pool3d")


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """Mean over sliding windows of (N, C, D, H, W) (as ``avg_pool2d``)."""
    return _avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 3,
                     "avg_pool3d")


def adaptive_avg_pool3d(input, output_size):
    """Average pooling to a fixed (D, H, W) output."""
    return _adaptive_avg(input, output_size, 3, "adaptive_avg_pool3d")
