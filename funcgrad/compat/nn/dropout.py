"""Dropout layers: Dropout, Dropout1d/2d/3d (channels), AlphaDropout, FeatureAlphaDropout (and
F.dropout3d, F.alpha_dropout, F.feature_alpha_dropout)."""

from __future__ import annotations

from ...nn._activations import check_dropout_p
from .. import creation as _c
from . import functional as F
from .module import Module

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"]
# the torch.nn.functional names defined here
FUNCTIONS = ["dropout3d", "alpha_dropout", "feature_alpha_dropout"]


class Dropout(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        check_dropout_p(p)
        self.p, self.inplace = p, inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class _DropoutChannels(Dropout):
    """Zeroes whole channels (all of dims 2..) with probability p, scaling the rest by 1/(1-p)."""

    _nd = 2

    def forward(self, input):
        fn = F.dropout1d if self._nd == 1 else F.dropout2d
        return fn(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutChannels):
    _nd = 1


class Dropout2d(_DropoutChannels):
    _nd = 2


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, D, H, W) or unbatched (C, D, H, W) input; scale the rest by 1/(1-p)."""
    return F._channel_dropout(input, p, training, inplace, 3, "dropout3d")


class Dropout3d(Dropout):
    def forward(self, input):
        return dropout3d(input, self.p, self.training, self.inplace)


_SELU_ALPHA_PRIME = -1.7580993408473766  # -scale * alpha of SELU


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout for SELU networks: dropped units take SELU's negative saturation, then an affine map keeps
    the mean and variance (PyTorch's formula)."""
    return _alpha_dropout(input, p, training, inplace, tuple(input.shape))


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """``alpha_dropout`` of whole channels: one draw per (sample, channel) of (N, C, *) input."""
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    return _alpha_dropout(input, p, training, inplace, tuple(input.shape[:2]) + (1,) * (input.dim() - 2))


def _alpha_dropout(input, p, training, inplace, mask_shape):
    check_dropout_p(p)
    if not training or p == 0.0:
        return input
    if p == 1.0:
        out = input * 0.0
    else:
        keep = (_c.rand(mask_shape, dtype=input.dtype, device=input.device) >= p).to(input.dtype)
        a = ((1.0 - p) * (1.0 + p * _SELU_ALPHA_PRIME ** 2)) ** -0.5
        b = -a * _SELU_ALPHA_PRIME * p
        out = (input * keep + _SELU_ALPHA_PRIME * (1.0 - keep)) * a + b
    return F._written(input, out, inplace)


class AlphaDropout(Dropout):
    def forward(self, input):
        return alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(Dropout):
    def forward(self, input):
        return feature_alpha_dropout(input, self.p, self.training)
