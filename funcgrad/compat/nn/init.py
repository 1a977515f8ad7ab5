"""torch.nn.init: in-place initialisers (formulas and gains from funcgrad.nn.init).

Random draws use the compat generator (``torch.manual_seed``).  The old names
without the trailing underscore (``xavier_uniform``, ``constant``, ``normal``,
...) still work with a deprecation warning, as in PyTorch.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ...nn.init import _fan, calculate_gain, fans
from ..autograd.grad_mode import no_grad

__all__ = [
    "calculate_gain", "uniform_", "normal_", "trunc_normal_", "constant_", "ones_", "zeros_", "eye_", "dirac_",
    "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "orthogonal_",
]


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    return fans(tensor.shape)


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """N(mean, std) truncated to [a, b] (out-of-range draws are redrawn)."""
    from ..creation import _rng  # noqa: PLC0415

    rng, n = _rng(generator), tensor.numel()
    out = np.empty(0)
    while out.size < n:
        d = rng.normal(mean, std, max(2 * (n - out.size), 16))
        out = np.concatenate([out, d[(d >= a) & (d <= b)]])
    with no_grad():
        tensor.copy_(tensor.new_tensor(out[:n].reshape(tuple(tensor.shape))))
    return tensor


def constant_(tensor, val):
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    return constant_(tensor, 1.0)


def zeros_(tensor):
    with no_grad():
        return tensor.zero_()


def eye_(tensor):
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        tensor.copy_(tensor.new_tensor(np.eye(*tensor.shape)))
    return tensor


def dirac_(tensor, groups=1):
    d = tensor.dim()
    if d not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    out_per = tensor.shape[0] // groups
    w = np.zeros(tuple(tensor.shape))
    for g in range(groups):
        for i in range(min(out_per, tensor.shape[1])):
            w[(g * out_per + i, i) + tuple(s // 2 for s in tensor.shape[2:])] = 1
    with no_grad():
        tensor.copy_(tensor.new_tensor(w))
    return tensor


def xavier_uniform_(tensor, gain=1.0, generator=None):
    fi, fo = _calculate_fan_in_and_fan_out(tensor)
    a = gain * math.sqrt(6.0 / (fi + fo))
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    fi, fo = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / (fi + fo)), generator)


def _kaiming_scale(tensor, a, mode, nonlinearity):
    if tensor.numel() == 0:
        warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=3)
        return None
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    return calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor.shape, mode))


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    std = _kaiming_scale(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    std = _kaiming_scale(tensor, a, mode, nonlinearity)
    return tensor if std is None else normal_(tensor, 0.0, std, generator)


def orthogonal_(tensor, gain=1.0, generator=None):
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    rows, cols = tensor.shape[0], tensor.numel() // tensor.shape[0]
    from .. import randn  # noqa: PLC0415

    flat = randn(rows, cols, generator=generator, dtype=tensor.dtype).numpy()
    if rows < cols:
        flat = flat.T
    q, r = np.linalg.qr(flat)
    q = q * np.sign(np.diagonal(r))
    if rows < cols:
        q = q.T
    with no_grad():
        tensor.copy_(tensor.new_tensor((q * gain).reshape(tuple(tensor.shape))))
    return tensor


def _deprecated(new):
    old = new.__name__[:-1]

    def f(*args, **kwargs):
        warnings.warn(f"nn.init.{old} is now deprecated in favor of nn.init.{new.__name__}.",
                      FutureWarning, stacklevel=2)
        return new(*args, **kwargs)

    f.__name__ = old
    f.__doc__ = f"Deprecated spelling of :func:`{new.__name__}`."
    return f


uniform, normal, constant = _deprecated(uniform_), _deprecated(normal_), _deprecated(constant_)
xavier_uniform, xavier_normal = _deprecated(xavier_uniform_), _deprecated(xavier_normal_)
kaiming_uniform, kaiming_normal = _deprecated(kaiming_uniform_), _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """A 2-D tensor from N(0, std), then ``ceil(sparsity * rows)`` random rows of each column zeroed."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    from ..creation import randperm  # noqa: PLC0415

    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    with no_grad():
        normal_(tensor, 0.0, std, generator)
        for c in range(cols):
            tensor[randperm(rows, generator=generator)[:num_zeros], c] = 0
    return tensor


eye, dirac, sparse = _deprecated(eye_), _deprecated(dirac_), _deprecated(sparse_)
__all__ += ["sparse_"]
