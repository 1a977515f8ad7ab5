"""torchvision.models.vgg: VGG-11/13/16/19, with and without batch normalization, written as
torchvision writes them (module names, parameter shapes, initialisation)."""

from __future__ import annotations

from ... import flatten, nn
from ._api import check_no_weights, handle_legacy_interface, register_builder, weights_enum

__all__ = [
    "VGG", "VGG11_Weights", "VGG11_BN_Weights", "VGG13_Weights", "VGG13_BN_Weights", "VGG16_Weights",
    "VGG16_BN_Weights", "VGG19_Weights", "VGG19_BN_Weights", "vgg11", "vgg11_bn", "vgg13", "vgg13_bn", "vgg16",
    "vgg16_bn", "vgg19", "vgg19_bn",
]


class VGG(nn.Module):
    """``VGG(features)``: a convolutional ``features`` stack (see :func:`make_layers`), a 7x7
    adaptive average pool and a three-layer classifier with dropout."""

    def __init__(self, features, num_classes=1000, init_weights=True, dropout=0.5):
        super().__init__()
        self.features = features
        self.avgpool = nn.AdaptiveAvgPool2d((7, 7))
        self.classifier = nn.Sequential(
            nn.Linear(512 * 7 * 7, 4096),
            nn.ReLU(True),
            nn.Dropout(p=dropout),
            nn.Linear(4096, 4096),
            nn.ReLU(True),
            nn.Dropout(p=dropout),
            nn.Linear(4096, num_classes),
        )
        if init_weights:
            for m in self.modules():
                if isinstance(m, nn.Conv2d):
                    nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
                    if m.bias is not None:
                        nn.init.constant_(m.bias, 0)
                elif isinstance(m, nn.BatchNorm2d):
                    nn.init.constant_(m.weight, 1)
                    nn.init.constant_(m.bias, 0)
                elif isinstance(m, nn.Linear):
                    nn.init.normal_(m.weight, 0, 0.01)
                    nn.init.constant_(m.bias, 0)

    def forward(self, x):
        x = self.avgpool(self.features(x))
        return self.classifier(flatten(x, 1))


def make_layers(cfg, batch_norm=False):
    """3x3 convolutions (padding 1) with ReLU (and BatchNorm2d), ``"M"`` a 2x2 max-pool."""
    layers = []
    in_channels = 3
    for v in cfg:
        if v == "M":
            layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
        else:
            conv2d = nn.Conv2d(in_channels, v, kernel_size=3, padding=1)
            if batch_norm:
                layers += [conv2d, nn.BatchNorm2d(v), nn.ReLU(inplace=True)]
            else:
                layers += [conv2d, nn.ReLU(inplace=True)]
            in_channels = v
    return nn.Sequential(*layers)


cfgs = {
    "A": [64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "B": [64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"],
    "D": [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"],
    "E": [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M", 512, 512, 512, 512, "M"],
}


def _vgg(cfg, batch_norm, weights, progress, **kwargs):
    check_no_weights(weights)
    return VGG(make_layers(cfgs[cfg], batch_norm=batch_norm), **kwargs)


def _enum(name, file, num_params, **extra):
    entries = {"IMAGENET1K_V1": (file, num_params), **extra}
    return weights_enum(name, __name__, entries, "IMAGENET1K_V1", min_size=(32, 32))


VGG11_Weights = _enum("VGG11_Weights", "vgg11-8a719046.pth", 132863336)
VGG11_BN_Weights = _enum("VGG11_BN_Weights", "vgg11_bn-6002323d.pth", 132868840)
VGG13_Weights = _enum("VGG13_Weights", "vgg13-19584684.pth", 133047848)
VGG13_BN_Weights = _enum("VGG13_BN_Weights", "vgg13_bn-abd245e5.pth", 133053736)
VGG16_Weights = _enum("VGG16_Weights", "vgg16-397923af.pth", 138357544,
                      IMAGENET1K_FEATURES=("vgg16_features-amdegroot-88682ab5.pth", 138357544))
VGG16_BN_Weights = _enum("VGG16_BN_Weights", "vgg16_bn-6c64b313.pth", 138365992)
VGG19_Weights = _enum("VGG19_Weights", "vgg19-dcbb9e9d.pth", 143667240)
VGG19_BN_Weights = _enum("VGG19_BN_Weights", "vgg19_bn-c79401a0.pth", 143678248)


def _builder(name, enum, cfg, batch_norm):
    @handle_legacy_interface(enum.IMAGENET1K_V1)
    def builder(*, weights=None, progress=True, **kwargs):
        return _vgg(cfg, batch_norm, enum.verify(weights), progress, **kwargs)

    depth = {"A": 11, "B": 13, "D": 16, "E": 19}[cfg]
    doc = f"VGG-{depth}{' with batch normalization' if batch_norm else ''} (configuration {cfg!r})."
    return register_builder(name, __name__, builder, doc, "VGG")


vgg11 = _builder("vgg11", VGG11_Weights, "A", False)
vgg11_bn = _builder("vgg11_bn", VGG11_BN_Weights, "A", True)
vgg13 = _builder("vgg13", VGG13_Weights, "B", False)
vgg13_bn = _builder("vgg13_bn", VGG13_BN_Weights, "B", True)
vgg16 = _builder("vgg16", VGG16_Weights, "D", False)
vgg16_bn = _builder("vgg16_bn", VGG16_BN_Weights, "D", True)
vgg19 = _builder("vgg19", VGG19_Weights, "E", False)
vgg19_bn = _builder("vgg19_bn", VGG19_BN_Weights, "E", True)
