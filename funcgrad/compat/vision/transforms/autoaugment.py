"""Automatic augmentation policies: AutoAugment (Cubuk et al. 2019: the ImageNet, CIFAR-10 and SVHN
policies), RandAugment (Cubuk et al. 2020) and TrivialAugmentWide (Mueller & Hutter 2021), with
torchvision's operations, magnitude ranges and random draws (from funcgrad.compat's generator).

Inputs are PIL images (``L`` or ``RGB``) or uint8 tensors ``(..., 1 or 3, H, W)``, as in torchvision.
"""

from __future__ import annotations

import enum
import math

import numpy as np

from ... import creation
from ...nn.module import Module
from . import functional as F
from .functional import InterpolationMode, interpolation_mode
from ._augment import _tensor_fill
from .transforms import _randint

__all__ = ["AutoAugmentPolicy", "AutoAugment", "RandAugment", "TrivialAugmentWide"]


def _shear(img, magnitude, axis, interpolation, fill):
    shear = [0.0, 0.0]
    shear[axis] = math.degrees(math.atan(magnitude))
    return F.affine(img, 0.0, [0, 0], 1.0, shear, interpolation, fill, center=[0, 0])


def _translate(img, magnitude, axis, interpolation, fill):
    shift = [0, 0]
    shift[axis] = int(magnitude)
    return F.affine(img, 0.0, shift, 1.0, [0.0, 0.0], interpolation, fill)


# name -> f(img, magnitude, interpolation, fill)
_OPS = {
    "Identity": lambda img, m, i, f: img,
    "ShearX": lambda img, m, i, f: _shear(img, m, 0, i, f),
    "ShearY": lambda img, m, i, f: _shear(img, m, 1, i, f),
    "TranslateX": lambda img, m, i, f: _translate(img, m, 0, i, f),
    "TranslateY": lambda img, m, i, f: _translate(img, m, 1, i, f),
    "Rotate": lambda img, m, i, f: F.rotate(img, m, i, fill=f),
    "Brightness": lambda img, m, i, f: F.adjust_brightness(img, 1.0 + m),
    "Color": lambda img, m, i, f: F.adjust_saturation(img, 1.0 + m),
    "Contrast": lambda img, m, i, f: F.adjust_contrast(img, 1.0 + m),
    "Sharpness": lambda img, m, i, f: F.adjust_sharpness(img, 1.0 + m),
    "Posterize": lambda img, m, i, f: F.posterize(img, int(m)),
    "Solarize": lambda img, m, i, f: F.solarize(img, m),
    "AutoContrast": lambda img, m, i, f: F.autocontrast(img),
    "Equalize": lambda img, m, i, f: F.equalize(img),
    "Invert": lambda img, m, i, f: F.invert(img),
}


def _linspace(start, end, n):
    """Magnitude bins as float32 (torch.linspace's can differ in the last bit, which moves a truncated
    translation by a pixel at some bins, depending on PyTorch's vector width)."""
    return np.linspace(start, end, n, dtype=np.float32)


def _space(num_bins, width, height, wide=False, identity=True, invert=False):
    """[(op name, magnitudes or None, signed)] in torchvision's order."""
    hi = 0.99 if wide else 0.9
    posterize = 8 - np.round(np.arange(num_bins, dtype=np.float32) / np.float32((num_bins - 1) / (6 if wide else 4)))
    space = [("Identity", None, False)] if identity else []
    space += [("ShearX", _linspace(0.0, 0.99 if wide else 0.3, num_bins), True),
              ("ShearY", _linspace(0.0, 0.99 if wide else 0.3, num_bins), True),
              ("TranslateX", _linspace(0.0, 32.0 if wide else 150.0 / 331.0 * width, num_bins), True),
              ("TranslateY", _linspace(0.0, 32.0 if wide else 150.0 / 331.0 * height, num_bins), True),
              ("Rotate", _linspace(0.0, 135.0 if wide else 30.0, num_bins), True)]
    space += [(name, _linspace(0.0, hi, num_bins), True) for name in ("Brightness", "Color", "Contrast", "Sharpness")]
    space += [("Posterize", posterize.astype(np.int32), False), ("Solarize", _linspace(255.0, 0.0, num_bins), False),
              ("AutoContrast", None, False), ("Equalize", None, False)]
    return space + ([("Invert", None, False)] if invert else [])


class AutoAugmentPolicy(enum.Enum):
    """AutoAugment policies learned on different datasets."""

    IMAGENET = "imagenet"
    CIFAR10 = "cifar10"
    SVHN = "svhn"


# each sub-policy: two (op, probability, magnitude bin) steps, "-" for no magnitude (the published policies)
_POLICIES = {
    AutoAugmentPolicy.IMAGENET: """
        Posterize .4 8 Rotate .6 9; Solarize .6 5 AutoContrast .6 -; Equalize .8 - Equalize .6 -;
        Posterize .6 7 Posterize .6 6; Equalize .4 - Solarize .2 4; Equalize .4 - Rotate .8 8;
        Solarize .6 3 Equalize .6 -; Posterize .8 5 Equalize 1 -; Rotate .2 3 Solarize .6 8;
        Equalize .6 - Posterize .4 6; Rotate .8 8 Color .4 0; Rotate .4 9 Equalize .6 -;
        Equalize 0 - Equalize .8 -; Invert .6 - Equalize 1 -; Color .6 4 Contrast 1 8; Rotate .8 8 Color 1 2;
        Color .8 8 Solarize .8 7; Sharpness .4 7 Invert .6 -; ShearX .6 5 Equalize 1 -; Color .4 0 Equalize .6 -;
        Equalize .4 - Solarize .2 4; Solarize .6 5 AutoContrast .6 -; Invert .6 - Equalize 1 -;
        Color .6 4 Contrast 1 8; Equalize .8 - Equalize .6 -""",
    AutoAugmentPolicy.CIFAR10: """
        Invert .1 - Contrast .2 6; Rotate .7 2 TranslateX .3 9; Sharpness .8 1 Sharpness .9 3;
        ShearY .5 8 TranslateY .7 9; AutoContrast .5 - Equalize .9 -; ShearY .2 7 Posterize .3 7;
        Color .4 3 Brightness .6 7; Sharpness .3 9 Brightness .7 9; Equalize .6 - Equalize .5 -;
        Contrast .6 7 Sharpness .6 5; Color .7 7 TranslateX .5 8; Equalize .3 - AutoContrast .4 -;
        TranslateY .4 3 Sharpness .2 6; Brightness .9 6 Color .2 8; Solarize .5 2 Invert 0 -;
        Equalize .2 - AutoContrast .6 -; Equalize .2 - Equalize .6 -; Color .9 9 Equalize .6 -;
        AutoContrast .8 - Solarize .2 8; Brightness .1 3 Color .7 0; Solarize .4 5 AutoContrast .9 -;
        TranslateY .9 9 TranslateY .7 9; AutoContrast .9 - Solarize .8 3; Equalize .8 - Invert .1 -;
        TranslateY .7 9 AutoContrast .9 -""",
    AutoAugmentPolicy.SVHN: """
        ShearX .9 4 Invert .2 -; ShearY .9 8 Invert .7 -; Equalize .6 - Solarize .6 6; Invert .9 - Equalize .6 -;
        Equalize .6 - Rotate .9 3; ShearX .9 4 AutoContrast .8 -; ShearY .9 8 Invert .4 -; ShearY .9 5 Solarize .2 6;
        Invert .9 - AutoContrast .8 -; Equalize .6 - Rotate .9 3; ShearX .9 4 Solarize .3 3; ShearY .8 8 Invert .7 -;
        Equalize .9 - TranslateY .6 6; Invert .9 - Equalize .6 -; Contrast .3 3 Rotate .8 4;
        Invert .8 - TranslateY 0 2; ShearY .7 6 Solarize .4 8; Invert .6 - Rotate .8 4; ShearY .3 7 TranslateX .9 3;
        ShearX .1 6 Invert .6 -; Solarize .7 2 TranslateY .6 7; ShearY .8 4 Invert .8 -; ShearX .7 9 TranslateY .8 3;
        ShearY .8 5 AutoContrast .7 -; ShearX .7 2 Invert .1 -""",
}


def _parse_policy(text):
    subs = []
    for sub in text.split(";"):
        w = sub.split()
        subs.append(tuple((w[k], float(w[k + 1]), None if w[k + 2] == "-" else int(w[k + 2])) for k in (0, 3)))
    return subs


class _PolicyBase(Module):
    def __init__(self, interpolation, fill):
        super().__init__()
        self.interpolation, self.fill = interpolation_mode(interpolation), fill

    def _apply(self, img, name, magnitude):
        return _OPS[name](img, magnitude, self.interpolation, _tensor_fill(self.fill, img))


class AutoAugment(_PolicyBase):
    """One of the policy's 25 sub-policies at random; each of its two steps applied with its probability."""

    def __init__(self, policy=AutoAugmentPolicy.IMAGENET, interpolation=InterpolationMode.NEAREST, fill=None):
        super().__init__(interpolation, fill)
        if policy not in _POLICIES:
            raise ValueError(f"The provided policy {policy} is not recognized.")
        self.policy = policy
        self.policies = _parse_policy(_POLICIES[policy])

    @staticmethod
    def get_params(transform_num):
        """(sub-policy index, two uniform draws, two signs)."""
        return _randint(0, transform_num), creation.rand(2), creation.randint(0, 2, (2,))

    def forward(self, img):
        policy_id, probs, signs = self.get_params(len(self.policies))
        for i, (name, p, bin_id) in enumerate(self.policies[policy_id]):
            if float(probs[i]) <= p:
                width, height = F.get_image_size(img)
                space = {n: (m, s) for n, m, s in _space(10, width, height, identity=False, invert=True)}
                magnitudes, signed = space[name]
                magnitude = float(magnitudes[bin_id]) if bin_id is not None else 0.0
                if signed and int(signs[i]) == 0:
                    magnitude = -magnitude
                img = self._apply(img, name, magnitude)
        return img

    def __repr__(self):
        return f"{self.__class__.__name__}(policy={self.policy}, fill={self.fill})"


class RandAugment(_PolicyBase):
    """``num_ops`` operations drawn uniformly, each at bin ``magnitude`` of ``num_magnitude_bins``."""

    def __init__(self, num_ops=2, magnitude=9, num_magnitude_bins=31, interpolation=InterpolationMode.NEAREST,
                 fill=None):
        super().__init__(interpolation, fill)
        self.num_ops, self.magnitude, self.num_magnitude_bins = num_ops, magnitude, num_magnitude_bins

    def forward(self, img):
        for _ in range(self.num_ops):
            width, height = F.get_image_size(img)
            space = _space(self.num_magnitude_bins, width, height)
            name, magnitudes, signed = space[_randint(0, len(space))]
            magnitude = float(magnitudes[self.magnitude]) if magnitudes is not None else 0.0
            if signed and _randint(0, 2):
                magnitude = -magnitude
            img = self._apply(img, name, magnitude)
        return img

    def __repr__(self):
        return (f"{self.__class__.__name__}(num_ops={self.num_ops}, magnitude={self.magnitude}, "
                f"num_magnitude_bins={self.num_magnitude_bins}, interpolation={self.interpolation}, fill={self.fill})")


class TrivialAugmentWide(_PolicyBase):
    """One operation drawn uniformly at a magnitude drawn uniformly from the wide ranges."""

    def __init__(self, num_magnitude_bins=31, interpolation=InterpolationMode.NEAREST, fill=None):
        super().__init__(interpolation, fill)
        self.num_magnitude_bins = num_magnitude_bins

    def forward(self, img):
        space = _space(self.num_magnitude_bins, 0, 0, wide=True)
        name, magnitudes, signed = space[_randint(0, len(space))]
        magnitude = float(magnitudes[_randint(0, len(magnitudes))]) if magnitudes is not None else 0.0
        if signed and _randint(0, 2):
            magnitude = -magnitude
        return self._apply(img, name, magnitude)

    def __repr__(self):
        return (f"{self.__class__.__name__}(num_magnitude_bins={self.num_magnitude_bins}, "
                f"interpolation={self.interpolation}, fill={self.fill})")
