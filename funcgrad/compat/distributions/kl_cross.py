"""The cross-family KL pairs of torch.distributions.kl (registered on import by kl.py): closed
forms such as KL(Beta || Normal), and +inf wherever p's support is not inside q's."""

from __future__ import annotations

import math

from ..ops_elementwise import where as _where
from .continuous import Beta, Exponential, Gamma, Gumbel, Laplace, Normal, Uniform
from .continuous_bounded import ContinuousBernoulli
from .continuous_positive import Pareto
from .discrete import Bernoulli, Binomial, Poisson
from .kl import _infinite_like, register_kl
from .utils import euler_constant

__all__ = []

_EULER = euler_constant


def _x_log_x(t):
    return t * t.log()


def _infinity(first_param):
    def kl(p, q):
        return _infinite_like(getattr(p, first_param))
    return kl


for _p, _qs, _param in [
    (Beta, (Pareto,), "concentration1"), (ContinuousBernoulli, (Pareto,), "probs"),
    (Exponential, (Beta, ContinuousBernoulli, Pareto, Uniform), "rate"),
    (Gamma, (Beta, ContinuousBernoulli, Pareto, Uniform), "concentration"),
    (Gumbel, (Beta, ContinuousBernoulli, Exponential, Gamma, Pareto, Uniform), "loc"),
    (Laplace, (Beta, ContinuousBernoulli, Exponential, Gamma, Pareto, Uniform), "loc"),
    (Normal, (Beta, ContinuousBernoulli, Exponential, Gamma, Pareto, Uniform), "loc"),
    (Pareto, (Beta, ContinuousBernoulli, Uniform), "scale"), (Poisson, (Bernoulli, Binomial), "rate"),
]:
    _fn = _infinity(_param)
    for _q in _qs:
        register_kl(_p, _q)(_fn)


@register_kl(Bernoulli, Poisson)
def _kl_bernoulli_poisson(p, q):
    return -p.entropy() - (p.probs * q.rate.log() - q.rate)


@register_kl(Beta, ContinuousBernoulli)
def _kl_beta_continuous_bernoulli(p, q):
    return -p.entropy() - p.mean * q.logits - (-q.probs).log1p() - q._cont_bern_log_norm()


@register_kl(Beta, Exponential)
def _kl_beta_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * (p.concentration1 / (p.concentration1 + p.concentration0))


@register_kl(Beta, Gamma)
def _kl_beta_gamma(p, q):
    a, b = p.concentration1, p.concentration0
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (q.concentration - 1) * (a.digamma() - (a + b).digamma())
    return -p.entropy() + t2 - t3 + q.rate * a / (a + b)


@register_kl(Beta, Normal)
def _kl_beta_normal(p, q):
    a, b = p.concentration1, p.concentration0
    e = a / (a + b)
    var = q.scale ** 2
    t2 = 0.5 * (var * 2 * math.pi).log()
    t3 = (e * (1 - e) / (a + b + 1) + e ** 2) * 0.5
    return -p.entropy() + t2 + (t3 - q.loc * e + q.loc ** 2 * 0.5) / var


@register_kl(Beta, Uniform)
def _kl_beta_uniform(p, q):
    result = -p.entropy() + (q.high - q.low).log()
    return result.masked_fill((q.low > p.support.lower_bound) | (q.high < p.support.upper_bound), math.inf)


@register_kl(ContinuousBernoulli, Exponential)
def _kl_continuous_bernoulli_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.mean


@register_kl(ContinuousBernoulli, Normal)
def _kl_continuous_bernoulli_normal(p, q):
    t2 = 0.5 * (math.log(2.0 * math.pi) + (q.loc / q.scale) ** 2) + q.scale.log()
    t3 = (p.variance + p.mean ** 2 - 2.0 * q.loc * p.mean) / (2.0 * q.scale ** 2)
    return -p.entropy() + t2 + t3


@register_kl(ContinuousBernoulli, Uniform)
def _kl_continuous_bernoulli_uniform(p, q):
    result = -p.entropy() + (q.high - q.low).log()
    outside = (q.low >= p.support.lower_bound) | (q.high <= p.support.upper_bound)
    return _where(outside, result * 0 + math.inf, result)


@register_kl(Exponential, Gamma)
def _kl_exponential_gamma(p, q):
    ratio = q.rate / p.rate
    t1 = -q.concentration * ratio.log()
    return t1 + ratio + q.concentration.lgamma() + q.concentration * _EULER - (1 + _EULER)


@register_kl(Exponential, Gumbel)
def _kl_exponential_gumbel(p, q):
    prod = p.rate * q.scale
    ratio = q.loc / q.scale
    return prod.log() - 1 - ratio + ratio.exp() * prod / (prod + 1) + prod.reciprocal()


@register_kl(Exponential, Normal)
def _kl_exponential_normal(p, q):
    var, rate_sqr = q.scale ** 2, p.rate ** 2
    t1 = 0.5 * (rate_sqr * var * 2 * math.pi).log()
    return t1 - 1 + (rate_sqr.reciprocal() - q.loc / p.rate + q.loc ** 2 * 0.5) / var


@register_kl(Gamma, Exponential)
def _kl_gamma_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.concentration / p.rate


@register_kl(Gamma, Gumbel)
def _kl_gamma_gumbel(p, q):
    a = p.concentration
    prod = p.rate * q.scale
    ratio = q.loc / q.scale
    t1 = (a - 1) * a.digamma() - a.lgamma() - a
    t2 = prod.log() + a / prod
    t3 = ratio.exp() * (1 + prod.reciprocal()).pow(-a) - ratio
    return t1 + t2 + t3


@register_kl(Gamma, Normal)
def _kl_gamma_normal(p, q):
    a = p.concentration
    var, beta_sqr = q.scale ** 2, p.rate ** 2
    t1 = 0.5 * (beta_sqr * var * 2 * math.pi).log() - a - a.lgamma()
    t2 = 0.5 * (a ** 2 + a) / beta_sqr
    t3 = q.loc * a / p.rate
    return t1 + (a - 1) * a.digamma() + (t2 - t3 + 0.5 * q.loc ** 2) / var


@register_kl(Gumbel, Normal)
def _kl_gumbel_normal(p, q):
    r = p.scale / q.scale
    t1 = (r / math.sqrt(2 * math.pi)).log()
    t2 = (math.pi * r * 0.5) ** 2 / 3
    t3 = ((p.loc + p.scale * _EULER - q.loc) / q.scale) ** 2 * 0.5
    return -t1 + t2 + t3 - (_EULER + 1)


@register_kl(Laplace, Normal)
def _kl_laplace_normal(p, q):
    var = q.scale ** 2
    ratio = p.scale ** 2 / var
    t1 = 0.5 * (2 * ratio / math.pi).log()
    return -t1 + ratio + (0.5 * p.loc ** 2 - p.loc * q.loc + 0.5 * q.loc ** 2) / var - 1


@register_kl(Normal, Gumbel)
def _kl_normal_gumbel(p, q):
    mean_ratio = p.loc / q.scale
    var_ratio = (p.scale / q.scale) ** 2
    loc_ratio = q.loc / q.scale
    t3 = (-mean_ratio + 0.5 * var_ratio + loc_ratio).exp()
    return -var_ratio.log() * 0.5 + mean_ratio - loc_ratio + t3 - 0.5 * (1 + math.log(2 * math.pi))


@register_kl(Normal, Laplace)
def _kl_normal_laplace(p, q):
    diff = p.loc - q.loc
    ratio = p.scale / q.scale
    z = diff / p.scale
    t2 = math.sqrt(2 / math.pi) * p.scale * (-0.5 * z ** 2).exp()
    t3 = diff * (math.sqrt(0.5) * z).erf()
    return -ratio.log() + (t2 + t3) / q.scale - 0.5 * (1 + math.log(0.5 * math.pi))


@register_kl(Pareto, Exponential)
def _kl_pareto_exponential(p, q):
    prod = p.scale * q.rate
    result = (p.alpha / prod).log() - p.alpha.reciprocal() + p.alpha * prod / (p.alpha - 1) - 1
    return result.masked_fill(p.alpha <= 1, math.inf)


@register_kl(Pareto, Gamma)
def _kl_pareto_gamma(p, q):
    common = p.scale.log() + p.alpha.reciprocal()
    t1 = p.alpha.log() - common
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (1 - q.concentration) * common
    t4 = q.rate * p.alpha * p.scale / (p.alpha - 1)
    return (t1 + t2 + t3 + t4 - 1).masked_fill(p.alpha <= 1, math.inf)


@register_kl(Pareto, Normal)
def _kl_pareto_normal(p, q):
    var = 2 * q.scale ** 2
    common = p.scale / (p.alpha - 1)
    t1 = (math.sqrt(2 * math.pi) * q.scale * p.alpha / p.scale).log()
    t3 = p.alpha * common ** 2 / (p.alpha - 2)
    t4 = (p.alpha * common - q.loc) ** 2
    return (t1 - p.alpha.reciprocal() + (t3 + t4) / var - 1).masked_fill(p.alpha <= 2, math.inf)


@register_kl(Uniform, Beta)
def _kl_uniform_beta(p, q):
    w = p.high - p.low
    t2 = (q.concentration1 - 1) * (_x_log_x(p.high) - _x_log_x(p.low) - w) / w
    t3 = (q.concentration0 - 1) * (_x_log_x(1 - p.high) - _x_log_x(1 - p.low) + w) / w
    t4 = q.concentration1.lgamma() + q.concentration0.lgamma() - (q.concentration1 + q.concentration0).lgamma()
    result = t3 + t4 - w.log() - t2
    return result.masked_fill((p.high > q.support.upper_bound) | (p.low < q.support.lower_bound), math.inf)


@register_kl(Uniform, ContinuousBernoulli)
def _kl_uniform_continuous_bernoulli(p, q):
    result = -p.entropy() - p.mean * q.logits - (-q.probs).log1p() - q._cont_bern_log_norm()
    outside = (p.high >= q.support.upper_bound) | (p.low <= q.support.lower_bound)
    return _where(outside, result * 0 + math.inf, result)


@register_kl(Uniform, Exponential)
def _kl_uniform_exponential(p, q):
    result = q.rate * (p.high + p.low) / 2 - ((p.high - p.low) * q.rate).log()
    return result.masked_fill(p.low < q.support.lower_bound, math.inf)


@register_kl(Uniform, Gamma)
def _kl_uniform_gamma(p, q):
    w = p.high - p.low
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (1 - q.concentration) * (_x_log_x(p.high) - _x_log_x(p.low) - w) / w
    t4 = q.rate * (p.high + p.low) / 2
    return (-w.log() + t2 + t3 + t4).masked_fill(p.low < q.support.lower_bound, math.inf)


@register_kl(Uniform, Gumbel)
def _kl_uniform_gumbel(p, q):
    common = q.scale / (p.high - p.low)
    hi, lo = (p.high - q.loc) / q.scale, (p.low - q.loc) / q.scale
    return common.log() + 0.5 * (hi + lo) - common * ((-hi).exp() - (-lo).exp())


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p, q):
    w = p.high - p.low
    t1 = (math.sqrt(math.pi * 2) * q.scale / w).log()
    t3 = ((p.high + p.low - 2 * q.loc) / 2) ** 2
    return t1 + 0.5 * (w ** 2 / 12 + t3) / q.scale ** 2


@register_kl(Uniform, Pareto)
def _kl_uniform_pareto(p, q):
    w = p.high - p.low
    t1 = (q.alpha * q.scale.pow(q.alpha) * w).log()
    t2 = (_x_log_x(p.high) - _x_log_x(p.low) - w) / w
    return (t2 * (q.alpha + 1) - t1).masked_fill(p.low < q.support.lower_bound, math.inf)
