"""funcgrad.scipy.special: scipy.special's functions, differentiable to any order.

Each function takes arrays (or array-likes), broadcasts like scipy's ufunc and
follows funcgrad's dtype policy (float32 in, float32 out; everything else
float64).  Derivatives are taken with respect to the arguments each docstring
names; orders (``n`` of ``polygamma``, ``v`` of ``iv``) and the shape
parameters of the incomplete gamma/beta functions are not differentiable
(differentiating with respect to them raises MissingRuleError).

erf, erfc, expit, logit, log_expit, xlogy, xlog1py, entr, rel_entr, logsumexp,
softmax and log_softmax work without scipy; the others use scipy.special on
the cpu (``pip install scipy``) and cupyx.scipy.special on cuda.  Functions
composed from others (``_special_elementary``: rgamma, boxcox, kl_div, ...) need
what their pieces need.  docs/scipy-coverage.md lists every scipy.special name with
its status here.
"""

from __future__ import annotations

import math

import numpy as np

from ..numpy import _reductions as _red
from ..numpy import _shape
from ..numpy._elementwise import exp, sign, where
from ..numpy._util import as_array, no_out, normalize_axes
from ..primitives import special as _sp
from ..primitives import special_bessel as _sb
from ..primitives import special_gamma as _sg
from ..primitives import special_log as _sl
from ..primitives.stop_gradient import stop_gradient
from . import _special_cdfs as _cdf
from . import _special_prims as _px
from ._special_elementary import (  # noqa: F401  (re-exported)
    boxcox, boxcox1p, cbrt, comb, cosdg, cosm1, cotdg, exp2, exp10, expm1, exprel, factorial, huber,
    inv_boxcox, inv_boxcox1p, kl_div, log1p, loggamma, perm, powm1, pseudo_huber, radian, rgamma, round,
    sinc, sindg, softplus, tandg,
)
from ._special_elementary import __all__ as _ELEMENTARY
from ._special_polys import (  # noqa: F401  (re-exported)
    assoc_laguerre, eval_chebyc, eval_chebys, eval_chebyt, eval_chebyu, eval_gegenbauer, eval_genlaguerre,
    eval_hermite, eval_hermitenorm, eval_jacobi, eval_laguerre, eval_legendre, eval_sh_chebyt, eval_sh_chebyu,
    eval_sh_legendre, hyp0f1, hyp1f1, hyp2f1, hyperu, ivp, jve, jvp, kvp, wrightomega, yve, yvp, zeta, zetac,
)
from ._special_polys import __all__ as _POLYS
from ._special_multi import (  # noqa: F401  (re-exported)
    airy, ellipe, ellipeinc, ellipj, ellipk, ellipkinc, ellipkm1, fresnel, modstruve, shichi, sici, spherical_in, spherical_jn,
    spherical_kn, spherical_yn, struve,
)
from ._special_multi import __all__ as _MULTI

__all__ = [
    "erf", "erfc", "erfinv", "erfcinv", "ndtr", "log_ndtr", "gamma", "gammaln", "digamma", "psi", "polygamma",
    "multigammaln", "beta", "betaln", "betainc", "gammainc", "gammaincc", "expit", "logit",
    "log_expit", "logsumexp", "softmax", "log_softmax", "xlogy", "xlog1py", "entr",
    "rel_entr", "i0", "i1", "i0e", "i1e", "iv", "ive", "jv", "jn", "j0", "j1", "y0", "y1", "yn",
    "ndtri", "ndtri_exp", "gammaincinv", "gammainccinv", "betaincinv", "betainccinv", "betaincc", "stdtr",
    "stdtrit", "gammasgn", "erfcx", "erfi", "dawsn", "exp1", "expi", "expn", "owens_t", "spence", "k0", "k1",
    "k0e", "k1e", "kv", "kve", "kn", "yv", "poch", "binom", *_cdf.__all__, *_ELEMENTARY, *_POLYS, *_MULTI,
]


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
log_ndtr = _ufunc(_sp.log_ndtr, "log_ndtr", "log of the standard normal cdf, accurate in both tails; works without scipy.")


def ndtr(x):
    """scipy.special.ndtr: the standard normal cdf, erfc(-x / sqrt(2)) / 2; works without scipy."""
    return _sp.ndtr(as_array(x) if not isinstance(x, (int, float)) else float(x))

gamma = _ufunc(_sg.gamma, "gamma", "the gamma function (d/dx = gamma(x) digamma(x)).")
gammaln = _ufunc(_sg.gammaln, "gammaln", "log|gamma(x)| (d/dx = digamma(x)).")
digamma = psi = _ufunc(_sg.digamma, "digamma", "d/dx log gamma(x) (d/dx = polygamma(1, x)).")
polygamma = _ufunc(_sg.polygamma, "polygamma", "polygamma(n, x), the n-th derivative of digamma; differentiable in x.")
beta = _ufunc(_sg.beta, "beta", "B(a, b) = gamma(a) gamma(b) / gamma(a + b); differentiable in a and b.")
betaln = _ufunc(_sg.betaln, "betaln", "log|B(a, b)|; differentiable in a and b.")
betainc = _ufunc(_sg.betainc, "betainc", "regularized incomplete beta I_x(a, b); differentiable in x.")
gammainc = _ufunc(_sg.gammainc, "gammainc", "regularized lower incomplete gamma P(a, x); differentiable in x.")
gammaincc = _ufunc(_sg.gammaincc, "gammaincc", "regularized upper incomplete gamma Q(a, x); differentiable in x.")
xlogy = _ufunc(_sg.xlogy, "xlogy", "x * log(y), 0 where x == 0; differentiable in x and y.")
xlog1py = _ufunc(_sg.xlog1py, "xlog1py", "x * log1p(y), 0 where x == 0; differentiable in x and y.")

expit = _ufunc(_sl.expit, "expit", "the logistic sigmoid 1 / (1 + exp(-x)).")
logit = _ufunc(_sl.logit, "logit", "log(p / (1 - p)), the inverse of expit.")
log_expit = _ufunc(_sl.log_expit, "log_expit", "log(expit(x)) (log-sigmoid), accurate for large |x|.")
entr = _ufunc(_sl.entr, "entr", "-x log(x) for x > 0, 0 at 0, -inf below.")
rel_entr = _ufunc(_sl.rel_entr, "rel_entr", "x log(x / y) for x, y > 0 (0 at x == 0, inf elsewhere).")

i0 = _ufunc(_sb.i0, "i0", "modified Bessel function of the first kind, order 0.")
i1 = _ufunc(_sb.i1, "i1", "modified Bessel function of the first kind, order 1.")
i0e = _ufunc(_sb.i0e, "i0e", "exp(-|x|) i0(x).")
i1e = _ufunc(_sb.i1e, "i1e", "exp(-|x|) i1(x).")
iv = _ufunc(_sb.iv, "iv", "iv(v, x): modified Bessel function of the first kind of real order v; differentiable in x.")
ive = _ufunc(_sb.ive, "ive", "ive(v, x) = exp(-|x|) iv(v, x); differentiable in x.")
jv = jn = _ufunc(_sb.jv, "jv", "jv(v, x): Bessel function of the first kind of real order v; differentiable in x.")
j0 = _ufunc(_sb.j0, "j0", "Bessel function of the first kind, order 0 (d/dx = -j1).")
j1 = _ufunc(_sb.j1, "j1", "Bessel function of the first kind, order 1.")
y0 = _ufunc(_sb.y0, "y0", "Bessel function of the second kind, order 0 (d/dx = -y1).")
y1 = _ufunc(_sb.y1, "y1", "Bessel function of the second kind, order 1.")
yn = _ufunc(_sb.yn, "yn", "yn(n, x): Bessel function of the second kind of integer order n; differentiable in x.")

ndtri = _ufunc(_px.ndtri, "ndtri", "the inverse of ndtr (the standard normal quantile); d/dp = 1 / pdf(ndtri(p)).")
ndtri_exp = _ufunc(_px.ndtri_exp, "ndtri_exp", "ndtri(exp(y)), accurate for very negative y.")
gammaincinv = _ufunc(_px.gammaincinv, "gammaincinv", "the x with gammainc(a, x) == y; differentiable in y.")
gammainccinv = _ufunc(_px.gammainccinv, "gammainccinv", "the x with gammaincc(a, x) == y; differentiable in y.")
betaincinv = _ufunc(_px.betaincinv, "betaincinv", "the x with betainc(a, b, x) == y; differentiable in y.")
betainccinv = _ufunc(_px.betainccinv, "betainccinv", "the x with betaincc(a, b, x) == y; differentiable in y.")
betaincc = _ufunc(_px.betaincc, "betaincc", "1 - betainc(a, b, x), accurate near 1; differentiable in x.")
stdtr = _ufunc(_px.stdtr, "stdtr", "stdtr(df, t): Student's t cdf; differentiable in t.")
stdtrit = _ufunc(_px.stdtrit, "stdtrit", "stdtrit(df, p): Student's t quantile; differentiable in p.")
gammasgn = _ufunc(_px.gammasgn, "gammasgn", "the sign of gamma(x) (derivative 0).")
erfcx = _ufunc(_px.erfcx, "erfcx", "exp(x^2) erfc(x), the scaled complementary error function.")
erfi = _ufunc(_px.erfi, "erfi", "-i erf(i x), the imaginary error function (real for real x).")
dawsn = _ufunc(_px.dawsn, "dawsn", "Dawson's integral exp(-x^2) integral_0^x exp(t^2) dt.")
exp1 = _ufunc(_px.exp1, "exp1", "the exponential integral E1(x) = integral_1^inf exp(-x t) / t dt.")
expi = _ufunc(_px.expi, "expi", "the exponential integral Ei(x).")
expn = _ufunc(_px.expn, "expn", "expn(n, x): the generalized exponential integral E_n(x); differentiable in x.")
owens_t = _ufunc(_px.owens_t, "owens_t", "Owen's T function T(h, a); differentiable in h and a.")
spence = _ufunc(_px.spence, "spence", "Spence's function integral_1^z log(t) / (1 - t) dt (real z >= 0).")
k0 = _ufunc(_px.k0, "k0", "modified Bessel function of the second kind, order 0 (d/dx = -k1).")
k1 = _ufunc(_px.k1, "k1", "modified Bessel function of the second kind, order 1.")
k0e = _ufunc(_px.k0e, "k0e", "exp(x) k0(x).")
k1e = _ufunc(_px.k1e, "k1e", "exp(x) k1(x).")
kv = kn = _ufunc(_px.kv, "kv", "kv(v, x): modified Bessel function of the second kind of real order v; differentiable in x.")
kve = _ufunc(_px.kve, "kve", "kve(v, x) = exp(x) kv(v, x); differentiable in x.")
yv = _ufunc(_px.yv, "yv", "yv(v, x): Bessel function of the second kind of real order v; differentiable in x.")
poch = _ufunc(_px.poch, "poch", "the Pochhammer symbol gamma(z + m) / gamma(z); differentiable in z and m.")
binom = _ufunc(_px.binom, "binom", "the binomial coefficient as a function of real n and k; differentiable in both.")

for _name in _cdf.__all__:
    globals()[_name] = _ufunc(getattr(_cdf, _name), _name, _cdf.DOCS[_name])
del _name


def multigammaln(a, d):
    """scipy.special.multigammaln: log of the multivariate gamma function of dimension d,
    d(d-1)/4 log(pi) + sum_{j<d} gammaln(a - j/2); differentiable in a."""
    if not isinstance(d, (int, np.integer)) or isinstance(d, bool) or d < 1:
        raise ValueError(f"multigammaln: d should be a positive integer (dimension), got {d!r}")
    a = as_array(a)
    low = 0.5 * (d - 1)
    try:
        bad = a.size and bool(_red.min(stop_gradient(a)) <= low)
    except TypeError:  # no concrete values (under vmap): NaN where the domain is left
        bad = None
    if bad:
        raise ValueError(f"multigammaln: condition a ({_red.min(stop_gradient(a))}) > 0.5 * (d-1) ({low}) not met")
    out = _sg.gammaln(a)
    for j in range(1, d):
        out = out + _sg.gammaln(a - 0.5 * j)
    out = out + 0.25 * d * (d - 1) * math.log(math.pi)
    return out if bad is not None else where(a > low, out, np.nan)


def _lse_args(a, axis, b):
    a = as_array(a)
    if b is not None:
        b = as_array(b)
        shape = np.broadcast_shapes(a.shape, b.shape)
        a, b = _shape.broadcast_to(a, shape), _shape.broadcast_to(b, shape)
    return a, (1.0 if b is None else b), normalize_axes(axis, a.ndim)


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """scipy.special.logsumexp: log(sum(b * exp(a))) over axis, computed stably.

    Entries of -inf contribute nothing; a slice of only -inf gives -inf with a
    zero gradient (not NaN).  With ``b`` of mixed sign the sum may be negative:
    then the result is NaN, or log|sum| and its sign with ``return_sign=True``.
    Differentiable in ``a`` and ``b`` (the gradient in ``a`` is the softmax).
    """
    a, b, axes = _lse_args(a, axis, b)
    out = _sl.logsumexp(a, b, axes, keepdims)
    if type(b) is float and not return_sign:
        return out
    sgn = _lse_sign(a, b, axes, keepdims, out)
    if return_sign:
        return out, sgn
    return where(sgn < 0, np.nan, out)


def _lse_sign(a, b, axes, keepdims, out):
    """The sign of sum(b exp(a)) (0 where the sum is 0); not differentiable."""
    a, out = stop_gradient(a), stop_gradient(out)
    b = b if type(b) is float else stop_gradient(b)
    kd = _shape.reshape(out, tuple(1 if i in axes else n for i, n in enumerate(a.shape)))
    finite = where(kd == -np.inf, 0.0, kd)  # shift so that exp does not overflow
    s = _red.sum(b * exp(a - finite), axis=axes, keepdims=True)
    s = _shape.reshape(sign(s), out.shape)
    return where(out == -np.inf, 0.0, s)


def softmax(x, axis=None):
    """scipy.special.softmax: exp(x - logsumexp(x, axis, keepdims=True))."""
    x, _, axes = _lse_args(x, axis, None)
    return exp(x - _sl.logsumexp(x, 1.0, axes, True))


def log_softmax(x, axis=None):
    """scipy.special.log_softmax: x - logsumexp(x, axis, keepdims=True), computed stably."""
    x, _, axes = _lse_args(x, axis, None)
    return x - _sl.logsumexp(x, 1.0, axes, True)
