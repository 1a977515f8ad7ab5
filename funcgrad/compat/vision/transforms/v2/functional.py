"""``torchvision.transforms.v2.functional``: the v1 functions under their v2 names too, plus ``to_image``,
``to_dtype`` (with v2's value scaling) and ``to_pure_tensor``."""

from __future__ import annotations

import numpy as np

from .... import creation, dtypes
from ....tensor import Tensor
from ... import tv_tensors
from ..functional import *  # noqa: F403
from ..functional import F_pil, convert_image_dtype, get_dimensions, hflip, pil_to_tensor, vflip

horizontal_flip, vertical_flip = hflip, vflip


def get_size(inpt):
    """[height, width] (v2's order; v1's ``get_image_size`` is [width, height])."""
    _, h, w = get_dimensions(inpt)
    return [h, w]


def get_num_channels(inpt):
    return get_dimensions(inpt)[0]


def to_image(inpt):
    """PIL image, H x W (x C) numpy array or tensor -> ``tv_tensors.Image`` with the same values."""
    if isinstance(inpt, np.ndarray):
        t = creation.from_numpy(np.ascontiguousarray(np.atleast_3d(inpt).transpose(2, 0, 1)))
    elif F_pil.is_pil_image(inpt):
        t = pil_to_tensor(inpt)
    elif isinstance(inpt, Tensor):
        t = inpt
    else:
        raise TypeError(f"Input can either be a pure Tensor, a numpy array, or a PIL image, but got {type(inpt)} "
                        "instead.")
    return tv_tensors.Image(t)


def to_pure_tensor(inpt):
    """A tv_tensor as a plain Tensor sharing its memory; anything else as it is."""
    if not isinstance(inpt, tv_tensors.TVTensor):
        return inpt
    r = object.__new__(Tensor)
    r.__dict__.update(inpt.__dict__)
    return r


def _num_value_bits(dtype):
    if dtype == dtypes.uint8:
        return 8
    if dtype in (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64):
        return np.iinfo(dtype.dtype).bits - 1
    raise TypeError(f"Number of value bits is only defined for integer dtypes, but got {dtype}.")


def to_dtype(inpt, dtype=dtypes.float32, scale=False):
    """Cast to ``dtype``; with ``scale``, map value ranges as v2 does: ints -> [0, 1] by ``* (1 / max)``,
    [0, 1] -> ints by ``* (max + 1 - 1e-3)`` truncated, ints -> ints by bit shifts."""
    dtype = dtypes.as_dtype(dtype)
    if not isinstance(inpt, Tensor):
        raise TypeError(f"to_dtype expects a tensor image, got {type(inpt)}")
    if inpt.dtype == dtype:
        return inpt
    if not scale:
        return inpt.to(dtype)
    if inpt.is_floating_point():  # the same as v1's convert_image_dtype
        return convert_image_dtype(inpt, dtype)
    bits_in = _num_value_bits(inpt.dtype)
    if dtype.is_floating_point:
        return inpt.to(dtype).mul(1.0 / (2 ** bits_in - 1))
    bits_out = _num_value_bits(dtype)
    if bits_in > bits_out:  # shifts, as floor division / multiplication by a power of two
        return inpt.div(2 ** (bits_in - bits_out), rounding_mode="floor").to(dtype)
    return inpt.to(dtype) * 2 ** (bits_out - bits_in)
