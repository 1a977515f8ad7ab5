"""Univariate continuous distributions: Normal, Uniform, Exponential, Laplace, Cauchy, Gumbel,
HalfNormal, LogNormal, Gamma, Chi2, Beta, StudentT.  ``rsample`` where a location-scale transform
reparameterizes the distribution; Gamma, Beta and StudentT draw with numpy's samplers and their
``rsample`` (PyTorch's implicit reparameterization) says it is not provided."""

from __future__ import annotations

import math

import numpy as np

from .. import creation as _c
from ..tensor import Size
from .distribution import _EULER, Distribution, ExponentialFamily, _draw, _host, _Simple, _t

__all__ = ["Normal", "Uniform", "Exponential", "Laplace", "Cauchy", "Gumbel", "HalfNormal", "LogNormal", "Gamma", "Chi2", "Beta", "StudentT"]


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
