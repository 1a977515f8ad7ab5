"""torchvision's transform classes. Random ones draw from funcgrad.compat's global generator
(``torch.rand`` / ``torch.randint``, as torchvision), so ``torch.manual_seed`` makes them reproducible.
Those torchvision makes ``nn.Module``s are compat ``nn.Module``s here too."""

from __future__ import annotations

import math
import numbers
import random
import warnings
from collections.abc import Sequence

from ... import creation, dtypes
from ...nn.module import Module
from . import functional as F
from .functional import InterpolationMode, interpolation_mode

__all__ = [
    "Compose", "ToTensor", "PILToTensor", "ToPILImage", "Normalize", "Resize", "CenterCrop", "Pad", "Lambda",
    "RandomCrop", "RandomHorizontalFlip", "RandomVerticalFlip", "RandomResizedCrop", "Grayscale",
    "ConvertImageDtype", "RandomApply", "RandomChoice", "RandomOrder", "InterpolationMode",
]


def _setup_size(size, error_msg="Please provide only two dimensions (h, w) for size."):
    if isinstance(size, numbers.Number):
        return int(size), int(size)
    if isinstance(size, Sequence) and len(size) == 1:
        return size[0], size[0]
    if len(size) != 2:
        raise ValueError(error_msg)
    return size


def _rand():
    return float(creation.rand(1).item())


def _randint(low, high):
    return int(creation.randint(low, high, size=(1,)).item())


def _uniform(low, high):
    return float(creation.empty(1).uniform_(float(low), float(high)).item())


def _area_and_aspect(area, scale, log_ratio):
    """A random area (``scale`` of ``area``) and aspect ratio (log-uniform), as torchvision draws them."""
    return area * _uniform(scale[0], scale[1]), math.exp(_uniform(log_ratio[0], log_ratio[1]))


def _check_scale_ratio(scale, ratio):
    if not isinstance(scale, Sequence):
        raise TypeError("Scale should be a sequence")
    if not isinstance(ratio, Sequence):
        raise TypeError("Ratio should be a sequence")
    if scale[0] > scale[1] or ratio[0] > ratio[1]:
        warnings.warn("Scale and ratio should be of kind (min, max)", stacklevel=3)


def _list_repr(self):
    return self.__class__.__name__ + "(" + "".join(f"\n    {t}" for t in self.transforms) + "\n)"


class Compose:
    """Apply ``transforms`` in order."""

    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, img):
        for t in self.transforms:
            img = t(img)
        return img

    __repr__ = _list_repr


class ToTensor:
    """PIL image or H x W x C numpy array -> C x H x W tensor (uint8 scaled to [0, 1])."""

    def __call__(self, pic):
        return F.to_tensor(pic)

    def __repr__(self):
        return f"{self.__class__.__name__}()"


class PILToTensor:
    """PIL image -> C x H x W tensor with the same values (uint8 for 8-bit images)."""

    def __call__(self, pic):
        return F.pil_to_tensor(pic)

    def __repr__(self):
        return f"{self.__class__.__name__}()"


class ToPILImage:
    """Tensor (C x H x W) or numpy array (H x W x C) -> PIL image."""

    def __init__(self, mode=None):
        self.mode = mode

    def __call__(self, pic):
        return F.to_pil_image(pic, self.mode)

    def __repr__(self):
        return f"{self.__class__.__name__}(" + (f"mode={self.mode}" if self.mode is not None else "") + ")"


class Lambda:
    """Apply a user function."""

    def __init__(self, lambd):
        if not callable(lambd):
            raise TypeError(f"Argument lambd should be callable, got {repr(type(lambd).__name__)}")
        self.lambd = lambd

    def __call__(self, img):
        return self.lambd(img)

    def __repr__(self):
        return f"{self.__class__.__name__}()"


class Normalize(Module):
    """``(x - mean) / std`` per channel of a float tensor image."""

    def __init__(self, mean, std, inplace=False):
        super().__init__()
        self.mean, self.std, self.inplace = mean, std, inplace

    def forward(self, tensor):
        return F.normalize(tensor, self.mean, self.std, self.inplace)

    def __repr__(self):
        return f"{self.__class__.__name__}(mean={self.mean}, std={self.std})"


class Resize(Module):
    """Resize to ``size``: an int matches the smaller edge (aspect ratio kept), (h, w) is exact."""

    def __init__(self, size, interpolation=InterpolationMode.BILINEAR, max_size=None, antialias=True):
        super().__init__()
        if not isinstance(size, (int, Sequence)):
            raise TypeError(f"Size should be int or sequence. Got {type(size)}")
        if isinstance(size, Sequence) and len(size) not in (1, 2):
            raise ValueError("If size is a sequence, it should have 1 or 2 values")
        self.size, self.max_size, self.antialias = size, max_size, antialias
        self.interpolation = interpolation_mode(interpolation)

    def forward(self, img):
        return F.resize(img, self.size, self.interpolation, self.max_size, self.antialias)

    def __repr__(self):
        return (f"{self.__class__.__name__}(size={self.size}, interpolation={self.interpolation.value}, "
                f"max_size={self.max_size}, antialias={self.antialias})")


class CenterCrop(Module):
    def __init__(self, size):
        super().__init__()
        self.size = _setup_size(size)

    def forward(self, img):
        return F.center_crop(img, self.size)

    def __repr__(self):
        return f"{self.__class__.__name__}(size={self.size})"


class Pad(Module):
    """Pad every side (int), left/right and top/bottom (2 values) or left, top, right, bottom (4)."""

    def __init__(self, padding, fill=0, padding_mode="constant"):
        super().__init__()
        from ._functional_pil import check_pad_args  # noqa: PLC0415

        check_pad_args(padding, fill, padding_mode)
        self.padding, self.fill, self.padding_mode = padding, fill, padding_mode

    def forward(self, img):
        return F.pad(img, self.padding, self.fill, self.padding_mode)

    def __repr__(self):
        return f"{self.__class__.__name__}(padding={self.padding}, fill={self.fill}, padding_mode={self.padding_mode})"


class RandomCrop(Module):
    """A random ``size`` window, after optional ``padding`` (and padding up to ``size`` if ``pad_if_needed``)."""

    @staticmethod
    def get_params(img, output_size):
        _, h, w = F.get_dimensions(img)
        th, tw = output_size
        if h < th or w < tw:
            raise ValueError(f"Required crop size {(th, tw)} is larger than input image size {(h, w)}")
        if w == tw and h == th:
            return 0, 0, h, w
        return _randint(0, h - th + 1), _randint(0, w - tw + 1), th, tw

    def __init__(self, size, padding=None, pad_if_needed=False, fill=0, padding_mode="constant"):
        super().__init__()
        self.size = tuple(_setup_size(size))
        self.padding, self.pad_if_needed, self.fill, self.padding_mode = padding, pad_if_needed, fill, padding_mode

    def forward(self, img):
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        _, height, width = F.get_dimensions(img)
        if self.pad_if_needed and width < self.size[1]:
            img = F.pad(img, [self.size[1] - width, 0], self.fill, self.padding_mode)
        if self.pad_if_needed and height < self.size[0]:
            img = F.pad(img, [0, self.size[0] - height], self.fill, self.padding_mode)
        i, j, h, w = self.get_params(img, self.size)
        return F.crop(img, i, j, h, w)

    def __repr__(self):
        return f"{self.__class__.__name__}(size={self.size}, padding={self.padding})"


class RandomHorizontalFlip(Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, img):
        return F.hflip(img) if _rand() < self.p else img

    def __repr__(self):
        return f"{self.__class__.__name__}(p={self.p})"


class RandomVerticalFlip(RandomHorizontalFlip):
    def forward(self, img):
        return F.vflip(img) if _rand() < self.p else img


class RandomResizedCrop(Module):
    """A random window of ``scale`` (fraction of the area) and aspect ``ratio``, resized to ``size``."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=InterpolationMode.BILINEAR,
                 antialias=True):
        super().__init__()
        self.size = _setup_size(size)
        _check_scale_ratio(scale, ratio)
        self.interpolation = interpolation_mode(interpolation)
        self.antialias, self.scale, self.ratio = antialias, scale, ratio

    @staticmethod
    def get_params(img, scale, ratio):
        """(top, left, height, width): up to 10 tries at a random window, else a central crop."""
        _, height, width = F.get_dimensions(img)
        area = height * width
        log_ratio = (math.log(ratio[0]), math.log(ratio[1]))
        for _ in range(10):
            target_area, aspect_ratio = _area_and_aspect(area, scale, log_ratio)
            w = int(round(math.sqrt(target_area * aspect_ratio)))
            h = int(round(math.sqrt(target_area / aspect_ratio)))
            if 0 < w <= width and 0 < h <= height:
                return _randint(0, height - h + 1), _randint(0, width - w + 1), h, w
        in_ratio = float(width) / float(height)
        if in_ratio < min(ratio):
            w, h = width, int(round(width / min(ratio)))
        elif in_ratio > max(ratio):
            h, w = height, int(round(height * max(ratio)))
        else:
            w, h = width, height
        return (height - h) // 2, (width - w) // 2, h, w

    def forward(self, img):
        i, j, h, w = self.get_params(img, self.scale, self.ratio)
        return F.resized_crop(img, i, j, h, w, self.size, self.interpolation, antialias=self.antialias)

    def __repr__(self):
        return (f"{self.__class__.__name__}(size={self.size}, scale={tuple(round(s, 4) for s in self.scale)}, "
                f"ratio={tuple(round(r, 4) for r in self.ratio)}, interpolation={self.interpolation.value}, "
                f"antialias={self.antialias})")


class Grayscale(Module):
    def __init__(self, num_output_channels=1):
        super().__init__()
        self.num_output_channels = num_output_channels

    def forward(self, img):
        return F.rgb_to_grayscale(img, num_output_channels=self.num_output_channels)

    def __repr__(self):
        return f"{self.__class__.__name__}(num_output_channels={self.num_output_channels})"


class ConvertImageDtype(Module):
    """Convert a tensor image to ``dtype``, rescaling values between integer ranges and [0, 1]."""

    def __init__(self, dtype):
        super().__init__()
        self.dtype = dtypes.as_dtype(dtype)

    def forward(self, image):
        return F.convert_image_dtype(image, self.dtype)


class RandomApply(Module):
    """Apply the list of ``transforms`` with probability ``p``."""

    def __init__(self, transforms, p=0.5):
        super().__init__()
        self.transforms, self.p = transforms, p

    def forward(self, img):
        if self.p < _rand():
            return img
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self):
        body = "".join(f"\n    {t}" for t in self.transforms)
        return f"{self.__class__.__name__}(\n    p={self.p}{body}\n)"


class RandomChoice:
    """Apply one of ``transforms``, picked with weights ``p`` (uniform by default) by Python's ``random``,
    as torchvision does."""

    def __init__(self, transforms, p=None):
        if not isinstance(transforms, Sequence):
            raise TypeError("Argument transforms should be a sequence")
        if p is not None and not isinstance(p, Sequence):
            raise TypeError("Argument p should be a sequence")
        if p is not None and len(p) != len(transforms):
            raise ValueError(f"Length of p doesn't match the number of transforms: {len(p)} != {len(transforms)}")
        self.transforms, self.p = transforms, p

    def __call__(self, *args):
        return random.choices(self.transforms, weights=self.p)[0](*args)

    def __repr__(self):
        return f"{_list_repr(self)}(p={self.p})"


class RandomOrder:
    """Apply ``transforms`` in an order shuffled by Python's ``random``, as torchvision does."""

    def __init__(self, transforms):
        if not isinstance(transforms, Sequence):
            raise TypeError("Argument transforms should be a sequence")
        self.transforms = transforms

    def __call__(self, img):
        order = list(range(len(self.transforms)))
        random.shuffle(order)
        for i in order:
            img = self.transforms[i](img)
        return img

    __repr__ = _list_repr
