"""scipy.special functions with several results (sici, shichi, fresnel, airy, ellipj) or a
derivative flag (spherical_jn/yn/in/kn), and the complete elliptic integrals, as primitives:
one primitive per result, values from scipy.special, rules written with funcgrad operations.

The rules close over the family, so every order works: Ai' = Ai', Ai'' = x Ai; sn' = cn dn,
cn' = -sn dn, dn' = -m sn cn; spherical functions obey
f'' = -2 f' / z -+ (1 - n(n + 1) / z^2) f.  Orders and the parameter m of ellipj are not
differentiable (MissingRuleError); nor is m of ellipkinc/ellipeinc (their phi-derivatives
are 1/Delta and Delta, Delta = sqrt(1 - m sin(phi)^2)).
"""

from __future__ import annotations

import math

from ..primitives.elementwise import cos, safe_mul, sin, sqrt, where
from ..primitives.trig import cosh, sinh
from ..primitives.special import missing_error, special_namespace, special_primitive
from ..primitives.special_gamma import gamma

__all__ = ["sici", "shichi", "fresnel", "airy", "ellipj", "spherical_jn", "spherical_yn", "spherical_in",
           "spherical_kn", "ellipk", "ellipe", "ellipkm1", "ellipkinc", "ellipeinc", "struve", "modstruve"]


def _result_of(name, sp_name, index=None, orders=(), **call_kwargs):
    """A primitive computing ``scipy.special.<sp_name>(*args, **call_kwargs)[index]``.

    special_primitive finds no ``_funcgrad_<name>`` in the special namespace, so it calls this
    "fallback" with the inputs cast to the result dtype; the fallback looks the real function up
    in the same namespace (scipy on the cpu, cupyx on cuda, the stand-in's) and picks one result.
    """
    def call(xp, *args):
        fn = getattr(special_namespace(xp), sp_name, None) if special_namespace(xp) is not None else None
        if fn is None:
            raise missing_error(sp_name, xp)
        out = fn(*args, **call_kwargs)
        out = out if index is None else out[index]
        dt = next(a.dtype for i, a in enumerate(args) if i not in orders)  # cast to it by the caller
        return out if out.dtype == dt else out.astype(dt)  # (scipy's spherical_* compute in float64)

    return special_primitive(name, f"_funcgrad_{name}", fallback=call, orders=orders)


def _unary_rules(p, deriv):
    p.defvjp(lambda g, ans, x: safe_mul(g, deriv(ans, x)))
    p.defjvp(lambda t, ans, x: safe_mul(t, deriv(ans, x)))
    return p.bind


def _last_rules(p, deriv, nargs):
    p.defvjp(*([None] * (nargs - 1)), lambda g, ans, *a: safe_mul(g, deriv(ans, *a)))
    p.defjvp(*([None] * (nargs - 1)), lambda t, ans, *a: safe_mul(t, deriv(ans, *a)))
    return p.bind


def _sinc_like(f, x):
    """f(x) / x with the value f'(0) = 1 at x == 0 (for sin and sinh)."""
    zero = x == 0.0
    xs = where(zero, 1.0, x)
    return where(zero, 1.0, f(xs) / xs)


# --- sine/cosine and hyperbolic integrals, Fresnel integrals ------------------------------

_si = _unary_rules(_result_of("sici_si", "sici", 0), lambda ans, x: _sinc_like(sin, x))
_ci = _unary_rules(_result_of("sici_ci", "sici", 1), lambda ans, x: cos(x) / x)
_shi = _unary_rules(_result_of("shichi_shi", "shichi", 0), lambda ans, x: _sinc_like(sinh, x))
_chi = _unary_rules(_result_of("shichi_chi", "shichi", 1), lambda ans, x: cosh(x) / x)
_HALF_PI = 0.5 * math.pi
_fresnel_s = _unary_rules(_result_of("fresnel_s", "fresnel", 0), lambda ans, x: sin(_HALF_PI * (x * x)))
_fresnel_c = _unary_rules(_result_of("fresnel_c", "fresnel", 1), lambda ans, x: cos(_HALF_PI * (x * x)))


def sici(x):
    """scipy.special.sici: (Si(x), Ci(x)); Si' = sin(x)/x, Ci' = cos(x)/x."""
    return _si(x), _ci(x)


def shichi(x):
    """scipy.special.shichi: (Shi(x), Chi(x)); Shi' = sinh(x)/x, Chi' = cosh(x)/x."""
    return _shi(x), _chi(x)


def fresnel(x):
    """scipy.special.fresnel: (S(x), C(x)); S' = sin(pi x^2 / 2), C' = cos(pi x^2 / 2)."""
    return _fresnel_s(x), _fresnel_c(x)


# --- Airy functions ---------------------------------------------------------------------------

_ai, _aip, _bi, _bip = (_result_of(f"airy_{n}", "airy", i) for i, n in enumerate(("ai", "aip", "bi", "bip")))
_unary_rules(_ai, lambda ans, x: _aip.bind(x))
_unary_rules(_aip, lambda ans, x: x * _ai.bind(x))
_unary_rules(_bi, lambda ans, x: _bip.bind(x))
_unary_rules(_bip, lambda ans, x: x * _bi.bind(x))


def airy(x):
    """scipy.special.airy: (Ai, Ai', Bi, Bi') at real x; differentiable (Ai'' = x Ai)."""
    return _ai.bind(x), _aip.bind(x), _bi.bind(x), _bip.bind(x)


# --- Jacobi elliptic functions: derivatives in u ----------------------------------------------

_sn, _cn, _dn, _ph = (_result_of(f"ellipj_{n}", "ellipj", i) for i, n in enumerate(("sn", "cn", "dn", "ph")))


def _first_rules(p, deriv):
    p.defvjp(lambda g, ans, u, m: safe_mul(g, deriv(ans, u, m)), None)
    p.defjvp(lambda t, ans, u, m: safe_mul(t, deriv(ans, u, m)), None)


for _p, _d in ((_sn, lambda ans, u, m: _cn.bind(u, m) * _dn.bind(u, m)),
               (_cn, lambda ans, u, m: -_sn.bind(u, m) * _dn.bind(u, m)),
               (_dn, lambda ans, u, m: -m * _sn.bind(u, m) * _cn.bind(u, m)),
               (_ph, lambda ans, u, m: _dn.bind(u, m))):
    _first_rules(_p, _d)
del _p, _d


def ellipj(u, m):
    """scipy.special.ellipj: (sn, cn, dn, ph) of u with parameter m; differentiable in u."""
    return _sn.bind(u, m), _cn.bind(u, m), _dn.bind(u, m), _ph.bind(u, m)


# --- spherical Bessel functions ---------------------------------------------------------------

def _spherical(kind, modified):
    """f(n, z, derivative=False) from a value and a derivative primitive; the derivative's own
    derivative from the spherical Bessel equation."""
    sp = f"spherical_{kind}"
    val = _result_of(sp, sp, orders=(0,))
    der = _result_of(f"{sp}_prime", sp, orders=(0,), derivative=True)
    sgn = -1.0 if modified else 1.0

    def second(ans, n, z):
        return -2.0 * der.bind(n, z) / z - sgn * (1.0 - sgn * n * (n + 1.0) / (z * z)) * val.bind(n, z)

    _last_rules(val, lambda ans, n, z: der.bind(n, z), 2)
    _last_rules(der, second, 2)

    def f(n, z, derivative=False):
        return (der if derivative else val).bind(n, z)

    f.__name__ = f.__qualname__ = sp
    f.__doc__ = (f"scipy.special.{sp}(n, z, derivative=False): the spherical Bessel function "
                 f"(or its derivative); differentiable in z to any order.")
    return f


spherical_jn = _spherical("jn", False)
spherical_yn = _spherical("yn", False)
spherical_in = _spherical("in", True)
spherical_kn = _spherical("kn", True)


# --- complete elliptic integrals --------------------------------------------------------------
# K'(m) = (E - (1 - m) K) / (2 m (1 - m)), E'(m) = (E - K) / (2 m): removable at m = 0, where
# the derivatives of the series K = pi/2 sum c_k m^k, E = pi/2 (1 - sum c_k m^k / (2k - 1)),
# c_k = ((2k)! / (4^k k!^2))^2, are used (|m| < 1e-3, 8 terms).

_C = [(math.comb(2 * k, k) / 4 ** k) ** 2 for k in range(10)]


def _series_deriv(m, coef):
    """d/dm of pi/2 sum coef[k] m^k, by Horner."""
    out = 0.0 * m + coef[-1] * (len(coef) - 1)
    for k in range(len(coef) - 2, 0, -1):
        out = out * m + coef[k] * k
    return _HALF_PI * out


def _near0(m):
    return m * m < 1e-6


def _dk(m):
    small = _near0(m)
    ms = where(small, 0.5, m)
    far = (ellipe(ms) - (1.0 - ms) * ellipk(ms)) / (2.0 * ms * (1.0 - ms))
    return where(small, _series_deriv(where(small, m, 0.0), _C), far)


def _de(m):
    small = _near0(m)
    ms = where(small, 0.5, m)
    far = (ellipe(ms) - ellipk(ms)) / (2.0 * ms)
    coef = [1.0] + [-c / (2 * k - 1) for k, c in enumerate(_C) if k > 0]
    return where(small, _series_deriv(where(small, m, 0.0), coef), far)


ellipk = _unary_rules(special_primitive("ellipk"), lambda ans, m: _dk(m))
ellipe = _unary_rules(special_primitive("ellipe"), lambda ans, m: _de(m))
# ellipkm1(p) = K(1 - p)
ellipkm1 = _unary_rules(special_primitive("ellipkm1"), lambda ans, p: -_dk(1.0 - p))




def _first_only(p, deriv):
    """Rules of p(phi, m): differentiable in phi only."""
    p.defvjp(lambda g, ans, phi, m: safe_mul(g, deriv(phi, m)), None, saves_out=False)
    p.defjvp(lambda t, ans, phi, m: safe_mul(t, deriv(phi, m)), None)
    return p.bind


def _delta(phi, m):
    s = sin(phi)
    return sqrt(1.0 - m * (s * s))


# incomplete elliptic integrals F(phi | m), E(phi | m): d/dphi = 1 / Delta, Delta (in phi only)
ellipkinc = _first_only(special_primitive("ellipkinc"), lambda phi, m: 1.0 / _delta(phi, m))
ellipeinc = _first_only(special_primitive("ellipeinc"), _delta)


# --- Struve functions: H_v' = (H_{v-1} - H_{v+1}) / 2 + (x/2)^v / (2 sqrt(pi) gamma(v + 3/2)) -------

_SQRT_PI = math.sqrt(math.pi)


def _struve_extra(v, x):
    return (0.5 * x) ** v / (2.0 * _SQRT_PI * gamma(v + 1.5))


struve = _last_rules(special_primitive("struve", orders=(0,)),
                     lambda ans, v, x: 0.5 * (struve(v - 1.0, x) - struve(v + 1.0, x)) + _struve_extra(v, x), 2)
modstruve = _last_rules(special_primitive("modstruve", orders=(0,)),
                        lambda ans, v, x: 0.5 * (modstruve(v - 1.0, x) + modstruve(v + 1.0, x))
                        + _struve_extra(v, x), 2)
