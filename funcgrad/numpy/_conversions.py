"""Conversions and constructors from other objects: asanyarray, ascontiguousarray,
asfortranarray, asarray_chkfinite, require, copy, fromfunction, fromiter, from_dlpack.

funcgrad arrays are immutable values without a memory layout of their own, so the
layout variants return ``asarray``'s result (``ascontiguousarray`` makes 0-d inputs 1-d,
as numpy) and ``copy`` returns an equal array; traced values stay traced.
"""

from __future__ import annotations

import numpy as np

from .. import backend
from ..core import Array, Tracer
from ._creation import array, asarray, indices_grid
from ._elementwise import isfinite
from ._reductions import all as _all

__all__ = ["asanyarray", "ascontiguousarray", "asfortranarray", "asarray_chkfinite", "require", "copy",
           "fromfunction", "fromiter", "from_dlpack"]


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """numpy.asanyarray: funcgrad has no array subclasses, so it is asarray."""
    return asarray(a, dtype, order, device=device, copy=copy)


def ascontiguousarray(a, dtype=None, *, like=None):
    return array(a, dtype=dtype, ndmin=1)


def asfortranarray(a, dtype=None, *, like=None):
    return array(a, dtype=dtype, ndmin=1)


def asarray_chkfinite(a, dtype=None, order=None):
    """numpy.asarray_chkfinite: a ValueError if the (concrete) values hold inf or NaN."""
    out = asarray(a, dtype)
    if np.dtype(out.dtype).kind in "fc":
        try:
            finite = _all(isfinite(out))._concrete()
        except Exception:  # traced without a value (vmap): the check needs values
            raise TypeError("asarray_chkfinite needs concrete values (not available under vmap)") from None
        if not bool(finite):
            raise ValueError("array must not contain infs or NaNs")
    return out


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
                 "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O",
                 "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """numpy.require: an array of ``dtype``; layout requirements are met trivially, 'W'
    (writeable) cannot be: funcgrad arrays are immutable."""
    reqs = [] if requirements is None else list(requirements)  # a string is its letters, as numpy
    flags = set()
    for r in reqs:
        key = str(r).upper()
        if key not in _REQUIREMENTS:
            raise KeyError(r)
        flags.add(_REQUIREMENTS[key])
    if "C" in flags and "F" in flags:
        raise ValueError("Cannot specify both 'C' and 'F' order")
    if "W" in flags:
        raise ValueError("require: funcgrad arrays are immutable, they cannot be WRITEABLE "
                         "(use x.at[idx].set(v) for updates)")
    return asarray(a, dtype)


def copy(a, order="K", subok=False):
    """numpy.copy: an equal array (immutable values need no copy; traced values stay traced)."""
    if isinstance(a, (Array, Tracer)):
        return a
    return Array(np.array(a, copy=True))


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """numpy.fromfunction: ``function(*indices(shape, dtype))``."""
    return function(*indices_grid(shape, dtype), **kwargs)


def fromiter(iter, dtype, count=-1, *, like=None):
    """numpy.fromiter: a 1-d array of the first ``count`` items (traced items are stacked)."""
    if dtype is None:
        raise TypeError("fromiter: a dtype is required")
    items = []
    for i, v in enumerate(iter):
        if count >= 0 and i >= count:
            break
        items.append(v)
    if 0 <= len(items) < count:
        raise ValueError(f"iterator too short: Expected {count} but iterator had only {len(items)} items.")
    if not items:
        return Array(np.zeros(0, dtype=dtype))
    return asarray(items, dtype=dtype)


def from_dlpack(x, /, *, device=None, copy=None):
    """numpy.from_dlpack: an Array of any DLPack producer (numpy, cupy, torch, funcgrad ...)."""
    if isinstance(x, (Array, Tracer)):
        return x if device is None else asarray(x, device=device)
    if hasattr(x, "__dlpack_device__") and int(x.__dlpack_device__()[0]) == 2:  # kDLCUDA
        return Array._from_buffer(backend._cupy().xp.from_dlpack(x))
    return Array(np.from_dlpack(x), device=device)
