"""Reductions: sum, mean (more in later families)."""

from __future__ import annotations

import numpy as np

from ..primitives.reduce import reduce_sum
from ._elementwise import astype, divide
from ._util import as_array, no_out, normalize_axes

__all__ = ["sum", "mean"]


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
