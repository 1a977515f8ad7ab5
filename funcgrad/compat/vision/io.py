"""``torchvision.io``'s image functions (read_image, decode_image, encode/write PNG and JPEG, read/write_file),
decoded and encoded by Pillow. Images are uint8 C x H x W tensors, as torchvision's."""

from __future__ import annotations

import enum
import io
import os

import numpy as np
from PIL import Image, ImageOps

from .. import creation, dtypes
from ..tensor import Tensor

__all__ = ["ImageReadMode", "read_file", "write_file", "decode_image", "read_image", "decode_png", "decode_jpeg",
           "encode_png", "encode_jpeg", "write_png", "write_jpeg"]


class ImageReadMode(enum.Enum):
    """How ``decode_image`` / ``read_image`` convert the decoded image: as stored, or to gray / RGB (+ alpha)."""

    UNCHANGED = 0
    GRAY = 1
    GRAY_ALPHA = 2
    RGB = 3
    RGB_ALPHA = 4


_PIL_MODE = {ImageReadMode.GRAY: "L", ImageReadMode.GRAY_ALPHA: "LA", ImageReadMode.RGB: "RGB",
             ImageReadMode.RGB_ALPHA: "RGBA"}


def _read_mode(mode):
    if isinstance(mode, ImageReadMode):
        return mode
    if isinstance(mode, str):
        key = {"RGBA": "RGB_ALPHA"}.get(mode.upper(), mode.upper())
        if key in ImageReadMode.__members__:
            return ImageReadMode[key]
    raise ValueError(f"Unknown image read mode {mode!r}: use an ImageReadMode (UNCHANGED, GRAY, GRAY_ALPHA, RGB, "
                     "RGB_ALPHA) or its name")


def read_file(path):
    """A file's bytes as a 1-d uint8 tensor."""
    with open(os.fspath(path), "rb") as f:
        return creation.from_numpy(np.frombuffer(f.read(), np.uint8).copy())


def write_file(filename, data):
    """Write a 1-d uint8 tensor's bytes to ``filename``."""
    _check_bytes(data, "write_file")
    with open(os.fspath(filename), "wb") as f:
        f.write(data.cpu().numpy().tobytes())


def _check_bytes(data, fn):
    if not isinstance(data, Tensor) or data.dtype != dtypes.uint8 or data.dim() != 1:
        raise TypeError(f"{fn}: expected a 1-d uint8 tensor of encoded bytes, got "
                        f"{data.dtype if isinstance(data, Tensor) else type(data).__name__} "
                        f"{tuple(data.shape) if isinstance(data, Tensor) else ''}")


def decode_image(input, mode=ImageReadMode.UNCHANGED, apply_exif_orientation=False):
    """Encoded bytes (1-d uint8 tensor) or a path -> uint8 C x H x W tensor. UNCHANGED keeps the stored
    channels (palette images expand to RGB or RGBA; 16-bit images become int32: no uint16 here)."""
    mode = _read_mode(mode)
    if isinstance(input, (str, os.PathLike)):
        input = read_file(input)
    _check_bytes(input, "decode_image")
    try:
        img = Image.open(io.BytesIO(input.cpu().numpy().tobytes()))
        img.load()
    except (OSError, SyntaxError, ValueError) as e:
        raise RuntimeError(f"decode_image: the data is not an image Pillow can decode ({e})") from None
    if apply_exif_orientation:
        img = ImageOps.exif_transpose(img)
    if mode is not ImageReadMode.UNCHANGED:
        img = img.convert(_PIL_MODE[mode])
    elif img.mode == "P":
        img = img.convert("RGBA" if "transparency" in img.info else "RGB")
    elif img.mode == "PA":
        img = img.convert("RGBA")
    elif img.mode in ("1", "CMYK", "YCbCr"):
        img = img.convert("L" if img.mode == "1" else "RGB")
    elif img.mode.startswith("I;16"):
        img = img.convert("I")
    arr = np.array(img)  # a writable copy
    arr = arr[:, :, None] if arr.ndim == 2 else arr
    return creation.from_numpy(np.ascontiguousarray(arr.transpose(2, 0, 1)))


def read_image(path, mode=ImageReadMode.UNCHANGED, apply_exif_orientation=False):
    """Read and decode a JPEG, PNG, GIF, BMP, WEBP, ... file into a uint8 C x H x W tensor."""
    return decode_image(read_file(path), mode, apply_exif_orientation)


def decode_png(input, mode=ImageReadMode.UNCHANGED, apply_exif_orientation=False):
    return decode_image(input, mode, apply_exif_orientation)


def decode_jpeg(input, mode=ImageReadMode.UNCHANGED, device="cpu", apply_exif_orientation=False):
    out = decode_image(input, mode, apply_exif_orientation)
    return out if str(device) == "cpu" else out.to(device)


def _to_pil(input, fn):
    if not isinstance(input, Tensor) or input.dtype != dtypes.uint8 or input.dim() != 3 or input.shape[0] not in (1, 3):
        raise RuntimeError(f"{fn}: expected a uint8 tensor of shape (1 or 3, H, W), got "
                           f"{input.dtype if isinstance(input, Tensor) else type(input).__name__} "
                           f"{tuple(input.shape) if isinstance(input, Tensor) else ''}")
    arr = input.detach().cpu().numpy().transpose(1, 2, 0)
    return Image.fromarray(np.ascontiguousarray(arr[:, :, 0] if arr.shape[2] == 1 else arr))


def _encode(img, fmt, **kwargs):
    buf = io.BytesIO()
    img.save(buf, format=fmt, **kwargs)
    return creation.from_numpy(np.frombuffer(buf.getvalue(), np.uint8).copy())


def encode_png(input, compression_level=6):
    """uint8 (1 or 3) x H x W tensor -> PNG bytes as a 1-d uint8 tensor (lossless)."""
    if not 0 <= compression_level <= 9:
        raise ValueError(f"Compression level should be between 0 and 9, got {compression_level}")
    return _encode(_to_pil(input, "encode_png"), "PNG", compress_level=compression_level)


def encode_jpeg(input, quality=75):
    """uint8 (1 or 3) x H x W tensor -> JPEG bytes as a 1-d uint8 tensor."""
    if not 1 <= quality <= 100:
        raise ValueError(f"Image quality should be a positive number between 1 and 100, got {quality}")
    return _encode(_to_pil(input, "encode_jpeg"), "JPEG", quality=quality)


def write_png(input, filename, compression_level=6):
    write_file(filename, encode_png(input, compression_level))


def write_jpeg(input, filename, quality=75):
    write_file(filename, encode_jpeg(input, quality))
