"""Primitives funcgrad.scipy.special adds on top of funcgrad.primitives' special functions:
values from scipy.special (cupyx.scipy.special on cuda), derivatives written with
funcgrad operations (so every order works).

- inverses, differentiated through the derivative of the function they invert:
  ndtri, ndtri_exp, gammaincinv / gammainccinv, betaincinv / betainccinv, stdtrit
  (in the probability argument; the shape parameters are not differentiable);
- betaincc and stdtr (in x / t);
- gammasgn (zero derivative), and pdtrik (no derivative: used only on stopped values);
- erfcx, erfi, dawsn, exp1, expi, expn (in x), owens_t (in h and a), spence;
- k0, k1, k0e, k1e, kv, kve, yv (in x), poch, binom (in both arguments).
"""

from __future__ import annotations

import math

from ..primitives.elementwise import absolute as abs_
from ..primitives.elementwise import defderiv, exp, log, safe_mul, where
from ..primitives.special import erf, special_primitive
from ..primitives.special_gamma import betaln, digamma, gammaln, xlog1py, xlogy

__all__ = [
    "ndtri", "ndtri_exp", "gammaincinv", "gammainccinv", "betaincinv", "betainccinv", "betaincc",
    "stdtr", "stdtrit", "gammasgn", "pdtrik", "erfcx", "erfi", "dawsn", "exp1", "expi", "expn",
    "owens_t", "spence", "k0", "k1", "k0e", "k1e", "kv", "kve", "yv", "poch", "binom", "t_density",
]

_SQRT_2PI = math.sqrt(2.0 * math.pi)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _unary(name, deriv, **kw):
    p = special_primitive(name)
    defderiv(p, deriv, **kw)
    return p.bind


def _last_arg(name, deriv, nargs, orders=(), saves_out=True):
    """A primitive differentiable only in its last argument: d/dx = deriv(ans, *args)."""
    p = special_primitive(name, orders=orders)
    p.defvjp(*([None] * (nargs - 1)), lambda g, ans, *a: safe_mul(g, deriv(ans, *a)), saves_out=saves_out)
    p.defjvp(*([None] * (nargs - 1)), lambda t, ans, *a: safe_mul(t, deriv(ans, *a)))
    return p.bind


# --- inverses of distribution functions ---------------------------------------------------

ndtri = _unary("ndtri", lambda ans, p: _SQRT_2PI * exp(0.5 * (ans * ans)), safe=True, unsaved_args=(0,))
# ndtri_exp(y) = ndtri(exp(y)): d/dy = exp(y) / pdf(ans)
ndtri_exp = _unary("ndtri_exp", lambda ans, y: _SQRT_2PI * exp(y + 0.5 * (ans * ans)), safe=True)


def _gamma_density(a, x):
    return exp(xlogy(a - 1.0, x) - x - gammaln(a))


def _inv_gamma_density(a, x):
    return exp(x + gammaln(a) - xlogy(a - 1.0, x))


def _beta_density(a, b, x):
    return exp(xlogy(a - 1.0, x) + xlog1py(b - 1.0, -x) - betaln(a, b))


def _inv_beta_density(a, b, x):
    return exp(betaln(a, b) - xlogy(a - 1.0, x) - xlog1py(b - 1.0, -x))


def t_density(df, t):
    """Student's t density at t with df degrees of freedom (funcgrad operations)."""
    return exp(gammaln(0.5 * (df + 1.0)) - gammaln(0.5 * df) - 0.5 * log(df * math.pi)
               - 0.5 * (df + 1.0) * log(1.0 + t * t / df))


gammaincinv = _last_arg("gammaincinv", lambda ans, a, y: _inv_gamma_density(a, ans), 2)
gammainccinv = _last_arg("gammainccinv", lambda ans, a, y: -_inv_gamma_density(a, ans), 2)
betaincinv = _last_arg("betaincinv", lambda ans, a, b, y: _inv_beta_density(a, b, ans), 3)
betainccinv = _last_arg("betainccinv", lambda ans, a, b, y: -_inv_beta_density(a, b, ans), 3)
betaincc = _last_arg("betaincc", lambda ans, a, b, x: -_beta_density(a, b, x), 3, saves_out=False)
stdtr = _last_arg("stdtr", lambda ans, df, t: t_density(df, t), 2, saves_out=False)
stdtrit = _last_arg("stdtrit", lambda ans, df, p: 1.0 / t_density(df, ans), 2)

# piecewise constant: its derivative is 0 wherever it exists
gammasgn = special_primitive("gammasgn", zero_derivative=True).bind
# the Poisson cdf's inverse in k (real-valued); funcgrad only evaluates it on stopped values
pdtrik = special_primitive("pdtrik", differentiable=False).bind


# --- error-function relatives and exponential integrals -----------------------------------

erfcx = _unary("erfcx", lambda ans, x: 2.0 * x * ans - _TWO_OVER_SQRT_PI)
erfi = _unary("erfi", lambda ans, x: _TWO_OVER_SQRT_PI * exp(x * x), saves_out=False)
dawsn = _unary("dawsn", lambda ans, x: 1.0 - 2.0 * x * ans)
exp1 = _unary("exp1", lambda ans, x: -exp(-x) / x, safe=True, saves_out=False)
expi = _unary("expi", lambda ans, x: exp(x) / x, safe=True, saves_out=False)
# E_n' = -E_{n-1} = -(exp(-x) - (n - 1) E_n) / x  (the recurrence, valid for every n >= 0)
expn = _last_arg("expn", lambda ans, n, x: ((n - 1.0) * ans - exp(-x)) / x, 2, orders=(0,))



def _log_over_one_minus(z):
    """log(z) / (1 - z); near z = 1 its series -sum_k (1 - z)^k / (k + 1) (every derivative finite)."""
    u = 1.0 - z
    near = abs_(u) < 1e-2
    us = where(near, u, 0.0)
    poly = 0.0 * us - 1.0 / 10.0
    for k in range(8, -1, -1):
        poly = poly * us - 1.0 / (k + 1)
    uf = where(near, 1.0, u)
    return where(near, poly, log(1.0 - uf) / uf)


# spence(z) = integral_1^z log(t) / (1 - t) dt: the derivative is log(z) / (1 - z)
spence = _unary("spence", lambda ans, z: _log_over_one_minus(z), safe=True, saves_out=False)

owens_t_p = special_primitive("owens_t")
_INV_2PI = 1.0 / (2.0 * math.pi)


def _owens_dh(h, a):
    """d/dh T(h, a) = -phi(h) erf(a h / sqrt(2)) / 2."""
    return -0.5 * exp(-0.5 * (h * h)) / _SQRT_2PI * erf(a * h * (1.0 / math.sqrt(2.0)))


def _owens_da(h, a):
    """d/da T(h, a) = exp(-h^2 (1 + a^2) / 2) / (2 pi (1 + a^2))."""
    s = 1.0 + a * a
    return _INV_2PI * exp(-0.5 * (h * h) * s) / s


owens_t_p.defvjp(lambda g, ans, h, a: g * _owens_dh(h, a), lambda g, ans, h, a: g * _owens_da(h, a),
                 saves_out=False)
owens_t_p.defjvp(lambda t, ans, h, a: t * _owens_dh(h, a), lambda t, ans, h, a: t * _owens_da(h, a))
owens_t = owens_t_p.bind


# --- modified Bessel functions of the second kind, Bessel y of real order ------------------

k0 = _unary("k0", lambda ans, x: -k1(x), saves_out=False)
k1 = _unary("k1", lambda ans, x: -k0(x) - ans / x)
k0e = _unary("k0e", lambda ans, x: ans - k1e(x))  # k0e = exp(x) k0
k1e = _unary("k1e", lambda ans, x: ans - k0e(x) - ans / x)
kv = _last_arg("kv", lambda ans, v, x: -0.5 * (kv(v - 1.0, x) + kv(v + 1.0, x)), 2, orders=(0,), saves_out=False)
kve = _last_arg("kve", lambda ans, v, x: ans - 0.5 * (kve(v - 1.0, x) + kve(v + 1.0, x)), 2, orders=(0,))
yv = _last_arg("yv", lambda ans, v, x: 0.5 * (yv(v - 1.0, x) - yv(v + 1.0, x)), 2, orders=(0,), saves_out=False)


# --- Pochhammer symbol and binomial coefficient ---------------------------------------------

poch_p = special_primitive("poch")  # poch(z, m) = gamma(z + m) / gamma(z)
poch_p.defvjp(lambda g, ans, z, m: g * (ans * (digamma(z + m) - digamma(z))),
              lambda g, ans, z, m: g * (ans * digamma(z + m)))
poch_p.defjvp(lambda t, ans, z, m: t * (ans * (digamma(z + m) - digamma(z))),
              lambda t, ans, z, m: t * (ans * digamma(z + m)))
poch = poch_p.bind

binom_p = special_primitive("binom")  # binom(n, k) = gamma(n + 1) / (gamma(k + 1) gamma(n - k + 1))
binom_p.defvjp(lambda g, ans, n, k: g * (ans * (digamma(n + 1.0) - digamma(n - k + 1.0))),
               lambda g, ans, n, k: g * (ans * (digamma(n - k + 1.0) - digamma(k + 1.0))))
binom_p.defjvp(lambda t, ans, n, k: t * (ans * (digamma(n + 1.0) - digamma(n - k + 1.0))),
               lambda t, ans, n, k: t * (ans * (digamma(n - k + 1.0) - digamma(k + 1.0))))
binom = binom_p.bind
