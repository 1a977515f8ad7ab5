"""Convolution layers: Conv1d/2d/3d, ConvTranspose1d/2d/3d (and F.conv_transpose3d), Unfold/Fold (and
F.unfold/F.fold)."""

from __future__ import annotations

import math

from ...nn import _conv
from ...primitives.conv import fold as _fold_p
from ...primitives.conv import unfold as _unfold_p
from .. import _validate
from .. import creation as _c
from . import functional as F
from . import init
from ._construction import _factory, _fan_in_uniform_, _ntuple
from .module import Module
from .parameter import Parameter

__all__ = ["Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d", "Conv3d", "Unfold", "Fold"]
# the torch.nn.functional names defined here
FUNCTIONS = ["conv_transpose3d", "unfold", "fold"]


class _ConvNd(Module):
    _nd = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        n = self._nd
        if in_channels % groups:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode != "zeros":
            raise ValueError(f"padding_mode {padding_mode!r} is not supported by funcgrad.compat (only 'zeros')")
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size, self.stride = _ntuple(kernel_size, n), _ntuple(stride, n)
        _validate.conv_padding(padding, self.stride)
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, n)
        self.dilation, self.output_padding = _ntuple(dilation, n), (0,) * n
        self.padding_mode = padding_mode
        self.weight = Parameter(_c.empty((out_channels, in_channels // groups) + self.kernel_size,
                                         **_factory(device, dtype)))
        if bias:
            self.bias = Parameter(_c.empty(out_channels, **_factory(device, dtype)))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            _fan_in_uniform_(self.bias, self.weight.shape[1] * math.prod(self.kernel_size))

    def forward(self, input):
        fn = F.conv1d if self._nd == 1 else F.conv2d
        return fn(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self):
        n = self._nd
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * n:
            s += f", padding={self.padding!r}" if isinstance(self.padding, str) else f", padding={self.padding}"
        if self.dilation != (1,) * n:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * n:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class Conv1d(_ConvNd):
    """1-d convolution over (N, C, L) input."""

    _nd = 1


class Conv2d(_ConvNd):
    """2-d convolution over (N, C, H, W) input."""

    _nd = 2


class _ConvTransposeNd(_ConvNd):
    """Weight (in_channels, out_channels / groups, *kernel), PyTorch's layout and initialisation."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        if isinstance(padding, str):
            raise ValueError(f"padding={padding!r} is not supported for ConvTranspose{self._nd}d")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype)
        self.output_padding = _ntuple(output_padding, self._nd)
        self.weight = Parameter(_c.empty((in_channels, out_channels // groups) + self.kernel_size,
                                         **_factory(device, dtype)))
        self.reset_parameters()

    def forward(self, input):
        fn = F.conv_transpose1d if self._nd == 1 else F.conv_transpose2d
        return fn(input, self.weight, self.bias, self.stride, self.padding, self.output_padding, self.groups,
                  self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    _nd = 1


class ConvTranspose2d(_ConvTransposeNd):
    _nd = 2


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Transposed 3-d convolution of (N, C_in, D, H, W) with weight (C_in, C_out/groups, kD, kH, kW)."""
    return _conv._conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 3,
                                 "conv_transpose3d")


class ConvTranspose3d(_ConvTransposeNd):
    _nd = 3

    def forward(self, input):
        return conv_transpose3d(input, self.weight, self.bias, self.stride, self.padding, self.output_padding,
                                self.groups, self.dilation)


def _fold_geometry(kernel_size, dilation, padding, stride):
    k, d, p, s = (_ntuple(v, 2) for v in (kernel_size, dilation, padding, stride))
    return k, d, tuple((q, q) for q in p), s


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C, H, W) -> (N, C kh kw, L): each column one sliding window (im2col), PyTorch's order."""
    if input.dim() not in (3, 4):
        raise NotImplementedError(f"Input Error: Only 3D or 4D input Tensors are supported (got {input.dim()}D)")
    batched = input.dim() == 4
    x = input if batched else input.unsqueeze(0)
    k, d, p, s = _fold_geometry(kernel_size, dilation, padding, stride)
    cols = _unfold_p(x, k, s, p, d)  # (N, C, oh, ow, kh, kw)
    n, c, oh, ow = cols.shape[:4]
    out = cols.permute(0, 1, 4, 5, 2, 3).reshape(n, c * k[0] * k[1], oh * ow)
    return out if batched else out.squeeze(0)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C kh kw, L) -> (N, C, H, W): sums the columns back into place (col2im; ``unfold``'s adjoint)."""
    if input.dim() not in (2, 3):
        raise NotImplementedError(f"Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported "
                                  f"(got {input.dim()}D)")
    batched = input.dim() == 3
    x = input if batched else input.unsqueeze(0)
    k, d, p, s = _fold_geometry(kernel_size, dilation, padding, stride)
    size = _ntuple(output_size, 2)
    blocks = [(sz + 2 * pp[0] - dd * (kk - 1) - 1) // ss + 1 for sz, pp, dd, kk, ss in zip(size, p, d, k, s)]
    n, ckk, L = x.shape
    if ckk % (k[0] * k[1]) or L != blocks[0] * blocks[1]:
        raise RuntimeError(f"fold: expected input of size (N, C * {k[0] * k[1]}, {blocks[0] * blocks[1]}) for "
                           f"output_size={size}, kernel_size={k}, got {tuple(input.shape)}")
    c = ckk // (k[0] * k[1])
    cols = x.reshape(n, c, k[0], k[1], blocks[0], blocks[1]).permute(0, 1, 4, 5, 2, 3)
    out = _fold_p(cols.contiguous(), size, k, s, p, d)
    return out if batched else out.squeeze(0)


class Conv3d(_ConvNd):
    """3-d convolution over (N, C, D, H, W) input."""

    _nd = 3

    def forward(self, input):
        return F.conv3d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Unfold(Module):
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input):
        return unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")


class Fold(Unfold):
    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(kernel_size, dilation, padding, stride)
        self.output_size = output_size

    def forward(self, input):
        return fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return f"output_size={self.output_size}, " + super().extra_repr()
