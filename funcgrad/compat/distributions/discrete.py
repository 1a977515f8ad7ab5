"""Discrete distributions: Bernoulli, Categorical, OneHotCategorical (and its straight-through
variant), Poisson, Geometric, Binomial, NegativeBinomial, Multinomial.

Each is given ``probs`` or ``logits`` (exactly one); the other is a lazy property computed from it,
as PyTorch's, so ``repr`` and validation see the parameter the caller gave.
"""

from __future__ import annotations

import math

import numpy as np

from .. import creation as _c
from ..autograd.grad_mode import no_grad
from ..tensor import Size
from . import constraints
from .distribution import Distribution, _draw, _host, _Simple
from .exp_family import ExponentialFamily
from .utils import broadcast_all, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["Bernoulli", "Categorical", "OneHotCategorical", "OneHotCategoricalStraightThrough", "Poisson",
           "Geometric", "Binomial", "NegativeBinomial", "Multinomial"]

_BINARY = {"probs": constraints.unit_interval, "logits": constraints.real}


def _one_of(probs, logits):
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")


def _bce(logits, target):
    from ..nn.functional import binary_cross_entropy_with_logits  # noqa: PLC0415

    return binary_cross_entropy_with_logits(logits, target, reduction="none")


class _Binary(Distribution):
    """probs/logits plumbing shared by Bernoulli, Geometric, Binomial and NegativeBinomial."""

    def _set_param(self, probs, logits, *others):
        _one_of(probs, logits)
        name = "probs" if probs is not None else "logits"
        vals = broadcast_all(probs if probs is not None else logits, *others)
        setattr(self, name, vals[0])
        self._param = vals[0]
        return vals[1:]

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self):
        return self._param.size()

    def expand(self, batch_shape, _instance=None):
        new = super().expand(batch_shape, _instance)
        new._param = new.__dict__["probs"] if "probs" in new.__dict__ else new.__dict__["logits"]
        return new


class Bernoulli(_Binary, ExponentialFamily):
    """0/1 draws with ``probs`` or ``logits``; samples are floats, as PyTorch's."""

    arg_constraints = _BINARY
    support = constraints.boolean
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._set_param(probs, logits)
        super().__init__(self._param.shape, validate_args=validate_args)

    mean = property(lambda self: self.probs)
    variance = property(lambda self: self.probs * (1 - self.probs))

    @property
    def mode(self):
        return (self.probs >= 0.5).to(self.probs.dtype).masked_fill(self.probs == 0.5, math.nan)

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        with no_grad():
            u = _c.rand(*shape, dtype=self.probs.dtype, device=self.probs.device)
            return (u < self.probs.expand(*shape)).to(self.probs.dtype)

    def log_prob(self, value):
        value = self._value(value, self._param)
        logits, value = broadcast_all(self.logits, value)
        return -_bce(logits, value)

    def entropy(self):
        return _bce(self.logits, self.probs)

    _mean_carrier_measure = 0
    _natural_params = property(lambda self: (self.probs.logit(),))

    def _log_normalizer(self, x):
        return x.exp().log1p()

    def enumerate_support(self, expand=True):
        values = _c.arange(2, dtype=self._param.dtype, device=self._param.device)
        values = values.view(-1, *([1] * len(self._batch_shape)))
        return values.expand(-1, *self._batch_shape) if expand else values


class Geometric(_Binary):
    """Number of failures before the first success, with ``probs`` or ``logits``."""

    arg_constraints = _BINARY
    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._set_param(probs, logits)
        super().__init__(self._param.shape, validate_args=validate_args)
        if self._validate_args and probs is not None and not bool((self.probs > 0).all()):
            p = self.probs
            raise ValueError(f"Expected parameter probs ({type(p).__name__} of shape {tuple(p.shape)}) of "
                             f"distribution {self!r} to be positive but found invalid values:\n{p.detach()[~(p > 0)]}")

    mean = property(lambda self: 1.0 / self.probs - 1.0)
    mode = property(lambda self: self.probs * 0.0)
    variance = property(lambda self: (1.0 / self.probs - 1.0) / self.probs)

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        p = np.broadcast_to(_host(self.probs), shape)
        return _draw(lambda rng, s: rng.geometric(p, s) - 1, self.probs, shape)

    def log_prob(self, value):
        k = self._value(value, self._param)
        k, p = broadcast_all(k, self.probs)
        p_adj = p.masked_fill((p == 1) & (k == 0), 0.0)
        return k * (-p_adj).log1p() + self.probs.log()

    def entropy(self):
        return _bce(self.logits, self.probs) / self.probs


class Binomial(_Binary):
    """Successes in ``total_count`` trials; ``total_count`` may be a tensor broadcast with the probabilities."""

    arg_constraints = {"total_count": constraints.nonnegative_integer, **_BINARY}
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        (n,) = self._set_param(probs, logits, total_count)
        self.total_count = n.to(self._param.dtype)
        super().__init__(self._param.shape, validate_args=validate_args)

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    mean = property(lambda self: self.total_count * self.probs)
    mode = property(lambda self: ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count))
    variance = property(lambda self: self.total_count * self.probs * (1 - self.probs))

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        n = np.broadcast_to(_host(self.total_count).astype(np.int64), shape)
        p = np.broadcast_to(_host(self.probs), shape)
        return _draw(lambda rng, s: rng.binomial(n, p, s), self.probs, shape)

    def log_prob(self, value):
        from ..nn.functional import softplus  # noqa: PLC0415

        k = self._value(value, self._param)
        n = self.total_count
        log_comb = (n + 1).lgamma() - (k + 1).lgamma() - (n - k + 1).lgamma()
        # -(k log p + (n - k) log(1 - p)) = n softplus(logits) - k logits: stable, exact in its gradient
        norm = n * softplus(self.logits) - k * self.logits
        return log_comb - norm.masked_fill((n == k) & (self.logits == math.inf), 0.0)

    def _homogeneous(self, what):
        total = int(self.total_count.max())
        if not int(self.total_count.min()) == total:
            raise NotImplementedError(f"Inhomogeneous total count not supported by `{what}`.")
        return total

    def entropy(self):
        self._homogeneous("entropy")
        lp = self.log_prob(self.enumerate_support(False))
        return -(lp.exp() * lp).sum(0)

    def enumerate_support(self, expand=True):
        total = self._homogeneous("enumerate_support")
        values = _c.arange(1 + total, dtype=self._param.dtype, device=self._param.device)
        values = values.view(-1, *([1] * len(self._batch_shape)))
        return values.expand(-1, *self._batch_shape) if expand else values


class NegativeBinomial(_Binary):
    """Successes before ``total_count`` failures, each trial succeeding with ``probs``."""

    arg_constraints = {"total_count": constraints.greater_than_eq(0), "probs": constraints.half_open_interval(0.0, 1.0),
                       "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        (n,) = self._set_param(probs, logits, total_count)
        self.total_count = n.to(self._param.dtype)
        super().__init__(self._param.shape, validate_args=validate_args)

    mean = property(lambda self: self.total_count * self.logits.exp())
    mode = property(lambda self: ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0))
    variance = property(lambda self: self.mean / (-self.logits).sigmoid())

    def sample(self, sample_shape=Size()):
        from .continuous import Gamma  # noqa: PLC0415

        with no_grad():
            rate = Gamma(self.total_count, (-self.logits).exp(), validate_args=False).sample(sample_shape)
            lam = _host(rate)
            return _draw(lambda rng, s: rng.poisson(lam, s), rate, rate.shape)

    def log_prob(self, value):
        from ..nn.functional import logsigmoid  # noqa: PLC0415

        k = self._value(value, self._param)
        n = self.total_count
        unnorm = n * logsigmoid(-self.logits) + k * logsigmoid(self.logits)
        norm = -(n + k).lgamma() + (1.0 + k).lgamma() + n.lgamma()
        return unnorm - norm.masked_fill(n + k == 0.0, 0.0)


class Poisson(_Simple, ExponentialFamily):
    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    def __init__(self, rate, validate_args=None):
        self._setup(("rate",), (rate,), validate_args)

    mean = property(lambda self: self.rate)
    mode = property(lambda self: self.rate.floor())
    variance = property(lambda self: self.rate)

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        lam = np.broadcast_to(_host(self.rate), shape)
        return _draw(lambda rng, s: rng.poisson(lam, s), self.rate, shape)

    def log_prob(self, value):
        k = self._value(value)
        rate, k = broadcast_all(self.rate, k)
        return k.xlogy(rate) - rate - (k + 1).lgamma()

    _natural_params = property(lambda self: (self.rate.log(),))

    def _log_normalizer(self, x):
        return x.exp()


class Categorical(Distribution):
    """Class indices with ``probs`` (normalised along the last dimension) or ``logits``."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        _one_of(probs, logits)
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._param = self.probs if probs is not None else self.logits
        self._num_events = self._param.shape[-1]
        super().__init__(self._param.shape[:-1], validate_args=validate_args)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits)

    def expand(self, batch_shape, _instance=None):
        new = super().expand(batch_shape, _instance)
        new._param = new.__dict__["probs"] if "probs" in new.__dict__ else new.__dict__["logits"]
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @property
    def param_shape(self):
        return self._param.size()

    mean = property(lambda self: _c.full(tuple(self._extended_shape()), math.nan, dtype=self.probs.dtype))
    variance = mean
    mode = property(lambda self: self.probs.argmax(-1))

    def sample(self, sample_shape=Size()):
        from ..sampling import multinomial  # noqa: PLC0415

        sample_shape = Size(sample_shape)
        n = math.prod(sample_shape)
        with no_grad():
            flat = multinomial(self.probs.reshape(-1, self._num_events), max(n, 1), True)  # (batch, n)
        return flat.t()[:n].reshape(*sample_shape, *self.batch_shape)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        shape = np.broadcast_shapes(tuple(value.shape[:-1]), tuple(self.logits.shape[:-1]))
        logits = self.logits.expand(*shape, self._num_events)
        return logits.gather(-1, value.expand(*shape, 1)).squeeze(-1)

    def entropy(self):
        from ..ops_math_extra import finfo  # noqa: PLC0415

        return -(self.probs * self.logits.clamp(min=finfo(self.logits.dtype).min)).sum(-1)

    def enumerate_support(self, expand=True):
        from ..dtypes import long  # noqa: PLC0415

        values = _c.arange(self._num_events, dtype=long, device=self._param.device)
        values = values.view(-1, *([1] * len(self._batch_shape)))
        return values.expand(-1, *self._batch_shape) if expand else values


class OneHotCategorical(Distribution):
    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._categorical = Categorical(probs, logits)
        batch, event = self._categorical.batch_shape, self._categorical.param_shape[-1:]
        super().__init__(batch, event, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(type(self), _instance)
        new._categorical = self._categorical.expand(batch_shape)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    _param = property(lambda self: self._categorical._param)
    probs = property(lambda self: self._categorical.probs)
    logits = property(lambda self: self._categorical.logits)
    param_shape = property(lambda self: self._categorical.param_shape)
    mean = property(lambda self: self.probs)
    variance = property(lambda self: self.probs * (1 - self.probs))

    @property
    def mode(self):
        from ..nn.functional import one_hot  # noqa: PLC0415

        return one_hot(self.probs.argmax(-1), self.probs.shape[-1]).to(self.probs.dtype)

    def sample(self, sample_shape=Size()):
        from ..nn.functional import one_hot  # noqa: PLC0415

        idx = self._categorical.sample(sample_shape)
        return one_hot(idx, self.probs.shape[-1]).to(self.probs.dtype)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(value.max(-1)[1])

    def entropy(self):
        return self._categorical.entropy()

    def enumerate_support(self, expand=True):
        n = self.event_shape[0]
        values = _c.eye(n, dtype=self._param.dtype, device=self._param.device)
        values = values.view(n, *([1] * len(self.batch_shape)), n)
        return values.expand(n, *self.batch_shape, n) if expand else values


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """OneHotCategorical whose ``rsample`` passes gradients straight through to ``probs``
    (Bengio et al., 2013): the one-hot draw plus ``probs - probs.detach()``."""

    has_rsample = True

    def rsample(self, sample_shape=Size()):
        samples = self.sample(sample_shape)
        probs = self._categorical.probs
        return samples + (probs - probs.detach())


class Multinomial(Distribution):
    """Counts of ``total_count`` categorical draws (an int, as PyTorch's) over the last dimension."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:], validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Multinomial, _instance)
        new.total_count = self.total_count
        new._categorical = self._categorical.expand(batch_shape)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self):
        return constraints.multinomial(self.total_count)

    probs = property(lambda self: self._categorical.probs)
    logits = property(lambda self: self._categorical.logits)
    param_shape = property(lambda self: self._categorical.param_shape)
    mean = property(lambda self: self.probs * self.total_count)
    variance = property(lambda self: self.total_count * self.probs * (1 - self.probs))

    def sample(self, sample_shape=Size()):
        sample_shape = Size(sample_shape)
        idx = self._categorical.sample(Size((self.total_count,)) + sample_shape)  # (n, *sample, *batch)
        k = self._categorical._num_events
        counts = np.zeros((*idx.shape[1:], k), np.int64)
        flat_idx = _host(idx).reshape(self.total_count, -1)
        np.add.at(counts.reshape(-1, k), (np.arange(flat_idx.shape[1])[None, :], flat_idx), 1)
        return _c.tensor(counts, dtype=self.probs.dtype, device=self.probs.device)

    def entropy(self):
        n = self.total_count
        term1 = n * self._categorical.entropy() - math.lgamma(n + 1)
        binom = Binomial(n, probs=self.probs, validate_args=False)
        support = binom.enumerate_support(expand=False)[1:]
        weights = (support + 1).lgamma()
        return term1 + (binom.log_prob(support).exp() * weights).sum((0, -1))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        log_fact_n = (value.sum(-1) + 1).lgamma()
        log_fact_x = (value + 1).lgamma().sum(-1)
        logits = logits.masked_fill((value == 0) & (logits == -math.inf), 0.0)
        return log_fact_n - log_fact_x + (logits * value).sum(-1)

