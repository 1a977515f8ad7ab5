"""scipy.special's distribution functions (pdtr, gdtr, chdtr, bdtr, fdtr, nbdtr, their
complements and inverses) as primitives: values from scipy.special (so every edge value and
domain convention is scipy's own), derivatives written with funcgrad operations from the
densities of the regularized incomplete gamma/beta functions.

They are differentiable in the variate (and in gdtr's rate ``a``, pdtr's ``m``,
bdtr's/nbdtr's ``p``, and the inverses in the probability); counts (``k``, ``n``) are
floored as scipy floors them and, like the shape parameters of the incomplete functions,
are not differentiable (MissingRuleError).
"""

from __future__ import annotations

import math

import numpy as np

from ..primitives.elementwise import exp, safe_mul
from ..primitives.rounding import floor
from ..primitives.special import special_primitive
from . import _special_prims as _px
from ._special_prims import _SQRT_2PI, _beta_density, _gamma_density

__all__ = ["nrdtrimn", "nrdtrisd", "gdtria", "pdtr", "pdtrc", "pdtri", "gdtr", "gdtrc", "gdtrix", "chdtr", "chdtrc", "chdtri",
           "bdtr", "bdtrc", "bdtri", "fdtr", "fdtrc", "fdtri", "nbdtr", "nbdtrc", "nbdtri"]


def _prim(name, *derivs, saves_out=False):
    """A scipy-valued primitive with per-argument derivatives ``d(ans, *args)`` (None: none)."""
    p = special_primitive(name)
    p.defvjp(*(None if d is None else (lambda d: lambda g, ans, *a: safe_mul(g, d(ans, *a)))(d) for d in derivs),
             saves_out=saves_out)
    p.defjvp(*(None if d is None else (lambda d: lambda t, ans, *a: safe_mul(t, d(ans, *a)))(d) for d in derivs))
    return p.bind


def _floor(k):
    """floor(k), with no derivative; Python numbers stay Python numbers (x's device decides)."""
    return float(math.floor(k)) if isinstance(k, (int, float, np.integer, np.floating)) else floor(k)


def _k1(k):
    return _floor(k) + 1.0


# Poisson: pdtr(k, m) = Q(k + 1, m), pdtrc = P(k + 1, m); pdtri inverts pdtr in m
pdtr = _prim("pdtr", None, lambda ans, k, m: -_gamma_density(_k1(k), m))
pdtrc = _prim("pdtrc", None, lambda ans, k, m: _gamma_density(_k1(k), m))
pdtri = _prim("pdtri", None, lambda ans, k, y: -1.0 / _gamma_density(_k1(k), ans), saves_out=True)

# gamma with rate a and shape b: gdtr(a, b, x) = P(b, a x)
gdtr = _prim("gdtr", lambda ans, a, b, x: x * _gamma_density(b, a * x), None,
             lambda ans, a, b, x: a * _gamma_density(b, a * x))
gdtrc = _prim("gdtrc", lambda ans, a, b, x: -x * _gamma_density(b, a * x), None,
              lambda ans, a, b, x: -a * _gamma_density(b, a * x))
gdtrix = _prim("gdtrix", lambda ans, a, b, p: -ans / a, None,
               lambda ans, a, b, p: 1.0 / (a * _gamma_density(b, a * ans)), saves_out=True)

# chi-square: chdtr(v, x) = P(v/2, x/2); chdtri inverts chdtrc
chdtr = _prim("chdtr", None, lambda ans, v, x: 0.5 * _gamma_density(0.5 * v, 0.5 * x))
chdtrc = _prim("chdtrc", None, lambda ans, v, x: -0.5 * _gamma_density(0.5 * v, 0.5 * x))
chdtri = _prim("chdtri", None, lambda ans, v, p: -2.0 / _gamma_density(0.5 * v, 0.5 * ans), saves_out=True)

# binomial: bdtr(k, n, p) = I_{1-p}(n - k, k + 1); bdtri inverts bdtr in p
bdtr = _prim("bdtr", None, None, lambda ans, k, n, p: -_beta_density(_k1(k), n - _floor(k), p))
bdtrc = _prim("bdtrc", None, None, lambda ans, k, n, p: _beta_density(_k1(k), n - _floor(k), p))
bdtri = _prim("bdtri", None, None, lambda ans, k, n, y: -1.0 / _beta_density(_k1(k), n - _floor(k), ans),
              saves_out=True)

# negative binomial: nbdtr(k, n, p) = I_p(n, k + 1)
nbdtr = _prim("nbdtr", None, None, lambda ans, k, n, p: _beta_density(n, _k1(k), p))
nbdtrc = _prim("nbdtrc", None, None, lambda ans, k, n, p: -_beta_density(n, _k1(k), p))
nbdtri = _prim("nbdtri", None, None, lambda ans, k, n, y: 1.0 / _beta_density(n, _k1(k), ans), saves_out=True)


def _f_density(dfn, dfd, x):
    """The F density: d/dx I_w(dfn/2, dfd/2) with w = dfn x / (dfd + dfn x)."""
    s = dfd + dfn * x
    return _beta_density(0.5 * dfn, 0.5 * dfd, dfn * x / s) * (dfn * dfd / (s * s))


fdtr = _prim("fdtr", None, None, lambda ans, dfn, dfd, x: _f_density(dfn, dfd, x))
fdtrc = _prim("fdtrc", None, None, lambda ans, dfn, dfd, x: -_f_density(dfn, dfd, x))
fdtri = _prim("fdtri", None, None, lambda ans, dfn, dfd, p: 1.0 / _f_density(dfn, dfd, ans), saves_out=True)

DOCS = {
    "nrdtrimn": "nrdtrimn(p, std, x): the mean with ndtr((x - mean) / std) == p; differentiable in p, std, x.",
    "nrdtrisd": "nrdtrisd(mn, p, x): the std with ndtr((x - mn) / std) == p; differentiable in mn, p, x.",
    "gdtria": "gdtria(p, b, x): the rate a with gdtr(a, b, x) == p; differentiable in p and x.",
    "pdtr": "pdtr(k, m): the Poisson cdf at floor(k) with mean m; differentiable in m.",
    "pdtrc": "pdtrc(k, m): the Poisson survival function; differentiable in m.",
    "pdtri": "pdtri(k, y): the mean m with pdtr(k, m) == y; differentiable in y.",
    "gdtr": "gdtr(a, b, x): the gamma cdf with rate a and shape b; differentiable in a and x.",
    "gdtrc": "gdtrc(a, b, x): the gamma survival function; differentiable in a and x.",
    "gdtrix": "gdtrix(a, b, p): the x with gdtr(a, b, x) == p; differentiable in a and p.",
    "chdtr": "chdtr(v, x): the chi-square cdf with v degrees of freedom; differentiable in x.",
    "chdtrc": "chdtrc(v, x): the chi-square survival function; differentiable in x.",
    "chdtri": "chdtri(v, p): the x with chdtrc(v, x) == p; differentiable in p.",
    "bdtr": "bdtr(k, n, p): the binomial cdf at floor(k); differentiable in p.",
    "bdtrc": "bdtrc(k, n, p): the binomial survival function; differentiable in p.",
    "bdtri": "bdtri(k, n, y): the p with bdtr(k, n, p) == y; differentiable in y.",
    "fdtr": "fdtr(dfn, dfd, x): the F cdf; differentiable in x.",
    "fdtrc": "fdtrc(dfn, dfd, x): the F survival function; differentiable in x.",
    "fdtri": "fdtri(dfn, dfd, p): the F quantile; differentiable in p.",
    "nbdtr": "nbdtr(k, n, p): the negative binomial cdf at floor(k); differentiable in p.",
    "nbdtrc": "nbdtrc(k, n, p): the negative binomial survival function; differentiable in p.",
    "nbdtri": "nbdtri(k, n, y): the p with nbdtr(k, n, p) == y; differentiable in y.",
}


# --- the parameters of a normal / gamma distribution from a probability ------------------------
# nrdtrimn(p, std, x) = x - std ndtri(p); nrdtrisd(mn, p, x) = (x - mn) / ndtri(p);
# gdtria(p, b, x) = gammaincinv(b, p) / x (not in the shape b)

def _dndtri(p):
    return _SQRT_2PI * exp(0.5 * (_px.ndtri(p) ** 2))


nrdtrimn = _prim("nrdtrimn", lambda ans, p, std, x: -std * _dndtri(p), lambda ans, p, std, x: -_px.ndtri(p),
                 lambda ans, p, std, x: 1.0 + 0.0 * x)
nrdtrisd = _prim("nrdtrisd", lambda ans, mn, p, x: -1.0 / _px.ndtri(p),
                 lambda ans, mn, p, x: -(x - mn) * _dndtri(p) / _px.ndtri(p) ** 2,
                 lambda ans, mn, p, x: 1.0 / _px.ndtri(p))
gdtria = _prim("gdtria", lambda ans, p, b, x: 1.0 / (x * _gamma_density(b, ans * x)), None,
               lambda ans, p, b, x: -ans / x, saves_out=True)
