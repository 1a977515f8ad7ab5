"""Reductions: sum, mean (more in later families)."""

from __future__ import annotations

import numpy as np

from ..primitives import reduce as _rp
from ..primitives.reduce import reduce_sum
from ._elementwise import astype, divide, maximum, minimum
from ._util import as_array, no_out, normalize_axis, normalize_axes

__all__ = ["sum", "mean", "max", "min", "amax", "amin", "argmax", "argmin"]

_NO_VALUE = object()


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None):
    """numpy.sum; gradient broadcasts the cotangent back over the summed axes."""
    no_out(out, "sum")
    a = as_array(a)
    if where is not None:
        from ._elementwise import where as _where  # noqa: PLC0415

        a = _where(where, a, 0)
    if dtype is not None:
        a = astype(a, dtype)
    axes = normalize_axes(axis, a.ndim)
    res = reduce_sum(a, axes, keepdims) if axes or keepdims else a
    if initial is not None:
        res = res + initial
    return res


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    """numpy.mean (integer input gives float64, as numpy)."""
    no_out(out, "mean")
    a = as_array(a)
    if dtype is None and np.dtype(a.dtype).kind in "iub":
        dtype = np.float64
    axes = normalize_axes(axis, a.ndim)
    if where is not None:
        from ._elementwise import where as _where  # noqa: PLC0415

        from ._shape import broadcast_to  # noqa: PLC0415

        count = sum(broadcast_to(_where(where, 1.0, 0.0), a.shape), axis=axis, keepdims=keepdims)
        return divide(sum(a, axis=axis, dtype=dtype, keepdims=keepdims, where=where), count)
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    return divide(sum(a, axis=axis, dtype=dtype, keepdims=keepdims), n)


def _extremum(name, prim_fn, combine, a, axis, out, keepdims, initial, where):
    no_out(out, name)
    a = as_array(a)
    axes = normalize_axes(axis, a.ndim)
    if where is not _NO_VALUE and where is not None:
        if initial is _NO_VALUE:
            raise ValueError(
                f"reduction operation '{name}' does not have an identity, so to use a where mask "
                "one has to specify 'initial'"
            )
        from ._elementwise import where as _where  # noqa: PLC0415

        a = _where(where, a, initial)
    if initial is not _NO_VALUE and any(a.shape[ax] == 0 for ax in axes):
        from ._creation import full  # noqa: PLC0415
        return full(_rp.reduced_shape(a.shape, axes, keepdims), initial, dtype=a.dtype)
    if any(a.shape[ax] == 0 for ax in axes):
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
    res = prim_fn(a, axes, keepdims) if axes or keepdims else a
    if initial is not _NO_VALUE:
        res = combine(res, initial)
    return res


def max(a, axis=None, out=None, keepdims=False, initial=_NO_VALUE, where=_NO_VALUE):
    """numpy.max; the gradient is split evenly among tied maxima."""
    return _extremum("maximum", _rp.reduce_max, maximum, a, axis, out, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=_NO_VALUE, where=_NO_VALUE):
    """numpy.min; the gradient is split evenly among tied minima."""
    return _extremum("minimum", _rp.reduce_min, minimum, a, axis, out, keepdims, initial, where)


amax, amin = max, min


def _arg(name, prim_fn, a, axis, out, keepdims):
    no_out(out, name)
    a = as_array(a)
    if axis is not None:
        axis = normalize_axis(axis, a.ndim)
    if a.size == 0 and (axis is None or a.shape[axis] == 0):
        raise ValueError(f"attempt to get {name} of an empty sequence")
    return prim_fn(a, axis, keepdims)


def argmax(a, axis=None, out=None, *, keepdims=False):
    return _arg("argmax", _rp.argmax, a, axis, out, keepdims)


def argmin(a, axis=None, out=None, *, keepdims=False):
    return _arg("argmin", _rp.argmin, a, axis, out, keepdims)
