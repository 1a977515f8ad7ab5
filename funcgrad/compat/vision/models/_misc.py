"""torchvision.ops.misc's Conv2dNormActivation (the building block of MobileNet), kept with the
models that use it."""

from __future__ import annotations

from ... import nn

__all__ = ["Conv2dNormActivation"]


class Conv2dNormActivation(nn.Sequential):
    """Conv2d, then ``norm_layer`` (if any), then ``activation_layer`` (if any), as a Sequential
    (so state_dict keys are ``0.weight``, ``1.running_mean``, ...). ``padding=None`` keeps the
    size at stride 1; the convolution has a bias only without a norm layer (``bias=None``)."""

    def __init__(self, in_channels, out_channels, kernel_size=3, stride=1, padding=None, groups=1,
                 norm_layer=nn.BatchNorm2d, activation_layer=nn.ReLU, dilation=1, inplace=True, bias=None,
                 conv_layer=nn.Conv2d):
        if padding is None:
            if isinstance(kernel_size, int) and isinstance(dilation, int):
                padding = (kernel_size - 1) // 2 * dilation
            else:
                n = len(kernel_size) if isinstance(kernel_size, (tuple, list)) else len(dilation)
                ks = tuple(kernel_size) if isinstance(kernel_size, (tuple, list)) else (kernel_size,) * n
                dil = tuple(dilation) if isinstance(dilation, (tuple, list)) else (dilation,) * n
                padding = tuple((k - 1) // 2 * d for k, d in zip(ks, dil))
        if bias is None:
            bias = norm_layer is None
        layers = [conv_layer(in_channels, out_channels, kernel_size, stride, padding, dilation=dilation,
                             groups=groups, bias=bias)]
        if norm_layer is not None:
            layers.append(norm_layer(out_channels))
        if activation_layer is not None:
            params = {} if inplace is None else {"inplace": inplace}
            layers.append(activation_layer(**params))
        super().__init__(*layers)
        self.out_channels = out_channels
