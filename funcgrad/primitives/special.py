"""Special functions: the backend dispatch they share, and the error-function family.

scipy is not a runtime dependency.  A special-function primitive computes with
the *special namespace* of its inputs' backend:

- numpy: ``scipy.special``, imported on first use;
- cupy: ``cupyx.scipy.special``;
- the stand-in: ``scipy.special`` seen through the stand-in's strict wrapper
  (it plays the part of ``cupyx.scipy.special``: stand-in arrays in and out).

Where that namespace is missing (no scipy installed) or lacks the function,
a primitive with a *fallback* written with the array namespace's own ops uses
it (``erf`` and ``erfc`` have accurate ones, so ``funcgrad.nn``'s exact GELU
needs no scipy); the others raise an error naming the function, the device
and the fix (``pip install scipy``).

Dtype rule (funcgrad's float policy): float32 arrays give float32, any other
real input (float64, integers, bool, float16) float64; Python scalars are weak
(they do not raise float32 to float64).  scipy's ufuncs mostly agree; where
they would widen (a float32 array with a Python float, for some of them), the
result is cast back.

Derivative rules are written with funcgrad operations, so any order works.
"""

from __future__ import annotations

import math

import numpy as np

from ..backend import standin as _standin, standin_cupy as _standin_cupy
from ..backend import ML_FLOATS, NoDeviceImplementationError, namespace_of
from ..core import Primitive, ShapedArray
from ._batching import elementwise_rule
from .elementwise import defderiv, exp

__all__ = [
    "scipy_namespace", "special_namespace", "missing_error", "special_primitive", "special_dtype", "erf", "erfc", "erfinv",
    "erfcinv", "erf_fallback", "erfc_fallback", "ndtr", "log_ndtr", "log_ndtr_fallback",
]

# (xp, "special" | "linalg") -> that scipy-like namespace for arrays of xp, or None if the
# backend has none (filled lazily; tests replace entries with None to run without scipy)
_SPECIAL: dict = {}
_NAMESPACES: dict = {"special": _SPECIAL}


def scipy_namespace(xp, sub):
    """``scipy.<sub>`` for array namespace ``xp``: scipy's on numpy, ``cupyx.scipy.<sub>``
    on cupy, scipy's through the stand-in's strict wrapper on the stand-in; None if missing."""
    cache = _NAMESPACES.setdefault(sub, {})
    try:
        return cache[xp]
    except KeyError:
        pass
    import importlib  # noqa: PLC0415

    ns = None
    try:
        if xp is np:
            ns = importlib.import_module(f"scipy.{sub}")
        elif xp is _standin.namespace:
            ns = _standin_cupy.scipy_namespace(sub, importlib.import_module(f"scipy.{sub}"))
        else:  # cupy
            ns = importlib.import_module(f"cupyx.scipy.{sub}")
    except ImportError:
        ns = None
    cache[xp] = ns
    return ns


def special_namespace(xp):
    """The scipy.special-like namespace of array namespace ``xp``, or None."""
    return scipy_namespace(xp, "special")


def _device_name(xp):
    if xp is np:
        return "cpu"
    return "standin" if xp is _standin.namespace else "cuda"


def missing_error(name, xp, sub="special"):
    """The error for a scipy function with no implementation on ``xp``'s device."""
    if xp is np:
        return ImportError(
            f"funcgrad.scipy.{sub}.{name} on the cpu computes with scipy, which is not "
            "installed: pip install scipy"
        )
    if _device_name(xp) == "cuda":
        lib = f"cupyx.scipy.{sub} (part of cupy)"
    elif name in _standin_cupy.CUPYX_LACKS.get(sub, ()):
        lib = f"cupyx.scipy.{sub} (mirrored by the stand-in)"
    else:
        lib = f"scipy.{sub} (pip install scipy)"
    return NoDeviceImplementationError(
        f"funcgrad.scipy.{sub}.{name} has no implementation on device "
        f"'{_device_name(xp)}': it needs {lib} to provide {name}; move the data to the cpu "
        "(funcgrad.device_put(x, 'cpu')) to compute it there"
    )


_WEAK = (bool, int, float)


def special_dtype(*avals):
    """float32 if every array input is float32, bfloat16 if every one is bfloat16 (computed in float64 and
    rounded), else float64 (Python scalars are weak)."""
    dts = []
    for a in avals:
        if isinstance(a, ShapedArray) or hasattr(a, "dtype"):
            dt = np.dtype(a.dtype)
            if dt.kind == "c":
                raise TypeError(f"complex input ({dt}) is not supported: only real arguments")
            dts.append(dt)
        elif not isinstance(a, _WEAK):
            raise TypeError(f"expected an array or a real number, got {type(a).__name__}")
    if dts and all(d == np.float32 for d in dts):
        return np.dtype(np.float32)
    if dts and all(d == np.float32 or d in ML_FLOATS for d in dts):  # bfloat16 stays bfloat16 (JAX's rule)
        return np.dtype(np.float32) if any(d == np.float32 for d in dts) else np.result_type(*dts)
    return np.dtype(np.float64)


def as_float(xp, x, dtype):
    """x as an array of ``dtype`` in namespace ``xp`` (for fallbacks)."""
    if type(x) in _WEAK:
        return xp.asarray(x, dtype=dtype)
    return x if x.dtype == dtype else x.astype(dtype)


def special_primitive(name, sp_name=None, *, fallback=None, orders=(), abstract=None,
                      **kwargs) -> Primitive:
    """A primitive computing ``<special namespace>.<sp_name>`` of its inputs' backend.

    ``orders``: positions of order arguments (``n`` of ``polygamma``, ``v`` of
    ``iv``), which do not take part in the dtype rule.  ``fallback(xp, *args,
    **params)`` (written with array-namespace ops, given the other inputs cast
    to the result dtype) is used where the namespace is missing or lacks the
    function; without one, such a call raises :func:`missing_error`.
    """
    sp_name = sp_name or name

    def dtype_of(args):
        return special_dtype(*(a for i, a in enumerate(args) if i not in orders))

    def impl(*args, **params):
        xp = namespace_of(*args)
        ns = _SPECIAL[xp] if xp in _SPECIAL else special_namespace(xp)
        fn = getattr(ns, sp_name, None) if ns is not None else None
        dt = dtype_of(args)
        if fn is not None:
            if xp is not np:  # cupyx's functions are not all ufuncs: some need arrays (polygamma's n)
                args = tuple((xp.asarray(a) if i in orders else as_float(xp, a, dt)) if type(a) in _WEAK else a
                             for i, a in enumerate(args))
            out = fn(*args, **params)
            return out if out.dtype == dt else out.astype(dt)
        if fallback is None:
            raise missing_error(sp_name, xp)
        return fallback(xp, *(a if i in orders else as_float(xp, a, dt) for i, a in enumerate(args)),
                        **params)

    def ufunc_abstract(*avals, **params):
        shapes = [a.shape for a in avals if isinstance(a, ShapedArray)]
        return ShapedArray(np.broadcast_shapes(*shapes), dtype_of(avals))

    impl.__name__ = f"{name}_impl"
    prim = Primitive(name, impl, abstract or ufunc_abstract, **kwargs)
    prim.batch = elementwise_rule(prim)  # vmap: they broadcast like ufuncs
    return prim


# --- erf / erfc without scipy -----------------------------------------------------------
#
# erf(x) = 2/sqrt(pi) exp(-x^2) sum_k 2^k x^(2k+1) / (1*3*...*(2k+1)) has only positive
# terms (no cancellation); 60 terms give ~1e-15 relative error for |x| <= 2.  For
# larger |x|, erfc(x) = exp(-x^2)/sqrt(pi) * 2x / (2x^2+1 - 1*2/(2x^2+5 - 3*4/(2x^2+9 - ...)))
# (the even part of Laplace's continued fraction), evaluated backwards from a fixed
# depth; 100 levels reach ~1e-15 from x = 1 on.  exp(-x^2) is taken as
# exp(-xh^2) exp(-(x-xh)(x+xh)) with xh = x rounded to 1/16, so that rounding x^2
# does not cost relative accuracy at large x.

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_SQRT_HALF = math.sqrt(0.5)
_LOG2 = math.log(2.0)
_SERIES_TERMS = 60
_CF_DEPTH = 100


def _erf_series(xp, x):
    x2 = x * x
    term = x
    total = x
    for k in range(1, _SERIES_TERMS):
        term = term * (x2 * (2.0 / (2 * k + 1)))
        total = total + term
    return _TWO_OVER_SQRT_PI * xp.exp(-x2) * total


def _exp_neg_square(xp, x):
    xh = xp.round(x * 16.0) / 16.0
    return xp.exp(-(xh * xh)) * xp.exp(-((x - xh) * (x + xh)))


def _cont_frac(x):
    """The continued fraction f(x): erfc(x) = exp(-x^2) 2x / (sqrt(pi) f(x)), x >= 1."""
    t = 2.0 * x * x
    f = t + (4 * _CF_DEPTH + 1)
    for k in range(_CF_DEPTH - 1, -1, -1):
        f = t + (4 * k + 1) - ((2 * k + 1) * (2 * k + 2)) / f
    return f


def _erfc_cont_frac(xp, x):
    return _exp_neg_square(xp, x) * (_TWO_OVER_SQRT_PI * x / _cont_frac(x))


def erf_fallback(xp, x):
    """erf with array-namespace ops only (float32/float64 ``x``)."""
    a = xp.abs(x)
    small = _erf_series(xp, xp.minimum(a, 2.0))
    large = 1.0 - _erfc_cont_frac(xp, xp.clip(a, 2.0, 30.0))
    return xp.copysign(xp.where(a < 2.0, small, large), x)


def erfc_fallback(xp, x):
    """erfc with array-namespace ops only (float32/float64 ``x``)."""
    a = xp.abs(x)
    small = 1.0 - _erf_series(xp, xp.minimum(a, 1.0))
    large = _erfc_cont_frac(xp, xp.clip(a, 1.0, 30.0))
    pos = xp.where(a < 1.0, small, large)  # erfc(|x|)
    return xp.where(x < 0, 2.0 - pos, pos)


def log_ndtr_fallback(xp, x):
    """log of the standard normal cdf, accurate far into both tails (array-namespace ops)."""
    with np.errstate(all="ignore"):  # inf - inf in branches that where() discards
        return _log_ndtr(xp, x)


def _log_ndtr(xp, x):
    z = -x * _SQRT_HALF  # ndtr(x) = erfc(z) / 2
    a = xp.maximum(z, 1.0)  # the left tail (z >= 1): log erfc in log space
    xh = xp.round(a * 16.0) / 16.0
    log_tail = -(xh * xh) - (a - xh) * (a + xh) + xp.log(_TWO_OVER_SQRT_PI * a / _cont_frac(a))
    mid = xp.log(erfc_fallback(xp, xp.clip(z, -1.0, 1.0)))  # |z| < 1
    right = xp.log1p(-0.5 * erfc_fallback(xp, xp.maximum(-z, 1.0)))  # z <= -1: ndtr near 1
    out = xp.where(z >= 1.0, log_tail - _LOG2, xp.where(z > -1.0, mid - _LOG2, right))
    return xp.where(xp.isnan(x), x, xp.where(x == -np.inf, -np.inf, out))


# --- the error-function family ------------------------------------------------------------

def _gauss(x):
    """2/sqrt(pi) exp(-x^2): the derivative of erf."""
    return _TWO_OVER_SQRT_PI * exp(-(x * x))


erf_p = special_primitive("erf", fallback=erf_fallback)
defderiv(erf_p, lambda ans, x: _gauss(x), saves_out=False)
erf = erf_p.bind

erfc_p = special_primitive("erfc", fallback=erfc_fallback)
defderiv(erfc_p, lambda ans, x: -_gauss(x), saves_out=False)
erfc = erfc_p.bind

_HALF_SQRT_PI = math.sqrt(math.pi) / 2.0

# erfinv' = sqrt(pi)/2 exp(erfinv(x)^2): infinite at +-1, hence safe
erfinv_p = special_primitive("erfinv")
defderiv(erfinv_p, lambda ans, x: _HALF_SQRT_PI * exp(ans * ans), safe=True, unsaved_args=(0,))
erfinv = erfinv_p.bind

erfcinv_p = special_primitive("erfcinv")
defderiv(erfcinv_p, lambda ans, x: -_HALF_SQRT_PI * exp(ans * ans), safe=True, unsaved_args=(0,))
erfcinv = erfcinv_p.bind

_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


def ndtr(x):
    """The standard normal cdf, erfc(-x / sqrt(2)) / 2 (exact composition, no new rule)."""
    return 0.5 * erfc(-x * _SQRT_HALF)


# log_ndtr' = pdf / cdf = exp(-x^2/2 - log_ndtr(x)) / sqrt(2 pi): finite in both tails
log_ndtr_p = special_primitive("log_ndtr", fallback=log_ndtr_fallback)
defderiv(log_ndtr_p, lambda ans, x: _INV_SQRT_2PI * exp(-0.5 * (x * x) - ans))
log_ndtr = log_ndtr_p.bind
