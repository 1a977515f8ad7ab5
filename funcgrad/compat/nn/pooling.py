"""Pooling layers and their functional forms: max, average, adaptive average/max and power-average (LP)
pooling in 1-3 dimensions, the ``*_with_indices`` forms."""

from __future__ import annotations

import math

from ...nn import functional as _F
from ..ops_shape import cat as _cat
from . import functional as F
from ._construction import _ntuple
from .module import Module

__all__ = ["MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "LPPool1d",
           "LPPool2d", "MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d"]
# the torch.nn.functional names defined here
FUNCTIONS = ["lp_pool1d", "lp_pool2d", "max_pool3d", "avg_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
             "adaptive_max_pool2d", "max_pool1d_with_indices", "max_pool2d_with_indices", "max_pool3d_with_indices",
             "adaptive_max_pool3d", "lp_pool3d"]


class _MaxPoolNd(Module):
    _nd = 2

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input):
        fn = F.max_pool1d if self._nd == 1 else F.max_pool2d
        return fn(input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                  self.return_indices)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    _nd = 1


class MaxPool2d(_MaxPoolNd):
    _nd = 2


class _AvgPoolNd(Module):
    _nd = 2

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        n = self._nd
        conv = (lambda v: v) if n == 2 else (lambda v: _ntuple(v, 1))
        self.kernel_size = conv(kernel_size)
        self.stride = conv(stride if stride is not None else kernel_size)
        self.padding = conv(padding)
        self.ceil_mode, self.count_include_pad, self.divisor_override = ceil_mode, count_include_pad, divisor_override

    def forward(self, input):
        if self._nd == 1:
            return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                self.count_include_pad)
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    _nd = 1


class AvgPool2d(_AvgPoolNd):
    _nd = 2


class AdaptiveAvgPool1d(Module):
    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool2d(AdaptiveAvgPool1d):
    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)


def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, nd):
    pool = F.avg_pool1d if nd == 1 else F.avg_pool2d
    ks = (kernel_size,) * nd if isinstance(kernel_size, int) else tuple(kernel_size)
    out = pool(input ** norm_type, kernel_size, stride if stride is not None else kernel_size, 0, ceil_mode)
    return (out.sign() * out.abs().relu() * math.prod(ks)) ** (1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """``(sum over each window of x**p) ** (1/p)`` over (N, C, L)."""
    return _lp_pool(input, float(norm_type), kernel_size, stride, ceil_mode, 1)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """``(sum over each window of x**p) ** (1/p)`` over (N, C, H, W)."""
    return _lp_pool(input, float(norm_type), kernel_size, stride, ceil_mode, 2)


class LPPool1d(Module):
    _fn = staticmethod(lp_pool1d)

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def forward(self, input):
        return self._fn(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self):
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"ceil_mode={self.ceil_mode}")


class LPPool2d(LPPool1d):
    _fn = staticmethod(lp_pool2d)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return F._max_pool(_F.max_pool3d, 3, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return _F.avg_pool3d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def adaptive_avg_pool3d(input, output_size):
    return _F.adaptive_avg_pool3d(input, output_size)


def _adaptive_max(input, output_size, nd, return_indices, fname):
    if return_indices:
        raise ValueError(f"{fname}: return_indices=True is not supported by funcgrad.compat")
    if input.dim() not in (nd + 1, nd + 2):
        raise ValueError(f"{fname}: expected a {nd + 1}-d or {nd + 2}-d input, got {tuple(input.shape)}")
    sizes = (output_size,) * nd if isinstance(output_size, int) or output_size is None else tuple(output_size)
    x = input
    for i, o in enumerate(sizes):  # max is separable: one axis at a time, one slice per output position
        d = input.dim() - nd + i
        s = x.shape[d]
        o = s if o is None else int(o)
        if o < 1 or s < 1:
            raise ValueError(f"{fname}: output_size {output_size} and input {tuple(input.shape)} must be positive")
        parts = [x.narrow(d, (j * s) // o, -(-((j + 1) * s) // o) - (j * s) // o).amax(dim=d, keepdim=True)
                 for j in range(o)]
        x = _cat(parts, d) if len(parts) > 1 else parts[0]
    return x


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Max over PyTorch's adaptive windows [floor(i L / o), ceil((i + 1) L / o))."""
    return _adaptive_max(input, output_size, 1, return_indices, "adaptive_max_pool1d")


def adaptive_max_pool2d(input, output_size, return_indices=False):
    return _adaptive_max(input, output_size, 2, return_indices, "adaptive_max_pool2d")


class MaxPool3d(_MaxPoolNd):
    _nd = 3

    def forward(self, input):
        return max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                          self.return_indices)


class AvgPool3d(_AvgPoolNd):
    _nd = 3

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
        self.kernel_size, self.stride = kernel_size, stride if stride is not None else kernel_size
        self.padding = padding

    def forward(self, input):
        return avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                          self.count_include_pad, self.divisor_override)


class AdaptiveAvgPool3d(AdaptiveAvgPool1d):
    def forward(self, input):
        return adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool1d(Module):
    _fn = staticmethod(adaptive_max_pool1d)

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def forward(self, input):
        return type(self)._fn(input, self.output_size, self.return_indices)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveMaxPool2d(AdaptiveMaxPool1d):
    _fn = staticmethod(adaptive_max_pool2d)


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
    return _adaptive_max(input, output_size, 3, return_indices, "adaptive_max_pool3d")


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """``(sum over each window of x**p) ** (1/p)`` over (N, C, D, H, W)."""
    from . import functional  # noqa: PLC0415

    p = float(norm_type)
    ks = (kernel_size,) * 3 if isinstance(kernel_size, int) else tuple(kernel_size)
    out = functional.avg_pool3d(input ** p, ks, stride if stride is not None else ks, 0, ceil_mode)
    return (out.sign() * out.abs().relu() * math.prod(ks)) ** (1.0 / p)
