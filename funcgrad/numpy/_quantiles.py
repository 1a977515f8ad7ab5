"""Quantiles: quantile, percentile, nanquantile, nanpercentile, nanmedian (numpy 2's
thirteen ``method``s, ``axis`` (tuples too), ``keepdims``, ``weights`` for ``inverted_cdf``).

The input is sorted (``sort`` is differentiable: a gather), the two order statistics around
numpy's virtual index are gathered and linearly interpolated exactly as numpy's ``_lerp``
does.  So the result is differentiable in ``a`` (the gradient goes to the one or two order
statistics used), and, for the continuous methods, in ``q`` (the slope between them).
The positions depend on ``q`` and the counts only, which must be concrete (not vmapped).
"""

from __future__ import annotations

import numpy as np

from ..core import Array, Tracer
from ._creation import asarray
from ._elementwise import astype, isnan, where
from ._indexing import const_like, host_values, take_along_axis
from ._reductions import any as _any
from ._shape import moveaxis, reshape
from ._sorting import sort
from ._util import no_out, normalize_axes
from ._statistics import median, nanmean

__all__ = ["quantile", "percentile", "nanquantile", "nanpercentile", "nanmedian"]

# method -> (alpha, beta) of Hyndman & Fan's continuous family, or the discrete rule
_CONTINUOUS = {"linear": (1.0, 1.0), "weibull": (0.0, 0.0), "hazen": (0.5, 0.5),
               "interpolated_inverted_cdf": (0.0, 1.0), "median_unbiased": (1 / 3.0, 1 / 3.0),
               "normal_unbiased": (3 / 8.0, 3 / 8.0)}
_DISCRETE = ("inverted_cdf", "closest_observation", "lower", "higher", "nearest")
_METHODS = tuple(_CONTINUOUS) + _DISCRETE + ("averaged_inverted_cdf", "midpoint")


def _virtual_index(n, q, method, xp):
    """numpy's virtual index (float, or int for the discrete methods); ``xp`` is numpy or fnp."""
    if method in _CONTINUOUS:
        alpha, beta = _CONTINUOUS[method]
        return (n - 1) * q if method == "linear" else n * q + (alpha + q * (1 - alpha - beta)) - 1
    if method == "averaged_inverted_cdf":
        return n * q - 1
    if method == "midpoint":
        return 0.5 * (np.floor((n - 1) * q) + np.ceil((n - 1) * q))
    if method == "lower":
        return np.floor((n - 1) * q).astype(np.intp)
    if method == "higher":
        return np.ceil((n - 1) * q).astype(np.intp)
    if method == "nearest":
        return np.around((n - 1) * q).astype(np.intp)
    index = n * q - 1 - (0.5 if method == "closest_observation" else 0.0)
    prev = np.floor(index)
    gamma = index - prev
    low = (gamma == 0) & (prev % 2 == 1) if method == "closest_observation" else gamma == 0
    return np.maximum(np.where(low, prev, prev + 1), 0).astype(np.intp)


def _gamma(vi, prev, method):
    gamma = vi - prev
    if method == "averaged_inverted_cdf":
        return np.where(gamma == 0, 0.5, 1.0)
    if method == "midpoint":
        return np.where(vi % 1 == 0, 0.0, 0.5)
    return gamma


def _lerp(a, b, t):
    diff = b - a
    return where(t >= 0.5, b - diff * (1 - t), a + diff * t)


def _check_q(q, like, fname, scale):
    qa = q if isinstance(q, (Array, Tracer)) else const_like(np.asarray(q), like)
    qh = host_values(qa, fname)
    qh = (qh if qh.dtype.kind == "f" else qh.astype(np.float64)) / scale  # numpy's precision
    if not (np.all(qh >= 0) and np.all(qh <= 1)):
        raise ValueError("Percentiles must be in the range [0, 100]" if scale == 100
                         else "Quantiles must be in the range [0, 1]")
    return qa, qh


def _result_dtype(a, q, method):
    if method in _DISCRETE:
        return np.dtype(a.dtype)
    base = np.float64 if np.dtype(a.dtype).kind in "iub" else a.dtype
    if isinstance(q, (int, float)):  # a Python number is weak, as in numpy
        return np.dtype(base)
    qd = np.dtype(asarray(q).dtype)
    return np.result_type(base, qd if qd.kind == "f" else np.float64)


def _quantile(a, q, axis, method, keepdims, weights, nan_aware, fname, scale=1):
    if method not in _METHODS:
        raise ValueError(f"{method!r} is not a valid method. Use one of: {_METHODS}")
    a = asarray(a)
    if np.dtype(a.dtype).kind == "c":
        raise TypeError("a must be an array of real numbers")
    qa, qh = _check_q(q, a, fname, scale)
    dtype = _result_dtype(a, q, method)
    if nan_aware and a.size == 0:  # numpy: nanmean of the empty input (NaN, whatever q's shape)
        return nanmean(a, axis, keepdims=keepdims)
    axes = normalize_axes(axis, a.ndim)
    if a.size == 0 and not nan_aware:  # numpy's errors (its reshape for several axes, then its index)
        kept_empty = any(a.shape[i] == 0 for i in range(a.ndim) if i not in axes)
        if axis is not None and len(axes) != 1 and kept_empty:
            raise ValueError("cannot reshape array of size 0 into shape (0,newaxis)")
        if any(a.shape[i] == 0 for i in axes):
            raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    rest = [d for i, d in enumerate(a.shape) if i not in axes]
    n = int(np.prod([a.shape[i] for i in axes], dtype=np.int64))
    b = reshape(moveaxis(a, axes, tuple(range(a.ndim - len(axes), a.ndim))), tuple(rest) + (n,))
    if weights is not None:
        return _weighted(a, b, qa, qh, axes, rest, keepdims, weights, method, nan_aware, fname, dtype)
    inexact = np.dtype(b.dtype).kind == "f"
    if inexact:
        nan_host = host_values(isnan(b), fname)
        counts = (n - nan_host.sum(-1)) if nan_aware else np.full(tuple(rest), n)
    else:
        counts = np.full(tuple(rest), n)
    s = sort(b, axis=-1)
    qf = reshape(astype(qa, qh.dtype), (-1,)) / scale
    cnt = counts[..., None].astype(qh.dtype)
    vi = _virtual_index(cnt, qh.reshape(-1), method, np)
    if np.issubdtype(np.asarray(vi).dtype, np.integer):
        prev = nxt = np.clip(vi, 0, np.maximum(counts[..., None] - 1, 0))
        res = take_along_axis(s, prev.astype(np.intp), axis=-1)
    else:
        prev = np.floor(vi)
        nxt = prev + 1
        high, low = vi >= cnt - 1, vi < 0
        last = np.maximum(cnt - 1, 0)
        prev = np.where(high, last, np.where(low, 0, prev)).astype(np.intp)
        nxt = np.where(high, last, np.where(low, 0, nxt)).astype(np.intp)
        if method in _CONTINUOUS:  # differentiable in q
            gamma = _virtual_index(const_like(cnt, b), qf, method, None) - const_like(np.floor(vi), b)
        else:
            gamma = const_like(_gamma(vi, np.floor(vi), method), b)
        lo = take_along_axis(s, prev, axis=-1)
        hi = take_along_axis(s, nxt, axis=-1)
        res = _lerp(lo, hi, gamma)
    if inexact:
        bad = const_like(counts == 0, b) if nan_aware else _any(isnan(b), axis=-1)
        res = where(reshape(bad, tuple(rest) + (1,)), np.nan, res)
    return _finish(res, qa, rest, axes, a.ndim, keepdims, dtype)


def _finish(res, qa, rest, axes, ndim, keepdims, dtype):
    """(rest..., k) -> q.shape + reduced shape (+ kept axes)."""
    res = moveaxis(res, -1, 0)
    if keepdims:
        kept = tuple(1 if i in axes else None for i in range(ndim))
        it = iter(rest)
        rest = [1 if k == 1 else next(it) for k in kept]
    res = reshape(res, tuple(qa.shape) + tuple(rest))
    return astype(res, dtype) if np.dtype(res.dtype) != dtype else res


def _weighted(a, b, qa, qh, axes, rest, keepdims, weights, method, nan_aware, fname, dtype):
    """numpy's weighted ``inverted_cdf``: the first sorted value whose weight CDF reaches q."""
    if method != "inverted_cdf":
        raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
    w = host_values(asarray(weights), fname).astype(np.float64)
    if w.shape != tuple(a.shape):
        if w.ndim != 1 or len(axes) != 1 or w.shape[0] != a.shape[axes[0]]:
            raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
        w = np.broadcast_to(w.reshape([-1 if i == axes[0] else 1 for i in range(a.ndim)]), a.shape)
    if np.any(w < 0):
        raise ValueError("Weights must be non-negative.")
    w = np.moveaxis(w, axes, tuple(range(a.ndim - len(axes), a.ndim))).reshape(b.shape)
    bh = host_values(b, fname)
    if nan_aware:
        w = np.where(np.isnan(bh), 0.0, w)
    order = np.argsort(bh, axis=-1, kind="stable")
    cdf = np.cumsum(np.take_along_axis(w, order, -1), axis=-1)
    total = cdf[..., -1:]
    targets = qh.reshape(-1) * total  # (rest..., k)
    idx = np.empty(targets.shape, dtype=np.intp)
    for pos in np.ndindex(*targets.shape[:-1]):
        idx[pos] = np.minimum(np.searchsorted(cdf[pos], targets[pos], side="left"), b.shape[-1] - 1)
    res = take_along_axis(b, np.take_along_axis(order, idx, -1), axis=-1)
    if np.dtype(b.dtype).kind == "f" and not nan_aware:
        res = where(reshape(_any(isnan(b), axis=-1), tuple(rest) + (1,)), np.nan, res)
    return _finish(res, qa, rest, axes, a.ndim, keepdims, dtype)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False,
             *, weights=None, interpolation=None):
    """numpy.quantile (differentiable in ``a``, and in ``q`` for the continuous methods)."""
    no_out(out, "quantile")
    return _quantile(a, q, axis, interpolation or method, keepdims, weights, False, "quantile")


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False,
               *, weights=None, interpolation=None):
    """numpy.percentile: quantile of q / 100."""
    no_out(out, "percentile")
    return _quantile(a, q, axis, interpolation or method, keepdims, weights, False, "percentile", 100)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False,
                *, weights=None, interpolation=None):
    """numpy.nanquantile: quantiles of the non-NaN values (NaN for all-NaN slices)."""
    no_out(out, "nanquantile")
    return _quantile(a, q, axis, interpolation or method, keepdims, weights, True, "nanquantile")


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False,
                  *, weights=None, interpolation=None):
    no_out(out, "nanpercentile")
    return _quantile(a, q, axis, interpolation or method, keepdims, weights, True, "nanpercentile", 100)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """numpy.nanmedian: the mean of the middle non-NaN value(s) of each slice (NaN for all-NaN
    slices); the gradient goes to the middle element, or 1/2 to each of the two."""
    no_out(out, "nanmedian")
    a = asarray(a)
    if np.dtype(a.dtype).kind not in "f":
        return median(a, axis, keepdims=keepdims)
    if a.size == 0:
        return nanmean(a, axis, keepdims=keepdims)
    axes = normalize_axes(axis, a.ndim)
    rest = [d for i, d in enumerate(a.shape) if i not in axes]
    n = int(np.prod([a.shape[i] for i in axes], dtype=np.int64))
    b = reshape(moveaxis(a, axes, tuple(range(a.ndim - len(axes), a.ndim))), tuple(rest) + (n,))
    counts = n - host_values(isnan(b), "nanmedian").sum(-1)
    s = sort(b, axis=-1)
    lo_idx = np.maximum((counts - 1) // 2, 0)[..., None]
    hi_idx = np.maximum(counts // 2, 0)[..., None]
    hi_idx = np.minimum(hi_idx, max(n - 1, 0))
    lo, hi = take_along_axis(s, lo_idx, axis=-1), take_along_axis(s, hi_idx, axis=-1)
    odd = const_like((counts % 2 == 1)[..., None], b)
    res = where(odd, lo, (lo + hi) / 2)
    res = where(const_like((counts == 0)[..., None], b), np.nan, res)
    return _finish(res, asarray(0.5), rest, axes, a.ndim, keepdims, np.dtype(a.dtype))
