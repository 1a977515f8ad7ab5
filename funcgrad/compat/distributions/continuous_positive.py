"""Continuous distributions on half-lines: HalfCauchy, Pareto, Weibull, InverseGamma (PyTorch's
TransformedDistributions of Cauchy / Exponential / Gamma), GeneralizedPareto and FisherSnedecor.
Every ``rsample`` is differentiable in the parameters."""

from __future__ import annotations

import math

from ..ops_elementwise import where as _where
from ..tensor import Size
from . import constraints
from .continuous import Cauchy, Exponential, Gamma, _Half
from .distribution import Distribution, _finfo, _t
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, ExpTransform, PowerTransform
from .utils import broadcast_all, euler_constant

__all__ = ["HalfCauchy", "Pareto", "Weibull", "InverseGamma", "GeneralizedPareto", "FisherSnedecor"]


class HalfCauchy(_Half):
    """|X| for X ~ Cauchy(0, scale)."""

    _base = Cauchy
    mean = property(lambda self: self.scale.new_full(tuple(self._extended_shape()), math.inf))
    variance = property(lambda self: self.base_dist.variance)


class Pareto(TransformedDistribution):
    """Pareto type I: ``scale * exp(E)``, E ~ Exponential(alpha)."""

    arg_constraints = {"alpha": constraints.positive, "scale": constraints.positive}

    def __init__(self, scale, alpha, validate_args=None):
        self.scale, self.alpha = broadcast_all(scale, alpha)
        base = Exponential(self.alpha, validate_args=validate_args)
        super().__init__(base, [ExpTransform(), AffineTransform(loc=0, scale=self.scale)], validate_args=validate_args)

    @property
    def mean(self):
        a = self.alpha.clamp(min=1)
        return a * self.scale / (a - 1)

    mode = property(lambda self: self.scale)

    @property
    def variance(self):
        a = self.alpha.clamp(min=2)
        return self.scale ** 2 * a / ((a - 1) ** 2 * (a - 2))

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        return constraints.greater_than_eq(self.scale)

    def entropy(self):
        return (self.scale / self.alpha).log() + (1 + self.alpha.reciprocal())


class Weibull(TransformedDistribution):
    """``scale * E ** (1 / concentration)``, E ~ Exponential(1)."""

    arg_constraints = {"scale": constraints.positive, "concentration": constraints.positive}
    support = constraints.positive

    def __init__(self, scale, concentration, validate_args=None):
        self.scale, self.concentration = broadcast_all(scale, concentration)
        self.concentration_reciprocal = self.concentration.reciprocal()
        base = Exponential(self.scale.new_ones(tuple(self.scale.shape)), validate_args=validate_args)
        transforms = [PowerTransform(exponent=self.concentration_reciprocal), AffineTransform(loc=0, scale=self.scale)]
        super().__init__(base, transforms, validate_args=validate_args)

    mean = property(lambda self: self.scale * (1 + self.concentration_reciprocal).lgamma().exp())

    @property
    def mode(self):
        k = self.concentration
        return self.scale * ((k - 1) / k) ** k.reciprocal()

    @property
    def variance(self):
        r = self.concentration_reciprocal
        return self.scale ** 2 * ((1 + 2 * r).lgamma().exp() - (2 * (1 + r).lgamma()).exp())

    def entropy(self):
        r = self.concentration_reciprocal
        return euler_constant * (1 - r) + (self.scale * r).log() + 1


class InverseGamma(TransformedDistribution):
    """1 / X for X ~ Gamma(concentration, rate)."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None):
        base = Gamma(concentration, rate, validate_args=validate_args)
        super().__init__(base, PowerTransform(-base.rate.new_ones(())), validate_args=validate_args)

    concentration = property(lambda self: self.base_dist.concentration)
    rate = property(lambda self: self.base_dist.rate)

    @property
    def mean(self):
        a = self.concentration
        return _where(a > 1, self.rate / (a - 1), math.inf)

    mode = property(lambda self: self.rate / (self.concentration + 1))

    @property
    def variance(self):
        a = self.concentration
        return _where(a > 2, self.rate ** 2 / ((a - 1) ** 2 * (a - 2)), math.inf)

    def entropy(self):
        a = self.concentration
        return a + self.rate.log() + a.lgamma() - (1 + a) * a.digamma()


class GeneralizedPareto(Distribution):
    """Generalized Pareto with ``loc``, ``scale`` and shape ``concentration`` (xi; xi = 0 is the
    shifted exponential, xi < 0 has bounded support)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive, "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        super().__init__(self.loc.shape, validate_args=validate_args)

    def _safe(self):
        eq_zero = self.concentration.abs() <= 1e-8  # torch.isclose(c, 0) with its default atol
        return eq_zero, _where(eq_zero, self.concentration.new_ones(()), self.concentration)

    def rsample(self, sample_shape=Size()):
        from .. import creation as _c  # noqa: PLC0415

        u = _c.rand(*self._extended_shape(sample_shape), dtype=self.loc.dtype, device=self.loc.device)
        return self.icdf(u)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        eq_zero, c = self._safe()
        y = 1 / c + 1.0
        nonzero = _where(y == 0, y, y * (c * z).log1p())
        return -self.scale.log() - _where(eq_zero, z, nonzero)

    def log_survival_function(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) / self.scale
        eq_zero, c = self._safe()
        return _where(eq_zero, -z, -(c * z).log1p() / c)

    def log_cdf(self, value):
        return (-self.log_survival_function(value).exp()).log1p()

    def cdf(self, value):
        return self.log_cdf(value).exp()

    def icdf(self, value):
        eq_zero, c = self._safe()
        logu = (-_t(value, self.loc)).log1p()
        return _where(eq_zero, self.loc - self.scale * logu, self.loc + self.scale / c * (-c * logu).expm1())

    @property
    def mean(self):
        valid = self.concentration < 1
        c = _where(valid, self.concentration, 0.5)
        return _where(valid, self.loc + self.scale / (1 - c), math.nan)

    @property
    def variance(self):
        valid = self.concentration < 0.5
        c = _where(valid, self.concentration, 0.25)
        return _where(valid, self.scale ** 2 / ((1 - c) ** 2 * (1 - 2 * c)), math.nan)

    def entropy(self):
        return (self.scale.log() + self.concentration + 1).expand(*self._batch_shape)

    mode = property(lambda self: self.loc)

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        upper = _where(self.concentration < 0, self.loc - self.scale / self.concentration, math.inf)
        return constraints.interval(self.loc, upper)


class FisherSnedecor(Distribution):
    """F-distribution with ``df1`` and ``df2`` degrees of freedom (a ratio of scaled gammas)."""

    arg_constraints = {"df1": constraints.positive, "df2": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, df1, df2, validate_args=None):
        self.df1, self.df2 = broadcast_all(df1, df2)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1, validate_args=False)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2, validate_args=False)
        super().__init__(self.df1.shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = super().expand(batch_shape, _instance)
        new._gamma1, new._gamma2 = self._gamma1.expand(batch_shape), self._gamma2.expand(batch_shape)
        return new

    @property
    def mean(self):
        df2 = self.df2.masked_fill(self.df2 <= 2, math.nan)
        return df2 / (df2 - 2)

    @property
    def mode(self):
        m = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        return m.masked_fill(self.df1 <= 2, math.nan)

    @property
    def variance(self):
        df2 = self.df2.masked_fill(self.df2 <= 4, math.nan)
        return 2 * df2 ** 2 * (self.df1 + df2 - 2) / (self.df1 * (df2 - 2) ** 2 * (df2 - 4))

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        x1 = self._gamma1.rsample(sample_shape).reshape(*shape)
        x2 = self._gamma2.rsample(sample_shape).reshape(*shape)
        tiny = _finfo(x2).tiny
        return (x1 / x2.clamp(min=tiny)).clamp(min=tiny)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        ct1, ct2, ct3 = self.df1 * 0.5, self.df2 * 0.5, self.df1 / self.df2
        t1 = (ct1 + ct2).lgamma() - ct1.lgamma() - ct2.lgamma()
        t2 = ct1 * ct3.log() + (ct1 - 1) * value.log()
        t3 = (ct1 + ct2) * (ct3 * value).log1p()
        return t1 + t2 - t3
