"""Layers: immutable Modules holding parameters, with PyTorch's default initialisation.

Every layer that creates parameters takes a ``key`` (funcgrad.random) and a
``dtype`` (float64 by default, as funcgrad.numpy; pass ``dtype=np.float32`` for
PyTorch's default).  Stateful layers are functional: ``BatchNorm`` takes and
returns its running statistics, ``Dropout`` takes a key.
"""

from __future__ import annotations

import math
from typing import Any, Callable, NamedTuple

import numpy as np

from .. import numpy as fnp
from .. import random as _random
from ..core import Array
from . import functional as F
from ._activations import check_dropout_p
from . import init
from .module import Module, static_field

__all__ = [
    "Linear", "Conv1d", "Conv2d", "BatchNorm", "BatchNorm1d", "BatchNorm2d", "BatchNormState",
    "LayerNorm", "Dropout", "Embedding", "Sequential", "Lambda", "MLP",
]


def _default_uniform(key, shape, fan_in, dtype):
    """PyTorch's default for Linear/Conv: kaiming_uniform(a=sqrt(5)) = U(+-1/sqrt(fan_in))."""
    bound = 1.0 / math.sqrt(fan_in) if fan_in > 0 else 0.0
    return init.uniform(key, shape, dtype, -bound, bound)


def _require_key(key, cls):
    if key is None:
        raise TypeError(f"{cls}: pass key=fg.random.key(seed) to initialise the parameters")
    return key


class Linear(Module):
    """y = x @ weight.T + bias, weight (out_features, in_features)."""

    weight: Array
    bias: Any
    in_features: int = static_field()
    out_features: int = static_field()

    def __init__(self, in_features, out_features, bias=True, *, key=None, dtype=None):
        kw, kb = _random.split(_require_key(key, "Linear"))
        self.in_features, self.out_features = int(in_features), int(out_features)
        self.weight = _default_uniform(kw, (out_features, in_features), in_features, dtype)
        self.bias = _default_uniform(kb, (out_features,), in_features, dtype) if bias else None

    def __call__(self, x):
        return F.linear(x, self.weight, self.bias)


class _ConvNd(Module):
    weight: Array
    bias: Any
    stride: tuple = static_field()
    padding: Any = static_field()
    dilation: tuple = static_field()
    groups: int = static_field()

    _nd = 0

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, *, key=None, dtype=None):
        nd = self._nd
        name = type(self).__name__
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"{name}: in_channels ({in_channels}) and out_channels ({out_channels}) "
                             f"must be divisible by groups ({groups})")
        kernel = (int(kernel_size),) * nd if isinstance(kernel_size, (int, np.integer)) else tuple(kernel_size)
        if len(kernel) != nd:
            raise ValueError(f"{name}: kernel_size must be an int or {nd} ints, got {kernel_size!r}")
        kw, kb = _random.split(_require_key(key, name))
        fan_in = in_channels // groups * math.prod(kernel)
        self.weight = _default_uniform(kw, (out_channels, in_channels // groups) + kernel, fan_in, dtype)
        self.bias = _default_uniform(kb, (out_channels,), fan_in, dtype) if bias else None
        # static fields are part of the tree structure: keep them hashable
        self.stride = tuple(stride) if isinstance(stride, list) else stride
        self.dilation = tuple(dilation) if isinstance(dilation, list) else dilation
        self.padding = tuple(padding) if isinstance(padding, list) else padding
        self.groups = int(groups)

    def __call__(self, x):
        conv = F.conv1d if self._nd == 1 else F.conv2d
        return conv(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv1d(_ConvNd):
    """1-d convolution layer (N, C, L) -> (N, O, L')."""

    _nd = 1


class Conv2d(_ConvNd):
    """2-d convolution layer (N, C, H, W) -> (N, O, H', W')."""

    _nd = 2


class BatchNormState(NamedTuple):
    running_mean: Any
    running_var: Any
    num_batches_tracked: Any


class BatchNorm(Module):
    """Batch normalization over axis 1 with functional running statistics.

        bn = BatchNorm(16)
        state = bn.init_state()
        y, state = bn(x, state, training=True)    # batch statistics; state updated
        y, _ = bn(x, state, training=False)       # running statistics

    ``momentum=None``: cumulative moving average (PyTorch's rule).
    """

    weight: Any
    bias: Any
    num_features: int = static_field()
    eps: float = static_field()
    momentum: Any = static_field()
    track_running_stats: bool = static_field()

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, *,
                 dtype=None):
        dt = np.dtype(float if dtype is None else dtype)
        self.num_features, self.eps, self.momentum = int(num_features), float(eps), momentum
        self.track_running_stats = bool(track_running_stats)
        self.weight = init.ones((num_features,), dt) if affine else None
        self.bias = init.zeros((num_features,), dt) if affine else None

    def init_state(self, dtype=None):
        dt = self.weight.dtype if self.weight is not None and dtype is None else np.dtype(dtype or float)
        if not self.track_running_stats:
            return BatchNormState(None, None, None)
        return BatchNormState(init.zeros((self.num_features,), dt), init.ones((self.num_features,), dt),
                              fnp.zeros((), np.int64))

    def __call__(self, x, state=None, training=True):
        use_batch = training or not self.track_running_stats or state is None or state.running_mean is None
        if not use_batch:
            y, _, _ = F.batch_norm(x, state.running_mean, state.running_var, self.weight, self.bias,
                                   False, 0.0, self.eps)
            return y, state
        if state is None or state.running_mean is None or not training:
            y, _, _ = F.batch_norm(x, None, None, self.weight, self.bias, True, None, self.eps)
            return y, state
        count = state.num_batches_tracked + 1
        momentum = self.momentum if self.momentum is not None else 1.0 / float(count)
        y, mean, var = F.batch_norm(x, state.running_mean, state.running_var, self.weight, self.bias,
                                    True, momentum, self.eps)
        return y, BatchNormState(mean, var, count)


BatchNorm1d = BatchNorm2d = BatchNorm


class LayerNorm(Module):
    """Normalise over the trailing ``normalized_shape`` axes, with elementwise affine parameters."""

    weight: Any
    bias: Any
    normalized_shape: tuple = static_field()
    eps: float = static_field()

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, *, dtype=None):
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.normalized_shape, self.eps = shape, float(eps)
        self.weight = init.ones(shape, dtype) if elementwise_affine else None
        self.bias = init.zeros(shape, dtype) if elementwise_affine and bias else None

    def __call__(self, x):
        return F.layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)


class Dropout(Module):
    """Zero elements with probability p when training (needs a key then)."""

    p: float = static_field(default=0.5)

    def __init__(self, p=0.5):
        check_dropout_p(p)
        self.p = float(p)

    def __call__(self, x, key=None, training=True):
        return F.dropout(x, self.p, key, training)


class Embedding(Module):
    """A lookup table (num_embeddings, embedding_dim), initialised N(0, 1) (padding row zero)."""

    weight: Array
    padding_idx: Any = static_field(default=None)

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, *, key=None, dtype=None):
        w = init.normal(_require_key(key, "Embedding"), (num_embeddings, embedding_dim), dtype)
        if padding_idx is not None:
            padding_idx = padding_idx % num_embeddings
            w = w.at[padding_idx].set(0.0)
        self.weight, self.padding_idx = w, padding_idx

    def __call__(self, ids):
        return F.embedding(ids, self.weight, self.padding_idx)


class Lambda(Module):
    """A parameter-free function as a layer (e.g. ``Lambda(F.relu)``)."""

    fn: Callable = static_field()

    def __call__(self, x, **kwargs):
        return self.fn(x)


class Sequential(Module):
    """Layers applied in order; plain functions are wrapped in :class:`Lambda`.

    ``key`` (split among Dropout layers) and ``training`` are passed to the layers that take them.
    """

    layers: tuple

    def __init__(self, *layers):
        if len(layers) == 1 and isinstance(layers[0], (list, tuple)):
            layers = tuple(layers[0])
        for i, layer in enumerate(layers):
            if not callable(layer):
                raise TypeError(f"Sequential: layer {i} ({type(layer).__name__}) is not callable")
        self.layers = tuple(layer if isinstance(layer, Module) else Lambda(layer) for layer in layers)

    def __call__(self, x, key=None, training=True):
        for layer in self.layers:
            if isinstance(layer, Dropout):
                if training and 0 < layer.p < 1:
                    if key is None:
                        raise ValueError("Sequential: a Dropout layer needs key=... when training")
                    key, sub = _random.split(key)
                    x = layer(x, sub, training)
            else:
                x = layer(x)
        return x

    def __getitem__(self, i):
        return Sequential(*self.layers[i]) if isinstance(i, slice) else self.layers[i]

    def __len__(self):
        return len(self.layers)


class MLP(Module):
    """Linear layers ``in -> width (x depth) -> out`` with ``activation`` between them."""

    layers: tuple
    activation: Callable = static_field()

    def __init__(self, in_size, out_size, width, depth, activation=F.relu, *, key=None, dtype=None):
        keys = _random.split(_require_key(key, "MLP"), depth + 1)
        sizes = [in_size] + [width] * depth + [out_size]
        self.layers = tuple(Linear(a, b, key=k, dtype=dtype) for a, b, k in zip(sizes[:-1], sizes[1:], keys))
        self.activation = activation

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = self.activation(layer(x))
        return self.layers[-1](x)
