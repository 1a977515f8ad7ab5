"""Colour adjustments (brightness, contrast, saturation, hue, gamma, sharpness, invert, posterize, solarize,
autocontrast, equalize) for PIL images (Pillow's ImageEnhance / ImageOps, as torchvision) and tensors
(torchvision's formulas, in compat operations: differentiable where torchvision's are)."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageEnhance, ImageOps

from ... import creation, dtypes
from ...ops_elementwise import where
from ...ops_shape import stack
from ...tensor import Tensor
from ._functional_pil import is_pil_image
from ._functional_tensor import _assert_channels, convert_image_dtype, get_dimensions, rgb_to_grayscale

__all__ = ["adjust_brightness", "adjust_contrast", "adjust_saturation", "adjust_hue", "adjust_gamma", "invert",
           "posterize", "solarize", "autocontrast", "adjust_sharpness", "equalize"]


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


def _bound(img):
    return 1.0 if img.is_floating_point() else 255


def _check_image(img):
    if not (isinstance(img, Tensor) or is_pil_image(img)):
        raise TypeError(f"img should be PIL Image or Tensor. Got {type(img)}")


def adjust_gamma(img, gamma, gain=1.0):
    """``gain * img ** gamma`` on values in [0, 1] (integer images are scaled there and back)."""
    _check_image(img)
    if gamma < 0:
        raise ValueError("Gamma should be a non-negative real number")
    if is_pil_image(img):
        table = [int((255 + 1 - 1e-3) * gain * pow(v / 255.0, gamma)) for v in range(256)] * 3
        return img.convert("RGB").point(table).convert(img.mode)
    _assert_channels(img, [1, 3])
    x = img if img.is_floating_point() else convert_image_dtype(img, dtypes.float32)
    return convert_image_dtype((gain * x ** gamma).clamp(0, 1), img.dtype)


def invert(img):
    """``max - img`` (1.0 for floats, 255 for uint8)."""
    _check_image(img)
    if is_pil_image(img):
        return ImageOps.invert(img)
    _assert_channels(img, [1, 3])
    return _bound(img) - img


def posterize(img, bits):
    """Keep the ``bits`` highest bits of each uint8 value."""
    _check_image(img)
    if not 0 <= bits <= 8:
        raise ValueError(f"The number if bits should be between 0 and 8. Got {bits}")
    if is_pil_image(img):
        return ImageOps.posterize(img, bits)
    if img.dtype != dtypes.uint8:
        raise TypeError(f"Only torch.uint8 image tensors are supported, but found {img.dtype}")
    _assert_channels(img, [1, 3])
    return img & (-int(2 ** (8 - bits)) % 256)


def solarize(img, threshold):
    """Invert the values at or above ``threshold``."""
    _check_image(img)
    if is_pil_image(img):
        return ImageOps.solarize(img, threshold)
    _assert_channels(img, [1, 3])
    if threshold > _bound(img):
        raise TypeError("Threshold should be less than bound of img.")
    return where(img >= threshold, invert(img), img)


def autocontrast(img):
    """Stretch each channel's values to the full range (a constant channel is left as it is)."""
    _check_image(img)
    if is_pil_image(img):
        return ImageOps.autocontrast(img)
    _assert_channels(img, [1, 3])
    bound = float(_bound(img))
    dtype = img.dtype if img.is_floating_point() else dtypes.float32
    lo = img.amin(dim=(-2, -1), keepdim=True).to(dtype)
    hi = img.amax(dim=(-2, -1), keepdim=True).to(dtype)
    flat = hi == lo
    scale = bound / where(flat, creation.ones_like(hi), hi - lo)
    lo = where(flat, creation.zeros_like(lo), lo)
    scale = where(flat, creation.ones_like(scale), scale)
    return ((img - lo) * scale).clamp(0, bound).to(img.dtype)


def adjust_sharpness(img, sharpness_factor):
    """Blend with a smoothed copy (3 x 3 kernel [1 1 1; 1 5 1; 1 1 1] / 13, borders kept): 0 smooths,
    1 keeps, 2 sharpens."""
    _check(img, sharpness_factor, "sharpness_factor")
    if is_pil_image(img):
        return ImageEnhance.Sharpness(img).enhance(sharpness_factor)
    _assert_channels(img, [1, 3])
    if img.shape[-1] <= 2 or img.shape[-2] <= 2:
        return img
    x = img.to(dtypes.float32) if not img.is_floating_point() else img
    h, w = img.shape[-2], img.shape[-1]
    total = None
    for dy in range(3):
        for dx in range(3):
            term = x[..., dy:dy + h - 2, dx:dx + w - 2] * (5.0 if (dy, dx) == (1, 1) else 1.0)
            total = term if total is None else total + term
    smooth = total / 13.0
    if not img.is_floating_point():
        smooth = smooth.round()
    degenerate = img.to(smooth.dtype).clone()
    degenerate[..., 1:-1, 1:-1] = smooth
    return _blend(img, degenerate.to(img.dtype), sharpness_factor)


def equalize(img):
    """Histogram equalization of each channel of a uint8 image (Pillow's ImageOps.equalize for PIL
    images, torchvision's per-channel lookup table for tensors)."""
    _check_image(img)
    if is_pil_image(img):
        return ImageOps.equalize(img)
    if img.dtype != dtypes.uint8:
        raise TypeError(f"Only torch.uint8 image tensors are supported, but found {img.dtype}")
    _assert_channels(img, [1, 3])
    a = img.detach().cpu().numpy()
    flat = a.reshape(-1, a.shape[-2] * a.shape[-1])
    out = np.empty_like(flat)
    for i, ch in enumerate(flat):
        hist = np.bincount(ch, minlength=256)
        nonzero = hist[hist != 0]
        step = (nonzero[:-1].sum() // 255) if nonzero.size else 0
        if step == 0:
            out[i] = ch
            continue
        lut = np.clip((np.cumsum(hist) + step // 2) // step, 0, 255)
        lut = np.concatenate([[0], lut[:-1]]).astype(np.uint8)
        out[i] = lut[ch]
    return creation.tensor(out.reshape(a.shape), device=img.device)
