"""torchvision.models.alexnet: AlexNet ("One weird trick" variant, as torchvision), with
PyTorch's default layer initialisation (torchvision applies none of its own)."""

from __future__ import annotations

from ... import flatten, nn
from ._api import check_no_weights, handle_legacy_interface, register_builder, weights_enum

__all__ = ["AlexNet", "AlexNet_Weights", "alexnet"]


class AlexNet(nn.Module):
    """Five convolutions with max-pooling, a 6x6 adaptive average pool, three linear layers with dropout."""

    def __init__(self, num_classes=1000, dropout=0.5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 64, kernel_size=11, stride=4, padding=2),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2),
            nn.Conv2d(64, 192, kernel_size=5, padding=2),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2),
            nn.Conv2d(192, 384, kernel_size=3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(384, 256, kernel_size=3, padding=1),
            nn.ReLU(inplace=True),
            nn.Conv2d(256, 256, kernel_size=3, padding=1),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2),
        )
        self.avgpool = nn.AdaptiveAvgPool2d((6, 6))
        self.classifier = nn.Sequential(
            nn.Dropout(p=dropout),
            nn.Linear(256 * 6 * 6, 4096),
            nn.ReLU(inplace=True),
            nn.Dropout(p=dropout),
            nn.Linear(4096, 4096),
            nn.ReLU(inplace=True),
            nn.Linear(4096, num_classes),
        )

    def forward(self, x):
        x = self.avgpool(self.features(x))
        return self.classifier(flatten(x, 1))


AlexNet_Weights = weights_enum("AlexNet_Weights", __name__, {"IMAGENET1K_V1": ("alexnet-owt-7be5be79.pth", 61100840)},
                               "IMAGENET1K_V1", min_size=(63, 63))


@handle_legacy_interface(AlexNet_Weights.IMAGENET1K_V1)
def _alexnet(*, weights=None, progress=True, **kwargs):
    check_no_weights(AlexNet_Weights.verify(weights))
    return AlexNet(**kwargs)


alexnet = register_builder("alexnet", __name__, _alexnet, "AlexNet (inputs of at least 63x63).", "AlexNet")
