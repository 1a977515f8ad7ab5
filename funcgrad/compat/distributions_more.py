"""More of torch.distributions: Uniform, Exponential, Laplace, Cauchy, Gumbel, HalfNormal, LogNormal,
Gamma, Chi2, Beta, Dirichlet, StudentT, Poisson, Geometric, Binomial, OneHotCategorical,
MultivariateNormal, Independent; ``register_kl`` and the KL pairs of these.

As in distributions.py: parameters are compat tensors, so ``log_prob``, ``entropy``, ``rsample``
(where the distribution is reparameterizable by a location-scale transform) and KL are
differentiable; ``sample`` draws from the compat generator without gradient.  Gamma, Beta,
Dirichlet and StudentT draw with numpy's samplers; their ``rsample`` (PyTorch's implicit
reparameterization) is not provided and says so.
"""

from __future__ import annotations

import math

import numpy as np

from . import creation as _c
from .distributions import Bernoulli, Categorical, Distribution, Normal, _t
from .distributions import kl_divergence as _base_kl
from .grad_mode import no_grad
from .tensor import Size, Tensor

__all__ = ["Uniform", "Exponential", "Laplace", "Cauchy", "Gumbel", "HalfNormal", "LogNormal", "Gamma", "Chi2",
           "Beta", "Dirichlet", "StudentT", "Poisson", "Geometric", "Binomial", "OneHotCategorical",
           "MultivariateNormal", "Independent", "ExponentialFamily", "register_kl", "kl_divergence", "kl"]

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


class ExponentialFamily(Distribution):
    """Base of the exponential-family distributions (as PyTorch's class hierarchy has it)."""


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


class Uniform(_Simple):
    has_rsample = True

    def __init__(self, low, high, validate_args=None):
        self._setup(("low", "high"), (low, high), validate_args=validate_args)
        if validate_args is not False:
            self._check("low", self.low, (self.low < self.high).all(), "LessThan(upper_bound=high)")

    mean = property(lambda self: (self.high + self.low) / 2)
    variance = property(lambda self: (self.high - self.low) ** 2 / 12)
    stddev = property(lambda self: (self.high - self.low) / 12 ** 0.5)

    def rsample(self, sample_shape=Size()):
        u = _c.rand(*self._extended_shape(sample_shape), dtype=self.low.dtype, device=self.low.device)
        return self.low + u * (self.high - self.low)

    def log_prob(self, value):
        value = self._value(value)
        inside = (value >= self.low) & (value < self.high)
        return inside.to(self.low.dtype).log() - (self.high - self.low).log()

    def cdf(self, value):
        return ((self._value(value) - self.low) / (self.high - self.low)).clamp(0, 1)

    def entropy(self):
        return (self.high - self.low).log()


class Exponential(_Simple, ExponentialFamily):
    has_rsample = True

    def __init__(self, rate, validate_args=None):
        self._setup(("rate",), (rate,), ("rate",), validate_args)

    mean = property(lambda self: self.rate.reciprocal())
    variance = property(lambda self: self.rate.pow(-2))
    stddev = property(lambda self: self.rate.reciprocal())

    def rsample(self, sample_shape=Size()):
        u = _c.rand(*self._extended_shape(sample_shape), dtype=self.rate.dtype, device=self.rate.device)
        return -(1 - u).log() / self.rate

    def log_prob(self, value):
        return self.rate.log() - self.rate * self._value(value)

    def cdf(self, value):
        return 1 - (-self.rate * self._value(value)).exp()

    def entropy(self):
        return 1.0 - self.rate.log()


class Laplace(_Simple):
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self._setup(("loc", "scale"), (loc, scale), ("scale",), validate_args)

    mean = property(lambda self: self.loc)
    variance = property(lambda self: 2 * self.scale ** 2)
    stddev = property(lambda self: 2 ** 0.5 * self.scale)

    def rsample(self, sample_shape=Size()):
        eps = float(np.finfo(np.dtype(str(self.loc.dtype).split(".")[-1])).eps)
        u = _c.rand(*self._extended_shape(sample_shape), dtype=self.loc.dtype, device=self.loc.device) * 2 - 1
        u = u.clamp(-1 + eps, 1)
        return self.loc - self.scale * u.sign() * (1 - u.abs()).log()

    def log_prob(self, value):
        return -math.log(2) - self.scale.log() - (self._value(value) - self.loc).abs() / self.scale

    def entropy(self):
        return 1 + (2 * self.scale).log()


class Cauchy(_Simple):
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self._setup(("loc", "scale"), (loc, scale), ("scale",), validate_args)

    def rsample(self, sample_shape=Size()):
        u = _c.rand(*self._extended_shape(sample_shape), dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + self.scale * (math.pi * (u - 0.5)).tan()

    def log_prob(self, value):
        z = (self._value(value) - self.loc) / self.scale
        return -math.log(math.pi) - self.scale.log() - (z * z).log1p()

    def cdf(self, value):
        return ((self._value(value) - self.loc) / self.scale).atan() / math.pi + 0.5

    def entropy(self):
        return math.log(4 * math.pi) + self.scale.log()


class Gumbel(_Simple):
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self._setup(("loc", "scale"), (loc, scale), ("scale",), validate_args)

    mean = property(lambda self: self.loc + self.scale * _EULER)
    variance = property(lambda self: (math.pi ** 2 / 6) * self.scale ** 2)

    def rsample(self, sample_shape=Size()):
        tiny = float(np.finfo(np.dtype(str(self.loc.dtype).split(".")[-1])).tiny)
        u = _c.rand(*self._extended_shape(sample_shape), dtype=self.loc.dtype, device=self.loc.device)
        return self.loc - self.scale * (-(u.clamp(tiny, 1 - 1e-7)).log()).log()

    def log_prob(self, value):
        z = (self._value(value) - self.loc) / self.scale
        return -(self.scale.log() + z + (-z).exp())

    def entropy(self):
        return self.scale.log() + (1 + _EULER)


class HalfNormal(_Simple):
    has_rsample = True

    def __init__(self, scale, validate_args=None):
        self._setup(("scale",), (scale,), ("scale",), validate_args)

    mean = property(lambda self: self.scale * math.sqrt(2 / math.pi))
    variance = property(lambda self: self.scale ** 2 * (1 - 2 / math.pi))

    def rsample(self, sample_shape=Size()):
        return Normal(0.0 * self.scale, self.scale).rsample(sample_shape).abs()

    def log_prob(self, value):
        value = self._value(value)
        lp = Normal(0.0 * self.scale, self.scale).log_prob(value) + math.log(2)
        return lp.masked_fill(value < 0, -math.inf)

    def entropy(self):
        return 0.5 * math.log(math.pi * math.e / 2) + self.scale.log()


class LogNormal(_Simple):
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self._setup(("loc", "scale"), (loc, scale), ("scale",), validate_args)

    mean = property(lambda self: (self.loc + self.scale ** 2 / 2).exp())
    variance = property(lambda self: (self.scale ** 2).expm1() * (2 * self.loc + self.scale ** 2).exp())

    def rsample(self, sample_shape=Size()):
        return Normal(self.loc, self.scale).rsample(sample_shape).exp()

    def log_prob(self, value):
        value = self._value(value)
        return Normal(self.loc, self.scale).log_prob(value.log()) - value.log()

    def entropy(self):
        return Normal(self.loc, self.scale).entropy() + self.loc


def _lgamma(x):
    return x.lgamma()


class Gamma(_Simple, ExponentialFamily):
    def __init__(self, concentration, rate, validate_args=None):
        self._setup(("concentration", "rate"), (concentration, rate), ("concentration", "rate"), validate_args)

    mean = property(lambda self: self.concentration / self.rate)
    variance = property(lambda self: self.concentration / self.rate ** 2)

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        a = np.broadcast_to(_host(self.concentration), shape)
        r = np.broadcast_to(_host(self.rate), shape)
        return _draw(lambda rng, s: rng.gamma(a, 1.0 / r, s), self.concentration, shape)

    def log_prob(self, value):
        x = self._value(value)
        a, b = self.concentration, self.rate
        return a * b.log() + (a - 1) * x.log() - b * x - _lgamma(a)

    def entropy(self):
        a = self.concentration
        return a - self.rate.log() + _lgamma(a) + (1.0 - a) * a.digamma()


class Chi2(Gamma):
    def __init__(self, df, validate_args=None):
        df = _t(df)
        super().__init__(0.5 * df, 0.5 + 0.0 * df, validate_args)
        self.df_ = df

    df = property(lambda self: self.concentration * 2)


class Beta(_Simple, ExponentialFamily):
    def __init__(self, concentration1, concentration0, validate_args=None):
        self._setup(("concentration1", "concentration0"), (concentration1, concentration0),
                    ("concentration1", "concentration0"), validate_args)

    mean = property(lambda self: self.concentration1 / (self.concentration1 + self.concentration0))

    @property
    def variance(self):
        a, b = self.concentration1, self.concentration0
        return a * b / ((a + b) ** 2 * (a + b + 1))

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        a = np.broadcast_to(_host(self.concentration1), shape)
        b = np.broadcast_to(_host(self.concentration0), shape)
        return _draw(lambda rng, s: rng.beta(a, b, s), self.concentration1, shape)

    def log_prob(self, value):
        x = self._value(value)
        a, b = self.concentration1, self.concentration0
        return (a - 1) * x.log() + (b - 1) * (1 - x).log() - (_lgamma(a) + _lgamma(b) - _lgamma(a + b))

    def entropy(self):
        a, b = self.concentration1, self.concentration0
        return (_lgamma(a) + _lgamma(b) - _lgamma(a + b) - (a - 1) * a.digamma() - (b - 1) * b.digamma()
                + (a + b - 2) * (a + b).digamma())


class Dirichlet(ExponentialFamily):
    def __init__(self, concentration, validate_args=None):
        self.concentration = _t(concentration)
        if self.concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self._params = ("concentration",)
        super().__init__(self.concentration.shape[:-1], self.concentration.shape[-1:], validate_args)
        if validate_args is not False:
            self._check("concentration", self.concentration, (self.concentration > 0).all(),
                        "IndependentConstraint(GreaterThan(lower_bound=0.0), 1)")

    mean = property(lambda self: self.concentration / self.concentration.sum(-1, keepdim=True))

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        a = np.broadcast_to(_host(self.concentration), shape)
        return _draw(lambda rng, s: (lambda g: g / g.sum(-1, keepdims=True))(rng.gamma(a, 1.0, s)),
                     self.concentration, shape)

    def log_prob(self, value):
        x = _t(value, self.concentration)
        a = self.concentration
        return ((a - 1) * x.log()).sum(-1) + _lgamma(a.sum(-1)) - _lgamma(a).sum(-1)

    def entropy(self):
        a = self.concentration
        k = a.shape[-1]
        a0 = a.sum(-1)
        return _lgamma(a).sum(-1) - _lgamma(a0) - (k - a0) * a0.digamma() - ((a - 1) * a.digamma()).sum(-1)


class StudentT(_Simple):
    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self._setup(("df", "loc", "scale"), (df, loc, scale), ("df", "scale"), validate_args)

    def sample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        df = np.broadcast_to(_host(self.df), shape)
        z = _draw(lambda rng, s: rng.standard_t(df, s), self.df, shape)
        return self.loc.detach() + self.scale.detach() * z

    def log_prob(self, value):
        y = (self._value(value) - self.loc) / self.scale
        z = self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi) + _lgamma(0.5 * self.df) - \
            _lgamma(0.5 * (self.df + 1.0))
        return -0.5 * (self.df + 1.0) * (y ** 2 / self.df).log1p() - z

    def entropy(self):
        lbeta = _lgamma(0.5 * self.df) + math.lgamma(0.5) - _lgamma(0.5 * (self.df + 1))
        return (self.scale.log() + 0.5 * (self.df + 1) * ((0.5 * (self.df + 1)).digamma() - (0.5 * self.df).digamma())
                + 0.5 * self.df.log() + lbeta)


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
        from .nn.functional import binary_cross_entropy_with_logits  # noqa: PLC0415

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
        from .nn.functional import softplus  # noqa: PLC0415

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
        from .nn.functional import one_hot  # noqa: PLC0415

        idx = self._categorical.sample(sample_shape)
        return one_hot(idx, self.probs.shape[-1]).to(self.probs.dtype)

    def log_prob(self, value):
        return self._categorical.log_prob(_t(value, self.probs).argmax(-1))

    def entropy(self):
        return self._categorical.entropy()


class MultivariateNormal(Distribution):
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        from .linalg import cholesky, inv  # noqa: PLC0415

        if sum(m is not None for m in (covariance_matrix, precision_matrix, scale_tril)) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        loc = _t(loc)
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        if scale_tril is not None:
            L = scale_tril
        elif covariance_matrix is not None:
            L = cholesky(covariance_matrix)
        else:
            L = cholesky(inv(precision_matrix))
        batch = np.broadcast_shapes(tuple(L.shape[:-2]), tuple(loc.shape[:-1]))
        n = loc.shape[-1]
        self.loc = loc.expand(*batch, n)
        self._unbroadcasted_scale_tril = L
        self.scale_tril = L.expand(*batch, n, n)
        self._params = ("loc",)
        super().__init__(Size(batch), Size((n,)), validate_args)

    covariance_matrix = property(lambda self: self.scale_tril @ self.scale_tril.mT)
    mean = property(lambda self: self.loc)
    variance = property(lambda self: (self.scale_tril ** 2).sum(-1))

    @property
    def precision_matrix(self):
        from .linalg import inv  # noqa: PLC0415

        return inv(self.covariance_matrix)

    def rsample(self, sample_shape=Size()):
        eps = _c.randn(*self._extended_shape(sample_shape), dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + (self._unbroadcasted_scale_tril @ eps.unsqueeze(-1)).squeeze(-1)

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(0, -2, -1).log().sum(-1)

    def log_prob(self, value):
        from .linalg_more import solve_triangular  # noqa: PLC0415

        diff = _t(value, self.loc) - self.loc
        L = self._unbroadcasted_scale_tril.expand(*diff.shape[:-1], *self._unbroadcasted_scale_tril.shape[-2:])
        m = (solve_triangular(L, diff.unsqueeze(-1), upper=False).squeeze(-1) ** 2).sum(-1)
        n = self.loc.shape[-1]
        return -0.5 * (n * math.log(2 * math.pi) + m) - self._half_log_det()

    def entropy(self):
        n = self.loc.shape[-1]
        h = 0.5 * n * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return h.expand(*self.batch_shape) if len(self.batch_shape) else h


class Independent(Distribution):
    """Reinterpret the rightmost ``reinterpreted_batch_ndims`` batch dims of ``base_distribution``
    as event dims (log_prob and entropy summed over them)."""

    def __init__(self, base_distribution, reinterpreted_batch_ndims, validate_args=None):
        k = int(reinterpreted_batch_ndims)
        shape = tuple(base_distribution.batch_shape) + tuple(base_distribution.event_shape)
        if k > len(base_distribution.batch_shape):
            raise ValueError(f"Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), actual "
                             f"{k} vs {len(base_distribution.batch_shape)}")
        nb = len(base_distribution.batch_shape) - k
        self.base_dist, self.reinterpreted_batch_ndims = base_distribution, k
        self.has_rsample = base_distribution.has_rsample
        self._params = ()
        super().__init__(Size(shape[:nb]), Size(shape[nb:]), validate_args)

    mean = property(lambda self: self.base_dist.mean)
    variance = property(lambda self: self.base_dist.variance)

    def sample(self, sample_shape=Size()):
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape=Size()):
        return self.base_dist.rsample(sample_shape)

    def _sum(self, x):
        return x.sum(tuple(range(-self.reinterpreted_batch_ndims, 0))) if self.reinterpreted_batch_ndims else x

    def log_prob(self, value):
        return self._sum(self.base_dist.log_prob(value))

    def entropy(self):
        return self._sum(self.base_dist.entropy())

    def __repr__(self):
        return f"Independent({self.base_dist!r}, {self.reinterpreted_batch_ndims})"


# --- KL divergence ------------------------------------------------------------------------------
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
    from .linalg_more import solve_triangular  # noqa: PLC0415

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
    return p._sum(kl_divergence(p.base_dist, q.base_dist))


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehot(p, q):
    return kl_divergence(p._categorical, q._categorical)


def kl_divergence(p, q):
    """KL(p || q): the registered function for the most specific pair of types (register_kl), else the
    built-in pairs of distributions.py (Normal, Categorical, Bernoulli)."""
    fn = lookup_kl(p, q)
    if fn is not None:
        return fn(p, q)
    return _base_kl(p, q)


def _kl_module():
    import types  # noqa: PLC0415

    m = types.ModuleType("funcgrad.compat.distributions.kl", "torch.distributions.kl: kl_divergence, register_kl")
    m.kl_divergence, m.register_kl = kl_divergence, register_kl
    return m


kl = _kl_module()
