"""Random photometric transforms applied with probability ``p`` (a draw of ``torch.rand(1)``, as
torchvision): RandomInvert, RandomPosterize, RandomSolarize, RandomAdjustSharpness, RandomAutocontrast,
RandomEqualize."""

from __future__ import annotations

from ...nn.module import Module
from . import functional as F
from .transforms import _rand

__all__ = ["RandomInvert", "RandomPosterize", "RandomSolarize", "RandomAdjustSharpness", "RandomAutocontrast",
           "RandomEqualize"]


class _RandomApplied(Module):
    """``fn(img, *args)`` with probability ``p``; ``_args`` names the arguments (shown in the repr)."""

    _args = ()

    def __init__(self, *args, p=0.5):
        super().__init__()
        for name, value in zip(self._args, args):
            setattr(self, name, value)
        self.p = p

    def _apply_to(self, img):
        raise NotImplementedError

    def forward(self, img):
        return self._apply_to(img) if _rand() < self.p else img

    def __repr__(self):
        return f"{self.__class__.__name__}(" + "".join(f"{a}={getattr(self, a)}," for a in self._args) + f"p={self.p})"


class RandomInvert(_RandomApplied):
    def __init__(self, p=0.5):
        super().__init__(p=p)

    def _apply_to(self, img):
        return F.invert(img)


class RandomPosterize(_RandomApplied):
    _args = ("bits",)

    def __init__(self, bits, p=0.5):
        super().__init__(bits, p=p)

    def _apply_to(self, img):
        return F.posterize(img, self.bits)


class RandomSolarize(_RandomApplied):
    _args = ("threshold",)

    def __init__(self, threshold, p=0.5):
        super().__init__(threshold, p=p)

    def _apply_to(self, img):
        return F.solarize(img, self.threshold)


class RandomAdjustSharpness(_RandomApplied):
    _args = ("sharpness_factor",)

    def __init__(self, sharpness_factor, p=0.5):
        super().__init__(sharpness_factor, p=p)

    def _apply_to(self, img):
        return F.adjust_sharpness(img, self.sharpness_factor)


class RandomAutocontrast(_RandomApplied):
    def __init__(self, p=0.5):
        super().__init__(p=p)

    def _apply_to(self, img):
        return F.autocontrast(img)


class RandomEqualize(_RandomApplied):
    def __init__(self, p=0.5):
        super().__init__(p=p)

    def _apply_to(self, img):
        return F.equalize(img)
