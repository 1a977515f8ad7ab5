"""Distributions over vectors: Dirichlet, MultivariateNormal, LowRankMultivariateNormal, and
Independent (batch dimensions reinterpreted as event dimensions)."""

from __future__ import annotations

import math

import numpy as np

from .. import creation as _c
from ..tensor import Size
from . import constraints
from .distribution import Distribution, _finfo
from .exp_family import ExponentialFamily
from .gamma_sampling import standard_gamma
from .utils import _diag_embed, _sum_rightmost, lazy_property

__all__ = ["Dirichlet", "MultivariateNormal", "LowRankMultivariateNormal", "Independent"]


def _lgamma(x):
    return x.lgamma()


class Dirichlet(ExponentialFamily):
    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:], validate_args)

    mean = property(lambda self: self.concentration / self.concentration.sum(-1, keepdim=True))

    @property
    def mode(self):
        a = (self.concentration - 1).clamp(min=0.0)
        mode = a / a.sum(-1, keepdim=True)
        all_small = (self.concentration < 1).all(-1, keepdim=True)  # no interior mode: the largest vertex
        from ..nn.functional import one_hot  # noqa: PLC0415

        onehot = one_hot(self.concentration.argmax(-1), a.shape[-1]).to(a.dtype)
        return mode.masked_fill(all_small, 0.0) + onehot * all_small.to(a.dtype)

    @property
    def variance(self):
        con0 = self.concentration.sum(-1, keepdim=True)
        return self.concentration * (con0 - self.concentration) / (con0 ** 2 * (con0 + 1))

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        g = standard_gamma(self.concentration.expand(*shape))
        fi = _finfo(g)
        return (g / g.sum(-1, keepdim=True)).clamp(fi.tiny, 1 - fi.eps)

    def log_prob(self, value):
        x = self._value(value, self.concentration)
        a = self.concentration
        return (a - 1).xlogy(x).sum(-1) + _lgamma(a.sum(-1)) - _lgamma(a).sum(-1)

    def entropy(self):
        a = self.concentration
        k = a.shape[-1]
        a0 = a.sum(-1)
        return _lgamma(a).sum(-1) - _lgamma(a0) - (k - a0) * a0.digamma() - ((a - 1) * a.digamma()).sum(-1)

    _natural_params = property(lambda self: (self.concentration,))

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - x.sum(-1).lgamma()


def _solve_tril(L, b):
    from ..linalg_solvers import solve_triangular  # noqa: PLC0415

    return solve_triangular(L, b, upper=False)


def _batch_mahalanobis(L, x):
    """x^T (L L^T)^-1 x for a (broadcast) batch: |L^-1 x|^2."""
    shape = np.broadcast_shapes(tuple(L.shape[:-2]), tuple(x.shape[:-1]))
    n = L.shape[-1]
    Lb = L.expand(*shape, n, n)
    xb = x.expand(*shape, n)
    return (_solve_tril(Lb, xb.unsqueeze(-1)).squeeze(-1) ** 2).sum(-1)


def _precision_to_scale_tril(P):
    from ..linalg import cholesky  # noqa: PLC0415

    Lf = cholesky(P.flip((-2, -1)))
    L_inv = Lf.flip((-2, -1)).transpose(-2, -1)
    eye = _c.eye(P.shape[-1], dtype=P.dtype, device=P.device)
    return _solve_tril(L_inv, eye.expand(*L_inv.shape))


class MultivariateNormal(Distribution):
    """Gaussian over vectors, given exactly one of ``covariance_matrix``, ``precision_matrix``,
    ``scale_tril``; log_prob, entropy and rsample go through the Cholesky factor."""

    arg_constraints = {"loc": constraints.real_vector, "covariance_matrix": constraints.positive_definite,
                       "precision_matrix": constraints.positive_definite, "scale_tril": constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        from ..linalg import cholesky  # noqa: PLC0415

        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        if (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        given = {"scale_tril": scale_tril, "covariance_matrix": covariance_matrix, "precision_matrix": precision_matrix}
        name, m = next((k, v) for k, v in given.items() if v is not None)
        if m.dim() < 2:
            raise ValueError(f"{name} matrix must be at least two-dimensional, with optional leading batch dimensions")
        batch = np.broadcast_shapes(tuple(m.shape[:-2]), tuple(loc.shape[:-1]))
        setattr(self, name, m.expand(*batch, -1, -1))
        self.loc = loc.expand(*batch, -1)
        super().__init__(Size(batch), self.loc.shape[-1:], validate_args)
        if name == "scale_tril":
            self._unbroadcasted_scale_tril = scale_tril
        elif name == "covariance_matrix":
            self._unbroadcasted_scale_tril = cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)

    def _square(self):
        return (*self._batch_shape, *self._event_shape, *self._event_shape)

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(*self._square())

    @lazy_property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return (L @ L.mT).expand(*self._square())

    @lazy_property
    def precision_matrix(self):
        from ..linalg import cholesky_inverse  # noqa: PLC0415

        return cholesky_inverse(self._unbroadcasted_scale_tril).expand(*self._square())

    mean = mode = property(lambda self: self.loc)

    @property
    def variance(self):
        return (self._unbroadcasted_scale_tril ** 2).sum(-1).expand(*self._batch_shape, *self._event_shape)

    def rsample(self, sample_shape=Size()):
        eps = _c.randn(*self._extended_shape(sample_shape), dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + (self._unbroadcasted_scale_tril @ eps.unsqueeze(-1)).squeeze(-1)

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(0, -2, -1).log().sum(-1)

    def log_prob(self, value):
        value = self._value(value, self.loc)
        m = _batch_mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + m) - self._half_log_det()

    def entropy(self):
        h = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return h.expand(*self._batch_shape) if len(self._batch_shape) else h


def _capacitance_tril(W, D):
    """Cholesky of I + W^T D^-1 W."""
    from ..linalg import cholesky  # noqa: PLC0415

    K = (W.mT / D.unsqueeze(-2)) @ W
    return cholesky(K + _c.eye(W.shape[-1], dtype=W.dtype, device=W.device))


class LowRankMultivariateNormal(Distribution):
    """Gaussian with covariance ``cov_factor @ cov_factor.T + diag(cov_diag)``; log_prob and entropy
    through the Woodbury identity and the matrix determinant lemma (an m x m capacitance matrix)."""

    arg_constraints = {"loc": constraints.real_vector, "cov_factor": constraints.independent(constraints.real, 2),
                       "cov_diag": constraints.independent(constraints.positive, 1)}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, cov_factor, cov_diag, validate_args=None):
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        event = loc.shape[-1:]
        if cov_factor.dim() < 2:
            raise ValueError("cov_factor must be at least two-dimensional, with optional leading batch dimensions")
        if tuple(cov_factor.shape[-2:-1]) != tuple(event):
            raise ValueError(f"cov_factor must be a batch of matrices with shape {event[0]} x m")
        if tuple(cov_diag.shape[-1:]) != tuple(event):
            raise ValueError(f"cov_diag must be a batch of vectors with shape {event}")
        try:
            shape = np.broadcast_shapes(tuple(loc.shape) + (1,), tuple(cov_factor.shape), tuple(cov_diag.shape) + (1,))
        except ValueError as e:
            raise ValueError(f"Incompatible batch shapes: loc {loc.shape}, cov_factor {cov_factor.shape}, cov_diag "
                             f"{cov_diag.shape}") from e
        self.cov_factor = cov_factor.expand(*shape)
        self.loc = loc.unsqueeze(-1).expand(*shape)[..., 0]
        self.cov_diag = cov_diag.unsqueeze(-1).expand(*shape)[..., 0]
        self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag = cov_factor, cov_diag
        self._capacitance_tril = _capacitance_tril(cov_factor, cov_diag)
        super().__init__(self.loc.shape[:-1], event, validate_args)

    def _square(self):
        return (*self._batch_shape, *self._event_shape, *self._event_shape)

    mean = mode = property(lambda self: self.loc)

    @lazy_property
    def variance(self):
        W, D = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        return ((W ** 2).sum(-1) + D).expand(*self._batch_shape, *self._event_shape)

    @lazy_property
    def scale_tril(self):
        from ..linalg import cholesky  # noqa: PLC0415

        n = self._event_shape[0]
        d_sqrt = self._unbroadcasted_cov_diag.sqrt().unsqueeze(-1)
        A = self._unbroadcasted_cov_factor / d_sqrt
        K = A @ A.mT + _c.eye(n, dtype=A.dtype, device=A.device)
        return (d_sqrt * cholesky(K)).expand(*self._square())

    @lazy_property
    def covariance_matrix(self):
        W, D = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        return (W @ W.mT + _diag_embed(D)).expand(*self._square())

    @lazy_property
    def precision_matrix(self):
        W, D = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        Wt_Dinv = W.mT / D.unsqueeze(-2)
        A = _solve_tril(self._capacitance_tril, Wt_Dinv)
        return (_diag_embed(D.reciprocal()) - A.mT @ A).expand(*self._square())

    def rsample(self, sample_shape=Size()):
        shape = self._extended_shape(sample_shape)
        eps_w = _c.randn(*shape[:-1], self.cov_factor.shape[-1], dtype=self.loc.dtype, device=self.loc.device)
        eps_d = _c.randn(*shape, dtype=self.loc.dtype, device=self.loc.device)
        Wx = (self._unbroadcasted_cov_factor @ eps_w.unsqueeze(-1)).squeeze(-1)
        return self.loc + Wx + self._unbroadcasted_cov_diag.sqrt() * eps_d

    def _log_det(self):
        C, D = self._capacitance_tril, self._unbroadcasted_cov_diag
        return 2 * C.diagonal(0, -2, -1).log().sum(-1) + D.log().sum(-1)

    def log_prob(self, value):
        value = self._value(value, self.loc)
        x = value - self.loc
        W, D = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        Wt_Dinv_x = ((W.mT / D.unsqueeze(-2)) @ x.unsqueeze(-1)).squeeze(-1)
        m = (x ** 2 / D).sum(-1) - _batch_mahalanobis(self._capacitance_tril, Wt_Dinv_x)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + self._log_det() + m)

    def entropy(self):
        h = 0.5 * (self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._log_det())
        return h.expand(*self._batch_shape) if len(self._batch_shape) else h


class Independent(Distribution):
    """Reinterpret the rightmost ``reinterpreted_batch_ndims`` batch dims of ``base_distribution``
    as event dims (log_prob and entropy summed over them)."""

    arg_constraints = {}

    def __init__(self, base_distribution, reinterpreted_batch_ndims, validate_args=None):
        k = int(reinterpreted_batch_ndims)
        if k > len(base_distribution.batch_shape):
            raise ValueError(f"Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), actual "
                             f"{k} vs {len(base_distribution.batch_shape)}")
        shape = tuple(base_distribution.batch_shape) + tuple(base_distribution.event_shape)
        nb = len(base_distribution.batch_shape) - k
        self.base_dist, self.reinterpreted_batch_ndims = base_distribution, k
        super().__init__(Size(shape[:nb]), Size(shape[nb:]), validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Independent, _instance)
        batch_shape = Size(batch_shape)
        new.base_dist = self.base_dist.expand(batch_shape + self.event_shape[:self.reinterpreted_batch_ndims])
        new.reinterpreted_batch_ndims = self.reinterpreted_batch_ndims
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    has_rsample = property(lambda self: self.base_dist.has_rsample)

    @property
    def has_enumerate_support(self):
        return self.reinterpreted_batch_ndims == 0 and self.base_dist.has_enumerate_support

    @constraints.dependent_property
    def support(self):
        s = self.base_dist.support
        return constraints.independent(s, self.reinterpreted_batch_ndims) if self.reinterpreted_batch_ndims else s

    mean = property(lambda self: self.base_dist.mean)
    mode = property(lambda self: self.base_dist.mode)
    variance = property(lambda self: self.base_dist.variance)

    def sample(self, sample_shape=Size()):
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape=Size()):
        return self.base_dist.rsample(sample_shape)

    def _sum(self, x):
        return _sum_rightmost(x, self.reinterpreted_batch_ndims)

    def log_prob(self, value):
        return self._sum(self.base_dist.log_prob(value))

    def entropy(self):
        return self._sum(self.base_dist.entropy())

    def enumerate_support(self, expand=True):
        if self.reinterpreted_batch_ndims > 0:
            raise NotImplementedError("Enumeration over cartesian product is not implemented")
        return self.base_dist.enumerate_support(expand=expand)

    def __repr__(self):
        return f"{type(self).__name__}({self.base_dist}, {self.reinterpreted_batch_ndims})"

