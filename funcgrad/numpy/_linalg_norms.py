"""Norms of funcgrad.numpy.linalg: norm, vector_norm, matrix_norm.

The 2-norm (and p-norms) have no derivative at 0; ``_root`` makes theirs 0
there, a subgradient, instead of NaN.
"""

from __future__ import annotations

import operator

import numpy as np

from ..primitives import linalg_decomp as _dp
from ..backend import kind_of
from ._elementwise import abs as _abs
from ._elementwise import astype, equal, not_equal, power, sqrt, where
from ._reductions import max as _max
from ._reductions import min as _min
from ._reductions import sum as _sum
from ._shape import moveaxis, reshape
from ._util import as_array, normalize_axis
from ._complex import conj, real

__all__ = ["norm", "vector_norm", "matrix_norm"]


def _root(s, p):
    """s ** (1/p) for s >= 0, with derivative 0 (not nan) at s == 0: the subgradient."""
    zero = equal(s, 0)
    safe = where(zero, 1.0, s)
    r = sqrt(safe) if p == 2 else power(safe, 1.0 / p)
    return where(zero, 0.0, r)


def _abs2(x):
    """|x|^2 elementwise (real for complex x)."""
    if np.dtype(x.dtype).kind == "c":
        return real(x * conj(x))
    return x * x


def _vector_norm(x, ord, axis, keepdims):
    if ord is None or ord == 2:
        return _root(_sum(_abs2(x), axis=axis, keepdims=keepdims), 2)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    if ord == np.inf:
        return _max(_abs(x), axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return _min(_abs(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        return _sum(astype(not_equal(x, 0), np.empty(0, x.dtype).real.dtype), axis=axis, keepdims=keepdims)
    if ord == 1:
        return _sum(_abs(x), axis=axis, keepdims=keepdims)
    try:
        p = float(ord)
    except (TypeError, ValueError):
        raise ValueError(f"Invalid norm order {ord!r} for vectors") from None
    return _root(_sum(power(_abs(x), p), axis=axis, keepdims=keepdims), p)


def _matrix_norm(x, ord, row, col, keepdims):
    if ord in (2, -2, "nuc"):
        s = _dp.svd(moveaxis(x, (row, col), (-2, -1)), compute_uv=False)[0]
        ret = _max(s, axis=-1) if ord == 2 else _min(s, axis=-1) if ord == -2 else _sum(s, axis=-1)
    elif ord in (1, -1):
        red = _sum(_abs(x), axis=row)
        c = col - 1 if col > row else col
        ret = _max(red, axis=c) if ord == 1 else _min(red, axis=c)
    elif ord in (np.inf, -np.inf):
        red = _sum(_abs(x), axis=col)
        r = row - 1 if row > col else row
        ret = _max(red, axis=r) if ord == np.inf else _min(red, axis=r)
    elif ord in (None, "fro", "f"):
        ret = _root(_sum(_abs2(x), axis=(row, col)), 2)
    else:
        raise ValueError(f"Invalid norm order {ord!r} for matrices")
    if keepdims:
        shape = list(x.shape)
        shape[row] = shape[col] = 1
        ret = reshape(ret, shape)
    return ret


def norm(x, ord=None, axis=None, keepdims=False):
    """numpy.linalg.norm: vector norms (any p, inf, -inf, 0) and matrix norms
    (None/'fro', 'nuc', inf, -inf, 1, -1, 2, -2), over ``axis`` (int or pair).

    The gradient of a 2-norm (and of a p-norm, p > 1) at 0 is 0, a subgradient, not NaN.
    """
    x = as_array(x)
    if kind_of(x.dtype) not in "fc":
        x = astype(x, np.float64)
    nd = x.ndim
    if axis is None:
        if ord is None:
            ret = _root(_sum(_abs2(x)), 2)
            return reshape(ret, (1,) * nd) if keepdims else ret
        if nd == 1:
            axis = (0,)
        elif nd == 2:
            axis = (0, 1)
        else:
            raise ValueError(f"Improper number of dimensions to norm: ord={ord!r} with axis=None needs a "
                             f"1-d or 2-d array, got shape {tuple(x.shape)}")
    elif not isinstance(axis, tuple):
        try:
            axis = (operator.index(axis),)
        except TypeError:
            raise TypeError(f"'axis' must be None, an integer or a tuple of integers, got {axis!r}") from None
    if len(axis) == 1:
        return _vector_norm(x, ord, normalize_axis(axis[0], nd), keepdims)
    if len(axis) == 2:
        row, col = normalize_axis(axis[0], nd), normalize_axis(axis[1], nd)
        if row == col:
            raise ValueError("Duplicate axes given.")
        return _matrix_norm(x, ord, row, col, keepdims)
    raise ValueError(f"Improper number of dimensions to norm: axis={axis!r}")


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """numpy.linalg.vector_norm (axis None: over all elements)."""
    x = as_array(x)
    if axis is None:
        flat = reshape(x, (-1,))
        ret = norm(flat, ord=ord, axis=0)
        return reshape(ret, (1,) * x.ndim) if keepdims else ret
    if isinstance(axis, tuple) and len(axis) != 1:
        nd = x.ndim
        axes = tuple(normalize_axis(a, nd) for a in axis)
        rest = [i for i in range(nd) if i not in axes]
        moved = moveaxis(x, axes, tuple(range(nd - len(axes), nd)))
        flat = reshape(moved, tuple(x.shape[i] for i in rest) + (-1,))
        ret = norm(flat, ord=ord, axis=-1)
        if keepdims:
            ret = reshape(ret, tuple(1 if i in axes else d for i, d in enumerate(x.shape)))
        return ret
    return norm(x, ord=ord, axis=axis, keepdims=keepdims)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """numpy.linalg.matrix_norm over the last two axes."""
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)
