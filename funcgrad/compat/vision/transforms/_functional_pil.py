"""The PIL-image side of ``transforms.functional`` (torchvision's ``_functional_pil``): Pillow does the work."""

from __future__ import annotations

import numbers

import numpy as np
from PIL import Image, ImageOps

PAD_MODES = ("constant", "edge", "reflect", "symmetric")


def is_pil_image(img):
    return isinstance(img, Image.Image)


def _assert_image(img):
    if not is_pil_image(img):
        raise TypeError(f"img should be PIL Image. Got {type(img)}")


def get_image_num_channels(img):
    _assert_image(img)
    return len(img.getbands())


def get_dimensions(img):
    """[channels, height, width]."""
    _assert_image(img)
    width, height = img.size
    return [get_image_num_channels(img), height, width]


def hflip(img):
    _assert_image(img)
    return img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)


def vflip(img):
    _assert_image(img)
    return img.transpose(Image.Transpose.FLIP_TOP_BOTTOM)


def crop(img, top, left, height, width):
    """Pillow fills the area outside the image with zeros, as torchvision relies on."""
    _assert_image(img)
    return img.crop((left, top, left + width, top + height))


def resize(img, size, interpolation):
    """``size`` is ``[h, w]``; ``interpolation`` a Pillow resampling constant."""
    _assert_image(img)
    if not (isinstance(size, (list, tuple)) and len(size) == 2):
        raise TypeError(f"Got inappropriate size arg: {size}")
    return img.resize(tuple(int(s) for s in size[::-1]), interpolation)


def parse_fill(fill, img, name="fillcolor"):
    """torchvision's ``_parse_fill``: a number or per-channel sequence -> Pillow's fill argument."""
    num_channels = get_image_num_channels(img)
    if fill is None:
        fill = 0
    if isinstance(fill, (int, float)) and num_channels > 1:
        fill = tuple([fill] * num_channels)
    if isinstance(fill, (list, tuple)):
        if len(fill) == 1:
            fill = tuple(fill) * num_channels
        elif len(fill) != num_channels:
            raise ValueError("The number of elements in 'fill' does not match the number of channels of the "
                             f"image ({len(fill)} != {num_channels})")
        fill = tuple(fill)
    if img.mode != "F":
        fill = tuple(int(x) for x in fill) if isinstance(fill, tuple) else int(fill)
    return {name: fill}


def padding_ltrb(padding):
    """An int, or 1, 2 (left/right, top/bottom) or 4 (left, top, right, bottom) values -> [l, t, r, b]."""
    if isinstance(padding, numbers.Number):
        return [int(padding)] * 4
    padding = list(padding)
    if len(padding) == 1:
        return [int(padding[0])] * 4
    if len(padding) == 2:
        return [int(padding[0]), int(padding[1])] * 2
    return [int(p) for p in padding]


def check_pad_args(padding, fill, padding_mode, fill_types=(numbers.Number, tuple, list)):
    if not isinstance(padding, (numbers.Number, tuple, list)):
        raise TypeError("Got inappropriate padding arg")
    if fill is not None and not isinstance(fill, fill_types):
        raise TypeError("Got inappropriate fill arg")
    if not isinstance(padding_mode, str):
        raise TypeError("Got inappropriate padding_mode arg")
    if isinstance(padding, (tuple, list)) and len(padding) not in (1, 2, 4):
        raise ValueError(f"Padding must be an int or a 1, 2, or 4 element tuple, not a {len(padding)} element tuple")
    if padding_mode not in PAD_MODES:
        raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")


def pad(img, padding, fill=0, padding_mode="constant"):
    """Negative padding crops; ``constant`` uses Pillow's ImageOps.expand, the others numpy.pad."""
    _assert_image(img)
    check_pad_args(padding, fill, padding_mode)
    p = np.array(padding_ltrb(padding))
    crop_l, crop_t, crop_r, crop_b = -np.minimum(p, 0)
    if (crop_l, crop_t, crop_r, crop_b) != (0, 0, 0, 0):
        img = img.crop((int(crop_l), int(crop_t), img.width - int(crop_r), img.height - int(crop_b)))
    pad_l, pad_t, pad_r, pad_b = (int(v) for v in np.maximum(p, 0))
    palette = img.getpalette() if img.mode == "P" else None
    if padding_mode == "constant":
        out = ImageOps.expand(img, border=(pad_l, pad_t, pad_r, pad_b), **parse_fill(fill, img, name="fill"))
    else:
        a = np.asarray(img)
        widths = ((pad_t, pad_b), (pad_l, pad_r)) + (((0, 0),) if a.ndim == 3 else ())
        out = Image.fromarray(np.pad(a, widths, padding_mode), mode=img.mode) if img.mode == "P" \
            else Image.fromarray(np.pad(a, widths, padding_mode))
    if palette is not None:
        out.putpalette(palette)
    return out


def to_grayscale(img, num_output_channels):
    """Pillow's ``convert('L')`` (ITU-R 601-2 luma), repeated to 3 channels if asked."""
    _assert_image(img)
    if num_output_channels == 1:
        return img.convert("L")
    if num_output_channels == 3:
        g = np.array(img.convert("L"), dtype=np.uint8)
        return Image.fromarray(np.dstack([g, g, g]))
    raise ValueError("num_output_channels should be either 1 or 3")
