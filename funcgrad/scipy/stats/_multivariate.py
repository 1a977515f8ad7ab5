"""multivariate_normal: logpdf, pdf and entropy through a differentiable Cholesky factorization."""

from __future__ import annotations

from ...numpy import _elementwise as _ew
from ...numpy import _reductions as _red
from ...numpy import _shape
from ...numpy._creation import eye
from ...primitives import scipy_linalg as _la
from ...primitives.linalg import cholesky, diagonal
from ._common import LOG_2PI, Distribution, args

__all__ = ["multivariate_normal"]


def _cov_matrix(cov, d):
    if cov.ndim < 2:  # a variance, or the diagonal
        return cov * eye(d, dtype=cov.dtype, device=cov.device)
    if cov.shape != (d, d):
        raise ValueError(f"multivariate_normal: cov must have shape ({d}, {d}) for {d}-dimensional "
                         f"data, got {tuple(cov.shape)}")
    return cov


def _logpdf(x, mean=None, cov=1, allow_singular=False):
    """log N(x; mean, cov); x has the dimension along its last axis (shape (d,) or (..., d));
    differentiable in x, mean and cov (cov's lower triangle is read, as a symmetric matrix)."""
    if allow_singular:
        raise ValueError("multivariate_normal: allow_singular=True is not supported (needs a "
                         "pseudo-determinant); pass a positive-definite cov")
    if mean is None:
        x, cov = args(x, cov)
    else:
        x, mean, cov = args(x, mean, cov)
    if x.ndim == 0:
        x = _shape.reshape(x, (1,))
    d = x.shape[-1]
    if mean is not None:
        if mean.ndim > 1 or (mean.ndim == 1 and mean.shape[0] != d):
            raise ValueError(f"multivariate_normal: mean must have shape ({d},), got {tuple(mean.shape)}")
        x = x - mean
    c = _cov_matrix(cov, d)
    chol = cholesky(c)
    batch = tuple(x.shape[:-1])
    diff = _shape.reshape(x, (-1, d))
    z = _la.triangular_solve(chol, _shape.transpose(diff), True, 0)  # (d, N)
    maha = _red.sum(z * z, axis=0)
    log_det = 2.0 * _red.sum(_ew.log(diagonal(chol)))
    out = -0.5 * (d * LOG_2PI + log_det + maha)
    return _shape.reshape(out, batch)


def _entropy(mean=None, cov=1, allow_singular=False):
    """(d/2) (1 + log(2 pi)) + log|cov| / 2, the differential entropy; differentiable in cov
    (read as a symmetric matrix, like logpdf).  mean only fixes the dimension, as in scipy."""
    if allow_singular:
        raise ValueError("multivariate_normal: allow_singular=True is not supported (needs a "
                         "pseudo-determinant); pass a positive-definite cov")
    if mean is None:
        (cov,) = args(cov)
        d = cov.shape[0] if cov.ndim >= 1 else 1
    else:
        mean, cov = args(mean, cov)
        if mean.ndim > 1:
            raise ValueError(f"multivariate_normal: mean must be one-dimensional, got shape {tuple(mean.shape)}")
        d = mean.shape[0] if mean.ndim == 1 else (cov.shape[0] if cov.ndim >= 1 else 1)
    chol = cholesky(_cov_matrix(cov, d))
    return 0.5 * d * (1.0 + LOG_2PI) + _red.sum(_ew.log(diagonal(chol)))


multivariate_normal = Distribution(
    "multivariate_normal", "The multivariate normal distribution N(mean, cov).",
    logpdf=_logpdf,
    pdf=lambda x, mean=None, cov=1, allow_singular=False: _ew.exp(_logpdf(x, mean, cov, allow_singular)),
    entropy=_entropy,
)
