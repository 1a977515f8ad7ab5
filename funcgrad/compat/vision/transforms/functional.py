"""``torchvision.transforms.functional``: each function takes a PIL image or a compat Tensor image.

PIL images go through Pillow (``_functional_pil``), tensors through compat tensor
operations (``_functional_tensor``), as in torchvision.
"""

from __future__ import annotations

import enum
import numbers
import sys
import warnings

import numpy as np
from PIL import Image

from ... import creation, dtypes
from ...tensor import Tensor
from . import _functional_geometry as _geometry
from . import _functional_pil as F_pil
from . import _functional_tensor as F_t
from ._functional_color import (  # noqa: F401
    adjust_brightness, adjust_contrast, adjust_gamma, adjust_hue, adjust_saturation, adjust_sharpness, autocontrast,
    equalize, invert, posterize, solarize,
)
from ._functional_tensor import convert_image_dtype, normalize  # noqa: F401

__all__ = [
    "InterpolationMode", "to_tensor", "pil_to_tensor", "to_pil_image", "normalize", "resize", "crop", "center_crop",
    "resized_crop", "pad", "hflip", "vflip", "rgb_to_grayscale", "to_grayscale", "convert_image_dtype",
    "get_dimensions", "get_image_size", "get_image_num_channels", "adjust_brightness", "adjust_contrast",
    "adjust_saturation", "adjust_hue", "rotate", "affine", "erase", "gaussian_blur", "five_crop", "ten_crop",
    "adjust_gamma", "adjust_sharpness", "invert", "posterize", "solarize", "autocontrast", "equalize",
]


class InterpolationMode(enum.Enum):
    NEAREST = "nearest"
    NEAREST_EXACT = "nearest-exact"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"
    BOX = "box"
    HAMMING = "hamming"
    LANCZOS = "lanczos"


PIL_MODES = {
    InterpolationMode.NEAREST: Image.Resampling.NEAREST, InterpolationMode.NEAREST_EXACT: Image.Resampling.NEAREST,
    InterpolationMode.BILINEAR: Image.Resampling.BILINEAR, InterpolationMode.BICUBIC: Image.Resampling.BICUBIC,
    InterpolationMode.BOX: Image.Resampling.BOX, InterpolationMode.HAMMING: Image.Resampling.HAMMING,
    InterpolationMode.LANCZOS: Image.Resampling.LANCZOS,
}
_FROM_INT = {0: InterpolationMode.NEAREST, 2: InterpolationMode.BILINEAR, 3: InterpolationMode.BICUBIC,
             4: InterpolationMode.BOX, 5: InterpolationMode.HAMMING, 1: InterpolationMode.LANCZOS}


def interpolation_mode(interpolation):
    """An InterpolationMode, its string value or a Pillow integer constant -> InterpolationMode."""
    if isinstance(interpolation, InterpolationMode):
        return interpolation
    if isinstance(interpolation, str):
        return InterpolationMode(interpolation)
    if isinstance(interpolation, numbers.Integral) and int(interpolation) in _FROM_INT:
        return _FROM_INT[int(interpolation)]
    raise TypeError("Argument interpolation should be a InterpolationMode or a corresponding Pillow integer "
                    f"constant, got {interpolation!r}")


def _check_image(img):
    if not (isinstance(img, Tensor) or F_pil.is_pil_image(img)):
        raise TypeError(f"img should be PIL Image or Tensor. Got {type(img)}")


def _impl(img):
    _check_image(img)
    return F_t if isinstance(img, Tensor) else F_pil


def get_dimensions(img):
    """[channels, height, width]."""
    return _impl(img).get_dimensions(img)


def get_image_size(img):
    """[width, height]."""
    _, h, w = get_dimensions(img)
    return [w, h]


def get_image_num_channels(img):
    return get_dimensions(img)[0]


def _default_float():
    return dtypes.get_default_dtype().dtype


def to_tensor(pic):
    """PIL image or H x W (x C) numpy array -> C x H x W tensor; uint8 data becomes the default float
    dtype divided by 255, other dtypes keep their values (as torchvision)."""
    if not (F_pil.is_pil_image(pic) or isinstance(pic, np.ndarray)):
        raise TypeError(f"pic should be PIL Image or ndarray. Got {type(pic)}")
    if isinstance(pic, np.ndarray):
        if pic.ndim not in (2, 3):
            raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
        arr = pic[:, :, None] if pic.ndim == 2 else pic
    else:
        nptype = {"I": np.int32, "I;16" if sys.byteorder == "little" else "I;16B": np.int16, "F": np.float32}
        arr = np.array(pic, nptype.get(pic.mode, np.uint8), copy=True)
        if pic.mode == "1":
            arr = 255 * arr
        arr = arr.reshape(pic.size[1], pic.size[0], F_pil.get_image_num_channels(pic))
    chw = np.ascontiguousarray(arr.transpose(2, 0, 1))
    if chw.dtype == np.uint8:
        dt = _default_float()
        return creation.from_numpy(chw.astype(dt) / dt.type(255))
    return creation.from_numpy(chw)  # shares memory with a contiguous input, as torchvision


def pil_to_tensor(pic):
    """PIL image -> C x H x W tensor of its own dtype (uint8 for 8-bit modes), values unchanged."""
    if not F_pil.is_pil_image(pic):
        raise TypeError(f"pic should be PIL Image. Got {type(pic)}")
    arr = np.array(pic, copy=True)  # a 16-bit (I;16) image gives a uint16 tensor, as torchvision's
    arr = arr.reshape(pic.size[1], pic.size[0], F_pil.get_image_num_channels(pic))
    return creation.from_numpy(np.ascontiguousarray(arr.transpose(2, 0, 1)))


_MODES_3 = ("RGB", "YCbCr", "HSV")
_MODES_4 = ("RGBA", "CMYK", "RGBX")


def _from_array(npimg, mode):
    """``Image.fromarray`` with an explicit mode: through ``frombytes`` when numpy's inferred mode differs."""
    npimg = np.ascontiguousarray(npimg)
    img = Image.fromarray(npimg)
    if img.mode == mode:
        return img
    return Image.frombytes(mode, (npimg.shape[1], npimg.shape[0]), npimg.tobytes())


def to_pil_image(pic, mode=None):
    """C x H x W tensor or H x W x C numpy array -> PIL image; float tensors are scaled by 255 (truncated)
    unless ``mode='F'``."""
    if isinstance(pic, Tensor):
        if pic.dim() not in (2, 3):
            raise ValueError(f"pic should be 2/3 dimensional. Got {pic.dim()} dimensions.")
        if pic.dim() == 2:
            pic = pic.unsqueeze(0)
        if pic.shape[-3] > 4:
            raise ValueError(f"pic should not have > 4 channels. Got {pic.shape[-3]} channels.")
        if pic.is_floating_point() and mode != "F":
            pic = pic.mul(255).byte()
        npimg = np.transpose(pic.detach().cpu().numpy(), (1, 2, 0))
    elif isinstance(pic, np.ndarray):
        if pic.ndim not in (2, 3):
            raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
        npimg = pic[:, :, None] if pic.ndim == 2 else pic
        if npimg.shape[-1] > 4:
            raise ValueError(f"pic should not have > 4 channels. Got {npimg.shape[-1]} channels.")
    else:
        raise TypeError(f"pic should be Tensor or ndarray. Got {type(pic)}.")
    channels = npimg.shape[2]
    if channels == 1:
        npimg = npimg[:, :, 0]
        expected = {np.dtype(np.uint8): "L", np.dtype(np.int16): "I;16" if sys.byteorder == "little" else "I;16B",
                    np.dtype(np.int32): "I", np.dtype(np.float32): "F"}.get(npimg.dtype)
        if mode is not None and mode != expected:
            raise ValueError(f"Incorrect mode ({mode}) supplied for input type {npimg.dtype}. Should be {expected}")
        mode = expected
    else:
        permitted = {2: ("LA",), 3: _MODES_3, 4: _MODES_4}[channels]
        if mode is not None and mode not in permitted:
            raise ValueError(f"Only modes {list(permitted)} are supported for {channels}D inputs")
        if mode is None and npimg.dtype == np.uint8:
            mode = permitted[0]
    if mode is None:
        raise TypeError(f"Input type {npimg.dtype} is not supported")
    if mode.startswith("I;16"):
        return Image.frombytes(mode, (npimg.shape[1], npimg.shape[0]), np.ascontiguousarray(npimg).tobytes())
    return _from_array(npimg, mode)


def hflip(img):
    return _impl(img).hflip(img)


def vflip(img):
    return _impl(img).vflip(img)


def crop(img, top, left, height, width):
    """The ``height x width`` window at (top, left); outside the image is zero."""
    return _impl(img).crop(img, int(top), int(left), int(height), int(width))


def pad(img, padding, fill=0, padding_mode="constant"):
    """``padding``: int, or (left/right, top/bottom), or (left, top, right, bottom); negative values crop.
    ``padding_mode``: constant (``fill``), edge, reflect or symmetric."""
    return _impl(img).pad(img, padding, fill, padding_mode)


def _size_list(size):
    if isinstance(size, numbers.Number):
        return [int(size)]
    if isinstance(size, (list, tuple)):
        if len(size) not in (1, 2):
            raise ValueError(f"Size must be an int or a 1 or 2 element tuple/list, not a {len(size)} element "
                             "tuple/list")
        return [int(s) for s in size]
    raise TypeError(f"Size should be int or sequence. Got {type(size)}")


def resize(img, size, interpolation=InterpolationMode.BILINEAR, max_size=None, antialias=True):
    """``size``: int (the smaller edge, keeping the aspect ratio) or (h, w). PIL images are resized by
    Pillow (always antialiased); tensors with PyTorch's interpolation (``antialias`` as torchvision)."""
    interpolation = interpolation_mode(interpolation)
    size = _size_list(size)
    if max_size is not None and len(size) != 1:
        raise ValueError("max_size should only be passed if size specifies the length of the smaller edge, "
                         "i.e. size should be an int or a sequence of length 1 in torchscript mode.")
    _, h, w = get_dimensions(img)
    out = F_t.resized_output_size((h, w), size, max_size)
    if out == [h, w]:
        return img
    if not isinstance(img, Tensor):
        if antialias is False:
            warnings.warn("Anti-alias option is always applied for PIL Image input. Argument antialias is ignored.",
                          stacklevel=2)
        return F_pil.resize(img, out, PIL_MODES[interpolation])
    return F_t.resize(img, out, interpolation.value, antialias=bool(antialias))


def center_crop(img, output_size):
    """The central ``output_size`` window; a larger window pads with zeros around the image."""
    if isinstance(output_size, numbers.Number):
        output_size = (int(output_size), int(output_size))
    elif isinstance(output_size, (tuple, list)) and len(output_size) == 1:
        output_size = (output_size[0], output_size[0])
    _, image_height, image_width = get_dimensions(img)
    crop_height, crop_width = output_size
    if crop_width > image_width or crop_height > image_height:
        padding_ltrb = [
            (crop_width - image_width) // 2 if crop_width > image_width else 0,
            (crop_height - image_height) // 2 if crop_height > image_height else 0,
            (crop_width - image_width + 1) // 2 if crop_width > image_width else 0,
            (crop_height - image_height + 1) // 2 if crop_height > image_height else 0,
        ]
        img = pad(img, padding_ltrb, fill=0)
        _, image_height, image_width = get_dimensions(img)
        if crop_width == image_width and crop_height == image_height:
            return img
    crop_top = int(round((image_height - crop_height) / 2.0))
    crop_left = int(round((image_width - crop_width) / 2.0))
    return crop(img, crop_top, crop_left, crop_height, crop_width)


def resized_crop(img, top, left, height, width, size, interpolation=InterpolationMode.BILINEAR, antialias=True):
    """``crop`` then ``resize`` to ``size``."""
    img = crop(img, top, left, height, width)
    return resize(img, size, interpolation, antialias=antialias)


def to_grayscale(img, num_output_channels=1):
    """PIL images only (torchvision's older name); ``rgb_to_grayscale`` takes both."""
    if not F_pil.is_pil_image(img):
        raise TypeError(f"Input should be PIL Image. Got {type(img)}")
    return F_pil.to_grayscale(img, num_output_channels)


def rgb_to_grayscale(img, num_output_channels=1):
    """Luma (ITU-R 601-2) of an RGB image: Pillow's ``convert('L')`` for PIL images, 0.2989 R + 0.587 G
    + 0.114 B for tensors; ``num_output_channels`` 1 or 3."""
    if F_pil.is_pil_image(img):
        return F_pil.to_grayscale(img, num_output_channels)
    return F_t.rgb_to_grayscale(img, num_output_channels)


def rotate(img, angle, interpolation=InterpolationMode.NEAREST, expand=False, center=None, fill=None):
    """Counter-clockwise by ``angle`` degrees about ``center`` (pixels; default the centre); ``expand``
    enlarges the output to hold the whole image; ``fill`` the area that came from outside."""
    _check_image(img)
    return _geometry.rotate(img, angle, interpolation_mode(interpolation), expand, center, fill)


def affine(img, angle, translate, scale, shear, interpolation=InterpolationMode.NEAREST, fill=None, center=None):
    """Rotation (degrees), translation (pixels), scale and shear (degrees) about ``center``."""
    _check_image(img)
    return _geometry.affine(img, angle, translate, scale, shear, interpolation_mode(interpolation), fill, center)


def erase(img, i, j, h, w, v, inplace=False):
    """Tensor image with the ``h x w`` window at (i, j) set to ``v``."""
    if not isinstance(img, Tensor):
        raise TypeError(f"img should be Tensor Image. Got {type(img)}")
    if not inplace:
        img = img.clone()
    img[..., i:i + h, j:j + w] = v
    return img


def gaussian_blur(img, kernel_size, sigma=None):
    """Gaussian blur with reflect padding; ``kernel_size`` odd (int or [kx, ky]), ``sigma`` float or [sx, sy]
    (default ``0.15 * k + 0.35``). PIL images are blurred as uint8 tensors, as torchvision does."""
    if not isinstance(kernel_size, (int, list, tuple)):
        raise TypeError(f"kernel_size should be int or a sequence of integers. Got {type(kernel_size)}")
    kernel_size = [kernel_size, kernel_size] if isinstance(kernel_size, int) else list(kernel_size)
    if len(kernel_size) != 2:
        raise ValueError(f"If kernel_size is a sequence its length should be 2. Got {len(kernel_size)}")
    if any(k % 2 == 0 or k < 0 for k in kernel_size):
        raise ValueError(f"kernel_size should have odd and positive integers. Got {kernel_size}")
    if sigma is None:
        sigma = [k * 0.15 + 0.35 for k in kernel_size]
    if not isinstance(sigma, (int, float, list, tuple)):
        raise TypeError(f"sigma should be either float or sequence of floats. Got {type(sigma)}")
    sigma = [float(sigma)] * 2 if isinstance(sigma, (int, float)) else [float(s) for s in sigma]
    if len(sigma) == 1:
        sigma = sigma * 2
    if len(sigma) != 2:
        raise ValueError(f"If sigma is a sequence, its length should be 2. Got {len(sigma)}")
    if any(s <= 0.0 for s in sigma):
        raise ValueError(f"sigma should have positive values. Got {sigma}")
    _check_image(img)
    if isinstance(img, Tensor):
        return F_t.gaussian_blur(img, kernel_size, sigma)
    return to_pil_image(F_t.gaussian_blur(pil_to_tensor(img), kernel_size, sigma), mode=img.mode)


def five_crop(img, size):
    """The four corner crops and the central crop, in that order (top-left, top-right, bottom-left,
    bottom-right, centre)."""
    if isinstance(size, numbers.Number):
        size = (int(size), int(size))
    elif isinstance(size, (tuple, list)) and len(size) == 1:
        size = (size[0], size[0])
    if len(size) != 2:
        raise ValueError("Please provide only two dimensions (h, w) for size.")
    _, image_height, image_width = get_dimensions(img)
    crop_height, crop_width = size
    if crop_width > image_width or crop_height > image_height:
        raise ValueError(f"Requested crop size {size} is bigger than input size {(image_height, image_width)}")
    bottom, right = image_height - crop_height, image_width - crop_width
    return (crop(img, 0, 0, crop_height, crop_width), crop(img, 0, right, crop_height, crop_width),
            crop(img, bottom, 0, crop_height, crop_width), crop(img, bottom, right, crop_height, crop_width),
            center_crop(img, [crop_height, crop_width]))


def ten_crop(img, size, vertical_flip=False):
    """``five_crop`` of the image, then of its horizontal (or vertical) flip."""
    return five_crop(img, size) + five_crop(vflip(img) if vertical_flip else hflip(img), size)
