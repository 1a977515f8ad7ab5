"""scipy.special functions composed from funcgrad operations (no primitive of their own):
the exp/log helpers (kl_div, exprel, softplus, boxcox family, powm1, huber losses), the
degree-argument trigonometric functions, and the gamma-function relatives (rgamma,
loggamma, factorial, comb, perm).  Being compositions, they are differentiable to every
order wherever their pieces are; branches are selected with the double-where pattern so
that an unused branch cannot put NaN into a gradient.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from .. import numpy as fnp
from ..primitives import special_gamma as _sg
from ..primitives import special_log as _sl
from ..primitives.special import special_dtype as _special_dtype
from ..primitives.stop_gradient import stop_gradient
from . import _special_prims as _sp

__all__ = [
    "kl_div", "exprel", "softplus", "boxcox", "boxcox1p", "inv_boxcox", "inv_boxcox1p", "powm1",
    "huber", "pseudo_huber", "cosm1", "cosdg", "sindg", "tandg", "cotdg", "radian", "round",
    "exp2", "exp10", "cbrt", "log1p", "expm1", "sinc", "rgamma", "loggamma", "factorial", "comb", "perm",
]

_where = fnp.where


def _arr(*xs):
    return tuple(x if isinstance(x, fnp.ndarray) else fnp.asarray(x) for x in xs)


def _finite_or(direct, smooth, *xs):
    """``smooth`` where every input is finite; elsewhere scipy's literal formula ``direct``
    on the stopped inputs (its infinities and NaNs are scipy's; no derivative there)."""
    bad = fnp.logical_not(fnp.isfinite(xs[0]))
    for x in xs[1:]:
        bad = fnp.logical_or(bad, fnp.logical_not(fnp.isfinite(x)))
    with np.errstate(all="ignore"):
        edge = direct(*(stop_gradient(x) for x in xs))
    return _where(bad, edge, smooth)


def kl_div(x, y, out=None):
    """scipy.special.kl_div: x log(x / y) - x + y for x, y > 0; y at x == 0 (y >= 0); inf
    elsewhere.  Differentiable in x and y."""
    _no_out(out, "kl_div")
    x, y = _arr(x, y)
    ok = fnp.logical_and(x > 0, y > 0)
    xs, ys = _where(ok, x, 1.0), _where(ok, y, 1.0)
    val = _sl.rel_entr(xs, ys) - xs + ys
    edge = _where(fnp.logical_and(x == 0, y >= 0), y, np.inf)
    return _finite_or(_kl_div_direct, _where(ok, val, edge), x, y)


def _kl_div_direct(x, y):
    val = _where(fnp.logical_and(x > 0, y > 0), x * fnp.log(x / y) - x + y,
                 _where(fnp.logical_and(x == 0, y >= 0), y, np.inf))
    return _where(fnp.logical_or(fnp.isnan(x), fnp.isnan(y)), np.nan, val)


_EXPREL_TAYLOR = [1.0 / math.factorial(k + 1) for k in range(10)]


def exprel(x, out=None):
    """scipy.special.exprel: (exp(x) - 1) / x, 1 at 0 (a Taylor polynomial near 0, so every
    derivative is finite there)."""
    _no_out(out, "exprel")
    (x,) = _arr(x)
    small = fnp.abs(x) < 1e-2
    xs = _where(small, x, 0.0)
    poly = 0.0 * xs + _EXPREL_TAYLOR[-1]
    for c in _EXPREL_TAYLOR[-2::-1]:
        poly = poly * xs + c
    xl = _where(small, 1.0, x)
    big = fnp.expm1(fnp.minimum(xl, 710.0)) / xl
    return _where(small, poly, _where(x == np.inf, np.inf, big))


def softplus(x, **kwargs):
    """scipy.special.softplus: log(1 + exp(x)), computed as -log_expit(-x) (stable for large |x|)."""
    _no_out(kwargs.pop("out", None), "softplus")
    if kwargs:
        raise TypeError(f"softplus: unsupported keyword arguments {sorted(kwargs)}")
    (x,) = _arr(x)
    return -_sl.log_expit(-x)


def _log1p_rel(u):
    """log1p(u) / u, 1 at u == 0 (Taylor polynomial near 0)."""
    small = fnp.abs(u) < 1e-2
    us = _where(small, u, 0.0)
    poly = 0.0 * us + 1.0 / 10.0
    for k in range(9, 0, -1):
        poly = poly * (-us) + 1.0 / k
    ul = _where(small, 1.0, u)
    return _where(small, poly, fnp.log1p(ul) / ul)


def _boxcox_of_log(logx, x, lmbda):
    """(x^l - 1) / l = log(x) exprel(l log(x)), with scipy's values at x == 0."""
    zero = x == 0
    lx = _where(zero, 0.0, logx)
    val = lx * exprel(lmbda * lx)
    pos = lmbda >= 1e-19  # scipy: log(x) for |lmbda| < 1e-19
    at0 = _where(pos, -1.0 / _where(pos, lmbda, 1.0), -np.inf)
    return _where(zero, at0, val)


def boxcox(x, lmbda, out=None):
    """scipy.special.boxcox: (x^lmbda - 1) / lmbda, log(x) at lmbda == 0; differentiable in
    x and lmbda (smooth through lmbda == 0)."""
    _no_out(out, "boxcox")
    x, lmbda = _arr(x, lmbda)
    pos = x > 0
    val = _boxcox_of_log(fnp.log(_where(pos, x, 1.0)), _where(x == 0, 0.0, x), lmbda)
    return _finite_or(lambda x, l: _boxcox_direct(fnp.log(x), l), _where(fnp.logical_or(pos, x == 0), val, np.nan),
                      x, lmbda)


def _boxcox_direct(logx, lmbda):
    return _where(fnp.abs(lmbda) < 1e-19, logx, fnp.expm1(lmbda * logx) / lmbda)


def boxcox1p(x, lmbda, out=None):
    """scipy.special.boxcox1p: ((1 + x)^lmbda - 1) / lmbda, log1p(x) at lmbda == 0."""
    _no_out(out, "boxcox1p")
    x, lmbda = _arr(x, lmbda)
    pos = x > -1
    val = _boxcox_of_log(fnp.log1p(_where(pos, x, 0.0)), _where(x == -1, 0.0, 1.0 + 0.0 * x), lmbda)
    return _finite_or(lambda x, l: _boxcox_direct(fnp.log1p(x), l),
                      _where(fnp.logical_or(pos, x == -1), val, np.nan), x, lmbda)


def inv_boxcox(y, lmbda, out=None):
    """scipy.special.inv_boxcox: (1 + lmbda y)^(1 / lmbda), exp(y) at lmbda == 0."""
    _no_out(out, "inv_boxcox")
    y, lmbda = _arr(y, lmbda)
    return _finite_or(lambda y, l: _where(l == 0, fnp.exp(y), fnp.exp(fnp.log1p(l * y) / l)),
                      fnp.exp(y * _log1p_rel(lmbda * y)), y, lmbda)


def inv_boxcox1p(y, lmbda, out=None):
    """scipy.special.inv_boxcox1p: (1 + lmbda y)^(1 / lmbda) - 1, expm1(y) at lmbda == 0."""
    _no_out(out, "inv_boxcox1p")
    y, lmbda = _arr(y, lmbda)
    return _finite_or(lambda y, l: _where(l == 0, fnp.expm1(y), fnp.expm1(fnp.log1p(l * y) / l)),
                      fnp.expm1(y * _log1p_rel(lmbda * y)), y, lmbda)


def powm1(x, y, out=None):
    """scipy.special.powm1: x**y - 1, accurate for y near 0 or x near 1 (expm1(y log x));
    differentiable in x and y for x > 0."""
    _no_out(out, "powm1")
    x, y = _arr(x, y)
    pos = x > 0
    val = fnp.expm1(y * fnp.log(_where(pos, x, 1.0)))
    integer = stop_gradient(fnp.floor(y)) == y
    neg = fnp.power(_where(pos, -1.0, x), _where(integer, y, 1.0)) - 1.0
    at0 = _where(y > 0, -1.0, _where(y < 0, np.inf, 0.0))
    other = _where(x == 0, at0, _where(integer, neg, np.nan))
    smooth = _where(y == 0, 0.0 * x * y, _where(pos, val, other))
    return _finite_or(lambda x, y: _where(y == 0, 0.0, _where(x == 1, 0.0, _where(
        fnp.logical_and(x < 0, fnp.logical_or(fnp.isinf(y), fnp.floor(y) != y)), np.nan, fnp.power(x, y) - 1.0))), smooth, x, y)


def huber(delta, r, out=None):
    """scipy.special.huber: r^2 / 2 where |r| <= delta, delta (|r| - delta / 2) elsewhere, inf
    for delta < 0.  Differentiable in delta and r."""
    _no_out(out, "huber")
    delta, r = _arr(delta, r)
    a = fnp.abs(r)
    val = _where(a <= delta, 0.5 * (r * r), delta * (a - 0.5 * delta))
    return _where(delta < 0, np.inf, val)


def pseudo_huber(delta, r, out=None):
    """scipy.special.pseudo_huber: delta^2 (sqrt(1 + (r / delta)^2) - 1); 0 at delta == 0, inf for
    delta < 0.  Computed as r^2 / (sqrt(1 + (r/delta)^2) + 1), which has no cancellation."""
    _no_out(out, "pseudo_huber")
    delta, r = _arr(delta, r)
    pos = delta > 0
    d = _where(pos, delta, 1.0)
    q = r / d
    val = (r * r) / (fnp.hypot(1.0, q) + 1.0)
    smooth = _where(pos, val, _where(delta == 0, 0.0, np.inf))
    return _finite_or(lambda d, r: _where(d < 0, np.inf, _where(r == 0, 0.0, _where(d == 0, 0.0, d * d * (fnp.sqrt(1.0 + (r / d) ** 2) - 1.0)))),
                      smooth, delta, r)


def cosm1(x, out=None):
    """scipy.special.cosm1: cos(x) - 1, accurate near 0 (-2 sin(x / 2)^2)."""
    _no_out(out, "cosm1")
    (x,) = _arr(x)
    s = fnp.sin(0.5 * x)
    return -2.0 * (s * s)


def _degrees(x, period):
    """x reduced modulo ``period`` degrees (derivative 1), in radians."""
    (x,) = _arr(x)
    r = x - period * stop_gradient(fnp.round(x / period))
    return r * (math.pi / 180.0)


def _exact_trig(x, value, zero_at, one_at=None):
    """Exact 0 (and +-1) at multiples of 90 degrees as scipy gives them; the derivative is
    kept (value - stop_gradient(value) + exact)."""
    (x,) = _arr(x)
    exact = _where(zero_at, 0.0, value)
    if one_at is not None:
        exact = _where(one_at, fnp.sign(stop_gradient(value)), exact)
    return _where(fnp.isinf(x), 0.0, value - stop_gradient(value) + stop_gradient(exact))  # scipy: 0 at +-inf


def _quarter(x):
    """x / 90 if x is a multiple of 90 degrees (else a non-integer), modulo 4."""
    q = stop_gradient(x) / 90.0
    return _where(fnp.floor(q) == q, q - 4.0 * fnp.floor(q / 4.0), 0.5)


def cosdg(x, out=None):
    """scipy.special.cosdg: the cosine of x degrees (exact at multiples of 90)."""
    _no_out(out, "cosdg")
    (x,) = _arr(x)
    q = _quarter(x)
    v = fnp.cos(_degrees(x, 360.0))
    return _exact_trig(x, v, fnp.logical_or(q == 1, q == 3), fnp.logical_or(q == 0, q == 2))


def sindg(x, out=None):
    """scipy.special.sindg: the sine of x degrees (exact at multiples of 90)."""
    _no_out(out, "sindg")
    (x,) = _arr(x)
    q = _quarter(x)
    v = fnp.sin(_degrees(x, 360.0))
    return _exact_trig(x, v, fnp.logical_or(q == 0, q == 2), fnp.logical_or(q == 1, q == 3))


def tandg(x, out=None):
    """scipy.special.tandg: the tangent of x degrees (0 at multiples of 180, +-inf at odd
    multiples of 90, +-1 at odd multiples of 45, as scipy)."""
    _no_out(out, "tandg")
    (x,) = _arr(x)
    v = fnp.tan(_degrees(x, 180.0))
    return _tan_exact(x, v, 1.0)


def cotdg(x, out=None):
    """scipy.special.cotdg: the cotangent of x degrees (exact at multiples of 45)."""
    _no_out(out, "cotdg")
    (x,) = _arr(x)
    r = _degrees(x, 180.0)
    v = fnp.cos(r) / fnp.sin(_where(r == 0, 1.0, r))
    return _tan_exact(90.0 - x, v, 1.0, r == 0)  # cot(x) = tan(90 - x)


def _tan_exact(x, v, sgn, pole=None):
    """tan-like v with scipy's exact values at multiples of 45 degrees of ``x`` (tandg's
    argument); ``pole`` marks where v's own formula is undefined (cotdg at 0)."""
    q = stop_gradient(x) / 45.0
    m = _where(fnp.floor(q) == q, q - 8.0 * fnp.floor(q / 8.0), 0.5)
    exact = _where(fnp.logical_or(m == 0, m == 4), 0.0, v)
    exact = _where(fnp.logical_or(m == 1, m == 5), sgn, exact)
    exact = _where(fnp.logical_or(m == 3, m == 7), -sgn, exact)
    exact = _where(fnp.logical_or(m == 2, m == 6), np.inf, exact)  # scipy: +inf at both signs
    out = v - stop_gradient(v) + stop_gradient(exact)
    if pole is not None:
        out = _where(pole, stop_gradient(exact), out)
    return _where(fnp.isinf(stop_gradient(x)), 0.0, out)  # scipy: 0 at +-inf


def radian(d, m, s, out=None):
    """scipy.special.radian: degrees, arcminutes and arcseconds to radians."""
    _no_out(out, "radian")
    d, m, s = _arr(d, m, s)
    return (d + m / 60.0 + s / 3600.0) * (math.pi / 180.0)


def round(x, out=None):  # noqa: A001
    """scipy.special.round: the nearest integer, halves to even (derivative 0)."""
    _no_out(out, "round")
    (x,) = _arr(x)
    return fnp.rint(fnp.astype(x, np.float64) if x.dtype.kind in "biu" else x)


def _float(x):
    (x,) = _arr(x)
    return fnp.astype(x, np.float64) if x.dtype.kind in "biu" else x


def exp2(x, out=None):
    """scipy.special.exp2: 2**x."""
    _no_out(out, "exp2")
    return fnp.exp2(_float(x))


def exp10(x, out=None):
    """scipy.special.exp10: 10**x."""
    _no_out(out, "exp10")
    return fnp.power(10.0, _float(x))


def cbrt(x, out=None):
    """scipy.special.cbrt: the real cube root."""
    _no_out(out, "cbrt")
    return fnp.cbrt(_float(x))


def log1p(x, out=None):
    """scipy.special.log1p: log(1 + x), accurate near 0."""
    _no_out(out, "log1p")
    return fnp.log1p(_float(x))


def expm1(x, out=None):
    """scipy.special.expm1: exp(x) - 1, accurate near 0."""
    _no_out(out, "expm1")
    return fnp.expm1(_float(x))


def sinc(x):
    """scipy.special.sinc (numpy's): sin(pi x) / (pi x), 1 at 0."""
    return fnp.sinc(x)


# --- gamma-function relatives --------------------------------------------------------------

_PI = math.pi


def rgamma(x, out=None):
    """scipy.special.rgamma: 1 / gamma(x), an entire function: 0 at the poles of gamma, with
    the right derivatives there (through the reflection formula
    1/gamma(x) = gamma(1 - x) sin(pi x) / pi for x < 0.5)."""
    _no_out(out, "rgamma")
    x = _float(x)
    refl = x < 0.5
    direct = fnp.exp(-_sg.gammaln(_where(refl, 1.0, x)))
    xr = _where(refl, x, 0.0)
    r = xr - 2.0 * stop_gradient(fnp.round(0.5 * xr))  # x modulo 2 (derivative 1)
    s = fnp.sin(_PI * r)
    near = xr > -169.0  # gamma(1 - x) is finite
    prod = _sg.gamma(1.0 - _where(near, xr, 0.0)) * s * (1.0 / _PI)
    far = fnp.sign(stop_gradient(s)) * fnp.exp(_sg.gammaln(1.0 - xr) + fnp.log(fnp.abs(_where(s == 0, 1.0, s)))
                                               - math.log(_PI))
    pole = stop_gradient(fnp.floor(xr)) == xr
    prod = _where(pole, prod - stop_gradient(prod), prod)  # exactly 0 there, derivatives kept
    refl_val = _where(near, prod, _where(pole, 0.0, far))
    return _where(refl, _where(fnp.isinf(x), 0.0, refl_val), direct)


def loggamma(x, out=None):
    """scipy.special.loggamma for real x: log(gamma(x)) for x >= 0 (NaN below: the principal
    branch of the complex log-gamma is complex there; funcgrad takes real arguments)."""
    _no_out(out, "loggamma")
    x = _float(x)
    ok = x >= 0
    return _where(ok, _sg.gammaln(_where(ok, x, 1.0)), np.nan)


def factorial(n, exact=False):
    """scipy.special.factorial(n, exact=False): gamma(n + 1), 0 for n < 0; differentiable in n.
    exact=True (Python integers) is not differentiable and is not provided: use
    math.factorial or scipy.special.factorial."""
    if exact:
        raise ValueError("funcgrad.scipy.special.factorial: exact=True (integer arithmetic) has no "
                         "derivative; use scipy.special.factorial(n, exact=True) or math.factorial")
    n = _float(n)
    ok = n >= 0
    return _where(ok, _sg.gamma(_where(ok, n, 0.0) + 1.0), _where(fnp.isnan(n), np.nan, 0.0))


def comb(N, k, *, exact=False, repetition=False):
    """scipy.special.comb(N, k, exact=False): binom(N, k) (with repetition: binom(N + k - 1, k)),
    0 where k > N, N < 0 or k < 0; differentiable in N and k."""
    if exact:
        raise ValueError("funcgrad.scipy.special.comb: exact=True (integer arithmetic) has no "
                         "derivative; use scipy.special.comb(N, k, exact=True)")
    N, k = _float(N), _float(k)
    if repetition:  # scipy: binom(N + k - 1, k), and 1 for k == 0 <= N
        return _where(fnp.logical_and(k == 0, N >= 0), 1.0, _sp.binom(N + k - 1.0, k))
    ok = fnp.logical_and(fnp.logical_and(k <= N, N >= 0), k >= 0)
    return _where(ok, _sp.binom(_where(ok, N, 1.0), _where(ok, k, 0.0)), 0.0)


def perm(N, k, exact=False):
    """scipy.special.perm(N, k, exact=False): N! / (N - k)! = poch(N - k + 1, k), 0 where
    k > N, N < 0 or k < 0; differentiable in N and k."""
    if exact:
        raise ValueError("funcgrad.scipy.special.perm: exact=True (integer arithmetic) has no "
                         "derivative; use scipy.special.perm(N, k, exact=True)")
    N, k = _float(N), _float(k)
    ok = fnp.logical_and(fnp.logical_and(k <= N, N >= 0), k >= 0)
    Ns, ks = _where(ok, N, 1.0), _where(ok, k, 0.0)
    return _where(ok, _sp.poch(Ns - ks + 1.0, ks), 0.0)


def _no_out(out, name):
    if out is not None:
        raise TypeError(f"funcgrad.scipy.special.{name}: out= is not supported (arrays are immutable); "
                        "use the returned array")


def _quiet(fn):
    """Evaluate ``fn`` with numpy's floating-point warnings off: like scipy's ufuncs, edge
    values (0, inf, nan) give their IEEE results silently (the unused branches of the
    double-where pattern would otherwise warn); float32 inputs give float32."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with np.errstate(all="ignore"):
            out = fn(*args, **kwargs)
        # funcgrad's float policy (float32 in, float32 out), which scalar edge values inside
        # where() would otherwise widen
        if out.dtype == np.float64 and _special_dtype(*args) == np.float32:
            out = fnp.astype(out, np.float32)
        return out
    return wrapper


for _name in __all__:
    globals()[_name] = _quiet(globals()[_name])
del _name
