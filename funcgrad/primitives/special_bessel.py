"""Special functions: Bessel functions of real argument (first and second kind,
modified and exponentially scaled), differentiable with respect to x to any order.

Rules come from the recurrences, written with these same primitives:
J_v' = (J_{v-1} - J_{v+1}) / 2, Y_n' likewise, I_v' = (I_{v-1} + I_{v+1}) / 2,
and for the scaled ive(v, x) = iv(v, x) exp(-|x|): ive' = (ive_{v-1} + ive_{v+1}) / 2
- sign(x) ive_v.  The orders v, n are not differentiable.

The rules of i1, i1e, j1 and yn use only orders >= 0 of functions that cupyx.scipy
also has (I_1' = I_0 - I_1/x, J_1' = J_0 - J_1/x, Y_n' = (n/x) Y_n - Y_{n+1}), so
they work on the GPU, where iv, ive and jv are missing.
"""

from __future__ import annotations

from .elementwise import absolute, defderiv, exp, less, sign, where
from .special import special_primitive

__all__ = ["i0", "i1", "i0e", "i1e", "iv", "ive", "j0", "j1", "jv", "y0", "y1", "yn"]


def _order_rules(prim, deriv, saves_out=False):
    """Rules of ``prim(v, x)``: only x differentiable, ``deriv(ans, v, x)``."""
    prim.defvjp(None, lambda g, ans, v, x: g * deriv(ans, v, x), saves_out=saves_out)
    prim.defjvp(None, lambda t, ans, v, x: t * deriv(ans, v, x))
    return prim


iv_p = _order_rules(special_primitive("iv", orders=(0,)),
                    lambda ans, v, x: 0.5 * (iv(v - 1, x) + iv(v + 1, x)))
iv = iv_p.bind

ive_p = _order_rules(special_primitive("ive", orders=(0,)),
                     lambda ans, v, x: 0.5 * (ive(v - 1, x) + ive(v + 1, x)) - sign(x) * ans, True)
ive = ive_p.bind

jv_p = _order_rules(special_primitive("jv", orders=(0,)),
                    lambda ans, v, x: 0.5 * (jv(v - 1, x) - jv(v + 1, x)))
jv = jv_p.bind

yn_p = _order_rules(special_primitive("yn", orders=(0,)),
                    lambda ans, n, x: n / x * ans - yn(n + 1, x), True)
yn = yn_p.bind

i0_p = special_primitive("i0")
defderiv(i0_p, lambda ans, x: i1(x), saves_out=False)
i0 = i0_p.bind

_SMALL = 1e-4  # below it, f(x)/x from its series (next term ~ x^4/384: negligible)


def _over_x(f, x, series):
    """f(x) / x for f(x) ~ x/2 at 0 (I_1, J_1), with ``series(x)`` used for |x| < _SMALL."""
    small = less(absolute(x), _SMALL)
    return where(small, series(x), f / where(small, 1.0, x))


i1_p = special_primitive("i1")
defderiv(i1_p, lambda ans, x: i0(x) - _over_x(ans, x, lambda x: 0.5 + x * x / 16))
i1 = i1_p.bind

i0e_p = special_primitive("i0e")
defderiv(i0e_p, lambda ans, x: i1e(x) - sign(x) * ans)
i0e = i0e_p.bind

i1e_p = special_primitive("i1e")
# i1e(x) / x = (I_1(x) / x) e^-|x|
defderiv(i1e_p, lambda ans, x: i0e(x) - _over_x(ans, x, lambda x: (0.5 + x * x / 16) * exp(-absolute(x)))
         - sign(x) * ans)
i1e = i1e_p.bind

j0_p = special_primitive("j0")
defderiv(j0_p, lambda ans, x: -j1(x), saves_out=False)
j0 = j0_p.bind

j1_p = special_primitive("j1")
defderiv(j1_p, lambda ans, x: j0(x) - _over_x(ans, x, lambda x: 0.5 - x * x / 16))
j1 = j1_p.bind

y0_p = special_primitive("y0")
defderiv(y0_p, lambda ans, x: -y1(x), saves_out=False)
y0 = y0_p.bind

y1_p = special_primitive("y1")
defderiv(y1_p, lambda ans, x: 0.5 * (y0(x) - yn(2, x)), saves_out=False)
y1 = y1_p.bind
