"""``torchvision.utils``: ``make_grid`` (a batch of images tiled into one) and ``save_image`` (to PNG etc.)."""

from __future__ import annotations

import math

import numpy as np
from PIL import Image

from .. import dtypes
from ..autograd.grad_mode import no_grad
from ..ops_shape import cat, stack
from ..tensor import Tensor

__all__ = ["make_grid", "save_image"]


@no_grad()
def make_grid(tensor, nrow=8, padding=2, normalize=False, value_range=None, scale_each=False, pad_value=0.0):
    """Tile a B x C x H x W batch (or a list of C x H x W tensors) into one C x H' x W' image.

    ``min(nrow, B)`` images per row, ``ceil(B / that)`` rows, ``padding`` pixels of ``pad_value``
    around and between them; 1-channel images become 3-channel. ``normalize`` shifts and scales the
    values to [0, 1] using ``value_range`` (min, max) or the batch's own min and max (each image's with
    ``scale_each``). A single image comes back without padding, as in torchvision.
    """
    if not isinstance(tensor, Tensor):
        if isinstance(tensor, list):
            for t in tensor:
                if not isinstance(t, Tensor):
                    raise TypeError(f"tensor or list of tensors expected, got a list containing {type(t)}")
        else:
            raise TypeError(f"tensor or list of tensors expected, got {type(tensor)}")
    if isinstance(tensor, list):
        tensor = stack(tensor, dim=0)
    if tensor.dim() == 2:
        tensor = tensor.unsqueeze(0)
    if tensor.dim() == 3:
        if tensor.size(0) == 1:
            tensor = cat([tensor, tensor, tensor], 0)
        tensor = tensor.unsqueeze(0)
    if tensor.dim() == 4 and tensor.size(1) == 1:
        tensor = cat([tensor, tensor, tensor], 1)
    if tensor.dim() != 4:
        raise ValueError(f"make_grid expects a 2-d, 3-d or 4-d tensor (or a list of images), got shape "
                         f"{tuple(tensor.shape)}")
    if normalize is True:
        tensor = tensor.clone()
        if value_range is not None and not isinstance(value_range, tuple):
            raise TypeError("value_range has to be a tuple (min, max) if specified. min and max are numbers")

        def norm_range(t):
            low, high = value_range if value_range is not None else (float(t.min()), float(t.max()))
            t.clamp_(min=low, max=high)
            t.sub_(low).div_(max(high - low, 1e-5))

        if scale_each is True:
            for t in tensor:
                norm_range(t)
        else:
            norm_range(tensor)
    if tensor.size(0) == 1:
        return tensor.squeeze(0)
    nmaps = tensor.size(0)
    xmaps = min(nrow, nmaps)
    ymaps = int(math.ceil(float(nmaps) / xmaps))
    height, width = int(tensor.size(2) + padding), int(tensor.size(3) + padding)
    grid = tensor.new_full((tensor.size(1), height * ymaps + padding, width * xmaps + padding), pad_value)
    k = 0
    for y in range(ymaps):
        for x in range(xmaps):
            if k >= nmaps:
                break
            grid.narrow(1, y * height + padding, height - padding).narrow(2, x * width + padding,
                                                                         width - padding).copy_(tensor[k])
            k += 1
    return grid


@no_grad()
def save_image(tensor, fp, format=None, **kwargs):
    """``make_grid(tensor, **kwargs)`` scaled from [0, 1] to 0..255 (rounded, clamped) and written by Pillow
    (``format`` from ``fp``'s extension unless given)."""
    grid = make_grid(tensor, **kwargs)
    ndarr = grid.mul(255).add_(0.5).clamp_(0, 255).permute(1, 2, 0).to("cpu", dtypes.uint8).numpy()
    Image.fromarray(np.ascontiguousarray(ndarr)).save(fp, format=format)
