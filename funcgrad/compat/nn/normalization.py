"""Normalization layers: BatchNorm1d/2d/3d, LayerNorm, GroupNorm, InstanceNorm1d/2d/3d, RMSNorm,
LocalResponseNorm (and F.rms_norm, F.local_response_norm)."""

from __future__ import annotations

import warnings

import numpy as np

from .. import creation as _c
from ..dtypes import int64
from ..autograd.grad_mode import no_grad
from . import functional as F
from . import init
from ._construction import _factory
from .module import Module
from .parameter import Parameter

__all__ = ["BatchNorm1d", "BatchNorm2d", "LayerNorm", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "RMSNorm",
           "LocalResponseNorm", "InstanceNorm3d", "BatchNorm3d"]
# the torch.nn.functional names defined here
FUNCTIONS = ["rms_norm", "local_response_norm"]


class _NormBase(Module):
    """What batch and instance normalization share (PyTorch's _NormBase): the affine parameters,
    the running-statistics buffers, and resetting them."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        fk = _factory(device, dtype)
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = Parameter(_c.ones(num_features, **fk))
        else:
            self.register_parameter("weight", None)
        if affine and bias:
            self.bias = Parameter(_c.zeros(num_features, **fk))
        else:
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", _c.zeros(num_features, **fk))
            self.register_buffer("running_var", _c.ones(num_features, **fk))
            self.register_buffer("num_batches_tracked", _c.tensor(0, dtype=int64, device=device))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def reset_running_stats(self):
        if self.track_running_stats:
            with no_grad():
                self.running_mean.zero_()
                self.running_var.fill_(1)
                self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.weight is not None:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)


class _BatchNorm(_NormBase):
    _dims = (2, 3)

    def forward(self, input):
        if input.ndim not in self._dims:
            raise ValueError(f"expected {' or '.join(f'{d}D' for d in self._dims)} input (got {input.ndim}D input)")
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            with no_grad():
                self.num_batches_tracked.add_(1)
            factor = 1.0 / float(self.num_batches_tracked) if self.momentum is None else self.momentum
        training = self.training or (self.running_mean is None and self.running_var is None)
        track = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if track else None, self.running_var if track else None,
                            self.weight, self.bias, training, factor, self.eps)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Batch normalization over (N, C) or (N, C, L) input."""

    _dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalization over (N, C, H, W) input."""

    _dims = (4,)


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        fk = _factory(device, dtype)
        self.normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(_c.ones(self.normalized_shape, **fk))
            if bias:
                self.bias = Parameter(_c.zeros(self.normalized_shape, **fk))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class GroupNorm(Module):
    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        if affine:
            self.weight = Parameter(_c.ones(num_channels, **_factory(device, dtype)))
        else:
            self.register_parameter("weight", None)
        if affine and bias:
            self.bias = Parameter(_c.zeros(num_channels, **_factory(device, dtype)))
        else:
            self.register_parameter("bias", None)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class _InstanceNorm(_NormBase):
    _nd = 2

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False,
                 device=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)

    def forward(self, input):
        if input.dim() not in (self._nd + 1, self._nd + 2):
            raise ValueError(f"expected {self._nd + 1}D or {self._nd + 2}D input (got {input.dim()}D input)")
        feature_dim = input.dim() - self._nd - 1  # 0 for an unbatched input (C, ...), as PyTorch's
        if input.shape[feature_dim] != self.num_features:
            msg = (f"expected input's size at dim={feature_dim} to match num_features ({self.num_features}), "
                   f"but got: {input.shape[feature_dim]}.")
            if self.affine:
                raise ValueError(msg)
            warnings.warn(msg + " You can silence this warning by not passing in num_features, which is not "
                          "used because affine=False", stacklevel=2)
        if feature_dim == 0:  # unbatched: a batch of one
            return self._normalize(input.unsqueeze(0)).squeeze(0)
        return self._normalize(input)

    def _normalize(self, input):
        use_input_stats = self.training or not self.track_running_stats
        if use_input_stats and self.track_running_stats and self.num_batches_tracked is not None:
            self.num_batches_tracked.add_(1)
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                               use_input_stats, self.momentum if self.momentum is not None else 0.1, self.eps)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"track_running_stats={self.track_running_stats}")


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization over (N, C, L)."""

    _nd = 1


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization over (N, C, H, W)."""

    _nd = 2


def _shape_tuple(normalized_shape):
    return (int(normalized_shape),) if isinstance(normalized_shape, int) else tuple(int(s) for s in normalized_shape)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """``x / sqrt(mean(x**2 over the last len(normalized_shape) dims) + eps) * weight``.

    ``eps=None`` is ``torch.finfo(input.dtype).eps``, as PyTorch.
    """
    shape = _shape_tuple(normalized_shape)
    k = len(shape)
    if tuple(input.shape[input.dim() - k:]) != shape or input.dim() < k:
        raise RuntimeError(f"rms_norm: Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, shape))}], but got input of size {list(input.shape)}")
    if weight is not None and tuple(weight.shape) != shape:
        raise RuntimeError(f"rms_norm: weight of shape {list(weight.shape)} does not match normalized_shape "
                           f"{list(shape)}")
    if not input.is_floating_point():
        raise RuntimeError(f"rms_norm: expected a floating-point input, got {input.dtype}")
    if eps is None:
        eps = float(np.finfo(input.dtype.dtype).eps)
    dims = tuple(range(-k, 0))
    y = input * ((input * input).mean(dim=dims, keepdim=True) + eps).rsqrt() if k else input * (
        (input * input) + eps).rsqrt()
    return y * weight if weight is not None else y


class RMSNorm(Module):
    """Root-mean-square normalization over the trailing ``normalized_shape`` (weight initialised to ones)."""

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        self.normalized_shape = _shape_tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(_c.ones(self.normalized_shape, **_factory(device, dtype)))
        else:
            self.register_parameter("weight", None)

    def reset_parameters(self):
        if self.weight is not None:
            with _no_grad():
                self.weight.fill_(1.0)

    def forward(self, input):
        return rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


def _no_grad():
    from ..autograd.grad_mode import no_grad  # noqa: PLC0415

    return no_grad()


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """``x / (k + alpha / size * sum of x**2 over `size` neighbouring channels) ** beta`` (zero-padded, as PyTorch)."""
    if input.dim() < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {input.dim()} dimensions)")
    if input.numel() == 0:
        return input
    sq = (input * input).movedim(1, -1)
    padded = F.pad(sq, (size // 2, (size - 1) // 2))
    c = input.shape[1]
    total = padded[..., 0:c]
    for j in range(1, size):
        total = total + padded[..., j:j + c]
    div = (total.movedim(-1, 1) * (alpha / size) + k) ** beta
    return input / div


class LocalResponseNorm(Module):
    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        return local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization over (N, C, D, H, W)."""

    _nd = 3


class BatchNorm3d(_BatchNorm):
    """Batch normalization over (N, C, D, H, W) input."""

    _dims = (5,)
