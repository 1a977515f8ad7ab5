"""Activations, softmax and friends, dropout, linear, embedding, one_hot (functional).

Every function is written with funcgrad.numpy, stable for large magnitudes in
value and gradient (no branch that overflows, even one masked off by a select).
"""

from __future__ import annotations

import math

import numpy as np

from .. import numpy as fnp
from .. import random as _random
from ..core import Array, Tracer
from ..primitives.activations import relu as _relu
from ..primitives.dense import dense
from ..primitives.special import erf
from ..primitives.stop_gradient import stop_gradient

__all__ = [
    "linear", "relu", "relu6", "leaky_relu", "elu", "gelu", "silu", "sigmoid", "log_sigmoid", "tanh",
    "softplus", "softmax", "log_softmax", "dropout", "embedding", "one_hot", "hardtanh",
]


def _arr(x):
    return x if isinstance(x, (Array, Tracer)) else fnp.asarray(x)


def _axis(axis, dim):
    return axis if dim is None else dim


def linear(input, weight, bias=None):
    """``input @ weight.T + bias`` with PyTorch's weight layout (out_features, in_features)."""
    if weight.ndim not in (1, 2) or input.shape[-1:] != weight.shape[-1:]:
        raise ValueError(f"linear: input {tuple(input.shape)} and weight {tuple(weight.shape)} do not match "
                         "(weight is (out_features, in_features); input's last axis is in_features)")
    if weight.ndim == 2 and (bias is None or tuple(bias.shape) == weight.shape[:1]):
        return dense(input, weight, bias)
    y = fnp.matmul(input, weight.T if weight.ndim == 2 else weight)
    return y if bias is None else y + bias


def relu(x):
    """max(x, 0); the gradient at 0 is 0 (as PyTorch). One primitive: see primitives/activations.py."""
    return _relu(_arr(x))


def relu6(x):
    return hardtanh(relu(x), 0.0, 6.0)


def hardtanh(x, min_val=-1.0, max_val=1.0):
    """clip(x, min_val, max_val); gradient 1 strictly inside, 0 outside (PyTorch)."""
    x = _arr(x)
    return fnp.where(x <= min_val, min_val, fnp.where(x >= max_val, max_val, x))


def leaky_relu(x, negative_slope=0.01):
    x = _arr(x)
    return fnp.where(x > 0, x, x * negative_slope)


def elu(x, alpha=1.0):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""
    x = _arr(x)
    neg = fnp.where(x > 0, 0, x)  # keeps exp finite in the unused branch
    return fnp.where(x > 0, x, alpha * fnp.expm1(neg))


def gelu(x, approximate="none"):
    """x * Phi(x); ``approximate='tanh'``: PyTorch's tanh approximation."""
    x = _arr(x)
    if approximate == "tanh":
        c = math.sqrt(2.0 / math.pi)
        return 0.5 * x * (1.0 + fnp.tanh(c * (x + 0.044715 * x * x * x)))
    if approximate != "none":
        raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
    return 0.5 * x * (1.0 + erf(x * (1.0 / math.sqrt(2.0))))


def sigmoid(x):
    """1 / (1 + exp(-x)), stable: exp is only taken of -|x|."""
    x = _arr(x)
    pos = x >= 0
    e = fnp.exp(fnp.where(pos, -x, x))
    return fnp.where(pos, 1.0 / (1.0 + e), e / (1.0 + e))


def _softplus0(z):
    """log(1 + exp(z)) without overflow (value and gradient)."""
    pos = z > 0
    return fnp.where(pos, z, 0) + fnp.log1p(fnp.exp(fnp.where(pos, -z, z)))


def log_sigmoid(x):
    return -_softplus0(-_arr(x))


def silu(x):
    x = _arr(x)
    return x * sigmoid(x)


def tanh(x):
    return fnp.tanh(x)


def softplus(x, beta=1.0, threshold=20.0):
    """log(1 + exp(beta x)) / beta, and x itself where beta x > threshold (PyTorch)."""
    x = _arr(x)
    bx = x * beta
    return fnp.where(bx > threshold, x, _softplus0(bx) / beta)


def softmax(x, axis=-1, *, dim=None):
    """exp(x) / sum(exp(x)) along ``axis``, shifted by the max (finite for |x| ~ 1e308)."""
    x = _arr(x)
    axis = _axis(axis, dim)
    e = fnp.exp(x - fnp.max(stop_gradient(x), axis=axis, keepdims=True))
    return e / fnp.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis=-1, *, dim=None):
    """x - logsumexp(x) along ``axis``, stable for any magnitude."""
    x = _arr(x)
    axis = _axis(axis, dim)
    shifted = x - fnp.max(stop_gradient(x), axis=axis, keepdims=True)  # a constant shift
    return shifted - fnp.log(fnp.sum(fnp.exp(shifted), axis=axis, keepdims=True))


def check_dropout_p(p):
    """PyTorch's ValueError for a dropout probability outside [0, 1] (every dropout here and in compat)."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(x, p=0.5, key=None, training=True):
    """Zero each element with probability ``p`` and scale the rest by 1/(1-p).

    Needs a ``key`` (funcgrad.random) when training with 0 < p < 1; identity otherwise.
    """
    x = _arr(x)
    check_dropout_p(p)
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return x * 0.0
    if key is None:
        raise ValueError("dropout: training with 0 < p < 1 needs a random key: dropout(x, p, key=fg.random.key(0))")
    keep = _random.bernoulli(key, 1.0 - p, tuple(x.shape))
    return fnp.where(keep, x * (1.0 / (1.0 - p)), 0)


def embedding(input, weight, padding_idx=None):
    """Rows ``weight[input]``; the row ``padding_idx`` receives no gradient."""
    input = _arr(input)
    if input.dtype.kind not in "iu":
        raise TypeError(f"embedding: indices must be integers, got {input.dtype}")
    if weight.ndim != 2:
        raise ValueError(f"embedding: weight must be 2-d (num_embeddings, dim), got shape {tuple(weight.shape)}")
    if not isinstance(input, Tracer) and input.size:
        lo, hi = int(fnp.min(input)), int(fnp.max(input))
        if lo < 0 or hi >= weight.shape[0]:
            raise IndexError(f"embedding: index {lo if lo < 0 else hi} is out of range for "
                             f"{weight.shape[0]} embeddings")
    out = weight[input]
    if padding_idx is not None:
        pad = padding_idx % weight.shape[0]
        out = fnp.where(fnp.expand_dims(input == pad, -1), stop_gradient(out), out)
    return out


def one_hot(x, num_classes=-1, dtype=np.int64):
    """(..., ) integer labels -> (..., num_classes) one-hot array (PyTorch's int64 default)."""
    x = _arr(x)
    if x.dtype.kind not in "iu":
        raise TypeError(f"one_hot: labels must be integers, got {x.dtype}")
    if num_classes == -1:
        num_classes = int(fnp.max(x)) + 1 if x.size else 0
    if not isinstance(x, Tracer) and x.size and (int(fnp.min(x)) < 0 or int(fnp.max(x)) >= num_classes):
        raise ValueError(f"one_hot: class values must be in [0, {num_classes})")
    classes = fnp.arange(num_classes, device=x.device)
    return fnp.astype(fnp.expand_dims(x, -1) == classes, dtype)
