"""More scipy-valued primitives with derivatives in x: orthogonal polynomials (eval_*),
hypergeometric functions, jve/yve, Bessel-function derivatives (jvp, yvp, ivp, kvp),
wrightomega and Hurwitz's zeta (in q).

Each rule is another primitive of the family (P_n' is a Gegenbauer polynomial, 1F1' is a
1F1, ...), so derivatives of every order work.  Degrees, orders and the parameters
(alpha, beta, a, b, c, the zeta exponent) are not differentiable (MissingRuleError).
"""

from __future__ import annotations

import math

import numpy as np

from ..primitives.elementwise import safe_mul, where
from ..primitives.special import special_primitive
from ..primitives.special_bessel import iv, jv
from . import _special_prims as _px

__all__ = [
    "eval_chebyt", "eval_chebyu", "eval_chebyc", "eval_chebys", "eval_sh_chebyt", "eval_sh_chebyu",
    "eval_gegenbauer", "eval_legendre", "eval_sh_legendre", "eval_hermite", "eval_hermitenorm",
    "eval_laguerre", "eval_genlaguerre", "eval_jacobi", "assoc_laguerre", "hyp0f1", "hyp1f1", "hyp2f1",
    "hyperu", "jve", "yve", "jvp", "yvp", "ivp", "kvp", "wrightomega", "zeta", "zetac",
]


def _in_x(name, deriv, nargs, saves_out=False):
    """A primitive of (..., x) differentiable in its last argument only."""
    p = special_primitive(name, orders=(0,))
    p.defvjp(*([None] * (nargs - 1)), lambda g, ans, *a: safe_mul(g, deriv(ans, *a)), saves_out=saves_out)
    p.defjvp(*([None] * (nargs - 1)), lambda t, ans, *a: safe_mul(t, deriv(ans, *a)))
    return p.bind


_SCALARS = (int, float, np.integer, np.floating)


def _lower(n):
    """n - 1, with 1 standing in where n == 0 (whose derivative is 0: the double-where
    pattern).  Python numbers stay Python numbers (so they follow x to its device)."""
    if isinstance(n, _SCALARS):
        return float(n) - 1.0 if n != 0 else 0.0
    return where(n == 0, 1.0, n) - 1.0


def _lower_int(n):
    """_lower for integer degrees (eval_hermite's loops take integers only)."""
    if isinstance(n, _SCALARS):
        return int(n) - 1 if n != 0 else 0
    return where(n == 0, 1, n) - 1


def _nz(n, value):
    if isinstance(n, _SCALARS):
        return value if n != 0 else 0.0 * value
    return where(n == 0, 0.0, value)


# --- orthogonal polynomials: value from scipy, derivative from the family ------------------

eval_gegenbauer = _in_x("eval_gegenbauer", lambda ans, n, a, x: _nz(n, 2.0 * a * eval_gegenbauer(_lower(n), a + 1.0, x)), 3)
eval_chebyu = _in_x("eval_chebyu", lambda ans, n, x: _nz(n, 2.0 * eval_gegenbauer(_lower(n), 2.0, x)), 2)
eval_chebyt = _in_x("eval_chebyt", lambda ans, n, x: _nz(n, n * eval_chebyu(_lower(n), x)), 2)
eval_chebyc = _in_x("eval_chebyc", lambda ans, n, x: _nz(n, n * eval_chebyu(_lower(n), 0.5 * x)), 2)
eval_chebys = _in_x("eval_chebys", lambda ans, n, x: _nz(n, eval_gegenbauer(_lower(n), 2.0, 0.5 * x)), 2)
eval_sh_chebyt = _in_x("eval_sh_chebyt", lambda ans, n, x: _nz(n, 2.0 * n * eval_chebyu(_lower(n), 2.0 * x - 1.0)), 2)
eval_sh_chebyu = _in_x("eval_sh_chebyu", lambda ans, n, x: _nz(n, 4.0 * eval_gegenbauer(_lower(n), 2.0, 2.0 * x - 1.0)), 2)
eval_legendre = _in_x("eval_legendre", lambda ans, n, x: _nz(n, eval_gegenbauer(_lower(n), 1.5, x)), 2)
eval_sh_legendre = _in_x("eval_sh_legendre", lambda ans, n, x: _nz(n, 2.0 * eval_gegenbauer(_lower(n), 1.5, 2.0 * x - 1.0)), 2)
eval_hermite = _in_x("eval_hermite", lambda ans, n, x: _nz(n, 2.0 * n * eval_hermite(_lower_int(n), x)), 2)
eval_hermitenorm = _in_x("eval_hermitenorm", lambda ans, n, x: _nz(n, n * eval_hermitenorm(_lower_int(n), x)), 2)
eval_genlaguerre = _in_x("eval_genlaguerre", lambda ans, n, a, x: _nz(n, -eval_genlaguerre(_lower(n), a + 1.0, x)), 3)
eval_laguerre = _in_x("eval_laguerre", lambda ans, n, x: _nz(n, -eval_genlaguerre(_lower(n), 1.0, x)), 2)
eval_jacobi = _in_x("eval_jacobi", lambda ans, n, a, b, x: _nz(
    n, 0.5 * (n + a + b + 1.0) * eval_jacobi(_lower(n), a + 1.0, b + 1.0, x)), 4)


def assoc_laguerre(x, n, k=0.0):
    """scipy.special.assoc_laguerre: the generalized Laguerre polynomial L_n^(k)(x); differentiable in x."""
    return eval_genlaguerre(n, k, x)


# --- hypergeometric functions ---------------------------------------------------------------

hyp0f1 = _in_x("hyp0f1", lambda ans, b, x: hyp0f1(b + 1.0, x) / b, 2)
hyp1f1 = _in_x("hyp1f1", lambda ans, a, b, x: (a / b) * hyp1f1(a + 1.0, b + 1.0, x), 3)
hyp2f1 = _in_x("hyp2f1", lambda ans, a, b, c, x: (a * b / c) * hyp2f1(a + 1.0, b + 1.0, c + 1.0, x), 4)
hyperu = _in_x("hyperu", lambda ans, a, b, x: -a * hyperu(a + 1.0, b + 1.0, x), 3)


# --- Bessel functions: exponentially scaled (for real x, equal to the unscaled) and derivatives

jve = _in_x("jve", lambda ans, v, x: 0.5 * (jve(v - 1.0, x) - jve(v + 1.0, x)), 2)
yve = _in_x("yve", lambda ans, v, x: 0.5 * (yve(v - 1.0, x) - yve(v + 1.0, x)), 2)


def _derivative_sum(fn, v, z, n, sign):
    """2^-n sum_k sign^k C(n, k) fn(v - n + 2k, z): the n-th derivative of a Bessel function."""
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError(f"n must be a non-negative integer (the derivative's order), got {n!r}")
    total = 0.0
    for k in range(n + 1):
        total = total + (sign ** k) * math.comb(n, k) * fn(v - n + 2.0 * k, z)
    return total * (0.5 ** n)


def jvp(v, z, n=1):
    """scipy.special.jvp: the n-th derivative of jv(v, z) in z (a sum of jv); differentiable in z."""
    return _derivative_sum(jv, v, z, n, -1.0)


def yvp(v, z, n=1):
    """scipy.special.yvp: the n-th derivative of yv(v, z) in z; differentiable in z."""
    return _derivative_sum(_px.yv, v, z, n, -1.0)


def ivp(v, z, n=1):
    """scipy.special.ivp: the n-th derivative of iv(v, z) in z; differentiable in z."""
    return _derivative_sum(iv, v, z, n, 1.0)


def kvp(v, z, n=1):
    """scipy.special.kvp: the n-th derivative of kv(v, z) in z; differentiable in z."""
    return (-1.0) ** n * _derivative_sum(_px.kv, v, z, n, 1.0)


# --- Wright omega, zeta ---------------------------------------------------------------------

_wrightomega_p = special_primitive("wrightomega")
_wrightomega_p.defvjp(lambda g, ans, x: g * (ans / (1.0 + ans)))
_wrightomega_p.defjvp(lambda t, ans, x: t * (ans / (1.0 + ans)))
wrightomega = _wrightomega_p.bind

# Riemann's zeta(x) and zetac(x) = zeta(x) - 1: no derivative in x (d/dx zeta has no scipy
# function to build it from: the None rule makes differentiating them a MissingRuleError);
# Hurwitz's zeta(x, q): d/dq = -x zeta(x + 1, q)
_riemann_p = special_primitive("zeta_riemann", "zeta").defvjp(None).defjvp(None)
_riemann = _riemann_p.bind
zetac = special_primitive("zetac").defvjp(None).defjvp(None).bind
_hurwitz_p = special_primitive("zeta_hurwitz", "zeta")
_hurwitz_p.defvjp(None, lambda g, ans, x, q: g * (-x * _hurwitz(x + 1.0, q)), saves_out=False)
_hurwitz_p.defjvp(None, lambda t, ans, x, q: t * (-x * _hurwitz(x + 1.0, q)))
_hurwitz = _hurwitz_p.bind


def zeta(x, q=None, out=None):
    """scipy.special.zeta: Riemann's zeta(x) (q None) or Hurwitz's zeta(x, q); differentiable in
    q only (a derivative in x raises MissingRuleError)."""
    if out is not None:
        raise TypeError("funcgrad.scipy.special.zeta: out= is not supported (arrays are immutable)")
    return _riemann(x) if q is None else _hurwitz(x, q)
