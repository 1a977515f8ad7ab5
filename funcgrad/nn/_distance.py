"""Distances and the bilinear form (functional), with PyTorch's formulas: ``pdist``, ``bilinear``."""

from __future__ import annotations

import numpy as np

from ..backend import kind_of
from .. import numpy as fnp
from ..core import Array, Tracer

__all__ = ["pdist", "bilinear"]


def _arr(x):
    return x if isinstance(x, (Array, Tracer)) else fnp.asarray(x)


def _pnorm(d, p, axis):
    """The p-norm of ``d`` along ``axis`` with a zero gradient where the norm is 0 (as PyTorch's
    distance backward), p = 0 (count of non-zeros) and p = inf (largest magnitude) included."""
    a = fnp.abs(d)
    if p == 0:
        return fnp.sum(fnp.where(a != 0, fnp.ones_like(a), fnp.zeros_like(a)), axis=axis)
    if p == np.inf:
        return fnp.max(a, axis=axis)
    s = fnp.sum(a ** p if p != 2 else d * d, axis=axis)
    pos = s > 0
    safe = fnp.where(pos, s, fnp.ones_like(s))
    return fnp.where(pos, safe ** (1.0 / p) if p != 2 else fnp.sqrt(safe), fnp.zeros_like(s))


def pdist(input, p=2.0):
    """The p-norm distance between each pair of rows of a 2-D (N, M) input: the N (N - 1) / 2 values
    of the upper triangle of the distance matrix, row by row."""
    x = _arr(input)
    if x.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {x.ndim}D")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    if kind_of(x.dtype) not in "f":
        raise RuntimeError(f"pdist only supports floating-point dtypes, input has dtype {x.dtype}")
    n = x.shape[0]
    i, j = np.triu_indices(n, 1)
    if i.size == 0:
        return fnp.zeros((0,), x.dtype)
    return _pnorm(x[i] - x[j], float(p), axis=-1)


def bilinear(input1, input2, weight, bias=None):
    """``y[..., o] = input1[..., i] weight[o, i, j] input2[..., j] + bias[o]``."""
    x1, x2, w = _arr(input1), _arr(input2), _arr(weight)
    if w.ndim != 3 or x1.shape[-1] != w.shape[1] or x2.shape[-1] != w.shape[2] or x1.shape[:-1] != x2.shape[:-1]:
        raise RuntimeError(f"bilinear: input1 {tuple(x1.shape)}, input2 {tuple(x2.shape)} and weight "
                           f"{tuple(w.shape)} do not match (expected input1 (..., in1), input2 (..., in2), "
                           "weight (out, in1, in2))")
    y = fnp.einsum("...i,oij,...j->...o", x1, w, x2)
    return y if bias is None else y + _arr(bias)
