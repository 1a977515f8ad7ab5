"""Distributions over matrices: Wishart (positive-definite matrices, Bartlett sampling with a
differentiable rsample) and LKJCholesky (Cholesky factors of correlation matrices, the onion
method)."""

from __future__ import annotations

import math
import warnings
from numbers import Number

import numpy as np

from .. import creation as _c
from ..tensor import Size
from . import constraints
from .continuous import Beta, Chi2
from .distribution import Distribution, _finfo
from .exp_family import ExponentialFamily
from .multivariate import _precision_to_scale_tril
from .utils import _diag_embed, broadcast_all, lazy_property

__all__ = ["Wishart", "LKJCholesky"]

_LOG_2 = math.log(2)


def _mvdigamma(x, p):
    """sum_{i<p} digamma(x - i/2)."""
    offsets = _c.arange(p, dtype=x.dtype, device=x.device) / 2
    return (x.unsqueeze(-1) - offsets.expand(*x.shape, p)).digamma().sum(-1)


def _mvlgamma(x, p):
    from ..ops_math_extra import mvlgamma  # noqa: PLC0415

    return mvlgamma(x, p)


class Wishart(ExponentialFamily):
    """Wishart with ``df`` degrees of freedom and exactly one of ``covariance_matrix``,
    ``precision_matrix``, ``scale_tril``."""

    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def arg_constraints(self):
        return {"covariance_matrix": constraints.positive_definite, "precision_matrix": constraints.positive_definite,
                "scale_tril": constraints.lower_cholesky, "df": constraints.greater_than(self.event_shape[-1] - 1)}

    def __init__(self, df, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        from ..linalg import cholesky  # noqa: PLC0415

        if (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) != 1:
            raise AssertionError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        param = next(p for p in (covariance_matrix, precision_matrix, scale_tril) if p is not None)
        if param.dim() < 2:
            raise ValueError("scale_tril must be at least two-dimensional, with optional leading batch dimensions")
        if isinstance(df, Number):
            batch = tuple(param.shape[:-2])
            self.df = _c.tensor(float(df), dtype=param.dtype, device=param.device)
        else:
            batch = np.broadcast_shapes(tuple(param.shape[:-2]), tuple(df.shape))
            self.df = df.expand(*batch)
        event = param.shape[-2:]
        if bool((self.df <= event[-1] - 1).any()):
            raise ValueError(f"Value of df={df} expected to be greater than ndim - 1 = {event[-1] - 1}.")
        name = "scale_tril" if scale_tril is not None else "covariance_matrix" if covariance_matrix is not None \
            else "precision_matrix"
        setattr(self, name, param.expand(*batch, -1, -1))
        if bool((self.df < event[-1]).any()):
            warnings.warn("Low df values detected. Singular samples are highly likely to occur for ndim - 1 < df < ndim.",
                          stacklevel=2)
        super().__init__(Size(batch), event, validate_args=validate_args)
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)
        self._set_chi2()

    def _set_chi2(self):
        p = self._event_shape[-1]
        offsets = _c.arange(p, dtype=self._unbroadcasted_scale_tril.dtype, device=self.df.device)
        self._dist_chi2 = Chi2(df=self.df.unsqueeze(-1) - offsets.expand(*self._batch_shape, p))

    @property
    def _batch_dims(self):
        return [-(x + 1) for x in range(len(self._batch_shape))]

    def expand(self, batch_shape, _instance=None):
        new = super().expand(batch_shape, _instance)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril.expand(*batch_shape, *self.event_shape)
        new._set_chi2()
        return new

    def _square(self):
        return (*self._batch_shape, *self._event_shape)

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(*self._square())

    @lazy_property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return (L @ L.transpose(-2, -1)).expand(*self._square())

    @lazy_property
    def precision_matrix(self):
        from ..linalg import cholesky_inverse  # noqa: PLC0415

        return cholesky_inverse(self._unbroadcasted_scale_tril).expand(*self._square())

    def _df_mat(self, df=None):
        return (self.df if df is None else df).reshape(*self._batch_shape, 1, 1)

    mean = property(lambda self: self._df_mat() * self.covariance_matrix)

    @property
    def mode(self):
        factor = self.df - self.covariance_matrix.shape[-1] - 1
        return self._df_mat(factor.masked_fill(factor <= 0, math.nan)) * self.covariance_matrix

    @property
    def variance(self):
        V = self.covariance_matrix
        d = V.diagonal(0, -2, -1)
        return self._df_mat() * (V ** 2 + d.unsqueeze(-1) * d.unsqueeze(-2))

    def _bartlett_sampling(self, sample_shape=Size()):
        p = self._event_shape[-1]
        diag = _diag_embed(self._dist_chi2.rsample(sample_shape).sqrt().clamp(min=_finfo(self.df).eps))
        lower = _c.randn(*sample_shape, *self._batch_shape, p, p, dtype=diag.dtype, device=diag.device).tril(-1)
        chol = self._unbroadcasted_scale_tril @ (diag + lower)
        return chol @ chol.transpose(-2, -1)

    def rsample(self, sample_shape=Size(), max_try_correction=None):
        from ..ops_elementwise import where  # noqa: PLC0415

        max_try_correction = 10 if max_try_correction is None else max_try_correction
        sample_shape = Size(sample_shape)
        sample = self._bartlett_sampling(sample_shape)
        singular = ~self.support.check(sample)
        if bool(singular.any()):
            warnings.warn("Singular sample detected.", stacklevel=2)
            for _ in range(max_try_correction):
                sample = where(singular.unsqueeze(-1).unsqueeze(-1), self._bartlett_sampling(sample_shape), sample)
                singular = ~self.support.check(sample)
                if not bool(singular.any()):
                    break
        return sample

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(0, -2, -1).log().sum(-1)

    def log_prob(self, value):
        from ..linalg import cholesky_solve, slogdet  # noqa: PLC0415

        if self._validate_args:
            self._validate_sample(value)
        nu, p = self.df, self._event_shape[-1]
        trace = cholesky_solve(value, self._unbroadcasted_scale_tril).diagonal(0, -2, -1).sum(-1)
        return (-nu * (p * _LOG_2 / 2 + self._half_log_det()) - _mvlgamma(nu / 2, p)
                + (nu - p - 1) / 2 * slogdet(value).logabsdet - trace / 2)

    def entropy(self):
        nu, p = self.df, self._event_shape[-1]
        return ((p + 1) * (p * _LOG_2 / 2 + self._half_log_det()) + _mvlgamma(nu / 2, p)
                - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p) + nu * p / 2)

    @property
    def _natural_params(self):
        return -self.precision_matrix / 2, (self.df - self._event_shape[-1] - 1) / 2

    def _log_normalizer(self, x, y):
        from ..linalg import slogdet  # noqa: PLC0415

        p = self._event_shape[-1]
        return (y + (p + 1) / 2) * (-slogdet(-2 * x).logabsdet + _LOG_2 * p) + _mvlgamma(y + (p + 1) / 2, p)


class LKJCholesky(Distribution):
    """LKJ law on Cholesky factors of ``dim`` x ``dim`` correlation matrices with ``concentration``
    (eta); sampled by the onion method (Ghosh & Henderson, 2003)."""

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim, concentration=1.0, validate_args=None):
        from ..ops_shape import cat  # noqa: PLC0415

        if dim < 2:
            raise ValueError(f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        marginal = self.concentration + 0.5 * (dim - 2)
        offset = _c.arange(dim - 1, dtype=self.concentration.dtype, device=self.concentration.device)
        offset = cat([offset.new_zeros(1), offset])
        self._beta = Beta(offset + 0.5, marginal.unsqueeze(-1) - 0.5 * offset)
        super().__init__(self.concentration.shape, Size((dim, dim)), validate_args)

    def expand(self, batch_shape, _instance=None):
        new = super().expand(batch_shape, _instance)
        new._beta = self._beta.expand(tuple(batch_shape) + (self.dim,))
        return new

    def sample(self, sample_shape=Size()):
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        u = _c.randn(*self._extended_shape(sample_shape), dtype=y.dtype, device=y.device).tril(-1)
        u = u / u.norm(dim=-1, keepdim=True).clamp(min=_finfo(y).tiny)  # row 0 is all zeros and stays so
        w = y.sqrt() * u
        diag = (1 - (w ** 2).sum(-1)).clamp(min=_finfo(w).tiny).sqrt()
        return w + _diag_embed(diag)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diag = value.diagonal(0, -1, -2)[..., 1:]
        order = _c.arange(2, self.dim + 1, dtype=self.concentration.dtype, device=self.concentration.device)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized = (order * diag.log()).sum(-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        normalize = 0.5 * dm1 * math.log(math.pi) + _mvlgamma(alpha - 0.5, dm1) - alpha.lgamma() * dm1
        return unnormalized - normalize
