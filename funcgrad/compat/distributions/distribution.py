"""The base of torch.distributions: ``Distribution`` (batch and event shapes, sampling, argument and
sample validation against ``arg_constraints`` / ``support``, ``expand``), ``ExponentialFamily`` and
the helpers the distribution families share (parameters as tensors, numpy draws from the compat
generator)."""

from __future__ import annotations

import warnings

import numpy as np

from .. import creation as _c
from ..autograd.grad_mode import no_grad
from ..tensor import Size, Tensor
from . import constraints
from .utils import lazy_property

__all__ = ["Distribution"]


def _t(x, like=None):
    """x as a tensor (a Python number in like's floating dtype, else the default dtype)."""
    if isinstance(x, Tensor):
        return x
    dtype = like.dtype if isinstance(like, Tensor) and like.is_floating_point() else None
    device = like.device if isinstance(like, Tensor) else None
    return _c.tensor(float(x), dtype=dtype, device=device)


class Distribution:
    """Base class: ``batch_shape``, ``event_shape``, ``sample``/``rsample``, ``log_prob``, ``cdf``,
    ``icdf``, ``entropy``, ``expand``; parameters checked against ``arg_constraints`` and values
    passed to ``log_prob`` against ``support`` unless ``validate_args=False``."""

    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value):
        """Turn argument validation on or off for every distribution created afterwards."""
        if value not in (True, False):
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape=Size(), event_shape=Size(), validate_args=None):
        self._batch_shape, self._event_shape = Size(batch_shape), Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            try:
                arg_constraints = self.arg_constraints
            except NotImplementedError:
                arg_constraints = {}
                warnings.warn(f"{self.__class__} does not define `arg_constraints`. Please set `arg_constraints = {{}}`"
                              " or initialize the distribution with `validate_args=False` to turn off validation.",
                              stacklevel=2)
            for param, constraint in arg_constraints.items():
                if constraints.is_dependent(constraint):
                    continue
                if param not in self.__dict__ and isinstance(getattr(type(self), param, None), lazy_property):
                    continue
                value = getattr(self, param)
                if not bool(constraint.check(value).all()):
                    raise ValueError(f"Expected parameter {param} ({type(value).__name__} of shape "
                                     f"{tuple(value.shape)}) of distribution {self!r} to satisfy the constraint "
                                     f"{constraint!r}, but found invalid values:\n{value}")

    def _get_checked_instance(self, cls, _instance=None):
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom "
                                      "__init__ method must also define a custom .expand() method.")
        return self.__new__(type(self)) if _instance is None else _instance

    def expand(self, batch_shape, _instance=None):
        """A new distribution whose parameters are expanded (not copied) to ``batch_shape``."""
        batch_shape = Size(batch_shape)
        new = self._get_checked_instance(type(self), _instance)
        nb = len(self._batch_shape)
        cls = type(self)
        given = self.__dict__.get("_param")
        for name, v in self.__dict__.items():
            if isinstance(getattr(cls, name, None), lazy_property) and v is not given:
                continue  # recomputed from the expanded parameters when asked for
            if isinstance(v, Tensor) and v.dim() >= nb and tuple(v.shape[:nb]) == tuple(self._batch_shape):
                v = v.expand(*batch_shape, *v.shape[nb:])
            new.__dict__[name] = v
        Distribution.__init__(new, batch_shape, self._event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    @property
    def arg_constraints(self):
        raise NotImplementedError

    @property
    def support(self):
        raise NotImplementedError

    @property
    def mean(self):
        raise NotImplementedError(f"{self.__class__} does not implement mean")

    @property
    def mode(self):
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self):
        raise NotImplementedError(f"{self.__class__} does not implement variance")

    @property
    def stddev(self):
        return self.variance.sqrt()

    def sample(self, sample_shape=Size()):
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=Size()):
        raise NotImplementedError(f"{type(self).__name__} has no reparameterized sampler (rsample)")

    def sample_n(self, n):
        warnings.warn("sample_n will be deprecated. Use .sample((n,)) instead", UserWarning, stacklevel=2)
        return self.sample(Size((n,)))

    def log_prob(self, value):
        raise NotImplementedError(f"{type(self).__name__} does not implement log_prob")

    def cdf(self, value):
        raise NotImplementedError(f"{type(self).__name__} does not implement cdf")

    def icdf(self, value):
        raise NotImplementedError(f"{type(self).__name__} does not implement icdf")

    def enumerate_support(self, expand=True):
        raise NotImplementedError(f"{type(self).__name__} does not implement enumerate_support")

    def entropy(self):
        raise NotImplementedError(f"{type(self).__name__} does not implement entropy")

    def perplexity(self):
        return self.entropy().exp()

    def _extended_shape(self, sample_shape=Size()):
        return Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def _validate_sample(self, value):
        """Raise PyTorch's ValueError when value is not a tensor, has the wrong event shape, does not
        broadcast with batch_shape + event_shape, or lies outside the support."""
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        start = value.dim() - len(self._event_shape)
        if tuple(value.shape[start:]) != tuple(self._event_shape):
            raise ValueError(f"The right-most size of value must match event_shape: {value.size()} vs "
                             f"{self._event_shape}.")
        actual, expected = value.size(), Size(tuple(self._batch_shape) + tuple(self._event_shape))
        for i, j in zip(reversed(actual), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: {actual} vs {expected}.")
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(f"{self.__class__} does not define `support` to enable sample validation. Please "
                          "initialize the distribution with `validate_args=False` to turn off validation.",
                          stacklevel=2)
            return
        if not bool(support.check(value).all()):
            raise ValueError(f"Expected value argument ({type(value).__name__} of shape {tuple(value.size())}) to be "
                             f"within the support ({support!r}) of the distribution {self!r}, but found invalid "
                             f"values:\n{value}")

    def _value(self, value, like=None):
        """value as a tensor (numbers take the parameters' dtype), validated when validation is on."""
        if not isinstance(value, Tensor):
            if self._validate_args:
                self._validate_sample(value)
            value = _t(value, like)
        elif self._validate_args:
            self._validate_sample(value)
        return value

    def __repr__(self):
        try:
            names = [k for k in self.arg_constraints if k in self.__dict__]
        except NotImplementedError:
            names = []
        args = ", ".join(f"{p}: {self.__dict__[p] if self.__dict__[p].numel() == 1 else self.__dict__[p].size()}"
                         for p in names)
        return f"{type(self).__name__}({args})"


def _broadcast(*xs):
    """Parameters broadcast together (numbers take the first tensor's dtype) and their shape."""
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


def _finfo(t):
    from ..ops_math_extra import finfo  # noqa: PLC0415

    return finfo(t.dtype)


class _Simple(Distribution):
    """Shared plumbing: parameters broadcast together and stored as attributes."""

    def _setup(self, names, values, validate_args=None, event_shape=Size()):
        from .utils import broadcast_all  # noqa: PLC0415

        vals = broadcast_all(*values)
        shape = vals[0].shape
        for n, v in zip(names, vals):
            setattr(self, n, v)
        Distribution.__init__(self, shape, event_shape, validate_args=validate_args)

    def _value(self, value, like=None):
        return Distribution._value(self, value, like if like is not None else
                                   getattr(self, next(iter(self.arg_constraints))))


from .exp_family import ExponentialFamily  # noqa: E402,F401  (the base of the exponential families)
