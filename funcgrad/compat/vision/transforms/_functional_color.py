"""Colour adjustments (brightness, contrast, saturation, hue) for PIL images (Pillow's ImageEnhance, as
torchvision) and tensors (torchvision's blend and HSV formulas, in compat operations: differentiable)."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageEnhance

from ... import creation, dtypes
from ...ops_elementwise import where
from ...ops_shape import stack
from ...tensor import Tensor
from ._functional_pil import is_pil_image
from ._functional_tensor import _assert_channels, convert_image_dtype, get_dimensions, rgb_to_grayscale

__all__ = ["adjust_brightness", "adjust_contrast", "adjust_saturation", "adjust_hue"]


def _check(img, factor, name):
    if not (isinstance(img, Tensor) or is_pil_image(img)):
        raise TypeError(f"img should be PIL Image or Tensor. Got {type(img)}")
    if factor < 0:
        raise ValueError(f"{name} ({factor}) is not non-negative.")


def _blend(img1, img2, ratio):
    bound = 1.0 if img1.is_floating_point() else 255.0
    return (float(ratio) * img1 + (1.0 - float(ratio)) * img2).clamp(0, bound).to(img1.dtype)


def adjust_brightness(img, brightness_factor):
    """Multiply by ``brightness_factor`` (0 gives black, 1 the image), clamped to the value range."""
    _check(img, brightness_factor, "brightness_factor")
    if is_pil_image(img):
        return ImageEnhance.Brightness(img).enhance(brightness_factor)
    _assert_channels(img, [1, 3])
    return _blend(img, img.new_zeros(()).expand(img.shape), brightness_factor)


def adjust_contrast(img, contrast_factor):
    """Blend with the mean grey level (0 gives a uniform grey image, 1 the image)."""
    _check(img, contrast_factor, "contrast_factor")
    if is_pil_image(img):
        return ImageEnhance.Contrast(img).enhance(contrast_factor)
    _assert_channels(img, [3, 1])
    dtype = img.dtype if img.is_floating_point() else dtypes.float32
    gray = rgb_to_grayscale(img) if get_dimensions(img)[0] == 3 else img
    return _blend(img, gray.to(dtype).mean(dim=(-3, -2, -1), keepdim=True), contrast_factor)


def adjust_saturation(img, saturation_factor):
    """Blend with the grey version (0 gives grey, 1 the image, 2 doubles the saturation)."""
    _check(img, saturation_factor, "saturation_factor")
    if is_pil_image(img):
        return ImageEnhance.Color(img).enhance(saturation_factor)
    _assert_channels(img, [1, 3])
    if get_dimensions(img)[0] == 1:
        return img
    return _blend(img, rgb_to_grayscale(img), saturation_factor)


def _rgb2hsv(img):
    r, g, b = img.unbind(dim=-3)
    maxc, minc = img.max(dim=-3).values, img.min(dim=-3).values
    eqc = maxc == minc
    cr = maxc - minc
    ones = creation.ones_like(maxc)
    s = cr / where(eqc, ones, maxc)
    cr_divisor = where(eqc, ones, cr)
    rc, gc, bc = (maxc - r) / cr_divisor, (maxc - g) / cr_divisor, (maxc - b) / cr_divisor
    hr = (maxc == r) * (bc - gc)
    hg = ((maxc == g) & (maxc != r)) * (2.0 + rc - bc)
    hb = ((maxc != g) & (maxc != r)) * (4.0 + gc - rc)
    h = ((hr + hg + hb) / 6.0 + 1.0).fmod(1.0)
    return h, s, maxc


def _hsv2rgb(h, s, v):
    i = (h * 6.0).floor()
    f = h * 6.0 - i
    i = i.to(dtypes.int32) % 6
    p = (v * (1.0 - s)).clamp(0.0, 1.0)
    q = (v * (1.0 - s * f)).clamp(0.0, 1.0)
    t = (v * (1.0 - s * (1.0 - f))).clamp(0.0, 1.0)
    sectors = creation.tensor(np.arange(6).reshape(6, *([1] * h.dim())), device=h.device)
    mask = (i.unsqueeze(0) == sectors).to(h.dtype)  # 6 x ... : which of the six hue sectors
    channels = ((v, q, p, p, t, v), (t, v, v, q, p, p), (p, p, t, v, v, q))
    return stack([(mask * stack(list(c), dim=0)).sum(dim=0) for c in channels], dim=-3)


def adjust_hue(img, hue_factor):
    """Rotate the hue by ``hue_factor`` turns (in [-0.5, 0.5]); grey images are unchanged."""
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor ({hue_factor}) is not in [-0.5, 0.5].")
    if is_pil_image(img):
        if img.mode in ("L", "1", "I", "F"):
            return img
        mode = img.mode
        h, s, v = img.convert("HSV").split()
        np_h = np.array(h, dtype=np.uint8)
        np_h += np.int32(hue_factor * 255).astype(np.uint8)  # wraps around, as intended
        return Image.merge("HSV", (Image.fromarray(np_h), s, v)).convert(mode)
    if not isinstance(img, Tensor):
        raise TypeError(f"img should be PIL Image or Tensor. Got {type(img)}")
    _assert_channels(img, [1, 3])
    if get_dimensions(img)[0] == 1:
        return img
    orig = img.dtype
    h, s, v = _rgb2hsv(convert_image_dtype(img, dtypes.float32))
    return convert_image_dtype(_hsv2rgb((h + hue_factor) % 1.0, s, v), orig)
