"""Continuous distributions on bounded sets: ContinuousBernoulli and Kumaraswamy on [0, 1],
LogisticNormal on the simplex, VonMises on the circle."""

from __future__ import annotations

import math

import numpy as np

from .. import creation as _c
from ..autograd.grad_mode import no_grad
from ..ops_elementwise import where as _where
from ..tensor import Size
from . import constraints
from .continuous import Normal, Uniform
from .distribution import Distribution, _draw, _host
from .exp_family import ExponentialFamily
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, PowerTransform, StickBreakingTransform
from .utils import (
    broadcast_all,
    clamp_probs,
    euler_constant,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
)

__all__ = ["ContinuousBernoulli", "Kumaraswamy", "LogisticNormal", "VonMises"]


class ContinuousBernoulli(ExponentialFamily):
    """The continuous Bernoulli (Loaiza-Ganem & Cunningham, 2019): density proportional to
    p^x (1-p)^(1-x) on [0, 1]; near p = 1/2 (inside ``lims``) Taylor expansions keep it stable."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501), validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
            if validate_args is not None and not bool(self.arg_constraints["probs"].check(self.probs).all()):
                raise ValueError("The parameter probs has invalid values")
            self.probs = clamp_probs(self.probs)
        else:
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        self._lims = lims
        super().__init__(self._param.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = super().expand(batch_shape, _instance)
        new._param = new.__dict__["probs"] if "probs" in new.__dict__ else new.__dict__["logits"]
        return new

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    param_shape = property(lambda self: self._param.size())

    def _outside(self):
        return (self.probs <= self._lims[0]) | (self.probs > self._lims[1])

    def _cut_probs(self):
        return _where(self._outside(), self.probs, self._lims[0] * self.probs.new_ones(()))

    def _cont_bern_log_norm(self):
        p = self._cut_probs()
        below = _where(p <= 0.5, p, p.new_zeros(()))
        above = _where(p >= 0.5, p, p.new_ones(()))
        log_norm = ((-p).log1p() - p.log()).abs().log() - _where(p <= 0.5, (-2.0 * below).log1p(),
                                                                 (2.0 * above - 1.0).log())
        x = (self.probs - 0.5) ** 2
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return _where(self._outside(), log_norm, taylor)

    @property
    def mean(self):
        p = self._cut_probs()
        mus = p / (2.0 * p - 1.0) + 1.0 / ((-p).log1p() - p.log())
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * x ** 2) * x
        return _where(self._outside(), mus, taylor)

    @property
    def variance(self):
        p = self._cut_probs()
        v = p * (p - 1.0) / (1.0 - 2.0 * p) ** 2 + 1.0 / ((-p).log1p() - p.log()) ** 2
        x = (self.probs - 0.5) ** 2
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return _where(self._outside(), v, taylor)

    stddev = property(lambda self: self.variance.sqrt())

    def sample(self, sample_shape=Size()):
        u = _c.rand(*self._extended_shape(sample_shape), dtype=self.probs.dtype, device=self.probs.device)
        with no_grad():
            return self.icdf(u)

    def rsample(self, sample_shape=Size()):
        u = _c.rand(*self._extended_shape(sample_shape), dtype=self.probs.dtype, device=self.probs.device)
        return self.icdf(u)

    def log_prob(self, value):
        from ..nn.functional import binary_cross_entropy_with_logits  # noqa: PLC0415

        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none") + self._cont_bern_log_norm()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        p = self._cut_probs()
        cdfs = (p ** value * (1.0 - p) ** (1.0 - value) + p - 1.0) / (2.0 * p - 1.0)
        unbounded = _where(self._outside(), cdfs, value)
        return _where(value <= 0.0, value * 0.0, _where(value >= 1.0, value * 0.0 + 1.0, unbounded))

    def icdf(self, value):
        p = self._cut_probs()
        inv = ((-p + value * (2.0 * p - 1.0)).log1p() - (-p).log1p()) / (p.log() - (-p).log1p())
        return _where(self._outside(), inv, value)

    def entropy(self):
        log_p0, log_p1 = (-self.probs).log1p(), self.probs.log()
        return self.mean * (log_p0 - log_p1) - self._cont_bern_log_norm() - log_p0

    @property
    def _natural_params(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        out = (x <= self._lims[0] - 0.5) | (x > self._lims[1] - 0.5)
        cut = _where(out, x, (self._lims[0] - 0.5) * x.new_ones(()))
        log_norm = cut.expm1().abs().log() - cut.abs().log()
        taylor = 0.5 * x + x ** 2 / 24.0 - x ** 4 / 2880.0
        return _where(out, log_norm, taylor)


def _kumaraswamy_moments(a, b, n):
    arg1 = 1 + n / a
    return b * (arg1.lgamma() + b.lgamma() - (arg1 + b).lgamma()).exp()


class Kumaraswamy(TransformedDistribution):
    """(1 - (1 - U) ** (1/b)) ** (1/a) for U uniform on [0, 1]: a Beta-like law with a closed-form cdf."""

    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        zeros = self.concentration0.new_zeros(tuple(self.concentration0.shape))
        base = Uniform(zeros, zeros + 1, validate_args=validate_args)
        transforms = [PowerTransform(exponent=self.concentration0.reciprocal()), AffineTransform(loc=1.0, scale=-1.0),
                      PowerTransform(exponent=self.concentration1.reciprocal())]
        super().__init__(base, transforms, validate_args=validate_args)

    mean = property(lambda self: _kumaraswamy_moments(self.concentration1, self.concentration0, 1))

    @property
    def mode(self):
        a, b = self.concentration1, self.concentration0
        log_mode = b.reciprocal() * (-b).log1p() - (-b * a).log1p()
        return log_mode.masked_fill((b < 1) | (a < 1), math.nan).exp()

    @property
    def variance(self):
        return _kumaraswamy_moments(self.concentration1, self.concentration0, 2) - self.mean ** 2

    def entropy(self):
        t1 = 1 - self.concentration1.reciprocal()
        t0 = 1 - self.concentration0.reciprocal()
        h0 = (self.concentration0 + 1).digamma() + euler_constant
        return t0 + t1 * h0 - self.concentration1.log() - self.concentration0.log()


class LogisticNormal(TransformedDistribution):
    """StickBreakingTransform of a Normal: a law on the simplex with one more coordinate than loc."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        base = Normal(loc, scale, validate_args=validate_args)
        if not base.batch_shape:
            base = base.expand([1])
        super().__init__(base, StickBreakingTransform(), validate_args=validate_args)

    loc = property(lambda self: self.base_dist.base_dist.loc)
    scale = property(lambda self: self.base_dist.base_dist.scale)


def _log_i0(k):
    from ..special import i0e  # noqa: PLC0415

    return i0e(k).log() + k


class VonMises(Distribution):
    """The circular normal on [-pi, pi) with mean direction ``loc`` and ``concentration``; sampled by
    numpy's von Mises sampler (PyTorch's has no rsample either)."""

    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc, concentration, validate_args=None):
        self.loc, self.concentration = broadcast_all(loc, concentration)
        super().__init__(self.loc.shape, Size(), validate_args)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.concentration * (value - self.loc).cos() - math.log(2 * math.pi) - _log_i0(self.concentration)

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        mu = np.broadcast_to(_host(self.loc).astype(np.float64), shape)
        kappa = np.broadcast_to(_host(self.concentration).astype(np.float64), shape)
        # numpy's draws lie in [-pi, pi]; PyTorch's in [-pi, pi)
        return _draw(lambda rng, s: (rng.vonmises(mu, kappa, s) + np.pi) % (2 * np.pi) - np.pi, self.loc, shape)

    mean = mode = property(lambda self: self.loc)

    @lazy_property
    def variance(self):
        from ..special import i0e, i1e  # noqa: PLC0415

        return 1 - i1e(self.concentration) / i0e(self.concentration)
