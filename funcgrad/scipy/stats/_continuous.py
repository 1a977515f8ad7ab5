"""Continuous location-scale distributions: norm, expon, laplace, cauchy, logistic,
uniform, t.  ``x``, ``loc``, ``scale`` (and ``df`` for t's density and entropy) are
differentiable; ``scale <= 0`` gives NaN, outside the support logpdf is -inf with a zero
gradient.  ppf/isf are differentiable in q, loc and scale (q == 0 and 1 give the support's
ends, as scipy); entropy in scale (and df)."""

from __future__ import annotations

import math

import numpy as np

from ...numpy import _elementwise as _ew
from ...numpy import _math
from .. import special as _sp
from .. import _special_prims as _px
from ._common import LOG_2PI, Distribution, entropy_of, quantile, safe, select, standardize, valid_scale

__all__ = ["norm", "expon", "laplace", "cauchy", "logistic", "uniform", "t"]

_LOG_HALF = math.log(0.5)


def _loc_scale(name, doc, logpdf_z, cdf_z, sf_z, logcdf_z, logsf_z, ppf_z, isf_z, support, h, pdf_z=None):
    """Functions of x, loc, scale from functions of the standardised z; ``support``: the
    standardised support's ends, ``h``: the standard distribution's entropy."""
    def logpdf(x, loc=0.0, scale=1.0):
        z, s = standardize(x, loc, scale)
        return valid_scale(logpdf_z(z) - _ew.log(s), s)

    def pdf(x, loc=0.0, scale=1.0):
        z, s = standardize(x, loc, scale)
        if pdf_z is not None:
            return valid_scale(pdf_z(z) / s, s)
        return valid_scale(_ew.exp(logpdf_z(z)) / s, s)

    def wrap(fz):
        def f(x, loc=0.0, scale=1.0):
            z, s = standardize(x, loc, scale)
            return valid_scale(fz(z), s)
        return f

    lo, hi = support

    def ppf(q, loc=0.0, scale=1.0):
        return quantile(q, loc, scale, ppf_z, lo, hi)

    def isf(q, loc=0.0, scale=1.0):
        return quantile(q, loc, scale, isf_z, hi, lo)

    def entropy(loc=0.0, scale=1.0):
        return entropy_of(lambda: h, scale)

    return Distribution(name, doc, logpdf=logpdf, pdf=pdf, cdf=wrap(cdf_z), logcdf=wrap(logcdf_z),
                        sf=wrap(sf_z), logsf=wrap(logsf_z), ppf=ppf, isf=isf, entropy=entropy)


_INF = np.inf


norm = _loc_scale(
    "norm", "The normal distribution N(loc, scale^2).",
    logpdf_z=lambda z: -0.5 * (z * z) - 0.5 * LOG_2PI,
    cdf_z=_sp.ndtr, sf_z=lambda z: _sp.ndtr(-z),
    logcdf_z=_sp.log_ndtr, logsf_z=lambda z: _sp.log_ndtr(-z),
    ppf_z=_px.ndtri, isf_z=lambda q: -_px.ndtri(q), support=(-_INF, _INF), h=0.5 * (LOG_2PI + 1.0),
)


def _expon_cdf(z):
    return select(z > 0, -_ew.expm1(-safe(z > 0, z, 1.0)), 0.0)


def _expon_logcdf(z):
    pos = z > 0
    return select(pos, _ew.log(-_ew.expm1(-safe(pos, z, 1.0))), -np.inf)


expon = _loc_scale(
    "expon", "The exponential distribution on [loc, inf), mean loc + scale.",
    logpdf_z=lambda z: select(z >= 0, -z, -np.inf),
    cdf_z=_expon_cdf, sf_z=lambda z: select(z > 0, _ew.exp(-safe(z > 0, z, 0.0)), 1.0),
    logcdf_z=_expon_logcdf, logsf_z=lambda z: select(z > 0, -z, 0.0),
    ppf_z=lambda q: -_ew.log1p(-q), isf_z=lambda q: -_ew.log(q), support=(0.0, _INF), h=1.0,
)


def _laplace_ppf(q):
    upper = q > 0.5
    return select(upper, -_ew.log(2.0 * (1.0 - safe(upper, q, 0.75))), _ew.log(2.0 * safe(upper, 0.25, q)))


def _laplace_tail(z):
    return 0.5 * _ew.exp(-_ew.abs(z))  # the smaller of cdf and sf


laplace = _loc_scale(
    "laplace", "The Laplace (double exponential) distribution.",
    logpdf_z=lambda z: _LOG_HALF - _ew.abs(z),
    cdf_z=lambda z: select(z < 0, _laplace_tail(z), 1.0 - _laplace_tail(z)),
    sf_z=lambda z: select(z < 0, 1.0 - _laplace_tail(z), _laplace_tail(z)),
    logcdf_z=lambda z: select(z < 0, _LOG_HALF + z, _ew.log1p(-_laplace_tail(z))),
    logsf_z=lambda z: select(z < 0, _ew.log1p(-_laplace_tail(z)), _LOG_HALF - z),
    ppf_z=lambda q: _laplace_ppf(q), isf_z=lambda q: -_laplace_ppf(q), support=(-_INF, _INF),
    h=math.log(2.0) + 1.0,
)

_LOG_PI = math.log(math.pi)


def _cauchy_ppf(q):
    """tan(pi (q - 1/2)): near the tails as -1 / tan(pi q) and 1 / tan(pi (1 - q)) (accurate)."""
    mid = _ew.logical_and(q > 0.25, q < 0.75)
    low = q <= 0.25
    centre = _math.tan(math.pi * (safe(mid, q, 0.5) - 0.5))
    left = -1.0 / _math.tan(math.pi * safe(low, q, 0.25))
    right = 1.0 / _math.tan(math.pi * (1.0 - safe(q >= 0.75, q, 0.75)))
    return select(mid, centre, select(low, left, right))


def _cauchy_cdf(z):
    return 0.5 + _math.arctan(z) / math.pi


cauchy = _loc_scale(
    "cauchy", "The Cauchy distribution.",
    logpdf_z=lambda z: -_LOG_PI - _ew.log1p(z * z),
    cdf_z=_cauchy_cdf, sf_z=lambda z: _cauchy_cdf(-z),
    logcdf_z=lambda z: _ew.log(_cauchy_cdf(z)), logsf_z=lambda z: _ew.log(_cauchy_cdf(-z)),
    ppf_z=lambda q: _cauchy_ppf(q), isf_z=lambda q: -_cauchy_ppf(q),
    support=(-_INF, _INF), h=math.log(4.0 * math.pi),
)

logistic = _loc_scale(
    "logistic", "The logistic distribution (cdf: expit).",
    logpdf_z=lambda z: _sp.log_expit(z) + _sp.log_expit(-z),
    cdf_z=_sp.expit, sf_z=lambda z: _sp.expit(-z),
    logcdf_z=_sp.log_expit, logsf_z=lambda z: _sp.log_expit(-z),
    ppf_z=_sp.logit, isf_z=lambda q: -_sp.logit(q), support=(-_INF, _INF), h=2.0,
)


def _inside_unit(z):
    return _ew.logical_and(z >= 0, z <= 1)


def _clip01(z):
    return _ew.minimum(_ew.maximum(z, 0.0), 1.0)


uniform = _loc_scale(
    "uniform", "The uniform distribution on [loc, loc + scale].",
    logpdf_z=lambda z: select(_inside_unit(z), 0.0 * z, -np.inf),
    pdf_z=lambda z: select(_inside_unit(z), 1.0 + 0.0 * z, 0.0),
    cdf_z=_clip01, sf_z=lambda z: 1.0 - _clip01(z),
    logcdf_z=lambda z: _ew.log(_clip01(z)), logsf_z=lambda z: _ew.log1p(-_clip01(z)),
    ppf_z=lambda q: q, isf_z=lambda q: 1.0 - q, support=(0.0, 1.0), h=0.0,
)


# --- Student's t: df is a shape parameter ------------------------------------------------

def _t_logpdf_z(z, df):
    return (_sp.gammaln(0.5 * (df + 1.0)) - _sp.gammaln(0.5 * df) - 0.5 * (_ew.log(df) + _LOG_PI)
            - 0.5 * (df + 1.0) * _ew.log1p(z * z / df))


def _t_cdf_z(z, df):
    """Student's t cdf from the regularized incomplete beta function.

    Centre (z^2 < df): 0.5 + sign(z) I_{z^2/(df+z^2)}(1/2, df/2) / 2; tails:
    I_{df/(df+z^2)}(df/2, 1/2) / 2 (or 1 minus it): each form's argument is
    computed accurately where it is used.  Exactly at z == 0 the value is
    0.5 + z pdf(0), so that the derivative there is pdf(0) (the betainc chain is
    0 * inf at z == 0).  Each branch is evaluated on inputs safe for it.
    """
    zero = z == 0
    central = _ew.logical_and(z * z < df, _ew.logical_not(zero))
    zc = safe(central, z, 0.5)
    uc = zc * zc / (df + zc * zc)
    centre = 0.5 + 0.5 * _ew.sign(zc) * _sp.betainc(0.5, 0.5 * df, uc)
    zt = safe(_ew.logical_or(central, zero), 1.0, z)
    half_tail = 0.5 * _sp.betainc(0.5 * df, 0.5, df / (df + zt * zt))
    tails = select(zt < 0, half_tail, 1.0 - half_tail)
    at0 = 0.5 + z * _ew.exp(_t_logpdf_z(0.0 * z, df))
    return select(zero, at0, select(central, centre, tails))


def _t(fz):
    def f(x, df, loc=0.0, scale=1.0):
        z, s, df = standardize(x, loc, scale, df)
        return valid_scale(fz(z, df), s)
    return f


def _t_logpdf(x, df, loc=0.0, scale=1.0):
    z, s, df = standardize(x, loc, scale, df)
    return valid_scale(_t_logpdf_z(z, df) - _ew.log(s), s)


def _t_pdf(x, df, loc=0.0, scale=1.0):
    return _ew.exp(_t_logpdf(x, df, loc, scale))


def _t_entropy_std(df):
    """(df+1)/2 (psi((df+1)/2) - psi(df/2)) + log(sqrt(df) B(df/2, 1/2)); for df >= 100
    scipy's asymptotic series in 1/df (the regular formula cancels there)."""
    big = df >= 100.0
    d = safe(big, 1.0, df)
    h = (0.5 * (d + 1.0) * (_sp.digamma(0.5 * (d + 1.0)) - _sp.digamma(0.5 * d))
         + 0.5 * _ew.log(d) + _sp.betaln(0.5 * d, 0.5))
    u = 1.0 / safe(big, df, 100.0)  # 0 at df = inf: the normal's entropy
    asym = 0.5 * (LOG_2PI + 1.0) + u * (1.0 + u * (0.25 + u * (-1.0 / 6 + u * (-0.125 + u * (0.3 + u * 0.25)))))
    return select(big, asym, h)


def _t_quantile(fq, end):
    def f(q, df, loc=0.0, scale=1.0):
        return quantile(q, loc, scale, fq, -end, end, df, valid=lambda df: df > 0)
    return f


t = Distribution(
    "t", "Student's t distribution with df degrees of freedom (cdf/sf/ppf/isf: differentiable in "
    "x (q), loc and scale, not in df; entropy in df and scale).",
    logpdf=_t_logpdf, pdf=_t_pdf,
    ppf=_t_quantile(lambda q, df: _px.stdtrit(df, q), _INF),
    isf=_t_quantile(lambda q, df: -_px.stdtrit(df, q), -_INF),
    entropy=lambda df, loc=0.0, scale=1.0: entropy_of(_t_entropy_std, scale, df, valid=lambda df: df > 0),
    cdf=_t(_t_cdf_z), sf=_t(lambda z, df: _t_cdf_z(-z, df)),
    logcdf=_t(lambda z, df: _ew.log(_t_cdf_z(z, df))), logsf=_t(lambda z, df: _ew.log(_t_cdf_z(-z, df))),
)
