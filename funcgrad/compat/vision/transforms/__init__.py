"""``torchvision.transforms``: image transforms for PIL images and compat Tensor images.

``transforms.functional`` holds the functions the classes call (``F.resize``, ``F.to_tensor``, ...).
"""

from . import functional  # noqa: F401
from .autoaugment import AutoAugment, AutoAugmentPolicy, RandAugment, TrivialAugmentWide  # noqa: F401
from ._augment import (  # noqa: F401
    ColorJitter, FiveCrop, GaussianBlur, RandomAffine, RandomErasing, RandomGrayscale, RandomRotation, TenCrop,
)
from ._photometric import (  # noqa: F401
    RandomAdjustSharpness, RandomAutocontrast, RandomEqualize, RandomInvert, RandomPosterize, RandomSolarize,
)
from .transforms import (  # noqa: F401
    CenterCrop, Compose, ConvertImageDtype, Grayscale, InterpolationMode, Lambda, Normalize, Pad, PILToTensor,
    RandomApply, RandomChoice, RandomCrop, RandomHorizontalFlip, RandomOrder, RandomResizedCrop, RandomVerticalFlip,
    Resize, ToPILImage, ToTensor,
)
