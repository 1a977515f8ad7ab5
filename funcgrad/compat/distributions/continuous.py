"""Univariate continuous distributions: Normal, Uniform, Exponential, Laplace, Cauchy, Gumbel,
HalfNormal, LogNormal (the last three TransformedDistributions, as PyTorch's), Gamma, Chi2, Beta,
StudentT.  ``rsample`` is differentiable: a location-scale
transform of uniform/normal noise, or (Gamma and what is built on it: Chi2, Beta, StudentT) the
implicit reparameterization of gamma_sampling.standard_gamma."""

from __future__ import annotations

import math

from .. import creation as _c
from ..ops_elementwise import where as _where
from ..tensor import Size
from . import constraints
from .distribution import _finfo, _Simple, _t
from .exp_family import ExponentialFamily
from .gamma_sampling import standard_gamma
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform, AffineTransform, ExpTransform
from .utils import broadcast_all, euler_constant

__all__ = ["Normal", "Uniform", "Exponential", "Laplace", "Cauchy", "Gumbel", "HalfNormal", "LogNormal", "Gamma", "Chi2",
           "Beta", "StudentT"]

_LOC_SCALE = {"loc": constraints.real, "scale": constraints.positive}


def _lgamma(x):
    return x.lgamma()


def _noise(d, like, sample_shape, kind="rand"):
    fn = _c.rand if kind == "rand" else _c.randn
    return fn(*d._extended_shape(sample_shape), dtype=like.dtype, device=like.device)


class Normal(_Simple, ExponentialFamily):
    """Gaussian with ``loc`` and ``scale`` (broadcast together)."""

    arg_constraints = _LOC_SCALE
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self._setup(("loc", "scale"), (loc, scale), validate_args)

    mean = mode = property(lambda self: self.loc)
    stddev = property(lambda self: self.scale)
    variance = property(lambda self: self.scale ** 2)

    def rsample(self, sample_shape=Size()):
        return self.loc + _noise(self, self.loc, sample_shape, "randn") * self.scale

    def log_prob(self, value):
        value = self._value(value)
        return -((value - self.loc) ** 2) / (2 * self.variance) - self.scale.log() - 0.5 * math.log(2 * math.pi)

    def cdf(self, value):
        value = self._value(value)
        return 0.5 * (1 + ((value - self.loc) / (self.scale * math.sqrt(2))).erf())

    def icdf(self, value):
        return self.loc + self.scale * (2 * _t(value, self.loc) - 1).erfinv() * math.sqrt(2)

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log()

    _mean_carrier_measure = 0
    _natural_params = property(lambda self: (self.loc / self.scale ** 2, -0.5 * (self.scale ** 2).reciprocal()))

    def _log_normalizer(self, x, y):
        return -0.25 * x ** 2 / y + 0.5 * (-math.pi / y).log()


class Uniform(_Simple):
    """Uniform on ``[low, high)``."""

    has_rsample = True

    def __init__(self, low, high, validate_args=None):
        self._setup(("low", "high"), (low, high), validate_args)

    @property
    def arg_constraints(self):
        return {"low": constraints.less_than(self.high), "high": constraints.greater_than(self.low)}

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        return constraints.interval(self.low, self.high)

    mean = property(lambda self: (self.high + self.low) / 2)
    mode = property(lambda self: self.high * math.nan)
    variance = property(lambda self: (self.high - self.low) ** 2 / 12)
    stddev = property(lambda self: (self.high - self.low) / 12 ** 0.5)

    def rsample(self, sample_shape=Size()):
        return self.low + _noise(self, self.low, sample_shape) * (self.high - self.low)

    def log_prob(self, value):
        value = self._value(value)
        inside = (value >= self.low).to(self.low.dtype) * (value < self.high).to(self.low.dtype)
        return inside.log() - (self.high - self.low).log()

    def cdf(self, value):
        return ((self._value(value) - self.low) / (self.high - self.low)).clamp(0, 1)

    def icdf(self, value):
        return value * (self.high - self.low) + self.low

    def entropy(self):
        return (self.high - self.low).log()


class Exponential(_Simple, ExponentialFamily):
    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, rate, validate_args=None):
        self._setup(("rate",), (rate,), validate_args)

    mean = property(lambda self: self.rate.reciprocal())
    mode = property(lambda self: self.rate * 0.0)
    variance = property(lambda self: self.rate.pow(-2))
    stddev = property(lambda self: self.rate.reciprocal())

    def rsample(self, sample_shape=Size()):
        u = _noise(self, self.rate, sample_shape)
        return -(-u).log1p() / self.rate

    def log_prob(self, value):
        return self.rate.log() - self.rate * self._value(value)

    def cdf(self, value):
        return 1 - (-self.rate * self._value(value)).exp()

    def icdf(self, value):
        return -(-value).log1p() / self.rate

    def entropy(self):
        return 1.0 - self.rate.log()

    _mean_carrier_measure = 0
    _natural_params = property(lambda self: (-self.rate,))

    def _log_normalizer(self, x):
        return -(-x).log()


class Laplace(_Simple):
    arg_constraints = _LOC_SCALE
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self._setup(("loc", "scale"), (loc, scale), validate_args)

    mean = mode = property(lambda self: self.loc)
    variance = property(lambda self: 2 * self.scale ** 2)
    stddev = property(lambda self: 2 ** 0.5 * self.scale)

    def rsample(self, sample_shape=Size()):
        eps = _finfo(self.loc).eps
        u = (_noise(self, self.loc, sample_shape) * 2 - 1).clamp(-1 + eps, 1)
        return self.loc - self.scale * u.sign() * (-u.abs()).log1p()

    def log_prob(self, value):
        return -math.log(2) - self.scale.log() - (self._value(value) - self.loc).abs() / self.scale

    def cdf(self, value):
        z = self._value(value) - self.loc
        return 0.5 - 0.5 * z.sign() * (-z.abs() / self.scale).expm1()

    def icdf(self, value):
        t = value - 0.5
        return self.loc - self.scale * t.sign() * (-2 * t.abs()).log1p()

    def entropy(self):
        return 1 + (2 * self.scale).log()


class Cauchy(_Simple):
    arg_constraints = _LOC_SCALE
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self._setup(("loc", "scale"), (loc, scale), validate_args)

    mean = property(lambda self: self.loc * math.nan)
    mode = property(lambda self: self.loc)
    variance = property(lambda self: self.loc * 0.0 + math.inf)

    def rsample(self, sample_shape=Size()):
        return self.icdf(_noise(self, self.loc, sample_shape))

    def log_prob(self, value):
        z = (self._value(value) - self.loc) / self.scale
        return -math.log(math.pi) - self.scale.log() - (z * z).log1p()

    def cdf(self, value):
        return ((self._value(value) - self.loc) / self.scale).atan() / math.pi + 0.5

    def icdf(self, value):
        return self.loc + self.scale * (math.pi * (value - 0.5)).tan()

    def entropy(self):
        return math.log(4 * math.pi) + self.scale.log()


class Gumbel(TransformedDistribution):
    """-log(-log U) scaled and shifted: a TransformedDistribution of a uniform, as PyTorch's."""

    arg_constraints = _LOC_SCALE
    support = constraints.real

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        fi = _finfo(self.loc)
        base = Uniform(self.loc.new_full(tuple(self.loc.shape), fi.tiny),
                       self.loc.new_full(tuple(self.loc.shape), 1 - fi.eps), validate_args=validate_args)
        transforms = [ExpTransform().inv, AffineTransform(loc=0, scale=-self.scale.new_ones(tuple(self.scale.shape))),
                      ExpTransform().inv, AffineTransform(loc=loc, scale=-self.scale)]
        super().__init__(base, transforms, validate_args=validate_args)

    def log_prob(self, value):  # explicit, for precision
        if self._validate_args:
            self._validate_sample(value)
        y = (self.loc - value) / self.scale
        return (y - y.exp()) - self.scale.log()

    mean = property(lambda self: self.loc + self.scale * euler_constant)
    mode = property(lambda self: self.loc)
    stddev = property(lambda self: (math.pi / math.sqrt(6)) * self.scale)
    variance = property(lambda self: self.stddev ** 2)

    def entropy(self):
        return self.scale.log() + (1 + euler_constant)


class _Half(TransformedDistribution):
    """|X| for X of a zero-centred symmetric family ``_base(0, scale)``: the density doubled on [0, inf)."""

    arg_constraints = {"scale": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _base = None  # the symmetric family (Normal, Cauchy)

    def __init__(self, scale, validate_args=None):
        super().__init__(self._base(0, scale, validate_args=False), AbsTransform(), validate_args=validate_args)

    scale = property(lambda self: self.base_dist.scale)
    mode = property(lambda self: self.scale * 0.0)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = _t(value, self.scale)
        return _where(value >= 0, self.base_dist.log_prob(value) + math.log(2), -math.inf)

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob):
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self):
        return self.base_dist.entropy() - math.log(2)


class HalfNormal(_Half):
    """|X| for X ~ Normal(0, scale)."""

    _base = Normal
    mean = property(lambda self: self.scale * math.sqrt(2 / math.pi))
    variance = property(lambda self: self.scale ** 2 * (1 - 2 / math.pi))


class LogNormal(TransformedDistribution):
    """exp(X) for X ~ Normal(loc, scale)."""

    arg_constraints = _LOC_SCALE
    support = constraints.positive
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        super().__init__(Normal(loc, scale, validate_args=validate_args), ExpTransform(), validate_args=validate_args)

    loc = property(lambda self: self.base_dist.loc)
    scale = property(lambda self: self.base_dist.scale)
    mean = property(lambda self: (self.loc + self.scale ** 2 / 2).exp())
    mode = property(lambda self: (self.loc - self.scale ** 2).exp())
    variance = property(lambda self: (self.scale ** 2).expm1() * (2 * self.loc + self.scale ** 2).exp())

    def entropy(self):
        return self.base_dist.entropy() + self.loc


class Gamma(_Simple, ExponentialFamily):
    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None):
        self._setup(("concentration", "rate"), (concentration, rate), validate_args)

    mean = property(lambda self: self.concentration / self.rate)
    mode = property(lambda self: ((self.concentration - 1) / self.rate).clamp(min=0))
    variance = property(lambda self: self.concentration / self.rate ** 2)

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        x = standard_gamma(self.concentration.expand(*shape)) / self.rate.expand(*shape)
        return x.clamp(min=_finfo(x).tiny)

    def log_prob(self, value):
        x = self._value(value)
        a, b = self.concentration, self.rate
        return a.xlogy(b) + (a - 1).xlogy(x) - b * x - _lgamma(a)

    def cdf(self, value):
        from ..special import gammainc  # noqa: PLC0415

        return gammainc(self.concentration, self.rate * self._value(value))

    def entropy(self):
        a = self.concentration
        return a - self.rate.log() + _lgamma(a) + (1.0 - a) * a.digamma()

    _mean_carrier_measure = 0
    _natural_params = property(lambda self: (self.concentration - 1, -self.rate))

    def _log_normalizer(self, x, y):
        return (x + 1).lgamma() + (x + 1) * (-y.reciprocal()).log()


class Chi2(Gamma):
    arg_constraints = {"df": constraints.positive}

    def __init__(self, df, validate_args=None):
        from .utils import broadcast_all  # noqa: PLC0415

        (df,) = broadcast_all(df)
        super().__init__(0.5 * df, 0.5 + 0.0 * df, validate_args)

    df = property(lambda self: self.concentration * 2)


class Beta(_Simple, ExponentialFamily):
    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        self._setup(("concentration1", "concentration0"), (concentration1, concentration0), validate_args)

    mean = property(lambda self: self.concentration1 / (self.concentration1 + self.concentration0))

    @property
    def mode(self):
        a, b = self.concentration1, self.concentration0
        return (a - 1) / (a + b - 2)

    @property
    def variance(self):
        a, b = self.concentration1, self.concentration0
        return a * b / ((a + b) ** 2 * (a + b + 1))

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        x = standard_gamma(self.concentration1.expand(*shape))
        y = standard_gamma(self.concentration0.expand(*shape))
        fi = _finfo(x)
        return (x / (x + y)).clamp(fi.tiny, 1 - fi.eps)

    def log_prob(self, value):
        x = self._value(value)
        a, b = self.concentration1, self.concentration0
        return (a - 1).xlogy(x) + (b - 1) * (-x).log1p() - (_lgamma(a) + _lgamma(b) - _lgamma(a + b))

    def entropy(self):
        a, b = self.concentration1, self.concentration0
        return (_lgamma(a) + _lgamma(b) - _lgamma(a + b) - (a - 1) * a.digamma() - (b - 1) * b.digamma()
                + (a + b - 2) * (a + b).digamma())

    _natural_params = property(lambda self: (self.concentration1, self.concentration0))

    def _log_normalizer(self, x, y):
        return x.lgamma() + y.lgamma() - (x + y).lgamma()


class StudentT(_Simple):
    arg_constraints = {"df": constraints.positive, "loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self._setup(("df", "loc", "scale"), (df, loc, scale), validate_args)

    @property
    def mean(self):
        return self.loc.masked_fill(self.df <= 1, math.nan)

    mode = property(lambda self: self.loc)

    @property
    def variance(self):
        v = self.scale ** 2 * self.df / (self.df - 2)
        v = v.masked_fill((self.df <= 2) & (self.df > 1), math.inf)
        return v.masked_fill(self.df <= 1, math.nan)

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        z = _noise(self, self.df, sample_shape, "randn")
        chi2 = 2 * standard_gamma((0.5 * self.df).expand(*shape))
        return self.loc + self.scale * z * (self.df / chi2).sqrt()

    def log_prob(self, value):
        y = (self._value(value) - self.loc) / self.scale
        z = self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi) + _lgamma(0.5 * self.df) - \
            _lgamma(0.5 * (self.df + 1.0))
        return -0.5 * (self.df + 1.0) * (y ** 2 / self.df).log1p() - z

    def entropy(self):
        lbeta = _lgamma(0.5 * self.df) + math.lgamma(0.5) - _lgamma(0.5 * (self.df + 1))
        return (self.scale.log() + 0.5 * (self.df + 1) * ((0.5 * (self.df + 1)).digamma() - (0.5 * self.df).digamma())
                + 0.5 * self.df.log() + lbeta)
