"""torch.distributions.kl: ``kl_divergence``, ``register_kl`` and the closed-form KL pairs."""

from __future__ import annotations

import math

import numpy as np

from .continuous import Beta, Exponential, Gamma, Laplace, Normal, Uniform, _lgamma
from .discrete import Bernoulli, Categorical, OneHotCategorical, Poisson
from .multivariate import Dirichlet, Independent, MultivariateNormal
from .utils import _sum_rightmost

__all__ = ["kl_divergence", "register_kl"]


_KL = {}


def register_kl(type_p, type_q):
    """Decorator registering ``fn(p, q)`` as KL(p || q) for instances of these types."""
    def deco(fn):
        _KL[(type_p, type_q)] = fn
        return fn
    return deco


def lookup_kl(p, q):
    """The registered KL function for the most specific pair of types, or None."""
    best = None
    for (tp, tq), fn in _KL.items():
        if isinstance(p, tp) and isinstance(q, tq):
            rank = (type(p).__mro__.index(tp), type(q).__mro__.index(tq))
            if best is None or rank < best[0]:
                best = (rank, fn)
    return None if best is None else best[1]


@register_kl(Normal, Normal)
def _kl_normal(p, q):
    var_ratio = (p.scale / q.scale) ** 2
    t1 = ((p.loc - q.loc) / q.scale) ** 2
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(Categorical, Categorical)
def _kl_categorical(p, q):
    t = p.probs * (p.logits - q.logits)
    return t.masked_fill(p.probs == 0, 0.0).sum(-1)


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli(p, q):
    return p.probs * (p.logits.sigmoid().log() - q.logits.sigmoid().log()) + \
        (1 - p.probs) * ((-p.logits).sigmoid().log() - (-q.logits).sigmoid().log())


@register_kl(Uniform, Uniform)
def _kl_uniform(p, q):
    out = ((q.high - q.low) / (p.high - p.low)).log()
    return out.masked_fill((q.low > p.low) | (q.high < p.high), math.inf)


@register_kl(Exponential, Exponential)
def _kl_exponential(p, q):
    ratio = q.rate / p.rate
    return ratio - ratio.log() - 1


@register_kl(Laplace, Laplace)
def _kl_laplace(p, q):
    scale_ratio = p.scale / q.scale
    loc_abs = (p.loc - q.loc).abs()
    return -scale_ratio.log() + loc_abs / q.scale + scale_ratio * (-loc_abs / p.scale).exp() - 1


@register_kl(Gamma, Gamma)
def _kl_gamma(p, q):
    t1 = q.concentration * (p.rate / q.rate).log()
    t2 = _lgamma(q.concentration) - _lgamma(p.concentration)
    t3 = (p.concentration - q.concentration) * p.concentration.digamma()
    t4 = (q.rate - p.rate) * (p.concentration / p.rate)
    return t1 + t2 + t3 + t4


@register_kl(Beta, Beta)
def _kl_beta(p, q):
    s1, s2 = p.concentration1 + p.concentration0, q.concentration1 + q.concentration0
    t1 = _lgamma(q.concentration1) + _lgamma(q.concentration0) + _lgamma(s1)
    t2 = _lgamma(p.concentration1) + _lgamma(p.concentration0) + _lgamma(s2)
    t3 = (p.concentration1 - q.concentration1) * p.concentration1.digamma()
    t4 = (p.concentration0 - q.concentration0) * p.concentration0.digamma()
    t5 = (s2 - s1) * s1.digamma()
    return t1 - t2 + t3 + t4 + t5


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet(p, q):
    s = p.concentration.sum(-1)
    t1 = _lgamma(s) - _lgamma(q.concentration.sum(-1))
    t2 = (_lgamma(p.concentration) - _lgamma(q.concentration)).sum(-1)
    t3 = p.concentration - q.concentration
    t4 = p.concentration.digamma() - s.digamma().unsqueeze(-1)
    return t1 - t2 + (t3 * t4).sum(-1)


@register_kl(Poisson, Poisson)
def _kl_poisson(p, q):
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_mvn(p, q):
    from ..linalg_solvers import solve_triangular  # noqa: PLC0415

    n = p.event_shape[0]
    Lq = q.scale_tril.expand(*np.broadcast_shapes(tuple(p.batch_shape), tuple(q.batch_shape)), n, n)
    Lp = p.scale_tril.expand(*Lq.shape)
    M = solve_triangular(Lq, Lp, upper=False)
    d = solve_triangular(Lq, (q.loc - p.loc).expand(*Lq.shape[:-1]).unsqueeze(-1), upper=False).squeeze(-1)
    return q._half_log_det() - p._half_log_det() + 0.5 * ((M ** 2).sum((-2, -1)) + (d ** 2).sum(-1) - n)


@register_kl(Independent, Independent)
def _kl_independent(p, q):
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError("KL between Independents with different reinterpreted_batch_ndims")
    return _sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.reinterpreted_batch_ndims)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehot(p, q):
    return kl_divergence(p._categorical, q._categorical)


def kl_divergence(p, q):
    """KL(p || q): the function registered for the most specific pair of types (batched, differentiable)."""
    fn = lookup_kl(p, q)
    if fn is None:
        raise NotImplementedError(f"No KL(p || q) is implemented for p type {type(p).__name__} and q type "
                                  f"{type(q).__name__}")
    return fn(p, q)
