"""Rotation and affine warps: Pillow's ``rotate`` / ``transform`` for PIL images; for tensors torchvision's
inverse-matrix grid with ``grid_sample(align_corners=False)`` semantics (nearest or bilinear, zeros
outside, then ``fill``), written as gathers of compat tensors, so it is differentiable."""

from __future__ import annotations

import math
import numbers

import numpy as np
from PIL import Image

from ... import creation, dtypes
from ...ops_elementwise import where
from ._functional_pil import is_pil_image, parse_fill

__all__ = ["inverse_affine_matrix", "rotate", "affine"]


def inverse_affine_matrix(center, angle, translate, scale, shear):
    """torchvision's ``_get_inverse_affine_matrix``: output pixel -> input pixel, as 6 numbers."""
    rot, sx, sy = math.radians(angle), math.radians(shear[0]), math.radians(shear[1])
    cx, cy = center
    tx, ty = translate
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    m = [x / scale for x in (d, -b, 0.0, -c, a, 0.0)]
    m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty) + cx
    m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty) + cy
    return m


def _expanded_size(m, w, h):
    """The (w, h) that holds the whole warped image (torchvision's ``_compute_affine_output_size``)."""
    pts = np.array([[-0.5 * w, -0.5 * h, 1.0], [-0.5 * w, 0.5 * h, 1.0], [0.5 * w, 0.5 * h, 1.0],
                    [0.5 * w, -0.5 * h, 1.0]], np.float32)
    new = pts @ np.array(m, np.float32).reshape(2, 3).T
    halfs = np.array([w * 0.5, h * 0.5], np.float32)
    lo, hi = new.min(axis=0) + halfs, new.max(axis=0) + halfs
    tol = np.float32(1e-4)
    size = np.ceil(np.trunc(hi / tol) * tol) - np.floor(np.trunc(lo / tol) * tol)
    return int(size[0]), int(size[1])


def _taps(m, w, h, ow, oh, mode):
    """Flat input indices and weights (one pair per tap) of each output pixel; taps outside weigh 0."""
    # in float32 and in torchvision's order of operations, so nearest rounds ties as it does
    f32 = np.float32
    bx, by = np.meshgrid(np.linspace(-ow * 0.5 + 0.5, ow * 0.5 - 0.5, ow, dtype=f32),
                         np.linspace(-oh * 0.5 + 0.5, oh * 0.5 - 0.5, oh, dtype=f32))
    theta = np.array(m, f32).reshape(2, 3).T / np.array([0.5 * w, 0.5 * h], f32)  # 3 x 2, normalized
    gx = bx * theta[0, 0] + by * theta[1, 0] + theta[2, 0]
    gy = bx * theta[0, 1] + by * theta[1, 1] + theta[2, 1]
    ix = ((gx + f32(1)) * f32(w) - f32(1)) / f32(2)  # grid_sample's unnormalization (align_corners=False)
    iy = ((gy + f32(1)) * f32(h) - f32(1)) / f32(2)
    if mode == "nearest":
        taps = [(np.rint(ix), np.rint(iy), np.ones_like(ix))]
    else:
        x0, y0 = np.floor(ix), np.floor(iy)
        fx, fy = ix - x0, iy - y0
        taps = [(x0, y0, (1 - fx) * (1 - fy)), (x0 + 1, y0, fx * (1 - fy)), (x0, y0 + 1, (1 - fx) * fy),
                (x0 + 1, y0 + 1, fx * fy)]
    out = []
    for x, y, weight in taps:
        inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
        out.append((np.where(inside, y * w + x, 0).astype(np.int64).ravel(), np.where(inside, weight, 0.0).ravel()))
    return out


def _warp_tensor(img, m, mode, fill, out_wh=None):
    if mode not in ("nearest", "bilinear"):
        raise ValueError(f"Interpolation mode '{mode}' is unsupported with Tensor input; use nearest or bilinear")
    h, w = int(img.shape[-2]), int(img.shape[-1])
    ow, oh = out_wh or (w, h)
    cast = not img.is_floating_point()
    x = img.to(dtypes.float32) if cast else img
    flat = x.reshape(*x.shape[:-2], h * w)
    out, mask = None, 0.0
    for idx, weight in _taps(m, w, h, ow, oh, mode):
        wt = creation.tensor(weight.astype(x.dtype.dtype), device=x.device)
        term = flat.index_select(-1, creation.tensor(idx, device=x.device)) * wt
        out, mask = (term if out is None else out + term), mask + weight
    out = out.reshape(*x.shape[:-2], oh, ow)
    if fill is not None:
        fills = list(fill) if isinstance(fill, (list, tuple)) else [float(fill)]
        fill_t = creation.tensor(np.array(fills, x.dtype.dtype).reshape(-1, 1, 1), device=x.device)
        mask_t = creation.tensor(mask.reshape(oh, ow).astype(x.dtype.dtype), device=x.device)
        out = where(mask_t < 0.5, fill_t, out) if mode == "nearest" else out * mask_t + (1.0 - mask_t) * fill_t
    return out.round().to(img.dtype) if cast else out


def rotate(img, angle, interpolation, expand=False, center=None, fill=None):
    """Counter-clockwise by ``angle`` degrees about ``center`` (default: the image centre)."""
    if not isinstance(angle, (int, float)):
        raise TypeError("Argument angle should be int or float")
    if center is not None and not isinstance(center, (list, tuple)):
        raise TypeError("Argument center should be a sequence")
    if is_pil_image(img):
        from .functional import PIL_MODES  # noqa: PLC0415

        return img.rotate(angle, PIL_MODES[interpolation], expand, center, **parse_fill(fill, img))
    h, w = int(img.shape[-2]), int(img.shape[-1])
    center_f = [0.0, 0.0] if center is None else [1.0 * (c - s * 0.5) for c, s in zip(center, (w, h))]
    m = inverse_affine_matrix(center_f, -angle, [0.0, 0.0], 1.0, [0.0, 0.0])
    return _warp_tensor(img, m, interpolation.value, fill, _expanded_size(m, w, h) if expand else None)


def affine(img, angle, translate, scale, shear, interpolation, fill=None, center=None):
    """Rotate by ``angle``, shift by ``translate`` pixels, scale and shear (degrees) about ``center``."""
    if not isinstance(angle, (int, float)):
        raise TypeError("Argument angle should be int or float")
    if not isinstance(translate, (list, tuple)) or len(translate) != 2:
        raise ValueError("Argument translate should be a sequence of length 2")
    if scale <= 0.0:
        raise ValueError("Argument scale should be positive")
    if isinstance(shear, numbers.Number):
        shear = [shear, 0.0]
    shear = list(shear)
    if len(shear) == 1:
        shear = [shear[0], shear[0]]
    if len(shear) != 2:
        raise ValueError(f"Shear should be a sequence containing two values. Got {shear}")
    if center is not None and not isinstance(center, (list, tuple)):
        raise TypeError("Argument center should be a sequence")
    if is_pil_image(img):
        from .functional import PIL_MODES  # noqa: PLC0415

        width, height = img.size
        m = inverse_affine_matrix(center or [width * 0.5, height * 0.5], angle, translate, scale, shear)
        return img.transform(img.size, Image.Transform.AFFINE, m, PIL_MODES[interpolation], **parse_fill(fill, img))
    h, w = int(img.shape[-2]), int(img.shape[-1])
    center_f = [0.0, 0.0] if center is None else [1.0 * (c - s * 0.5) for c, s in zip(center, (w, h))]
    m = inverse_affine_matrix(center_f, angle, [1.0 * t for t in translate], scale, shear)
    return _warp_tensor(img, m, interpolation.value, fill)
