"""Distributions over vectors: Dirichlet, MultivariateNormal, and Independent (batch dimensions
reinterpreted as event dimensions)."""

from __future__ import annotations

import math

import numpy as np

from .. import creation as _c
from ..tensor import Size
from .continuous import _lgamma
from .distribution import Distribution, ExponentialFamily, _draw, _host, _t

__all__ = ["Dirichlet", "MultivariateNormal", "Independent"]


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


class MultivariateNormal(Distribution):
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        from ..linalg import cholesky, inv  # noqa: PLC0415

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
        from ..linalg import inv  # noqa: PLC0415

        return inv(self.covariance_matrix)

    def rsample(self, sample_shape=Size()):
        eps = _c.randn(*self._extended_shape(sample_shape), dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + (self._unbroadcasted_scale_tril @ eps.unsqueeze(-1)).squeeze(-1)

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(0, -2, -1).log().sum(-1)

    def log_prob(self, value):
        from ..linalg_solvers import solve_triangular  # noqa: PLC0415

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
