"""Special functions: the gamma family (gamma, gammaln, digamma, polygamma, beta,
betaln) and the regularized incomplete gamma and beta functions.

Impl and dtype rule come from :func:`special.special_primitive` (scipy.special /
cupyx.scipy.special); each block's derivative rules are written with funcgrad
operations, so any order works: d gammaln = digamma, d digamma = polygamma(1, .),
d polygamma(n, .) = polygamma(n + 1, .).  Orders (``n``) and the shape
parameters of the incomplete functions (``a``, ``b``) are not differentiable.
"""

from __future__ import annotations

from .elementwise import defderiv, exp, log, log1p, safe_mul
from .special import special_primitive

__all__ = [
    "gamma", "gammaln", "digamma", "polygamma", "beta", "betaln", "betainc", "gammainc",
    "gammaincc", "xlogy", "xlog1py",
]

gamma_p = special_primitive("gamma")
defderiv(gamma_p, lambda ans, x: ans * digamma(x))
gamma = gamma_p.bind

gammaln_p = special_primitive("gammaln")  # log|gamma(x)|: its derivative is digamma too
defderiv(gammaln_p, lambda ans, x: digamma(x), saves_out=False)
gammaln = gammaln_p.bind

digamma_p = special_primitive("digamma", "psi")
defderiv(digamma_p, lambda ans, x: polygamma(1, x), saves_out=False)
digamma = digamma_p.bind

polygamma_p = special_primitive("polygamma", orders=(0,))
polygamma_p.defvjp(None, lambda g, ans, n, x: g * polygamma(n + 1, x), saves_out=False)
polygamma_p.defjvp(None, lambda t, ans, n, x: t * polygamma(n + 1, x))
polygamma = polygamma_p.bind


def _dbeta_log(a, b):
    """d/da log B(a, b) = digamma(a) - digamma(a + b)."""
    return digamma(a) - digamma(a + b)


beta_p = special_primitive("beta")
beta_p.defvjp(lambda g, ans, a, b: g * (ans * _dbeta_log(a, b)),
              lambda g, ans, a, b: g * (ans * _dbeta_log(b, a)))
beta_p.defjvp(lambda t, ans, a, b: t * (ans * _dbeta_log(a, b)),
              lambda t, ans, a, b: t * (ans * _dbeta_log(b, a)))
beta = beta_p.bind

betaln_p = special_primitive("betaln")
betaln_p.defvjp(lambda g, ans, a, b: g * _dbeta_log(a, b),
                lambda g, ans, a, b: g * _dbeta_log(b, a), saves_out=False)
betaln_p.defjvp(lambda t, ans, a, b: t * _dbeta_log(a, b), lambda t, ans, a, b: t * _dbeta_log(b, a))
betaln = betaln_p.bind


# --- x log y helpers (0 where x == 0, whatever y is) -------------------------------------

def _x_over(x, y):
    """x / y, but 0 where x == 0 (also where y == 0 there); its derivative in x stays 1/y."""
    return safe_mul(x, 1.0 / y)


def _xlogy_fallback(xp, x, y):
    zero = x == 0
    return xp.where(zero, xp.zeros((), x.dtype), x * xp.log(xp.where(zero, 1.0, y)))


def _xlog1py_fallback(xp, x, y):
    zero = x == 0
    return xp.where(zero, xp.zeros((), x.dtype), x * xp.log1p(xp.where(zero, 0.0, y)))


xlogy_p = special_primitive("xlogy", fallback=_xlogy_fallback)
xlogy_p.defvjp(lambda g, ans, x, y: safe_mul(g, log(y)), lambda g, ans, x, y: safe_mul(g, _x_over(x, y)),
               saves_out=False)
xlogy_p.defjvp(lambda t, ans, x, y: safe_mul(t, log(y)), lambda t, ans, x, y: safe_mul(t, _x_over(x, y)))
xlogy = xlogy_p.bind


xlog1py_p = special_primitive("xlog1py", fallback=_xlog1py_fallback)
xlog1py_p.defvjp(lambda g, ans, x, y: safe_mul(g, log1p(y)),
                 lambda g, ans, x, y: safe_mul(g, _x_over(x, 1.0 + y)), saves_out=False)
xlog1py_p.defjvp(lambda t, ans, x, y: safe_mul(t, log1p(y)), lambda t, ans, x, y: safe_mul(t, _x_over(x, 1.0 + y)))
xlog1py = xlog1py_p.bind


# --- regularized incomplete gamma / beta: derivative with respect to x -------------------

def _gammainc_density(a, x):
    """d/dx P(a, x) = x^(a-1) e^(-x) / Gamma(a)."""
    return exp(xlogy(a - 1.0, x) - x - gammaln(a))


gammainc_p = special_primitive("gammainc")
gammainc_p.defvjp(None, lambda g, ans, a, x: g * _gammainc_density(a, x), saves_out=False)
gammainc_p.defjvp(None, lambda t, ans, a, x: t * _gammainc_density(a, x))
gammainc = gammainc_p.bind

gammaincc_p = special_primitive("gammaincc")
gammaincc_p.defvjp(None, lambda g, ans, a, x: -g * _gammainc_density(a, x), saves_out=False)
gammaincc_p.defjvp(None, lambda t, ans, a, x: -t * _gammainc_density(a, x))
gammaincc = gammaincc_p.bind


def _betainc_density(a, b, x):
    """d/dx I_x(a, b) = x^(a-1) (1-x)^(b-1) / B(a, b)."""
    return exp(xlogy(a - 1.0, x) + xlog1py(b - 1.0, -x) - betaln(a, b))


betainc_p = special_primitive("betainc")
betainc_p.defvjp(None, None, lambda g, ans, a, b, x: g * _betainc_density(a, b, x), saves_out=False)
betainc_p.defjvp(None, None, lambda t, ans, a, b, x: t * _betainc_density(a, b, x))
betainc = betainc_p.bind
