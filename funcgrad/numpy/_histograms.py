"""Histograms and binning: histogram, histogram_bin_edges, histogram2d, histogramdd,
bincount, digitize.

Which bin a sample falls in is decided on the concrete values (as numpy: half-open bins,
the last one closed).  The counts are then a scatter-add of the weights, so a weighted
histogram is differentiable in ``weights``; equal-width edges are ``linspace(min, max)`` of
the data (or of ``range``), so the edges, and a ``density`` histogram through them, are
differentiable in the samples and the range, as in JAX.
"""

from __future__ import annotations

import builtins
import operator

import numpy as np

from .. import backend
from ..core import Array, Tracer
from ._calculus import diff
from ._creation import asarray, linspace
from ._elementwise import astype
from ._indexing import _concrete, const_like
from ._reductions import max as _max, min as _min, sum as _sum
from ._shape import ravel, reshape
from ._sorting import searchsorted

__all__ = ["histogram", "histogram_bin_edges", "histogram2d", "histogramdd", "bincount", "digitize"]


def _host(x, fname):
    return backend.to_numpy(_concrete(asarray(x), fname)[1])


def _outer_edges(a, range_, fname):
    """numpy's _get_outer_edges, as funcgrad values (differentiable in a or in range)."""
    if range_ is not None:
        first, last = range_
        fh, lh = float(_host(first, fname)), float(_host(last, fname))
        if fh > lh:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(fh) and np.isfinite(lh)):
            raise ValueError(f"supplied range of [{fh}, {lh}] is not finite")
        first, last = (f if isinstance(f, (Array, Tracer)) else const_like(np.asarray(f), a) for f in (first, last))
    elif a.size == 0:
        first, last, fh, lh = const_like(np.asarray(0.0), a), const_like(np.asarray(1.0), a), 0.0, 1.0
    else:
        first, last = _min(a), _max(a)
        fh, lh = float(_host(first, fname)), float(_host(last, fname))
        if not (np.isfinite(fh) and np.isfinite(lh)):
            raise ValueError(f"autodetected range of [{fh}, {lh}] is not finite")
    if fh == lh:
        first, last = first - 0.5, last + 0.5
    return first, last


def _edges(a, bins, range_, weights, fname):
    """The bin edges (a 1-d Array) for the flattened samples ``a``."""
    if isinstance(bins, str):
        n = len(np.histogram_bin_edges(_host(a, fname), bins, None if range_ is None else
                                       tuple(float(_host(r, fname)) for r in range_))) - 1
    elif np.ndim(bins) == 0:
        try:
            n = operator.index(bins)
        except TypeError:
            raise TypeError("`bins` must be an integer, a string, or an array") from None
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
    else:
        edges = asarray(bins)
        if edges.ndim != 1:
            raise ValueError("`bins` must be 1d, when an array")
        if np.any(np.diff(_host(edges, fname)) < 0):
            raise ValueError("`bins` must increase monotonically, when an array")
        return edges
    first, last = _outer_edges(a, range_, fname)
    # numpy's dtypes: linspace computes in the type of (first, last) (Python numbers of
    # ``range`` are weak), then casts to result_type(first, last, a) (float64 for integers)
    ends = (a.dtype,) if range_ is None else tuple(_host_scalar(r) for r in range_)
    compute = np.result_type(*ends, 1.0)
    dt = np.result_type(*ends, a.dtype)
    dt = np.dtype(np.float64) if dt.kind in "iub" else dt
    return astype(linspace(astype(first, compute), astype(last, compute), n + 1), dt)


def _host_scalar(r):
    return r if isinstance(r, (int, float)) else _host(r, "histogram").dtype


def _bin_index(h, eh):
    """numpy's bin of each sample (−1 for those outside the edges)."""
    n = eh.shape[0] - 1
    idx = np.searchsorted(eh, h, side="right") - 1
    idx[h == eh[-1]] = n - 1
    idx[(h < eh[0]) | (h > eh[-1]) | np.isnan(h)] = -1
    return idx


def _weighted_counts(flat_idx, nbins, weights, like):
    keep = np.flatnonzero(flat_idx >= 0)
    if weights is None:
        return const_like(np.bincount(flat_idx[keep], minlength=nbins).astype(np.int64), like)
    w = ravel(asarray(weights))
    return const_like(np.zeros(nbins, dtype=w.dtype), w).at[flat_idx[keep]].add(w[keep])


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    a = ravel(asarray(a))
    return _edges(a, bins, range, weights, "histogram_bin_edges")


def histogram(a, bins=10, range=None, density=None, weights=None):
    """numpy.histogram: (counts, edges); weighted counts and densities are differentiable."""
    a = asarray(a)
    if weights is not None and tuple(asarray(weights).shape) != tuple(a.shape):
        raise ValueError("weights should have the same shape as a.")
    a = ravel(a)
    edges = _edges(a, bins, range, weights, "histogram")
    eh = _host(edges, "histogram")
    idx = _bin_index(_host(a, "histogram"), eh)
    hist = _weighted_counts(idx, eh.shape[0] - 1, weights, a)
    if density:
        widths = diff(edges)
        hist = hist / widths / _sum(hist)
    return hist, edges


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """numpy.histogramdd: (counts of shape bins, [edges per dimension])."""
    if isinstance(sample, (list, tuple)):
        cols = [ravel(asarray(s)) for s in sample]
    else:
        s = asarray(sample)
        s = reshape(s, (-1, 1)) if s.ndim == 1 else s
        cols = [s[:, i] for i in builtins.range(s.shape[1])]
    D = len(cols)
    bins_list = [bins] * D if isinstance(bins, str) or np.ndim(bins) == 0 else list(bins)
    if len(bins_list) != D:
        raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    ranges = [None] * D if range is None else list(range)
    if len(ranges) != D:
        raise ValueError("range argument must have one entry per dimension")
    edges = [_edges(c, b, r, None, "histogramdd") for c, b, r in zip(cols, bins_list, ranges)]
    nbins = [int(e.shape[0]) - 1 for e in edges]
    flat = np.zeros(cols[0].shape[0] if D else 0, dtype=np.intp)
    outside = np.zeros(flat.shape, dtype=bool)
    for c, e, n in zip(cols, edges, nbins):
        idx = _bin_index(_host(c, "histogramdd"), _host(e, "histogramdd"))
        outside |= idx < 0
        flat = flat * n + np.maximum(idx, 0)
    flat[outside] = -1
    total = int(np.prod(nbins))
    hist = _weighted_counts(flat, total, weights, cols[0])
    if weights is None:
        hist = astype(hist, np.float64)
    hist = reshape(hist, tuple(nbins))
    if density:
        hist = hist / _sum(hist)
        for i, e in enumerate(edges):
            shape = [1] * D
            shape[i] = nbins[i]
            hist = hist / reshape(diff(e), tuple(shape))
    return hist, edges





def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """numpy.histogram2d: (counts, x edges, y edges)."""
    if not (isinstance(bins, str) or np.ndim(bins) == 0):
        if len(bins) not in (1, 2):
            xedges = yedges = asarray(bins)
            bins = [xedges, yedges]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


def bincount(x, weights=None, minlength=0):
    """numpy.bincount: counts of non-negative ints; with weights a differentiable scatter-add."""
    h = _host(x, "bincount")
    if h.ndim != 1:
        raise ValueError("object too deep for desired array" if h.ndim > 1
                         else "object of too small depth for desired array")
    if h.size and h.dtype.kind not in "iub":
        raise TypeError("Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if h.size and h.min() < 0:
        raise ValueError("'list' argument must have no negative elements")
    n = max(int(h.max()) + 1 if h.size else 0, minlength)
    if weights is None:
        return const_like(np.bincount(h.astype(np.intp), minlength=n), asarray(x))
    w = asarray(weights)
    if tuple(w.shape) != tuple(h.shape):
        raise ValueError("The weights and list don't have the same length.")
    if np.dtype(w.dtype).kind == "c":
        raise TypeError("Cannot cast array data from dtype('complex128') to dtype('float64') "
                        "according to the rule 'safe'")
    return const_like(np.zeros(n), w).at[h.astype(np.intp)].add(astype(w, np.float64))


def digitize(x, bins, right=False):
    """numpy.digitize: the index of the bin each value falls in (integer, no derivative)."""
    b = asarray(bins)
    bh = _host(b, "digitize")
    if bh.ndim != 1:
        raise ValueError("object of too small depth for desired array" if bh.ndim == 0
                         else "object too deep for desired array")
    d = np.diff(bh)
    increasing = bool(np.all(d >= 0))
    if not increasing and not np.all(d <= 0):
        raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    x = asarray(x)
    if np.dtype(x.dtype).kind == "c":
        raise TypeError("x may not be complex")
    if increasing:
        return searchsorted(b, x, side=side)
    return bh.shape[0] - searchsorted(b[::-1], x, side=side)
