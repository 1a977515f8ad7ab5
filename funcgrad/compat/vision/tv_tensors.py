"""``torchvision.tv_tensors.Image``: a compat Tensor that ``transforms.v2`` recognises as an image.

Only ``Image`` is provided (no bounding boxes, masks or videos). As in torchvision, operations on an
Image return plain Tensors; the v2 transforms keep the Image type of their inputs.
"""

from __future__ import annotations

from .. import creation
from ..tensor import Tensor
from . import transforms as _transforms

__all__ = ["TVTensor", "Image", "wrap"]


class TVTensor(Tensor):
    """Base of the tv_tensor types."""

    @classmethod
    def _wrap(cls, t):
        r = object.__new__(cls)
        r.__dict__.update(t.__dict__)
        return r

    def __repr__(self):
        return super().__repr__().replace("tensor", self.__class__.__name__, 1)

    __str__ = __repr__


class Image(TVTensor):
    """``Image(data)``: a PIL image, numpy array or tensor as a (..., C, H, W) image (2-d data gets C = 1)."""

    def __new__(cls, data, *, dtype=None, device=None, requires_grad=None):
        if isinstance(data, Tensor):
            t = data if dtype is None and device is None else data.to(dtype=dtype, device=device)
        elif _transforms.functional.F_pil.is_pil_image(data):
            t = _transforms.functional.pil_to_tensor(data).to(dtype=dtype, device=device)
        else:
            t = creation.tensor(data, dtype=dtype, device=device)
        if t.dim() < 2:
            raise ValueError(f"Image: the data must have at least 2 dimensions (H, W), got shape {tuple(t.shape)}")
        if t.dim() == 2:
            t = t.unsqueeze(0)
        if requires_grad is not None:
            t.requires_grad_(requires_grad)
        return cls._wrap(t)


def wrap(wrappee, *, like):
    """``wrappee`` as the tv_tensor type of ``like``."""
    return type(like)._wrap(wrappee)
