"""torch.special: PyTorch's special functions over funcgrad.scipy.special and the compat ops.

Integer and bool inputs are computed in the default float dtype (PyTorch's promotion);
every function is differentiable where PyTorch's is (the rules are funcgrad's).
"""

from __future__ import annotations

import math

from ..scipy import special as _ss
from . import ops_elementwise as _ew
from . import ops_math_extra as _mx
from ._dispatch import FUNCS as _F, as_t as _as_t, float_input as _fl, name_grad as _ng

__all__ = ["expit", "logit", "erf", "erfc", "erfinv", "gammaln", "digamma", "psi", "polygamma", "multigammaln",
           "i0", "i0e", "i1", "i1e", "ndtr", "ndtri", "log_ndtr", "xlogy", "xlog1py", "sinc", "entr", "logsumexp",
           "softmax", "log_softmax", "round", "exp2", "expm1", "log1p", "gammainc", "gammaincc",
           "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0", "modified_bessel_i1"]


def _unary(name, fn, grad_name):
    def f(input, *, out=None):
        return _ng(fn(_fl(_as_t(input))), grad_name)
    f.__name__ = name
    f.__doc__ = f"torch.special.{name}(input): element-wise, integer input in the default float dtype."
    return f


expit = _F["sigmoid"]
logit = _mx.logit
erf, erfc, erfinv = _F["erf"], _F["erfc"], _F["erfinv"]
gammaln = _F["lgamma"]
digamma = psi = _F["digamma"]
polygamma = _mx.polygamma
multigammaln = _mx.mvlgamma
i0 = _mx.i0
sinc = _mx.sinc
exp2, expm1, log1p = _F["exp2"], _F["expm1"], _F["log1p"]
logsumexp = _F["logsumexp"]
softmax, log_softmax = _ew.softmax, _ew.log_softmax
round = _F["round"]  # noqa: A001
xlogy = _ew.xlogy
i0e = _unary("i0e", _ss.i0e, "SpecialI0EBackward0")
i1 = _unary("i1", _ss.i1, "SpecialI1Backward0")
i1e = _unary("i1e", _ss.i1e, "SpecialI1EBackward0")
ndtr = _unary("ndtr", _ss.ndtr, "SpecialNdtrBackward0")
log_ndtr = _unary("log_ndtr", _ss.log_ndtr, "SpecialLogNdtrBackward0")
entr = _unary("entr", _ss.entr, "SpecialEntrBackward0")
bessel_j0 = _unary("bessel_j0", _ss.j0, "SpecialBesselJ0Backward0")
bessel_j1 = _unary("bessel_j1", _ss.j1, "SpecialBesselJ1Backward0")
bessel_y0 = _unary("bessel_y0", _ss.y0, "SpecialBesselY0Backward0")
bessel_y1 = _unary("bessel_y1", _ss.y1, "SpecialBesselY1Backward0")
modified_bessel_i0 = _unary("modified_bessel_i0", _ss.i0, "SpecialModifiedBesselI0Backward0")
modified_bessel_i1 = _unary("modified_bessel_i1", _ss.i1, "SpecialModifiedBesselI1Backward0")


def ndtri(input, *, out=None):
    """The inverse of ndtr: sqrt(2) * erfinv(2p - 1)."""
    p = _fl(_as_t(input))
    return _ng(_F["mul"](_F["erfinv"](_F["sub"](_F["mul"](p, 2.0), 1.0)), math.sqrt(2.0)), "SpecialNdtriBackward0")


def _binary(name, fn, grad_name):
    def f(input, other, *, out=None):
        a, b = _as_t(input), _as_t(other)
        (a, b), npd = _ew.promote(a, b)
        if npd.kind in "biu":
            a = _fl(a) if hasattr(a, "_value") else float(a)
            b = _fl(b) if hasattr(b, "_value") else float(b)
        return _ng(fn(a, b), grad_name)
    f.__name__ = name
    return f


xlog1py = _binary("xlog1py", _ss.xlog1py, "SpecialXlog1PyBackward0")
gammainc = _binary("gammainc", _ss.gammainc, "SpecialGammaincBackward0")
gammaincc = _binary("gammaincc", _ss.gammaincc, "SpecialGammainccBackward0")
from .special_scipy import *  # noqa: E402,F401,F403  (erfcx, zeta, the orthogonal polynomials, ...)

from ._out import install as _install_out  # noqa: E402

_install_out(globals(), "special.")  # out= on every function that declares it (see _out.py)
