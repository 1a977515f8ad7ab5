"""torch.distributions: ``Categorical``, ``Normal``, ``Bernoulli`` and ``kl_divergence`` between them.

Parameters are compat tensors, so ``log_prob``, ``entropy``, ``rsample`` (Normal) and
``kl_divergence`` are differentiable (REINFORCE, VAEs); ``sample`` draws from the compat
generator (``torch.manual_seed``) without gradient. Invalid parameters raise PyTorch's
ValueError ("... to satisfy the constraint ...") unless ``validate_args=False``.
"""

from __future__ import annotations

import math

import numpy as np

from . import creation as _c
from .grad_mode import no_grad
from .tensor import Size, Tensor

__all__ = ["Distribution", "Categorical", "Normal", "Bernoulli", "kl_divergence"]


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


class Categorical(Distribution):
    """Draws class indices with ``probs`` (normalised along the last dimension) or ``logits``."""

    _params = ("probs", "logits")

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
            self.logits = self.probs.clamp(min=1.1754943508222875e-38).log()
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
            self.probs = self.logits.softmax(-1)
        self._num_events = self.probs.shape[-1]
        super().__init__(self.probs.shape[:-1], validate_args=validate_args)
        if probs is not None and validate_args is not False:
            self._check("probs", self.probs, (probs >= 0).all() and (self.probs.sum(-1) - 1).abs().max() < 1e-6,
                        "Simplex()")

    @property
    def param_shape(self):
        return self.probs.shape

    def sample(self, sample_shape=Size()):
        from .sampling import multinomial  # noqa: PLC0415

        n = math.prod(sample_shape)
        with no_grad():
            flat = multinomial(self.probs.reshape(-1, self._num_events), max(n, 1), True)  # (batch, n)
        return flat.t()[:n].reshape(*sample_shape, *self.batch_shape)

    def log_prob(self, value):
        value = value.long().unsqueeze(-1)
        shape = tuple(value.shape[:-1])
        logits = self.logits.expand(*shape, self._num_events) if shape != tuple(self.batch_shape) else self.logits
        return logits.gather(-1, value).squeeze(-1)

    def entropy(self):
        return -(self.probs * self.logits.clamp(min=-3.4028234663852886e38)).sum(-1)


class Normal(Distribution):
    """Gaussian with ``loc`` and ``scale`` (broadcast together); ``rsample`` is differentiable."""

    has_rsample = True
    _params = ("loc", "scale")

    def __init__(self, loc, scale, validate_args=None):
        loc, scale = _t(loc, scale), _t(scale, loc)
        shape = np.broadcast_shapes(tuple(loc.shape), tuple(scale.shape))
        self.loc, self.scale = loc.expand(*shape), scale.expand(*shape)
        super().__init__(shape, validate_args=validate_args)
        if validate_args is not False:
            self._check("scale", self.scale, (self.scale > 0).all(), "GreaterThan(lower_bound=0.0)")

    mean = property(lambda self: self.loc)
    stddev = property(lambda self: self.scale)
    variance = property(lambda self: self.scale ** 2)

    def rsample(self, sample_shape=Size()):
        eps = _c.randn(*self._extended_shape(sample_shape), dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + eps * self.scale

    def log_prob(self, value):
        value = _t(value, self.loc)
        return -((value - self.loc) ** 2) / (2 * self.variance) - self.scale.log() - math.log(math.sqrt(2 * math.pi))

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log()


class Bernoulli(Distribution):
    """0/1 draws with ``probs`` or ``logits``; samples are floats, as PyTorch's."""

    _params = ("probs", "logits")

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            self.probs = _t(probs)
            eps = 1.1920928955078125e-07
            p = self.probs.clamp(eps, 1 - eps)
            self.logits = p.log() - (1 - p).log()
            if validate_args is not False:
                self._check("probs", self.probs, ((self.probs >= 0) & (self.probs <= 1)).all(), "Interval(lower_bound=0.0, upper_bound=1.0)")
        else:
            self.logits = _t(logits)
            self.probs = self.logits.sigmoid()
        super().__init__(self.probs.shape, validate_args=validate_args)

    mean = property(lambda self: self.probs)
    variance = property(lambda self: self.probs * (1 - self.probs))

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        with no_grad():
            u = _c.rand(*shape, dtype=self.probs.dtype, device=self.probs.device)
            return (u < self.probs.expand(*shape)).to(self.probs.dtype)

    def log_prob(self, value):
        from .nn.functional import binary_cross_entropy_with_logits  # noqa: PLC0415

        value = _t(value, self.logits)
        logits = self.logits.expand(*np.broadcast_shapes(tuple(self.logits.shape), tuple(value.shape)))
        return -binary_cross_entropy_with_logits(logits, value.expand(*logits.shape), reduction="none")

    def entropy(self):
        from .nn.functional import binary_cross_entropy_with_logits  # noqa: PLC0415

        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")


def kl_divergence(p, q):
    """KL(p || q) for two Normals, two Categoricals or two Bernoullis (batched, differentiable)."""
    if isinstance(p, Normal) and isinstance(q, Normal):
        var_ratio = (p.scale / q.scale) ** 2
        t1 = ((p.loc - q.loc) / q.scale) ** 2
        return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())
    if isinstance(p, Categorical) and isinstance(q, Categorical):
        t = p.probs * (p.logits - q.logits)
        return t.masked_fill(p.probs == 0, 0.0).sum(-1)
    if isinstance(p, Bernoulli) and isinstance(q, Bernoulli):
        return p.probs * (p.logits.sigmoid().log() - q.logits.sigmoid().log()) + \
            (1 - p.probs) * ((-p.logits).sigmoid().log() - (-q.logits).sigmoid().log())
    raise NotImplementedError(f"No KL(p || q) is implemented for p = {type(p).__name__}, q = {type(q).__name__}")
from .distributions_more import *  # noqa: E402,F401,F403  (Uniform, Gamma, MultivariateNormal, ..., register_kl)
from .distribution_transforms import *  # noqa: E402,F401,F403  (TanhTransform, TransformedDistribution, ...)
