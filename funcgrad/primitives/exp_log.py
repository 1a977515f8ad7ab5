"""More powers, exponentials and logarithms: exp2, log2, log10, logaddexp2, cbrt, reciprocal.

(exp, log, log1p, expm1, logaddexp, sqrt and power live in elementwise.py.)
"""

from __future__ import annotations

import numpy as np

from .elementwise import defderiv, isnan, ufunc_primitive, where

__all__ = ["exp2", "log2", "log10", "logaddexp2", "cbrt", "reciprocal"]

_LN2 = float(np.log(2.0))
_LN10 = float(np.log(10.0))

exp2_p = ufunc_primitive("exp2")
defderiv(exp2_p, lambda ans, x: ans * _LN2, unsaved_args=(0,))
exp2 = exp2_p.bind

log2_p = ufunc_primitive("log2")
defderiv(log2_p, lambda ans, x: 1.0 / (x * _LN2), safe=True, saves_out=False)
log2 = log2_p.bind

log10_p = ufunc_primitive("log10")
defderiv(log10_p, lambda ans, x: 1.0 / (x * _LN10), safe=True, saves_out=False)
log10 = log10_p.bind

cbrt_p = ufunc_primitive("cbrt")
# infinite at 0: a zero (co)tangent gives exactly 0 there
defderiv(cbrt_p, lambda ans, x: 1.0 / (3.0 * ans * ans), safe=True, unsaved_args=(0,))
cbrt = cbrt_p.bind

reciprocal_p = ufunc_primitive("reciprocal")
defderiv(reciprocal_p, lambda ans, x: -ans * ans, safe=True, unsaved_args=(0,))  # -inf at 0
reciprocal = reciprocal_p.bind


def _logaddexp2_weight(ans, x):
    """d logaddexp2 / dx = 2**(x - ans) <= 1: finite for any magnitude; 1/2 each at -inf, -inf."""
    w = exp2(x - ans)
    return where(isnan(w), 0.5, w)


logaddexp2_p = ufunc_primitive("logaddexp2", nin=2)
logaddexp2_p.defvjp(lambda g, ans, x, y: g * _logaddexp2_weight(ans, x),
                    lambda g, ans, x, y: g * _logaddexp2_weight(ans, y))
logaddexp2_p.defjvp(lambda t, ans, x, y: t * _logaddexp2_weight(ans, x),
                    lambda t, ans, x, y: t * _logaddexp2_weight(ans, y))
logaddexp2 = logaddexp2_p.bind

