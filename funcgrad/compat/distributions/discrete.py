"""Discrete distributions: Bernoulli, Categorical, OneHotCategorical, Poisson, Geometric, Binomial."""

from __future__ import annotations

import math

import numpy as np

from .. import creation as _c
from ..grad_mode import no_grad
from ..tensor import Size
from .distribution import Distribution, ExponentialFamily, _broadcast, _draw, _host, _Simple, _t

__all__ = ["Bernoulli", "Categorical", "OneHotCategorical", "Poisson", "Geometric", "Binomial"]


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
        from ..sampling import multinomial  # noqa: PLC0415

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
        from ..nn.functional import binary_cross_entropy_with_logits  # noqa: PLC0415

        value = _t(value, self.logits)
        logits = self.logits.expand(*np.broadcast_shapes(tuple(self.logits.shape), tuple(value.shape)))
        return -binary_cross_entropy_with_logits(logits, value.expand(*logits.shape), reduction="none")

    def entropy(self):
        from ..nn.functional import binary_cross_entropy_with_logits  # noqa: PLC0415

        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")


class Poisson(_Simple, ExponentialFamily):
    def __init__(self, rate, validate_args=None):
        self._setup(("rate",), (rate,), (), validate_args)
        if validate_args is not False:
            self._check("rate", self.rate, (self.rate >= 0).all(), "GreaterThanEq(lower_bound=0.0)")

    mean = property(lambda self: self.rate)
    variance = property(lambda self: self.rate)

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        lam = np.broadcast_to(_host(self.rate), shape)
        return _draw(lambda rng, s: rng.poisson(lam, s), self.rate, shape)

    def log_prob(self, value):
        k = self._value(value)
        return k.xlogy(self.rate) - self.rate - (k + 1).lgamma()


class Geometric(Distribution):
    """Number of failures before the first success, with ``probs`` or ``logits``."""

    def __init__(self, probs=None, logits=None, validate_args=None):
        b = Bernoulli(probs, logits, validate_args=validate_args)
        self.probs, self.logits = b.probs, b.logits
        self._params = ("probs",)
        super().__init__(self.probs.shape, validate_args=validate_args)

    mean = property(lambda self: 1.0 / self.probs - 1.0)
    variance = property(lambda self: (1.0 / self.probs - 1.0) / self.probs)

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        p = np.broadcast_to(_host(self.probs), shape)
        return _draw(lambda rng, s: rng.geometric(p, s) - 1, self.probs, shape)

    def log_prob(self, value):
        k = _t(value, self.probs)
        p = self.probs.clamp(1.1920928955078125e-07, 1 - 1.1920928955078125e-07)
        return k * (-p).log1p() + self.probs.log()

    def entropy(self):
        from ..nn.functional import binary_cross_entropy_with_logits  # noqa: PLC0415

        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none") / self.probs


class Binomial(Distribution):
    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        b = Bernoulli(probs, logits, validate_args=validate_args)
        (self.total_count, self.probs), shape = _broadcast(_t(total_count, b.probs).to(b.probs.dtype), b.probs)
        self.logits = b.logits.expand(*shape)
        self._params = ("total_count", "probs")
        super().__init__(shape, validate_args=validate_args)

    mean = property(lambda self: self.total_count * self.probs)
    variance = property(lambda self: self.total_count * self.probs * (1 - self.probs))

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        n = np.broadcast_to(_host(self.total_count).astype(np.int64), shape)
        p = np.broadcast_to(_host(self.probs), shape)
        return _draw(lambda rng, s: rng.binomial(n, p, s), self.probs, shape)

    def log_prob(self, value):
        k = _t(value, self.probs)
        n = self.total_count
        log_comb = (n + 1).lgamma() - (k + 1).lgamma() - (n - k + 1).lgamma()
        # -(k log p + (n - k) log(1 - p)) = n softplus(logits) - k logits: stable, and exact in its gradient
        from ..nn.functional import softplus  # noqa: PLC0415

        norm = n * softplus(self.logits) - k * self.logits
        return log_comb - norm.masked_fill((n == k) & (self.logits == math.inf), 0.0)


class OneHotCategorical(Distribution):
    def __init__(self, probs=None, logits=None, validate_args=None):
        self._categorical = Categorical(probs, logits, validate_args)
        self.probs, self.logits = self._categorical.probs, self._categorical.logits
        self._params = ("probs",)
        super().__init__(self._categorical.batch_shape, self.probs.shape[-1:], validate_args)

    mean = property(lambda self: self.probs)
    variance = property(lambda self: self.probs * (1 - self.probs))

    def sample(self, sample_shape=Size()):
        from ..nn.functional import one_hot  # noqa: PLC0415

        idx = self._categorical.sample(sample_shape)
        return one_hot(idx, self.probs.shape[-1]).to(self.probs.dtype)

    def log_prob(self, value):
        return self._categorical.log_prob(_t(value, self.probs).argmax(-1))

    def entropy(self):
        return self._categorical.entropy()
