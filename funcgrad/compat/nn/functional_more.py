"""More of torch.nn.functional: ``pdist``, ``bilinear`` (numerics in funcgrad.nn), the
``*_with_indices`` pooling forms, ``adaptive_max_pool3d``, ``lp_pool3d``, the deprecated
``upsample_bilinear`` / ``upsample_nearest``, and the grid_sample mode tables."""

from __future__ import annotations

import math
import warnings

from ...nn import functional as _F

FUNCTIONS = ["pdist", "bilinear", "max_pool1d_with_indices", "max_pool2d_with_indices", "max_pool3d_with_indices",
             "adaptive_max_pool3d", "lp_pool3d", "upsample_bilinear", "upsample_nearest"]
GRID_SAMPLE_INTERPOLATION_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
GRID_SAMPLE_PADDING_MODES = {"zeros": 0, "border": 1, "reflection": 2}


def pdist(input, p=2):
    """Distances between every pair of rows of (N, M) input (upper triangle, row by row)."""
    return _F.pdist(input, p)


def bilinear(input1, input2, weight, bias=None):
    """``input1^T weight[o] input2 + bias[o]`` for each output feature o."""
    return _F.bilinear(input1, input2, weight, bias)


def _with_indices(name):
    def f(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=True):
        from . import functional  # noqa: PLC0415

        return getattr(functional, name)(input, kernel_size, stride, padding, dilation, ceil_mode, True)
    f.__name__ = name + "_with_indices"
    f.__doc__ = f"``{name}(..., return_indices=True)``: the pooled values and the flat indices of the maxima."
    return f


max_pool1d_with_indices = _with_indices("max_pool1d")
max_pool2d_with_indices = _with_indices("max_pool2d")
max_pool3d_with_indices = _with_indices("max_pool3d")


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Max over PyTorch's adaptive windows of (N, C, D, H, W) or (C, D, H, W) input."""
    from .layers_more import _adaptive_max  # noqa: PLC0415

    return _adaptive_max(input, output_size, 3, return_indices, "adaptive_max_pool3d")


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """``(sum over each window of x**p) ** (1/p)`` over (N, C, D, H, W)."""
    from . import functional  # noqa: PLC0415

    p = float(norm_type)
    ks = (kernel_size,) * 3 if isinstance(kernel_size, int) else tuple(kernel_size)
    out = functional.avg_pool3d(input ** p, ks, stride if stride is not None else ks, 0, ceil_mode)
    return (out.sign() * out.abs().relu() * math.prod(ks)) ** (1.0 / p)


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: ``interpolate(..., mode='bilinear', align_corners=True)`` (with PyTorch's warning)."""
    from .upsampling import interpolate  # noqa: PLC0415

    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: ``interpolate(..., mode='nearest')`` (with PyTorch's warning)."""
    from .upsampling import interpolate  # noqa: PLC0415

    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")
