"""``torchvision.transforms.v2``: the transforms of ``transforms`` taking any nested sample.

A v2 transform called with a single image behaves as the v1 transform of the same name. Called with a
structure (``transform(img, label)``, a tuple, a list or a dict), it transforms the image leaves and
passes everything else through, as torchvision's v2 does: ``tv_tensors.Image`` and PIL images are
images; a plain tensor is one only when the sample holds no Image or PIL image, and then only the
first. Several images in one call get the same random parameters (the random draws are replayed for
each). ``tv_tensors.Image`` inputs give ``tv_tensors.Image`` outputs. Bounding boxes, masks and videos
are not provided.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
from PIL import Image as _PILImage

from .... import creation
from ....nn.module import Module
from ....tensor import Tensor
from ... import tv_tensors
from ... import transforms as _v1
from . import functional  # noqa: F401
from .functional import to_dtype, to_image, to_pure_tensor

__all__ = ["Transform", "Compose", "ToImage", "ToDtype", "ToPureTensor", "Identity", "Lambda", "ToTensor"]


def _flatten(sample):
    """Leaves in depth-first order and a function rebuilding the structure from new leaves."""
    if isinstance(sample, (tuple, list)):
        parts = [_flatten(s) for s in sample]
        leaves = [leaf for p, _ in parts for leaf in p]

        def rebuild(new, parts=parts, kind=type(sample)):
            out, k = [], 0
            for p, r in parts:
                out.append(r(new[k:k + len(p)]))
                k += len(p)
            return kind(out) if kind in (tuple, list) else kind(*out)

        return leaves, rebuild
    if isinstance(sample, dict):
        keys = list(sample)
        leaves, rebuild_values = _flatten([sample[k] for k in keys])
        return leaves, lambda new: type(sample)(zip(keys, rebuild_values(new)))
    return [sample], lambda new: new[0]


def _is_pure_tensor(x):
    return isinstance(x, Tensor) and not isinstance(x, tv_tensors.TVTensor)


def _image_positions(leaves, types=(Tensor, _PILImage.Image)):
    explicit = any(isinstance(x, (tv_tensors.Image, _PILImage.Image)) for x in leaves)
    positions, pure_taken = [], explicit
    for i, x in enumerate(leaves):
        if not isinstance(x, types):
            continue
        if _is_pure_tensor(x):
            if pure_taken:
                continue
            pure_taken = True
        positions.append(i)
    return positions


class Transform(Module):
    """Base of the v2 transforms: ``_transform(image)`` applied to every image leaf of the sample."""

    _transformed_types = (Tensor, _PILImage.Image)
    _keep_tv_type = True  # an Image in gives an Image out

    def _transform(self, inpt):
        raise NotImplementedError(f"{type(self).__name__} must define _transform")

    def forward(self, *inputs):
        sample = inputs if len(inputs) > 1 else inputs[0]
        leaves, rebuild = _flatten(sample)
        positions = _image_positions(leaves, self._transformed_types)
        if not positions:
            return sample
        states = (creation.get_rng_state(), random.getstate()) if len(positions) > 1 else None
        for n, i in enumerate(positions):
            if n:  # the same random parameters for every image of the sample
                creation.set_rng_state(states[0])
                random.setstate(states[1])
            out = self._transform(leaves[i])
            if self._keep_tv_type and isinstance(leaves[i], tv_tensors.TVTensor) and isinstance(out, Tensor) \
                    and not isinstance(out, tv_tensors.TVTensor):
                out = tv_tensors.wrap(out, like=leaves[i])
            leaves[i] = out
        return rebuild(leaves)


def _v2(cls, types=Transform._transformed_types):
    """The v2 form of a v1 transform class: same constructor, repr and single-image behaviour."""
    if issubclass(cls, Module):  # Module.__call__ runs forward (and hooks)
        body = {"_transform": lambda self, inpt: cls.forward(self, inpt),
                "forward": lambda self, *inputs: Transform.forward(self, *inputs)}
    else:
        body = {"_transform": lambda self, inpt: cls.__call__(self, inpt),
                "__call__": lambda self, *inputs: Transform.forward(self, *inputs)}
    body.update(__module__=__name__, __doc__=cls.__doc__, _transformed_types=types, _keep_tv_type=True)
    return type(cls.__name__, (cls,), body)


_WRAPPED = [
    "Normalize", "Resize", "CenterCrop", "Pad", "RandomCrop", "RandomHorizontalFlip", "RandomVerticalFlip",
    "RandomResizedCrop", "Grayscale", "RandomGrayscale", "ColorJitter", "RandomRotation", "RandomAffine",
    "RandomErasing", "GaussianBlur", "FiveCrop", "TenCrop", "RandomInvert", "RandomPosterize", "RandomSolarize",
    "RandomAdjustSharpness", "RandomAutocontrast", "RandomEqualize", "AutoAugment", "RandAugment",
    "TrivialAugmentWide", "PILToTensor", "ToPILImage", "RandomApply", "RandomChoice", "RandomOrder",
]
_TYPES = {"PILToTensor": (_PILImage.Image,), "ToPILImage": (Tensor, np.ndarray)}
for _name in _WRAPPED:
    globals()[_name] = _v2(getattr(_v1, _name), _TYPES.get(_name, Transform._transformed_types))
__all__ += _WRAPPED
InterpolationMode = _v1.InterpolationMode
AutoAugmentPolicy = _v1.AutoAugmentPolicy


class Compose(_v1.Compose):
    """Apply ``transforms`` in order to the whole sample."""

    def __call__(self, *inputs):
        unpack = len(inputs) > 1
        for t in self.transforms:
            outputs = t(*inputs)
            inputs = outputs if unpack else (outputs,)
        return outputs


class ToImage(Transform):
    """PIL image, numpy array (H x W x C) or tensor -> ``tv_tensors.Image`` (values unchanged)."""

    _transformed_types = (Tensor, _PILImage.Image, np.ndarray)

    def _transform(self, inpt):
        return to_image(inpt)

    def __repr__(self):
        return "ToImage()"


class ToDtype(Transform):
    """Convert images to ``dtype``; ``scale=True`` rescales the value range (integers <-> [0, 1]).
    ``dtype`` may be a dict by type (``{tv_tensors.Image: torch.float32, "others": None}``); PIL images pass
    through."""

    _transformed_types = (Tensor,)

    def __init__(self, dtype, scale=False):
        super().__init__()
        self.dtype, self.scale = dtype, scale

    def _transform(self, inpt):
        dtype = self.dtype
        if isinstance(dtype, dict):
            key = next((k for k in dtype if k != "others" and isinstance(inpt, k)), "others")
            dtype = dtype.get(key)
            if dtype is None:
                return inpt
        return to_dtype(inpt, dtype, self.scale)

    def __repr__(self):
        return f"ToDtype(dtype={self.dtype}, scale={self.scale})"


class ConvertImageDtype(ToDtype):
    """torchvision v2's deprecated spelling of ``ToDtype(dtype, scale=True)`` (images only)."""

    def __init__(self, dtype=None):
        from .... import float32  # noqa: PLC0415

        super().__init__(float32 if dtype is None else dtype, scale=True)

    def __repr__(self):
        return f"ConvertImageDtype(dtype={self.dtype})"


class ToPureTensor(Transform):
    """tv_tensors -> plain Tensors (sharing memory)."""

    _keep_tv_type = False

    def _transform(self, inpt):
        return to_pure_tensor(inpt)

    def __repr__(self):
        return "ToPureTensor()"


class Identity(Transform):
    def _transform(self, inpt):
        return inpt

    def forward(self, *inputs):
        return inputs if len(inputs) > 1 else inputs[0]

    def __repr__(self):
        return "Identity()"


class Lambda(Transform):
    """``lambd`` applied to the leaves of the given ``types`` (every leaf when none are given)."""

    def __init__(self, lambd, *types):
        super().__init__()
        if not callable(lambd):
            raise TypeError(f"Argument lambd should be callable, got {repr(type(lambd).__name__)}")
        self.lambd, self.types = lambd, types or (object,)

    def forward(self, *inputs):
        sample = inputs if len(inputs) > 1 else inputs[0]
        leaves, rebuild = _flatten(sample)
        return rebuild([self.lambd(x) if isinstance(x, self.types) else x for x in leaves])

    def __repr__(self):
        return f"Lambda({getattr(self.lambd, '__name__', type(self.lambd).__name__)}, types={list(self.types)})"


class ToTensor(Transform):
    """Deprecated in torchvision: ``ToImage()`` then ``ToDtype(torch.float32, scale=True)`` (warns)."""

    _transformed_types = (_PILImage.Image, np.ndarray)

    def __init__(self):
        super().__init__()
        warnings.warn("The transform `ToTensor()` is deprecated and will be removed in a future release. "
                      "Instead, please use `v2.Compose([v2.ToImage(), v2.ToDtype(torch.float32, scale=True)])`.",
                      UserWarning, stacklevel=2)

    def _transform(self, inpt):
        return _v1.functional.to_tensor(inpt)

    def __repr__(self):
        return "ToTensor()"
