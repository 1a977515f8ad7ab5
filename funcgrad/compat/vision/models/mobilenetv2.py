"""torchvision.models.mobilenetv2: MobileNetV2 (inverted residual blocks with linear
bottlenecks), written as torchvision writes it (module names, parameter shapes, init)."""

from __future__ import annotations

from ... import flatten, nn
from ...nn import functional as F
from ._api import check_no_weights, handle_legacy_interface, register_builder, weights_enum
from ._misc import Conv2dNormActivation

__all__ = ["MobileNetV2", "InvertedResidual", "MobileNet_V2_Weights", "mobilenet_v2"]


def _make_divisible(v, divisor, min_value=None):
    """Round ``v`` to the nearest multiple of ``divisor`` (at least ``min_value``), never more than 10% down."""
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


class InvertedResidual(nn.Module):
    """1x1 expansion (unless ``expand_ratio`` is 1), 3x3 depthwise, 1x1 linear projection;
    a shortcut when the stride is 1 and the channel count is kept."""

    def __init__(self, inp, oup, stride, expand_ratio, norm_layer=None):
        super().__init__()
        self.stride = stride
        if stride not in [1, 2]:
            raise ValueError(f"stride should be 1 or 2 instead of {stride}")
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        hidden_dim = round(inp * expand_ratio)
        self.use_res_connect = self.stride == 1 and inp == oup
        layers = []
        if expand_ratio != 1:
            layers.append(Conv2dNormActivation(inp, hidden_dim, kernel_size=1, norm_layer=norm_layer,
                                               activation_layer=nn.ReLU6))
        layers.extend([
            Conv2dNormActivation(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim, norm_layer=norm_layer,
                                 activation_layer=nn.ReLU6),
            nn.Conv2d(hidden_dim, oup, 1, 1, 0, bias=False),
            norm_layer(oup),
        ])
        self.conv = nn.Sequential(*layers)
        self.out_channels = oup
        self._is_cn = stride > 1

    def forward(self, x):
        if self.use_res_connect:
            return x + self.conv(x)
        return self.conv(x)


class MobileNetV2(nn.Module):
    """MobileNetV2: channel counts scaled by ``width_mult`` and rounded to ``round_nearest``;
    ``inverted_residual_setting`` is a list of ``[t, c, n, s]`` (expansion, channels, repeats, stride)."""

    def __init__(self, num_classes=1000, width_mult=1.0, inverted_residual_setting=None, round_nearest=8,
                 block=None, norm_layer=None, dropout=0.2):
        super().__init__()
        if block is None:
            block = InvertedResidual
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        input_channel = 32
        last_channel = 1280
        if inverted_residual_setting is None:
            inverted_residual_setting = [
                # t, c, n, s
                [1, 16, 1, 1],
                [6, 24, 2, 2],
                [6, 32, 3, 2],
                [6, 64, 4, 2],
                [6, 96, 3, 1],
                [6, 160, 3, 2],
                [6, 320, 1, 1],
            ]
        if len(inverted_residual_setting) == 0 or len(inverted_residual_setting[0]) != 4:
            raise ValueError("inverted_residual_setting should be non-empty or a 4-element list, got "
                             f"{inverted_residual_setting}")
        input_channel = _make_divisible(input_channel * width_mult, round_nearest)
        self.last_channel = _make_divisible(last_channel * max(1.0, width_mult), round_nearest)
        features = [Conv2dNormActivation(3, input_channel, stride=2, norm_layer=norm_layer,
                                         activation_layer=nn.ReLU6)]
        for t, c, n, s in inverted_residual_setting:
            output_channel = _make_divisible(c * width_mult, round_nearest)
            for i in range(n):
                stride = s if i == 0 else 1
                features.append(block(input_channel, output_channel, stride, expand_ratio=t, norm_layer=norm_layer))
                input_channel = output_channel
        features.append(Conv2dNormActivation(input_channel, self.last_channel, kernel_size=1, norm_layer=norm_layer,
                                             activation_layer=nn.ReLU6))
        self.features = nn.Sequential(*features)
        self.classifier = nn.Sequential(nn.Dropout(p=dropout), nn.Linear(self.last_channel, num_classes))

        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out")
                if m.bias is not None:
                    nn.init.zeros_(m.bias)
            elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
                nn.init.ones_(m.weight)
                nn.init.zeros_(m.bias)
            elif isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, 0, 0.01)
                nn.init.zeros_(m.bias)

    def _forward_impl(self, x):
        x = F.adaptive_avg_pool2d(self.features(x), (1, 1))
        return self.classifier(flatten(x, 1))

    def forward(self, x):
        return self._forward_impl(x)


MobileNet_V2_Weights = weights_enum("MobileNet_V2_Weights", __name__, {
    "IMAGENET1K_V1": ("mobilenet_v2-b0353104.pth", 3504872),
    "IMAGENET1K_V2": ("mobilenet_v2-7ebf99e0.pth", 3504872),
}, "IMAGENET1K_V2")


@handle_legacy_interface(MobileNet_V2_Weights.IMAGENET1K_V1)
def _mobilenet_v2(*, weights=None, progress=True, **kwargs):
    check_no_weights(MobileNet_V2_Weights.verify(weights))
    return MobileNetV2(**kwargs)


mobilenet_v2 = register_builder("mobilenet_v2", __name__, _mobilenet_v2, "MobileNetV2.", "MobileNetV2")
