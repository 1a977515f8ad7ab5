"""torchvision.models.resnet: ResNet, ResNeXt and Wide ResNet, written as torchvision writes
them (module names, parameter shapes, initialisation), so state_dicts are interchangeable."""

from __future__ import annotations

from ... import flatten, nn
from ._api import check_no_weights, handle_legacy_interface, register_builder, weights_enum

__all__ = [
    "ResNet", "BasicBlock", "Bottleneck", "ResNet18_Weights", "ResNet34_Weights", "ResNet50_Weights",
    "ResNet101_Weights", "ResNet152_Weights", "ResNeXt50_32X4D_Weights", "ResNeXt101_32X8D_Weights",
    "ResNeXt101_64X4D_Weights", "Wide_ResNet50_2_Weights", "Wide_ResNet101_2_Weights", "resnet18", "resnet34",
    "resnet50", "resnet101", "resnet152", "resnext50_32x4d", "resnext101_32x8d", "resnext101_64x4d",
    "wide_resnet50_2", "wide_resnet101_2",
]


def conv3x3(in_planes, out_planes, stride=1, groups=1, dilation=1):
    """3x3 convolution with padding (no bias: a norm layer follows)."""
    return nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride, padding=dilation, groups=groups,
                     bias=False, dilation=dilation)


def conv1x1(in_planes, out_planes, stride=1):
    """1x1 convolution (no bias)."""
    return nn.Conv2d(in_planes, out_planes, kernel_size=1, stride=stride, bias=False)


class BasicBlock(nn.Module):
    """Two 3x3 convolutions and a shortcut (ResNet-18/34)."""

    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None, groups=1, base_width=64, dilation=1,
                 norm_layer=None):
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        if groups != 1 or base_width != 64:
            raise ValueError("BasicBlock only supports groups=1 and base_width=64")
        if dilation > 1:
            raise NotImplementedError("Dilation > 1 not supported in BasicBlock")
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = norm_layer(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = norm_layer(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


class Bottleneck(nn.Module):
    """1x1 reduce, 3x3 (stride and groups here, as torchvision's "ResNet V1.5"), 1x1 expand, shortcut."""

    expansion = 4

    def __init__(self, inplanes, planes, stride=1, downsample=None, groups=1, base_width=64, dilation=1,
                 norm_layer=None):
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        width = int(planes * (base_width / 64.0)) * groups
        self.conv1 = conv1x1(inplanes, width)
        self.bn1 = norm_layer(width)
        self.conv2 = conv3x3(width, width, stride, groups, dilation)
        self.bn2 = norm_layer(width)
        self.conv3 = conv1x1(width, planes * self.expansion)
        self.bn3 = norm_layer(planes * self.expansion)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


class ResNet(nn.Module):
    """``ResNet(block, layers)``: 7x7 stem, max-pool, four stages of ``layers[i]`` blocks,
    global average pool, linear classifier."""

    def __init__(self, block, layers, num_classes=1000, zero_init_residual=False, groups=1, width_per_group=64,
                 replace_stride_with_dilation=None, norm_layer=None):
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        self._norm_layer = norm_layer
        self.inplanes = 64
        self.dilation = 1
        if replace_stride_with_dilation is None:
            replace_stride_with_dilation = [False, False, False]
        if len(replace_stride_with_dilation) != 3:
            raise ValueError("replace_stride_with_dilation should be None or a 3-element tuple, got "
                             f"{replace_stride_with_dilation}")
        self.groups = groups
        self.base_width = width_per_group
        self.conv1 = nn.Conv2d(3, self.inplanes, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = norm_layer(self.inplanes)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, 64, layers[0])
        self.layer2 = self._make_layer(block, 128, layers[1], stride=2, dilate=replace_stride_with_dilation[0])
        self.layer3 = self._make_layer(block, 256, layers[2], stride=2, dilate=replace_stride_with_dilation[1])
        self.layer4 = self._make_layer(block, 512, layers[3], stride=2, dilate=replace_stride_with_dilation[2])
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512 * block.expansion, num_classes)

        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)
        # Zero the last BN of each residual branch, so each block starts as the identity
        # (https://arxiv.org/abs/1706.02677).
        if zero_init_residual:
            for m in self.modules():
                if isinstance(m, Bottleneck) and m.bn3.weight is not None:
                    nn.init.constant_(m.bn3.weight, 0)
                elif isinstance(m, BasicBlock) and m.bn2.weight is not None:
                    nn.init.constant_(m.bn2.weight, 0)

    def _make_layer(self, block, planes, blocks, stride=1, dilate=False):
        norm_layer = self._norm_layer
        downsample = None
        previous_dilation = self.dilation
        if dilate:
            self.dilation *= stride
            stride = 1
        if stride != 1 or self.inplanes != planes * block.expansion:
            downsample = nn.Sequential(conv1x1(self.inplanes, planes * block.expansion, stride),
                                       norm_layer(planes * block.expansion))
        layers = [block(self.inplanes, planes, stride, downsample, self.groups, self.base_width, previous_dilation,
                        norm_layer)]
        self.inplanes = planes * block.expansion
        for _ in range(1, blocks):
            layers.append(block(self.inplanes, planes, groups=self.groups, base_width=self.base_width,
                                dilation=self.dilation, norm_layer=norm_layer))
        return nn.Sequential(*layers)

    def _forward_impl(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        x = flatten(self.avgpool(x), 1)
        return self.fc(x)

    def forward(self, x):
        return self._forward_impl(x)


def _resnet(block, layers, weights, progress, **kwargs):
    check_no_weights(weights)
    return ResNet(block, layers, **kwargs)


def _enum(name, v1, v2=None, num_params=None):
    entries = {"IMAGENET1K_V1": (v1, num_params)}
    if v2 is not None:
        entries["IMAGENET1K_V2"] = (v2, num_params)
    return weights_enum(name, __name__, entries, "IMAGENET1K_V2" if v2 else "IMAGENET1K_V1")


ResNet18_Weights = _enum("ResNet18_Weights", "resnet18-f37072fd.pth", num_params=11689512)
ResNet34_Weights = _enum("ResNet34_Weights", "resnet34-b627a593.pth", num_params=21797672)
ResNet50_Weights = _enum("ResNet50_Weights", "resnet50-0676ba61.pth", "resnet50-11ad3fa6.pth", 25557032)
ResNet101_Weights = _enum("ResNet101_Weights", "resnet101-63fe2227.pth", "resnet101-cd907fc2.pth", 44549160)
ResNet152_Weights = _enum("ResNet152_Weights", "resnet152-394f9c45.pth", "resnet152-f82ba261.pth", 60192808)
ResNeXt50_32X4D_Weights = _enum("ResNeXt50_32X4D_Weights", "resnext50_32x4d-7cdf4587.pth",
                                "resnext50_32x4d-1a0047aa.pth", 25028904)
ResNeXt101_32X8D_Weights = _enum("ResNeXt101_32X8D_Weights", "resnext101_32x8d-8ba56ff5.pth",
                                 "resnext101_32x8d-110c445d.pth", 88791336)
ResNeXt101_64X4D_Weights = _enum("ResNeXt101_64X4D_Weights", "resnext101_64x4d-173b62eb.pth",
                                 num_params=83455272)
Wide_ResNet50_2_Weights = _enum("Wide_ResNet50_2_Weights", "wide_resnet50_2-95faca4d.pth",
                                "wide_resnet50_2-9ba9bcbe.pth", 68883240)
Wide_ResNet101_2_Weights = _enum("Wide_ResNet101_2_Weights", "wide_resnet101_2-32ee1156.pth",
                                 "wide_resnet101_2-d733dc28.pth", 126886696)


def _builder(name, enum, block, layers, doc, **fixed):
    @handle_legacy_interface(enum.IMAGENET1K_V1)
    def builder(*, weights=None, progress=True, **kwargs):
        weights = enum.verify(weights)
        for k, v in fixed.items():  # torchvision's _ovewrite_named_param
            if k in kwargs and kwargs[k] != v:
                raise ValueError(f"The parameter '{k}' expected value {v} but got {kwargs[k]} instead.")
            kwargs[k] = v
        return _resnet(block, layers, weights, progress, **kwargs)

    return register_builder(name, __name__, builder, doc, "ResNet")


resnet18 = _builder("resnet18", ResNet18_Weights, BasicBlock, [2, 2, 2, 2], "ResNet-18.")
resnet34 = _builder("resnet34", ResNet34_Weights, BasicBlock, [3, 4, 6, 3], "ResNet-34.")
resnet50 = _builder("resnet50", ResNet50_Weights, Bottleneck, [3, 4, 6, 3], "ResNet-50.")
resnet101 = _builder("resnet101", ResNet101_Weights, Bottleneck, [3, 4, 23, 3], "ResNet-101.")
resnet152 = _builder("resnet152", ResNet152_Weights, Bottleneck, [3, 8, 36, 3], "ResNet-152.")
resnext50_32x4d = _builder("resnext50_32x4d", ResNeXt50_32X4D_Weights, Bottleneck, [3, 4, 6, 3],
                           "ResNeXt-50 32x4d.", groups=32, width_per_group=4)
resnext101_32x8d = _builder("resnext101_32x8d", ResNeXt101_32X8D_Weights, Bottleneck, [3, 4, 23, 3],
                            "ResNeXt-101 32x8d.", groups=32, width_per_group=8)
resnext101_64x4d = _builder("resnext101_64x4d", ResNeXt101_64X4D_Weights, Bottleneck, [3, 4, 23, 3],
                            "ResNeXt-101 64x4d.", groups=64, width_per_group=4)
wide_resnet50_2 = _builder("wide_resnet50_2", Wide_ResNet50_2_Weights, Bottleneck, [3, 4, 6, 3],
                           "Wide ResNet-50-2.", width_per_group=128)
wide_resnet101_2 = _builder("wide_resnet101_2", Wide_ResNet101_2_Weights, Bottleneck, [3, 4, 23, 3],
                            "Wide ResNet-101-2.", width_per_group=128)
