"""``torchvision.transforms``: image transforms for PIL images and compat Tensor images.

``transforms.functional`` holds the functions the classes call (``F.resize``, ``F.to_tensor``, ...).
"""

from . import functional  # noqa: F401
from .transforms import (  # noqa: F401
    CenterCrop, Compose, ConvertImageDtype, Grayscale, InterpolationMode, Lambda, Normalize, Pad, PILToTensor,
    RandomApply, RandomChoice, RandomCrop, RandomHorizontalFlip, RandomOrder, RandomResizedCrop, RandomVerticalFlip,
    Resize, ToPILImage, ToTensor,
)
