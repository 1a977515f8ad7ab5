"""Special functions: Bessel functions of real argument (first and second kind,
modified and exponentially scaled), differentiable with respect to x to any order.

Rules come from the recurrences, written with these same primitives:
J_v' = (J_{v-1} - J_{v+1}) / 2, Y_n' likewise, I_v' = (I_{v-1} + I_{v+1}) / 2,
and for the scaled ive(v, x) = iv(v, x) exp(-|x|): ive' = (ive_{v-1} + ive_{v+1}) / 2
- sign(x) ive_v.  The orders v, n are not differentiable.
"""

from __future__ import annotations

from .elementwise import absolute, defderiv, exp, sign
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
                    lambda ans, n, x: 0.5 * (yn(n - 1, x) - yn(n + 1, x)))
yn = yn_p.bind

i0_p = special_primitive("i0")
defderiv(i0_p, lambda ans, x: i1(x), saves_out=False)
i0 = i0_p.bind

i1_p = special_primitive("i1")
# I_2 as ive(2, x) e^|x|: scipy's iv is NaN at subnormal x, ive is not
defderiv(i1_p, lambda ans, x: 0.5 * (i0(x) + ive(2, x) * exp(absolute(x))), saves_out=False)
i1 = i1_p.bind

i0e_p = special_primitive("i0e")
defderiv(i0e_p, lambda ans, x: i1e(x) - sign(x) * ans)
i0e = i0e_p.bind

i1e_p = special_primitive("i1e")
defderiv(i1e_p, lambda ans, x: 0.5 * (i0e(x) + ive(2, x)) - sign(x) * ans)
i1e = i1e_p.bind

j0_p = special_primitive("j0")
defderiv(j0_p, lambda ans, x: -j1(x), saves_out=False)
j0 = j0_p.bind

j1_p = special_primitive("j1")
defderiv(j1_p, lambda ans, x: 0.5 * (j0(x) - jv(2, x)), saves_out=False)
j1 = j1_p.bind

y0_p = special_primitive("y0")
defderiv(y0_p, lambda ans, x: -y1(x), saves_out=False)
y0 = y0_p.bind

y1_p = special_primitive("y1")
defderiv(y1_p, lambda ans, x: 0.5 * (y0(x) - yn(2, x)), saves_out=False)
y1 = y1_p.bind
