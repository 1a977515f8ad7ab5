"""gamma, chi2, beta, poisson and dirichlet.

Densities are differentiable in the variate and in every parameter; the cdfs
(regularized incomplete gamma/beta functions) in the variate, loc and scale
(and poisson's in mu), not in the shape parameters.
"""

from __future__ import annotations

import numpy as np

from ...numpy import _elementwise as _ew
from ...numpy import _reductions as _red
from ...transforms.api import stop_gradient
from .. import special as _sp
from ._common import Distribution, args, safe, select, standardize, valid_scale

__all__ = ["gamma", "chi2", "beta", "poisson", "dirichlet"]


# --- gamma (and chi2 = gamma(df/2, scale=2)) -------------------------------------------

def _gamma_logpdf(x, a, loc=0.0, scale=1.0):
    z, s, a = standardize(x, loc, scale, a)
    inside = z >= 0
    zs = safe(inside, z, 1.0)
    val = _sp.xlogy(a - 1.0, zs) - zs - _sp.gammaln(a) - _ew.log(s)
    return valid_scale(select(inside, val, -np.inf), s)


def _gamma_fn(fz):
    def f(x, a, loc=0.0, scale=1.0):
        z, s, a = standardize(x, loc, scale, a)
        return valid_scale(fz(a, _ew.maximum(z, 0.0)), s)
    return f


_GAMMA_FUNCS = dict(
    logpdf=_gamma_logpdf,
    pdf=lambda x, a, loc=0.0, scale=1.0: _ew.exp(_gamma_logpdf(x, a, loc, scale)),
    cdf=_gamma_fn(_sp.gammainc), sf=_gamma_fn(_sp.gammaincc),
    logcdf=_gamma_fn(lambda a, z: _ew.log(_sp.gammainc(a, z))),
    logsf=_gamma_fn(lambda a, z: _ew.log(_sp.gammaincc(a, z))),
)
gamma = Distribution("gamma", "The gamma distribution with shape a (density x^(a-1) e^-x / Gamma(a)).",
                     **_GAMMA_FUNCS)


def _chi2(fn):
    def f(x, df, loc=0.0, scale=1.0):
        x, df, loc, scale = args(x, df, loc, scale)
        return fn(x, 0.5 * df, loc, 2.0 * scale)
    return f


chi2 = Distribution("chi2", "The chi-squared distribution with df degrees of freedom.",
                    **{k: _chi2(fn) for k, fn in _GAMMA_FUNCS.items()})


# --- beta ------------------------------------------------------------------------------

def _beta_logpdf(x, a, b, loc=0.0, scale=1.0):
    z, s, a, b = standardize(x, loc, scale, a, b)
    inside = _ew.logical_and(z >= 0, z <= 1)
    zs = safe(inside, z, 0.5)
    val = _sp.xlogy(a - 1.0, zs) + _sp.xlog1py(b - 1.0, -zs) - _sp.betaln(a, b) - _ew.log(s)
    return valid_scale(select(inside, val, -np.inf), s)


def _beta_fn(fz):
    def f(x, a, b, loc=0.0, scale=1.0):
        z, s, a, b = standardize(x, loc, scale, a, b)
        return valid_scale(fz(a, b, _ew.minimum(_ew.maximum(z, 0.0), 1.0)), s)
    return f


beta = Distribution(
    "beta", "The beta distribution on [loc, loc + scale] with shapes a, b.",
    logpdf=_beta_logpdf,
    pdf=lambda x, a, b, loc=0.0, scale=1.0: _ew.exp(_beta_logpdf(x, a, b, loc, scale)),
    cdf=_beta_fn(_sp.betainc), sf=_beta_fn(lambda a, b, z: 1.0 - _sp.betainc(a, b, z)),
    logcdf=_beta_fn(lambda a, b, z: _ew.log(_sp.betainc(a, b, z))),
    logsf=_beta_fn(lambda a, b, z: _ew.log1p(-_sp.betainc(a, b, z))),
)


# --- poisson -----------------------------------------------------------------------------

def _floor_nonneg(k):
    """floor(k) for k >= 0 (truncation), with no derivative."""
    k = stop_gradient(k)
    return _ew.astype(_ew.astype(k, np.int64), k.dtype if hasattr(k, "dtype") else np.float64)


def _poisson_logpmf(k, mu, loc=0):
    k, mu, loc = args(k, mu, loc)
    k = k - loc
    ok = _ew.logical_and(k >= 0, _floor_nonneg(_ew.maximum(k, 0.0)) == k)
    ks = safe(ok, k, 0.0)
    val = _sp.xlogy(ks, mu) - _sp.gammaln(ks + 1.0) - mu
    return select(ok, val, -np.inf)


def _poisson_fn(fn, below):
    def f(k, mu, loc=0):
        k, mu, loc = args(k, mu, loc)
        k = k - loc
        nonneg = k >= 0
        n = _floor_nonneg(_ew.maximum(k, 0.0)) + 1.0
        return select(nonneg, fn(n, mu), below)
    return f


poisson = Distribution(
    "poisson", "The Poisson distribution with mean mu (logpmf differentiable in mu, and "
    "in k through gammaln; cdf/sf in mu).",
    logpmf=_poisson_logpmf,
    pmf=lambda k, mu, loc=0: _ew.exp(_poisson_logpmf(k, mu, loc)),
    cdf=_poisson_fn(_sp.gammaincc, 0.0), sf=_poisson_fn(_sp.gammainc, 1.0),
    logcdf=_poisson_fn(lambda n, mu: _ew.log(_sp.gammaincc(n, mu)), -np.inf),
    logsf=_poisson_fn(lambda n, mu: _ew.log(_sp.gammainc(n, mu)), 0.0),
)


# --- dirichlet -----------------------------------------------------------------------------

def _dirichlet_logpdf(x, alpha):
    """x: quantiles with the components along the first axis (scipy's layout:
    shape (K,) or (K, N)); alpha: shape (K,)."""
    x, alpha = args(x, alpha)
    if alpha.ndim != 1:
        raise ValueError(f"dirichlet: alpha must be one-dimensional, got shape {tuple(alpha.shape)}")
    k = alpha.shape[0]
    if x.ndim == 0 or x.shape[0] not in (k, k - 1):
        raise ValueError(
            f"dirichlet: x's first axis must have {k} (or {k - 1}) entries to match alpha's shape "
            f"({k},), got x of shape {tuple(x.shape)}"
        )
    if x.shape[0] == k - 1:  # scipy lets the last component be implied
        from ...numpy import _shape  # noqa: PLC0415

        last = 1.0 - _red.sum(x, axis=0, keepdims=True)
        x = _shape.concatenate([x, last], axis=0)
    host = stop_gradient(x)
    if bool(_red.min(host) < 0) or bool(_red.max(_ew.abs(_red.sum(host, axis=0) - 1.0)) > 1e-9):
        raise ValueError("dirichlet: x must have non-negative entries that sum to 1 along the first axis")
    from ...numpy import _shape  # noqa: PLC0415

    a = _shape.reshape(alpha, (k,) + (1,) * (x.ndim - 1))
    log_norm = _red.sum(_sp.gammaln(alpha)) - _sp.gammaln(_red.sum(alpha))
    return _red.sum(_sp.xlogy(a - 1.0, x), axis=0) - log_norm


dirichlet = Distribution(
    "dirichlet", "The Dirichlet distribution with concentration alpha (components along x's first axis).",
    logpdf=_dirichlet_logpdf, pdf=lambda x, alpha: _ew.exp(_dirichlet_logpdf(x, alpha)),
)
