"""What the distributions share: standardising with loc/scale, support masks that keep
gradients finite, and the distribution namespace object."""

from __future__ import annotations

import math

import numpy as np

from ...numpy import _elementwise as _ew
from ...numpy._creation import full_like
from ...numpy._util import as_array, operand

LOG_2PI = math.log(2.0 * math.pi)


class Distribution:
    """A namespace of functions of one distribution (``norm.logpdf``, ``norm.cdf``, ...)."""

    def __init__(self, name, doc, **functions):
        self.name = name
        self.__doc__ = doc
        for fname, fn in functions.items():
            fn.__name__ = fname
            fn.__qualname__ = f"{name}.{fname}"
            setattr(self, fname, fn)
        self._functions = tuple(functions)

    def __repr__(self):
        return f"<funcgrad.scipy.stats.{self.name}: {', '.join(self._functions)}>"


def args(*values):
    """Arguments as Arrays; Python numbers become 0-d arrays of the others' float dtype
    and device (so that float32 data with default parameters stays float32)."""
    values = [v if isinstance(v, (int, float)) else operand(v) for v in values]
    arrays = [v for v in values if not isinstance(v, (int, float))]
    if not arrays:
        return tuple(as_array(float(v)) for v in values)
    dt = np.float32 if any(np.dtype(a.dtype) == np.float32 for a in arrays) else np.float64
    return tuple(full_like(arrays[0], float(v), dtype=dt, shape=()) if isinstance(v, (int, float)) else v
                 for v in values)


def standardize(x, loc, scale, *params):
    """(z, scale, *params): z = (x - loc) / scale, everything as Arrays (see args)."""
    x, loc, scale, *params = args(x, loc, scale, *params)
    return ((x - loc) / scale, scale, *params)


def valid_scale(out, scale):
    """NaN where scale <= 0, as scipy."""
    return _ew.where(scale > 0, out, np.nan)


def select(cond, inside, outside_value):
    """``where(cond, inside, value)``."""
    return _ew.where(cond, inside, outside_value)


def safe(cond, z, fill):
    """z where cond, else ``fill``: evaluate a formula only where it is defined, so that
    the discarded branch cannot put NaN into gradients (the double-where pattern)."""
    return _ew.where(cond, z, fill)


def quantile(q, loc, scale, qz, lower, upper, *params, valid=None):
    """loc + scale * qz(q, *params) for q in (0, 1), scipy's support ends ``lower`` /
    ``upper`` (standardised) at q == 0 / 1, NaN for q outside [0, 1], scale <= 0 or where
    ``valid(*params)`` is false.  qz is evaluated only on safe q (0.5 elsewhere)."""
    q, loc, scale, *params = args(q, loc, scale, *params)
    inner = _ew.logical_and(q > 0, q < 1)
    z = qz(safe(inner, q, 0.5), *params)
    ends = _ew.astype(select(q == 0, lower, select(q == 1, upper, np.nan)), z.dtype)  # (a where of scalars is float64)
    z = select(inner, z, ends)
    out = valid_scale(loc + scale * z, scale)
    return out if valid is None else select(valid(*params), out, np.nan)


def entropy_of(h, scale, *params, valid=None):
    """h(*params) + log(scale) (the differential entropy of a location-scale family), NaN for
    scale <= 0 or where ``valid(*params)`` is false."""
    scale, *params = args(scale, *params)
    pos = scale > 0
    ok = None if valid is None else valid(*params)
    if ok is not None:  # h sees valid parameters only (1.0 elsewhere): no NaN in its gradient
        params = [safe(ok, p, 1.0) for p in params]
    out = select(pos, h(*params) + _ew.log(safe(pos, scale, 1.0)), np.nan)
    return out if ok is None else select(ok, out, np.nan)
