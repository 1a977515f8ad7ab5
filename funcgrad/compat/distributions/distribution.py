"""The base of torch.distributions: ``Distribution`` (batch and event shapes, sampling, argument
validation), ``ExponentialFamily`` and the helpers the distribution families share (parameters as
tensors, broadcasting, numpy draws from the compat generator)."""

from __future__ import annotations


import numpy as np

from .. import creation as _c
from ..grad_mode import no_grad
from ..tensor import Size, Tensor

__all__ = ["Distribution", "ExponentialFamily"]


def _t(x, like=None):
    if isinstance(x, Tensor):
        return x
    dtype = like.dtype if isinstance(like, Tensor) and like.is_floating_point() else None
    return _c.tensor(float(x), dtype=dtype)


class Distribution:
    """Base class: ``batch_shape``, ``event_shape``, ``sample(sample_shape)``, ``log_prob``, ``entropy``."""

    has_rsample = False

    def __init__(self, batch_shape=Size(), event_shape=Size(), validate_args=None):
        self._batch_shape, self._event_shape = Size(batch_shape), Size(event_shape)

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    def _extended_shape(self, sample_shape=Size()):
        return Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def sample(self, sample_shape=Size()):
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=Size()):
        raise NotImplementedError(f"{type(self).__name__} has no reparameterized sampler (rsample)")

    def _check(self, name, value, ok, constraint):
        if not bool(ok):
            raise ValueError(f"Expected parameter {name} (Tensor of shape {tuple(value.shape)}) of distribution "
                             f"{self!r} to satisfy the constraint {constraint}, but found invalid values:\n{value}")

    def __repr__(self):
        args = ", ".join(f"{p}: {getattr(self, p).shape if getattr(self, p).dim() else getattr(self, p).item()}"
                         for p in self._params)
        return f"{type(self).__name__}({args})"


class ExponentialFamily(Distribution):
    """Base of the exponential-family distributions (as PyTorch's class hierarchy has it)."""


_EULER = 0.57721566490153286061


def _broadcast(*xs):
    ts = [x for x in xs if isinstance(x, Tensor)]
    like = ts[0] if ts else None
    xs = [_t(x, like) for x in xs]
    shape = np.broadcast_shapes(*(tuple(x.shape) for x in xs))
    return [x.expand(*shape) for x in xs], Size(shape)


def _draw(fn, like, shape):
    """A tensor of ``shape`` from numpy generator draws ``fn(rng, shape)``, in like's dtype/device."""
    rng = _c._rng(None)
    with no_grad():
        v = np.asarray(fn(rng, tuple(shape)))
        return _c.tensor(v, dtype=like.dtype, device=like.device)


def _host(t):
    v = t.detach()._value
    return v.get() if hasattr(v, "get") else np.asarray(v)


class _Simple(Distribution):
    """Shared plumbing: parameters broadcast together, validation of positivity."""

    def _setup(self, names, values, positive=(), validate_args=None):
        vals, shape = _broadcast(*values)
        for n, v in zip(names, vals):
            setattr(self, n, v)
        self._params = names
        Distribution.__init__(self, shape, validate_args=validate_args)
        if validate_args is not False:
            for n in positive:
                self._check(n, getattr(self, n), (getattr(self, n) > 0).all(), "GreaterThan(lower_bound=0.0)")

    def _value(self, value):
        return _t(value, getattr(self, self._params[0]))
