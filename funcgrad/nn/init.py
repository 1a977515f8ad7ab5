"""Initializers with PyTorch's conventions (gains, fans), as pure functions of a key.

    w = nn.init.kaiming_uniform(key, (out, in), a=math.sqrt(5))

Each takes ``(key, shape, dtype=float64, ...)`` and returns a new Array on the
key's device; fans follow ``torch.nn.init``: for a weight of shape
``(out, in, *kernel)``, ``fan_in = in * prod(kernel)``, ``fan_out = out * prod(kernel)``.
"""

from __future__ import annotations

import math

import numpy as np

from .. import backend
from .. import random as _random
from ..core import Array
from .. import numpy as fnp

__all__ = [
    "calculate_gain", "fans", "uniform", "normal", "trunc_normal", "constant", "zeros", "ones",
    "xavier_uniform", "xavier_normal", "glorot_uniform", "glorot_normal", "kaiming_uniform",
    "kaiming_normal", "he_uniform", "he_normal", "orthogonal",
]


def calculate_gain(nonlinearity, param=None):
    """PyTorch's recommended gain for a nonlinearity."""
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid")
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        if isinstance(slope, bool) or not isinstance(slope, (int, float)):
            raise ValueError(f"negative_slope {slope} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def fans(shape):
    """(fan_in, fan_out) of a weight shape (out, in, *receptive field)."""
    shape = tuple(shape)
    if len(shape) < 2:
        raise ValueError(f"Fan in and fan out can not be computed for tensor with fewer than 2 dimensions "
                         f"(shape {shape})")
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def _dt(dtype):
    return np.dtype(float if dtype is None else dtype)


def uniform(key, shape, dtype=None, a=0.0, b=1.0):
    return _random.uniform(key, shape, _dt(dtype), a, b)


def normal(key, shape, dtype=None, mean=0.0, std=1.0):
    return _random.normal(key, shape, _dt(dtype), mean, std)


def trunc_normal(key, shape, dtype=None, mean=0.0, std=1.0, a=-2.0, b=2.0):
    """Normal(mean, std) truncated to [a, b] (bounds in value units, as PyTorch)."""
    z = _random.truncated_normal(key, (a - mean) / std, (b - mean) / std, shape, _dt(dtype))
    return z * std + mean


def _device_of(key):
    return key.device if isinstance(key, Array) else None


def constant(shape, value, dtype=None, *, device=None):
    return fnp.full(shape, value, dtype=_dt(dtype), device=device)


def zeros(shape, dtype=None, *, device=None):
    return constant(shape, 0.0, dtype, device=device)


def ones(shape, dtype=None, *, device=None):
    return constant(shape, 1.0, dtype, device=device)


def xavier_uniform(key, shape, dtype=None, gain=1.0):
    """U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out)) (Glorot & Bengio, 2010)."""
    fi, fo = fans(shape)
    a = gain * math.sqrt(6.0 / (fi + fo))
    return uniform(key, shape, dtype, -a, a)


def xavier_normal(key, shape, dtype=None, gain=1.0):
    """N(0, std**2), std = gain * sqrt(2 / (fan_in + fan_out))."""
    fi, fo = fans(shape)
    return normal(key, shape, dtype, 0.0, gain * math.sqrt(2.0 / (fi + fo)))


def _fan(shape, mode):
    fi, fo = fans(shape)
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    return fi if mode == "fan_in" else fo


def kaiming_uniform(key, shape, dtype=None, a=0.0, mode="fan_in", nonlinearity="leaky_relu"):
    """U(-b, b), b = gain * sqrt(3 / fan) (He et al., 2015), gain = calculate_gain(nonlinearity, a)."""
    fan = _fan(shape, mode)
    bound = calculate_gain(nonlinearity, a) * math.sqrt(3.0 / fan) if fan else 0.0
    return uniform(key, shape, dtype, -bound, bound)


def kaiming_normal(key, shape, dtype=None, a=0.0, mode="fan_in", nonlinearity="leaky_relu"):
    """N(0, std**2), std = gain / sqrt(fan)."""
    fan = _fan(shape, mode)
    return normal(key, shape, dtype, 0.0, calculate_gain(nonlinearity, a) / math.sqrt(fan) if fan else 0.0)


glorot_uniform, glorot_normal = xavier_uniform, xavier_normal
he_uniform, he_normal = kaiming_uniform, kaiming_normal


def orthogonal(key, shape, dtype=None, gain=1.0):
    """A (semi-)orthogonal matrix (rows, prod(rest)) reshaped to ``shape`` (Saxe et al., 2013)."""
    shape = tuple(shape)
    if len(shape) < 2:
        raise ValueError(f"Only tensors with 2 or more dimensions are supported, got shape {shape}")
    rows = shape[0]
    cols = math.prod(shape[1:])
    flat = _random.normal(key, (rows, cols), _dt(dtype))._value
    xp = backend.namespace_of(flat)
    if rows < cols:
        flat = flat.T
    q, r = xp.linalg.qr(flat)
    q = q * xp.sign(xp.diagonal(r))
    if rows < cols:
        q = q.T
    return Array._from_buffer((q * gain).astype(_dt(dtype)).reshape(shape))
