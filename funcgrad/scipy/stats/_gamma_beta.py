"""gamma, chi2, beta, poisson and dirichlet.

Densities and entropies are differentiable in the variate and in every parameter; the cdfs
(regularized incomplete gamma/beta functions) and ppf/isf (their inverses) in the variate
(the probability), loc and scale (and poisson's cdfs in mu), not in the shape parameters.
poisson's ppf/isf are integer-valued (derivative 0).
"""

from __future__ import annotations

import numpy as np

from ...numpy import _elementwise as _ew
from ...numpy import _math
from ...numpy import _reductions as _red
from ...primitives.stop_gradient import stop_gradient
from .. import special as _sp
from .. import _special_prims as _px
from ._common import LOG_2PI, Distribution, args, entropy_of, quantile, safe, select, standardize, valid_scale
from ...numpy import _creation, _shape

__all__ = ["gamma", "chi2", "beta", "poisson", "dirichlet"]


# --- gamma (and chi2 = gamma(df/2, scale=2)) -------------------------------------------

def _gamma_logpdf(x, a, loc=0.0, scale=1.0):
    z, s, a = standardize(x, loc, scale, a)
    inside = z >= 0
    zs = safe(inside, z, 1.0)
    val = _sp.xlogy(a - 1.0, zs) - zs - _sp.gammaln(a) - _ew.log(s)
    return valid_scale(select(inside, val, -np.inf), s)


def _gamma_entropy_std(a):
    """a + gammaln(a) + (1 - a) digamma(a); for a >= 250 scipy's asymptotic series (the
    regular formula cancels there)."""
    big = a >= 250.0
    ar = safe(big, 1.0, a)
    regular = _sp.digamma(ar) * (1.0 - ar) + ar + _sp.gammaln(ar)
    ab = safe(big, a, 250.0)
    asym = (0.5 * (1.0 + LOG_2PI + _ew.log(ab)) - 1.0 / (3.0 * ab) - ab ** -2.0 / 12.0
            - ab ** -3.0 / 90.0 + ab ** -4.0 / 120.0)
    return select(big, asym, regular)


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
    ppf=lambda q, a, loc=0.0, scale=1.0: quantile(q, loc, scale, lambda q, a: _px.gammaincinv(a, q), 0.0, np.inf, a,
                                                  valid=lambda a: a > 0),
    isf=lambda q, a, loc=0.0, scale=1.0: quantile(q, loc, scale, lambda q, a: _px.gammainccinv(a, q), np.inf, 0.0, a,
                                                  valid=lambda a: a > 0),
    entropy=lambda a, loc=0.0, scale=1.0: entropy_of(_gamma_entropy_std, scale, a, valid=lambda a: a > 0),
)
gamma = Distribution("gamma", "The gamma distribution with shape a (density x^(a-1) e^-x / Gamma(a)).",
                     **_GAMMA_FUNCS)


def _chi2(fn):
    def f(x, df, loc=0.0, scale=1.0):
        x, df, loc, scale = args(x, df, loc, scale)
        return fn(x, 0.5 * df, loc, 2.0 * scale)
    return f


chi2 = Distribution("chi2", "The chi-squared distribution with df degrees of freedom.",
                    **{k: _chi2(fn) for k, fn in _GAMMA_FUNCS.items() if k != "entropy"},
                    entropy=lambda df, loc=0.0, scale=1.0: _chi2_entropy(df, scale))


def _chi2_entropy(df, scale):
    df, scale = args(df, scale)
    return _GAMMA_FUNCS["entropy"](0.5 * df, 0.0, 2.0 * scale)


# --- beta ------------------------------------------------------------------------------

def _beta_logpdf(x, a, b, loc=0.0, scale=1.0):
    z, s, a, b = standardize(x, loc, scale, a, b)
    inside = _ew.logical_and(z >= 0, z <= 1)
    zs = safe(inside, z, 0.5)
    val = _sp.xlogy(a - 1.0, zs) + _sp.xlog1py(b - 1.0, -zs) - _sp.betaln(a, b) - _ew.log(s)
    return valid_scale(select(inside, val, -np.inf), s)


def _beta_valid(a, b):
    return _ew.logical_and(a > 0, b > 0)


def _beta_entropy_std(a, b):
    """betaln(a, b) - (a - 1) psi(a) - (b - 1) psi(b) + (a + b - 2) psi(a + b)."""
    return (_sp.betaln(a, b) - (a - 1.0) * _sp.digamma(a) - (b - 1.0) * _sp.digamma(b)
            + (a + b - 2.0) * _sp.digamma(a + b))


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
    ppf=lambda q, a, b, loc=0.0, scale=1.0: quantile(q, loc, scale, lambda q, a, b: _px.betaincinv(a, b, q), 0.0, 1.0,
                                                     a, b, valid=_beta_valid),
    isf=lambda q, a, b, loc=0.0, scale=1.0: quantile(q, loc, scale, lambda q, a, b: _px.betainccinv(a, b, q), 1.0,
                                                     0.0, a, b, valid=_beta_valid),
    entropy=lambda a, b, loc=0.0, scale=1.0: entropy_of(_beta_entropy_std, scale, a, b, valid=_beta_valid),
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


def _poisson_ppf_k(q, mu):
    """The smallest k >= 0 with cdf(k) >= q (scipy's: ceil(pdtrik(q, mu)), then one step down)."""
    k = _math.ceil(_px.pdtrik(q, mu))
    k1 = _ew.maximum(k - 1.0, 0.0)
    return select(_sp.pdtr(k1, mu) >= q, k1, k)


def _poisson_isf_k(q, mu):
    """The smallest k >= 0 with sf(k) <= q: pdtrik's guess from 1 - q, corrected by exact sf steps."""
    k = _ew.maximum(_math.ceil(_px.pdtrik(1.0 - q, mu)), 0.0)
    for _ in range(2):
        k = select(_ew.logical_and(k > 0, _sp.pdtrc(k - 1.0, mu) <= q), k - 1.0, k)
        k = select(_sp.pdtrc(k, mu) > q, k + 1.0, k)
    return k


def _poisson_quantile(q, mu, loc, kfun, at0, at1):
    """Integer-valued quantiles (derivative 0 everywhere): computed on stopped values."""
    q, mu, loc = (stop_gradient(v) for v in args(q, mu, loc))
    inner = _ew.logical_and(q > 0, q < 1)
    k = kfun(safe(inner, q, 0.5), safe(mu >= 0, mu, 1.0))
    out = select(inner, k, select(q == 0, at0, select(q == 1, at1, np.nan)))
    return select(mu >= 0, out + loc, np.nan)


def _poisson_entropy(mu):
    """-sum_k pmf(k) log pmf(k), summed over floor(mu) +- (12 sqrt(mu) + 30) (the terms outside
    are below 1e-30 of the sum); differentiable in mu.  The window's width is read from mu's
    values, so mu must be concrete (not under vmap or jit)."""
    (mu,) = args(mu)
    host = stop_gradient(mu)
    try:
        top = float(_red.max(host)) if host.size else 0.0
    except TypeError as e:  # abstract values: no width to choose
        raise ValueError("poisson.entropy sums over a window chosen from mu's values, which are not "
                         "available here (under vmap or jit): compute it outside, or per example") from e
    half = int(12.0 * np.sqrt(max(top, 0.0)) + 30.0) if np.isfinite(top) else 0
    offsets = _creation.arange(-half, half + 1, dtype=mu.dtype)
    start = _math.floor(stop_gradient(safe(mu >= 0, mu, 0.0)))
    k = _shape.expand_dims(start, -1) + offsets
    ok = k >= 0
    logp = _poisson_logpmf(safe(ok, k, 0.0), _shape.expand_dims(mu, -1))
    terms = select(ok, _sp.entr(_ew.exp(logp)), 0.0)
    return select(_ew.logical_and(mu >= 0, _ew.isfinite(mu)), _red.sum(terms, axis=-1), np.nan)


poisson = Distribution(
    "poisson", "The Poisson distribution with mean mu (logpmf differentiable in mu, and "
    "in k through gammaln; cdf/sf in mu).",
    logpmf=_poisson_logpmf,
    pmf=lambda k, mu, loc=0: _ew.exp(_poisson_logpmf(k, mu, loc)),
    cdf=_poisson_fn(_sp.gammaincc, 0.0), sf=_poisson_fn(_sp.gammainc, 1.0),
    logcdf=_poisson_fn(lambda n, mu: _ew.log(_sp.gammaincc(n, mu)), -np.inf),
    logsf=_poisson_fn(lambda n, mu: _ew.log(_sp.gammainc(n, mu)), 0.0),
    ppf=lambda q, mu, loc=0: _poisson_quantile(q, mu, loc, _poisson_ppf_k, -1.0, np.inf),
    isf=lambda q, mu, loc=0: _poisson_quantile(q, mu, loc, _poisson_isf_k, np.inf, -1.0),
    entropy=lambda mu, loc=0: _poisson_entropy(mu),
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
        last = 1.0 - _red.sum(x, axis=0, keepdims=True)
        x = _shape.concatenate([x, last], axis=0)
    host = stop_gradient(x)
    if bool(_red.min(host) < 0) or bool(_red.max(_ew.abs(_red.sum(host, axis=0) - 1.0)) > 1e-9):
        raise ValueError("dirichlet: x must have non-negative entries that sum to 1 along the first axis")
    a = _shape.reshape(alpha, (k,) + (1,) * (x.ndim - 1))
    log_norm = _red.sum(_sp.gammaln(alpha)) - _sp.gammaln(_red.sum(alpha))
    return _red.sum(_sp.xlogy(a - 1.0, x), axis=0) - log_norm


def _dirichlet_entropy(alpha):
    """log B(alpha) + (a0 - K) psi(a0) - sum_j (alpha_j - 1) psi(alpha_j), a0 = sum(alpha)."""
    (alpha,) = args(alpha)
    if alpha.ndim != 1 or alpha.shape[0] < 2:
        raise ValueError(f"dirichlet: alpha must be one-dimensional with at least 2 entries, got shape "
                         f"{tuple(alpha.shape)}")
    host = stop_gradient(alpha)
    if bool(_red.min(host) <= 0):
        raise ValueError("dirichlet: all entries of alpha must be positive")
    a0 = _red.sum(alpha)
    log_b = _red.sum(_sp.gammaln(alpha)) - _sp.gammaln(a0)
    return log_b + (a0 - alpha.shape[0]) * _sp.digamma(a0) - _red.sum((alpha - 1.0) * _sp.digamma(alpha))


dirichlet = Distribution(
    "dirichlet", "The Dirichlet distribution with concentration alpha (components along x's first axis).",
    logpdf=_dirichlet_logpdf, pdf=lambda x, alpha: _ew.exp(_dirichlet_logpdf(x, alpha)),
    entropy=lambda alpha: _dirichlet_entropy(alpha),
)
