"""More layers: ConvTranspose1d/2d, GroupNorm, InstanceNorm1d/2d, Dropout1d/2d, PReLU, Unflatten,
PixelShuffle/PixelUnshuffle."""

from __future__ import annotations

from .. import creation as _c
from . import functional as F
from .layers import Dropout, _ConvNd, _factory, _NormBase, _ntuple
from .module import Module
from .parameter import Parameter

__all__ = ["ConvTranspose1d", "ConvTranspose2d", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "Dropout1d",
           "Dropout2d", "PReLU", "Unflatten", "PixelShuffle", "PixelUnshuffle"]


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


class GroupNorm(Module):
    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        if affine:
            self.weight = Parameter(_c.ones(num_channels, **_factory(device, dtype)))
        else:
            self.register_parameter("weight", None)
        if affine and bias:
            self.bias = Parameter(_c.zeros(num_channels, **_factory(device, dtype)))
        else:
            self.register_parameter("bias", None)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class _InstanceNorm(_NormBase):
    _nd = 2

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False,
                 device=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)

    def forward(self, input):
        if input.dim() != self._nd + 2:
            raise ValueError(f"expected {self._nd + 2}D input (got {input.dim()}D input)")
        use_input_stats = self.training or not self.track_running_stats
        if use_input_stats and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                               use_input_stats, self.momentum if self.momentum is not None else 0.1, self.eps)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"track_running_stats={self.track_running_stats}")


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization over (N, C, L)."""

    _nd = 1


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization over (N, C, H, W)."""

    _nd = 2


class _DropoutChannels(Dropout):
    """Zeroes whole channels (all of dims 2..) with probability p, scaling the rest by 1/(1-p)."""

    _nd = 2

    def forward(self, input):
        fn = F.dropout1d if self._nd == 1 else F.dropout2d
        return fn(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutChannels):
    _nd = 1


class Dropout2d(_DropoutChannels):
    _nd = 2


class PReLU(Module):
    """max(0, x) + a * min(0, x) with a learnable slope (one, or one per channel), initially ``init``."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.weight = Parameter(_c.full((num_parameters,), float(init), **_factory(device, dtype)))

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class Unflatten(Module):
    def __init__(self, dim, unflattened_size):
        super().__init__()
        self.dim, self.unflattened_size = dim, tuple(unflattened_size)

    def forward(self, input):
        d = self.dim % input.dim()
        return input.reshape(tuple(input.shape[:d]) + self.unflattened_size + tuple(input.shape[d + 1:]))

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


class PixelShuffle(Module):
    """(N, C r^2, H, W) -> (N, C, H r, W r) (``F.pixel_shuffle``)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(N, C, H r, W r) -> (N, C r^2, H, W) (``F.pixel_unshuffle``)."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return f"downscale_factor={self.downscale_factor}"
