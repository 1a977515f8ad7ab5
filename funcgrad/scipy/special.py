"""funcgrad.scipy.special: scipy.special's functions, differentiable to any order.

Each function takes arrays (or array-likes) and broadcasts like scipy's ufunc;
derivatives are defined with respect to the arguments named in each
docstring (integer orders such as ``n`` of ``polygamma`` are not differentiable).
"""

from __future__ import annotations

from ..numpy._util import no_out
from ..primitives import special as _sp

__all__ = ["erf", "erfc", "erfinv", "erfcinv"]


def _ufunc(prim_fn, name, doc):
    def f(*args, out=None):
        no_out(out, name)
        return prim_fn(*args)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"scipy.special.{name}: {doc}"
    return f


erf = _ufunc(_sp.erf, "erf", "the error function; works without scipy (d/dx = 2/sqrt(pi) exp(-x^2)).")
erfc = _ufunc(_sp.erfc, "erfc", "1 - erf(x), accurate for large x; works without scipy.")
erfinv = _ufunc(_sp.erfinv, "erfinv", "inverse of erf on (-1, 1) (d/dx = sqrt(pi)/2 exp(erfinv(x)^2)).")
erfcinv = _ufunc(_sp.erfcinv, "erfcinv", "inverse of erfc on (0, 2).")
