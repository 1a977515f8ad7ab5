"""Photometric and geometric augmentations: ColorJitter, RandomRotation, RandomAffine, RandomErasing,
RandomGrayscale, GaussianBlur, FiveCrop, TenCrop.

As torchvision: compat ``nn.Module``s drawing from funcgrad.compat's global generator."""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

from ... import creation
from ...nn.module import Module
from ...tensor import Tensor
from . import functional as F
from .functional import InterpolationMode, interpolation_mode
from .transforms import _area_and_aspect, _check_scale_ratio, _rand, _randint, _setup_size, _uniform

__all__ = ["ColorJitter", "RandomRotation", "RandomAffine", "RandomErasing", "RandomGrayscale", "GaussianBlur",
           "FiveCrop", "TenCrop"]


def _check_sequence(x, name, req_sizes):
    if not isinstance(x, Sequence):
        raise TypeError(f"{name} should be a sequence of length {' or '.join(map(str, req_sizes))}.")
    if len(x) not in req_sizes:
        raise ValueError(f"{name} should be a sequence of length {' or '.join(map(str, req_sizes))}.")


def _setup_angle(x, name, req_sizes=(2,)):
    if isinstance(x, numbers.Number):
        if x < 0:
            raise ValueError(f"If {name} is a single number, it must be positive.")
        x = [-x, x]
    else:
        _check_sequence(x, name, req_sizes)
    return [float(d) for d in x]


def _check_fill(fill):
    if fill is None:
        return 0
    if not isinstance(fill, (Sequence, numbers.Number)):
        raise TypeError("Fill should be either a sequence or a number.")
    return fill


def _tensor_fill(fill, img):
    """Per-channel float fill for tensors (as torchvision's forward passes it); PIL images take it as is."""
    if not isinstance(img, Tensor) or fill is None:
        return fill
    channels = F.get_dimensions(img)[0]
    return [float(fill)] * channels if isinstance(fill, (int, float)) else [float(f) for f in fill]


class ColorJitter(Module):
    """Random brightness, contrast, saturation and hue changes, applied in a random order."""

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0):
        super().__init__()
        self.brightness = self._check_input(brightness, "brightness")
        self.contrast = self._check_input(contrast, "contrast")
        self.saturation = self._check_input(saturation, "saturation")
        self.hue = self._check_input(hue, "hue", center=0, bound=(-0.5, 0.5), clip_first_on_zero=False)

    @staticmethod
    def _check_input(value, name, center=1, bound=(0, float("inf")), clip_first_on_zero=True):
        if isinstance(value, numbers.Number):
            if value < 0:
                raise ValueError(f"If {name} is a single number, it must be non negative.")
            value = [center - float(value), center + float(value)]
            if clip_first_on_zero:
                value[0] = max(value[0], 0.0)
        elif isinstance(value, (tuple, list)) and len(value) == 2:
            value = [float(value[0]), float(value[1])]
        else:
            raise TypeError(f"{name} should be a single number or a list/tuple with length 2.")
        if not bound[0] <= value[0] <= value[1] <= bound[1]:
            raise ValueError(f"{name} values should be between {bound}, but got {value}.")
        return None if value[0] == value[1] == center else tuple(value)

    @staticmethod
    def get_params(brightness, contrast, saturation, hue):
        """(order of the four adjustments, then each factor or None)."""
        order = creation.randperm(4)
        factors = [None if r is None else _uniform(r[0], r[1]) for r in (brightness, contrast, saturation, hue)]
        return (order, *factors)

    def forward(self, img):
        order, *factors = self.get_params(self.brightness, self.contrast, self.saturation, self.hue)
        adjust = (F.adjust_brightness, F.adjust_contrast, F.adjust_saturation, F.adjust_hue)
        for fn_id in order.tolist():
            if factors[fn_id] is not None:
                img = adjust[fn_id](img, factors[fn_id])
        return img

    def __repr__(self):
        return (f"{self.__class__.__name__}(brightness={self.brightness}, contrast={self.contrast}, "
                f"saturation={self.saturation}, hue={self.hue})")


class RandomRotation(Module):
    """Rotate by an angle drawn from ``degrees`` (a number d means (-d, d))."""

    def __init__(self, degrees, interpolation=InterpolationMode.NEAREST, expand=False, center=None, fill=0):
        super().__init__()
        self.interpolation = interpolation_mode(interpolation)
        self.degrees = _setup_angle(degrees, "degrees")
        if center is not None:
            _check_sequence(center, "center", (2,))
        self.center, self.expand, self.fill = center, expand, _check_fill(fill)

    @staticmethod
    def get_params(degrees):
        return _uniform(degrees[0], degrees[1])

    def forward(self, img):
        fill = _tensor_fill(self.fill, img)
        return F.rotate(img, self.get_params(self.degrees), self.interpolation, self.expand, self.center, fill)

    def __repr__(self):
        s = f"{self.__class__.__name__}(degrees={self.degrees}, interpolation={self.interpolation.value}, "
        s += f"expand={self.expand}"
        s += f", center={self.center}" if self.center is not None else ""
        return s + f", fill={self.fill})"


class RandomAffine(Module):
    """Random rotation (``degrees``), translation (fractions of the size), scale and shear."""

    def __init__(self, degrees, translate=None, scale=None, shear=None, interpolation=InterpolationMode.NEAREST,
                 fill=0, center=None):
        super().__init__()
        self.interpolation = interpolation_mode(interpolation)
        self.degrees = _setup_angle(degrees, "degrees")
        if translate is not None:
            _check_sequence(translate, "translate", (2,))
            if not all(0.0 <= t <= 1.0 for t in translate):
                raise ValueError("translation values should be between 0 and 1")
        if scale is not None:
            _check_sequence(scale, "scale", (2,))
            if any(s <= 0 for s in scale):
                raise ValueError("scale values should be positive")
        self.translate, self.scale = translate, scale
        self.shear = None if shear is None else _setup_angle(shear, "shear", (2, 4))
        if center is not None:
            _check_sequence(center, "center", (2,))
        self.fill, self.center = _check_fill(fill), center

    @staticmethod
    def get_params(degrees, translate, scale_ranges, shears, img_size):
        """(angle, (tx, ty), scale, (shear_x, shear_y)) for an image of ``img_size`` = [width, height]."""
        angle = _uniform(degrees[0], degrees[1])
        if translate is not None:
            max_dx, max_dy = float(translate[0] * img_size[0]), float(translate[1] * img_size[1])
            translations = (int(round(_uniform(-max_dx, max_dx))), int(round(_uniform(-max_dy, max_dy))))
        else:
            translations = (0, 0)
        scale = 1.0 if scale_ranges is None else _uniform(scale_ranges[0], scale_ranges[1])
        shear_x = shear_y = 0.0
        if shears is not None:
            shear_x = _uniform(shears[0], shears[1])
            if len(shears) == 4:
                shear_y = _uniform(shears[2], shears[3])
        return angle, translations, scale, (shear_x, shear_y)

    def forward(self, img):
        _, height, width = F.get_dimensions(img)
        params = self.get_params(self.degrees, self.translate, self.scale, self.shear, [width, height])
        return F.affine(img, *params, interpolation=self.interpolation, fill=_tensor_fill(self.fill, img),
                        center=self.center)

    def __repr__(self):
        s = f"{self.__class__.__name__}(degrees={self.degrees}"
        s += f", translate={self.translate}" if self.translate is not None else ""
        s += f", scale={self.scale}" if self.scale is not None else ""
        s += f", shear={self.shear}" if self.shear is not None else ""
        s += f", interpolation={self.interpolation.value}" if self.interpolation != InterpolationMode.NEAREST else ""
        s += f", fill={self.fill}" if self.fill != 0 else ""
        s += f", center={self.center}" if self.center is not None else ""
        return s + ")"


class RandomErasing(Module):
    """With probability ``p``, set a random window (``scale`` of the area, aspect ``ratio``) of a tensor
    image to ``value`` (a number, one per channel, or ``'random'`` for normal noise)."""

    def __init__(self, p=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False):
        super().__init__()
        if not isinstance(value, (numbers.Number, str, tuple, list)):
            raise TypeError("Argument value should be either a number or str or a sequence")
        if isinstance(value, str) and value != "random":
            raise ValueError("If value is str, it should be 'random'")
        _check_scale_ratio(scale, ratio)
        if scale[0] < 0 or scale[1] > 1:
            raise ValueError("Scale should be between 0 and 1")
        if p < 0 or p > 1:
            raise ValueError("Random erasing probability should be between 0 and 1")
        self.p, self.scale, self.ratio, self.value, self.inplace = p, scale, ratio, value, inplace

    @staticmethod
    def get_params(img, scale, ratio, value=None):
        """(i, j, h, w, v); after 10 failed tries the whole image with itself as ``v``."""
        img_c, img_h, img_w = img.shape[-3], img.shape[-2], img.shape[-1]
        area = img_h * img_w
        log_ratio = (math.log(ratio[0]), math.log(ratio[1]))
        for _ in range(10):
            erase_area, aspect_ratio = _area_and_aspect(area, scale, log_ratio)
            h = int(round(math.sqrt(erase_area * aspect_ratio)))
            w = int(round(math.sqrt(erase_area / aspect_ratio)))
            if not (h < img_h and w < img_w):
                continue
            if value is None:
                v = creation.empty(img_c, h, w, device=img.device).normal_()
            else:
                v = creation.tensor(value, device=img.device)[:, None, None]
            return _randint(0, img_h - h + 1), _randint(0, img_w - w + 1), h, w, v
        return 0, 0, img_h, img_w, img

    def forward(self, img):
        if _rand() < self.p:
            if isinstance(self.value, (int, float)):
                value = [float(self.value)]
            elif isinstance(self.value, str):
                value = None
            else:
                value = [float(v) for v in self.value]
            if value is not None and len(value) not in (1, img.shape[-3]):
                raise ValueError("If value is a sequence, it should have either a single value or "
                                 f"{img.shape[-3]} (number of input channels)")
            i, j, h, w, v = self.get_params(img, scale=self.scale, ratio=self.ratio, value=value)
            return F.erase(img, i, j, h, w, v, self.inplace)
        return img

    def __repr__(self):
        return (f"{self.__class__.__name__}(p={self.p}, scale={self.scale}, ratio={self.ratio}, value={self.value}, "
                f"inplace={self.inplace})")


class RandomGrayscale(Module):
    """With probability ``p``, grey with as many channels as the input."""

    def __init__(self, p=0.1):
        super().__init__()
        self.p = p

    def forward(self, img):
        channels = F.get_dimensions(img)[0]
        return F.rgb_to_grayscale(img, num_output_channels=channels) if _rand() < self.p else img

    def __repr__(self):
        return f"{self.__class__.__name__}(p={self.p})"


class GaussianBlur(Module):
    """Blur with an odd ``kernel_size`` and a sigma drawn uniformly from ``sigma`` (min, max)."""

    def __init__(self, kernel_size, sigma=(0.1, 2.0)):
        super().__init__()
        self.kernel_size = _setup_size(kernel_size, "Kernel size should be a tuple/list of two integers")
        if any(ks <= 0 or ks % 2 == 0 for ks in self.kernel_size):
            raise ValueError("Kernel size value should be an odd and positive number.")
        if isinstance(sigma, numbers.Number):
            if sigma <= 0:
                raise ValueError("If sigma is a single number, it must be positive.")
            sigma = (sigma, sigma)
        elif isinstance(sigma, Sequence) and len(sigma) == 2:
            if not 0.0 < sigma[0] <= sigma[1]:
                raise ValueError("sigma values should be positive and of the form (min, max).")
        else:
            raise ValueError("sigma should be a single number or a list/tuple with length 2.")
        self.sigma = sigma

    @staticmethod
    def get_params(sigma_min, sigma_max):
        return _uniform(sigma_min, sigma_max)

    def forward(self, img):
        sigma = self.get_params(self.sigma[0], self.sigma[1])
        return F.gaussian_blur(img, self.kernel_size, [sigma, sigma])

    def __repr__(self):
        return f"{self.__class__.__name__}(kernel_size={self.kernel_size}, sigma={self.sigma})"


class FiveCrop(Module):
    """The four corners and the centre: a tuple of 5 images (stack them in a ``Lambda``)."""

    def __init__(self, size):
        super().__init__()
        self.size = _setup_size(size)

    def forward(self, img):
        return F.five_crop(img, self.size)

    def __repr__(self):
        return f"{self.__class__.__name__}(size={self.size})"


class TenCrop(FiveCrop):
    """``FiveCrop`` of the image and of its flip (horizontal, or vertical with ``vertical_flip``)."""

    def __init__(self, size, vertical_flip=False):
        super().__init__(size)
        self.vertical_flip = vertical_flip

    def forward(self, img):
        return F.ten_crop(img, self.size, self.vertical_flip)

    def __repr__(self):
        return f"{self.__class__.__name__}(size={self.size}, vertical_flip={self.vertical_flip})"
