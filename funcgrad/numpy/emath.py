"""funcgrad.numpy.emath (numpy.emath, numpy.lib.scimath): sqrt, log, log2, log10, logn,
power, arccos, arcsin, arctanh with complex results where the real input is outside the
real domain (x < 0 for sqrt/log/power, |x| > 1 for arccos/arcsin/arctanh).

As in numpy, whether the result is complex depends on the values: the check reads the
concrete input (under ``grad``/``jvp`` the tracers carry values; under ``vmap`` a
``TypeError`` says the values are needed), then the ordinary funcgrad function runs on
the real or complex input, so the result is differentiable (complex intermediates follow
the convention in docs/linalg-fft.md).
"""

from __future__ import annotations

import numpy as np

from ._elementwise import astype, log as _log, power as _power, sqrt as _sqrt
from ._indexing import host_values
from ._math import arccos as _arccos, arcsin as _arcsin, arctanh as _arctanh, log2 as _log2, log10 as _log10
from ._util import as_array

__all__ = ["sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin", "arctanh"]

_SINGLE = (np.float16, np.float32, np.int8, np.int16, np.uint8, np.uint16, np.complex64)


def _tocomplex(x):
    return astype(x, np.complex64 if np.dtype(x.dtype).type in _SINGLE else np.complex128)


def _fix(x, outside, fname):
    """x as complex where a real input has an element ``outside`` the real domain."""
    x = as_array(x)
    if np.dtype(x.dtype).kind == "c":
        return x
    h = host_values(x, f"emath.{fname}")
    return _tocomplex(x) if bool(np.any(outside(h))) else x


def _neg(h):
    return h < 0


def _abs_gt_1(h):
    return np.abs(h) > 1


def sqrt(x):
    return _sqrt(_fix(x, _neg, "sqrt"))


def log(x):
    return _log(_fix(x, _neg, "log"))


def log10(x):
    return _log10(_fix(x, _neg, "log10"))


def log2(x):
    return _log2(_fix(x, _neg, "log2"))


def logn(n, x):
    """Logarithm of x to base n: log(x) / log(n)."""
    return _log(_fix(x, _neg, "logn")) / _log(_fix(n, _neg, "logn"))


def power(x, p):
    """x ** p; negative real x give complex results, negative integer p a float power."""
    x = _fix(x, _neg, "power")
    p = as_array(p)
    if np.dtype(p.dtype).kind in "iu" and bool(np.any(host_values(p, "emath.power") < 0)):
        p = p * 1.0
    return _power(x, p)


def arccos(x):
    return _arccos(_fix(x, _abs_gt_1, "arccos"))


def arcsin(x):
    return _arcsin(_fix(x, _abs_gt_1, "arcsin"))


def arctanh(x):
    return _arctanh(_fix(x, _abs_gt_1, "arctanh"))

