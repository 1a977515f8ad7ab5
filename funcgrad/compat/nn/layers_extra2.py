"""RMSNorm, LocalResponseNorm, Dropout3d, AlphaDropout, InstanceNorm3d, LPPool1d/2d, ConvTranspose3d,
LazyLinear; with their functional forms (rms_norm, local_response_norm, dropout3d, alpha_dropout,
lp_pool1d/2d, conv_transpose3d, gumbel_softmax).

All are compositions of compat Tensor operations, so autograd (any order) comes from
the core's rules.
"""

from __future__ import annotations

import math

import numpy as np

from ...nn import _conv
from ...nn._activations import check_dropout_p
from .. import creation as _c
from . import functional as F
from .layers import Dropout, Linear, _factory
from .module import Module
from .more_layers import _ConvTransposeNd, _InstanceNorm
from .parameter import Parameter

__all__ = ["RMSNorm", "LocalResponseNorm", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout", "InstanceNorm3d",
           "LPPool1d", "LPPool2d", "ConvTranspose3d", "LazyLinear", "UninitializedParameter"]

FUNCTIONS = ["rms_norm", "local_response_norm", "dropout3d", "alpha_dropout", "feature_alpha_dropout", "lp_pool1d",
             "lp_pool2d", "conv_transpose3d", "gumbel_softmax"]


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
    from ..grad_mode import no_grad  # noqa: PLC0415

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


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization over (N, C, D, H, W)."""

    _nd = 3


def _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, nd):
    pool = F.avg_pool1d if nd == 1 else F.avg_pool2d
    ks = (kernel_size,) * nd if isinstance(kernel_size, int) else tuple(kernel_size)
    out = pool(input ** norm_type, kernel_size, stride if stride is not None else kernel_size, 0, ceil_mode)
    return (out.sign() * out.abs().relu() * math.prod(ks)) ** (1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """``(sum over each window of x**p) ** (1/p)`` over (N, C, L)."""
    return _lp_pool(input, float(norm_type), kernel_size, stride, ceil_mode, 1)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """``(sum over each window of x**p) ** (1/p)`` over (N, C, H, W)."""
    return _lp_pool(input, float(norm_type), kernel_size, stride, ceil_mode, 2)


class LPPool1d(Module):
    _fn = staticmethod(lp_pool1d)

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def forward(self, input):
        return self._fn(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self):
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"ceil_mode={self.ceil_mode}")


class LPPool2d(LPPool1d):
    _fn = staticmethod(lp_pool2d)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """Transposed 3-d convolution of (N, C_in, D, H, W) with weight (C_in, C_out/groups, kD, kH, kW)."""
    return _conv._conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 3,
                                 "conv_transpose3d")


class ConvTranspose3d(_ConvTransposeNd):
    _nd = 3

    def forward(self, input):
        return conv_transpose3d(input, self.weight, self.bias, self.stride, self.padding, self.output_padding,
                                self.groups, self.dilation)


def gumbel_softmax(logits, tau=1.0, hard=False, eps=1e-10, dim=-1):
    """Softmax of ``(logits + Gumbel noise) / tau`` along ``dim``; ``hard=True`` returns one-hot samples
    whose gradient is the soft sample's (straight-through), as PyTorch."""
    u = _c.rand(tuple(logits.shape), dtype=logits.dtype, device=logits.device)
    gumbels = -(-(-u).log1p()).log()  # -log(Exp(1)) with Exp(1) = -log(1 - U)
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.argmax(dim, keepdim=True)
    y_hard = _c.zeros_like(logits).scatter(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


class UninitializedParameter(Parameter):
    """A placeholder parameter of a lazy module (shape ``(0,)``) until its first forward gives the shape.

    Simplified from PyTorch: it is an ordinary empty Parameter (no operations raise on it); the lazy module
    replaces it with a real ``Parameter`` on the first call, so build optimizers after one forward pass.
    """

    cls_to_become = Parameter


class LazyLinear(Linear):
    """``Linear`` whose ``in_features`` is read from the first input (``input.shape[-1]``); it then becomes a
    ``Linear`` (its class changes, as PyTorch's ``cls_to_become``)."""

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Module.__init__(self)
        self._factory = _factory(device, dtype)
        self.in_features, self.out_features = 0, out_features
        self.weight = UninitializedParameter()
        if bias:
            self.bias = UninitializedParameter()
        else:
            self.register_parameter("bias", None)

    def reset_parameters(self):
        if self.in_features:
            Linear.reset_parameters(self)

    def has_uninitialized_params(self):
        return isinstance(self.weight, UninitializedParameter)

    def initialize_parameters(self, input):
        if not self.has_uninitialized_params():
            return
        if input.dim() < 1:
            raise RuntimeError("LazyLinear: the input needs at least one dimension to infer in_features")
        self.in_features = int(input.shape[-1])
        fk = self._factory
        self.weight = Parameter(_c.empty((self.out_features, self.in_features), **fk))
        if self.bias is not None:
            self.bias = Parameter(_c.empty(self.out_features, **fk))
        Linear.reset_parameters(self)
        del self._factory
        self.__class__ = self.cls_to_become

    def forward(self, input):
        self.initialize_parameters(input)
        return Linear.forward(self, input)

    def __call__(self, *args, **kwargs):
        if self.has_uninitialized_params() and args:
            self.initialize_parameters(args[0])
        return Module.__call__(self, *args, **kwargs)
