"""torchvision.models over funcgrad.compat.nn: ResNet/ResNeXt/Wide ResNet, VGG, AlexNet and
MobileNetV2 with torchvision's module names, parameter shapes and initialisation, so
state_dicts are interchangeable. Nothing is downloaded: see docs/compat-vision.md."""

from ._api import (  # noqa: F401
    Weights, WeightsEnum, get_model, get_model_builder, get_model_weights, get_weight, list_models,
)
from . import mobilenetv2, resnet, vgg  # noqa: F401
from .alexnet import *  # noqa: F401,F403
from .mobilenetv2 import *  # noqa: F401,F403
from .resnet import *  # noqa: F401,F403
from .vgg import *  # noqa: F401,F403
