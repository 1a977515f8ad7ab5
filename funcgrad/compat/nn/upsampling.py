"""``F.interpolate`` (nearest, nearest-exact, linear, bilinear) and the Upsample modules, with PyTorch's
source-index rules; differentiable (index_select and weighted sums, one spatial axis at a time)."""

from __future__ import annotations

import math
import warnings

import numpy as np

from .module import Module

__all__ = ["interpolate", "upsample", "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"]
FUNCTIONS = ["upsample_bilinear", "upsample_nearest"]  # torch.nn.functional names defined here (beside interpolate)

_MODES = {"nearest": (1, 2, 3), "nearest-exact": (1, 2, 3), "linear": (1,), "bilinear": (2,)}


def _sizes(input, size, scale_factor, nd):
    if (size is None) == (scale_factor is None):
        raise ValueError("only one of size or scale_factor should be defined")
    in_sizes = [int(s) for s in input.shape[2:]]
    if size is not None:
        out = [int(size)] * nd if isinstance(size, (int, np.integer)) else [int(s) for s in size]
        if len(out) != nd:
            raise ValueError(f"Input and output must have the same number of spatial dimensions, but got input with "
                             f"spatial dimensions of {in_sizes} and output size of {list(size)}. Please provide "
                             "input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
        return in_sizes, out, [None] * nd
    scales = [float(scale_factor)] * nd if not isinstance(scale_factor, (tuple, list)) else [float(s) for s in scale_factor]
    if len(scales) != nd:
        raise ValueError(f"Input and scale_factor must have the same number of spatial dimensions, but got input with "
                         f"spatial dimensions of {in_sizes} and scale_factor of shape {list(scale_factor)}.")
    return in_sizes, [int(math.floor(n * s)) for n, s in zip(in_sizes, scales)], scales


def _source(n_in, n_out, scale, align_corners, half_pixel):
    """Source coordinate of each output position along one axis (PyTorch's area_pixel_compute_source_index)."""
    dst = np.arange(n_out, dtype=np.float64)
    if align_corners:
        return dst * ((n_in - 1) / (n_out - 1) if n_out > 1 else 0.0)
    ratio = 1.0 / scale if scale is not None else n_in / n_out
    return (dst + 0.5) * ratio - 0.5 if half_pixel else dst * ratio


def _resample(x, axis, n_in, n_out, scale, mode, align_corners):
    from ..creation import tensor  # noqa: PLC0415

    if mode in ("nearest", "nearest-exact"):
        exact = mode == "nearest-exact"
        src = _source(n_in, n_out, scale, False, exact) + (0.5 if exact else 0.0)  # exact: (dst + 0.5) * ratio
        idx = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
        return x.index_select(axis, tensor(idx, device=x.device))
    src = np.maximum(_source(n_in, n_out, scale, align_corners, True), 0.0)
    i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    i1 = np.minimum(i0 + 1, n_in - 1)
    shape = [1] * x.dim()
    shape[axis] = n_out
    w1 = tensor((src - i0).reshape(shape), dtype=x.dtype, device=x.device)
    lo = x.index_select(axis, tensor(i0, device=x.device))
    hi = x.index_select(axis, tensor(i1, device=x.device))
    return lo + (hi - lo) * w1


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resize the spatial dimensions of (N, C, *) ``input`` to ``size`` or by ``scale_factor``."""
    nd = input.dim() - 2
    if mode not in _MODES:
        raise ValueError(f"interpolate: mode {mode!r} is not supported by funcgrad.compat (nearest, nearest-exact, "
                         "linear, bilinear are)")
    if nd not in _MODES[mode]:
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs "
                                  f"{' or '.join(str(d + 2) for d in _MODES[mode])}D input")
    linear = mode in ("linear", "bilinear")
    if align_corners is not None and not linear:
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")
    if antialias:
        raise ValueError("interpolate: antialias=True is not supported by funcgrad.compat")
    in_sizes, out_sizes, scales = _sizes(input, size, scale_factor, nd)
    if min(in_sizes, default=1) <= 0 or min(out_sizes, default=1) <= 0:  # (before any division by them)
        raise RuntimeError(f"interpolate: Input and output sizes should be greater than 0, but got input "
                           f"{tuple(in_sizes)} output {tuple(out_sizes)}")
    if recompute_scale_factor:
        scales = [None] * nd
    x = input
    for k in range(nd):
        x = _resample(x, 2 + k, in_sizes[k], out_sizes[k], scales[k], mode, bool(align_corners))
    return x


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated alias of ``interpolate`` (PyTorch warns the same way)."""
    import warnings  # noqa: PLC0415

    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


class Upsample(Module):
    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size = size
        self.scale_factor = float(scale_factor) if isinstance(scale_factor, (int, float)) else scale_factor
        self.mode, self.align_corners, self.recompute_scale_factor = mode, align_corners, recompute_scale_factor

    def forward(self, input):
        return interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                           recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self):
        info = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None else f"size={self.size!r}"
        return info + f", mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: ``interpolate(..., mode='bilinear', align_corners=True)`` (with PyTorch's warning)."""
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: ``interpolate(..., mode='nearest')`` (with PyTorch's warning)."""
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")
