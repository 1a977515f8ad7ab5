"""numpy.pad, every mode but callables, every pad_width form.

- constant / empty: one ``pad`` primitive (the gradient slices the interior out);
- edge / reflect / symmetric / wrap (reflect_type 'even'): one gather whose source
  indices are ``np.pad(np.arange(n), widths, mode)`` on the host, exact for any width;
- reflect / symmetric with reflect_type 'odd': numpy's chunked reflection,
  ``2 * edge - mirrored``, one concatenate per chunk;
- maximum / minimum / mean / median: per axis (in order, as numpy), a statistic of
  the first/last ``stat_length`` elements, broadcast over the pad and concatenated;
- linear_ramp: per axis, ``end + (edge - end) * i / width`` ramps, concatenated.
Everything is differentiable in the array (max/min split ties evenly).
"""

from __future__ import annotations

import numpy as np

from ..core import Array, Tracer
from ..primitives import creation as _cp
from ..primitives import shape as _sp
from ..primitives.index import getitem
from ._elementwise import astype
from ._indexing import const_like, take
from ._rearranging import flip
from ._shape import broadcast_to, concatenate
from ._util import as_array, normalize_axis
from .. import backend
from ._elementwise import astype as _astype
from ._reductions import max as _max, mean as _mean, min as _min
from ._sorting import sort

__all__ = ["pad"]

_GATHER_MODES = ("edge", "reflect", "symmetric", "wrap")
_STAT_MODES = ("maximum", "minimum", "mean", "median")
_MODES = ("constant", "empty", *_GATHER_MODES, *_STAT_MODES, "linear_ramp")


def _as_pairs(x, ndim, what, integral=True):
    arr = np.asarray(x)
    if integral:
        if arr.dtype.kind not in "iu" and arr.size:
            raise TypeError(f"`{what}` must be of integral type.")
        if np.any(arr < 0):
            raise ValueError("index can't contain negative values")
    try:
        pairs = np.broadcast_to(arr, (ndim, 2))
    except ValueError:
        raise ValueError(f"operands could not be broadcast together with remapped shapes: {what} of shape "
                         f"{arr.shape} for an array with {ndim} dimension(s) (expected ({ndim}, 2))") from None
    return tuple((p[0].item(), p[1].item()) for p in pairs)


def _check_kwargs(kwargs, allowed, mode):
    extra = set(kwargs) - allowed
    if extra:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {sorted(extra)}")


def _along(axis, sl):
    return (slice(None),) * axis + (sl,)


def pad(array, pad_width, mode="constant", **kwargs):
    """numpy.pad; differentiable in ``array`` (and in a traced scalar ``constant_values``)."""
    a = as_array(array)
    if isinstance(pad_width, dict):  # numpy >= 2.3: {axis: width}
        widths = [(0, 0)] * a.ndim
        for ax, w in pad_width.items():
            widths[normalize_axis(ax, a.ndim)] = _as_pairs(w, 1, "pad_width")[0]
        widths = tuple(widths)
    else:
        widths = _as_pairs(pad_width, a.ndim, "pad_width")
    if mode not in _MODES:
        raise ValueError(f"mode {mode!r} is not supported; funcgrad supports {', '.join(map(repr, _MODES))}")
    if not any(b or e for b, e in widths):
        _check_kwargs(kwargs, _ALLOWED[mode], mode)
        return a
    _check_kwargs(kwargs, _ALLOWED[mode], mode)
    if mode in ("constant", "empty"):
        return _pad_constant(a, widths, kwargs.get("constant_values", 0))
    for ax, (b, e) in enumerate(widths):
        if (b or e) and a.shape[ax] == 0:
            raise ValueError(f"can't extend empty axis {ax} using modes other than 'constant' or 'empty'")
    if mode in _GATHER_MODES:
        reflect_type = kwargs.get("reflect_type", "even")
        if reflect_type not in ("even", "odd"):
            raise ValueError(f"reflect_type must be 'even' or 'odd', got {reflect_type!r}")
        if reflect_type == "odd":
            return _pad_odd(a, widths, mode == "symmetric")
        return _pad_gather(a, widths, mode)
    if mode == "linear_ramp":
        return _pad_ramp(a, widths, _as_pairs(kwargs.get("end_values", 0), a.ndim, "end_values", integral=False))
    stat = kwargs.get("stat_length")
    lengths = [(None, None)] * a.ndim if stat is None else _as_pairs(stat, a.ndim, "stat_length")
    return _pad_stat(a, widths, mode, lengths)


_ALLOWED = {"constant": {"constant_values"}, "empty": set(), "edge": set(), "wrap": set(),
            "reflect": {"reflect_type"}, "symmetric": {"reflect_type"}, "linear_ramp": {"end_values"},
            **{m: {"stat_length"} for m in _STAT_MODES}}


def _pad_constant(a, widths, cv):
    if isinstance(cv, Tracer):  # a traced fill value: x padded with 0, plus cv on the border
        if cv.ndim != 0:
            raise TypeError("pad: a traced constant_values must be a scalar")
        border = _sp.pad(_cp.zeros_like(a), widths, 1)
        return _sp.pad(a, widths, 0) + cv * border
    cv_pairs = _as_pairs(cv, a.ndim, "constant_values", integral=False)
    flat = {v for p in cv_pairs for v in p}
    return _sp.pad(a, widths, flat.pop() if len(flat) == 1 else cv_pairs)


def _pad_gather(a, widths, mode):
    padded = [ax for ax, (b, e) in enumerate(widths) if b or e]
    index = [np.pad(np.arange(n), w, mode=mode) for n, w in zip(a.shape, widths)]
    if len(padded) == 1:
        return take(a, index[padded[0]], axis=padded[0])
    grid = np.ix_(*index)  # all axes advanced and adjacent: the result keeps their order
    return getitem(a, tuple(const_like(g, a) for g in grid))


def _pad_odd(a, widths, symmetric):
    """numpy's chunked odd reflection: each chunk mirrors the current array about its edge."""
    for ax, (left, right) in enumerate(widths):
        n = a.shape[ax]
        if n == 1:  # numpy extends a singleton axis with its edge value
            a = _pad_gather(a, tuple((left, right) if i == ax else (0, 0) for i in range(a.ndim)), "edge")
            continue
        room = n if symmetric else n - 1  # numpy's chunk length: the original extent
        while left > 0 or right > 0:
            if left > 0:
                k = min(left, room)
                start = 0 if symmetric else 1
                chunk = flip(getitem(a, _along(ax, slice(start, start + k))), ax)
                edge = getitem(a, _along(ax, slice(0, 1)))
                a = concatenate([2 * edge - chunk, a], axis=ax)
                left -= k
            if right > 0:
                k = min(right, room)
                m = a.shape[ax]
                stop = m if symmetric else m - 1
                chunk = flip(getitem(a, _along(ax, slice(stop - k, stop))), ax)
                edge = getitem(a, _along(ax, slice(m - 1, m)))
                a = concatenate([a, 2 * edge - chunk], axis=ax)
                right -= k
    return a


def _stat(region, mode, axis):
    if mode == "maximum":
        return _max(region, axis=axis, keepdims=True)
    if mode == "minimum":
        return _min(region, axis=axis, keepdims=True)
    if mode == "mean":
        out = _mean(region, axis=axis, keepdims=True)
    else:  # median: the mean of the middle one or two sorted elements
        k = region.shape[axis]
        s = sort(region, axis)
        out = (getitem(s, _along(axis, slice((k - 1) // 2, (k - 1) // 2 + 1)))
               + getitem(s, _along(axis, slice(k // 2, k // 2 + 1)))) * 0.5
    if np.dtype(region.dtype).kind in "iub":  # numpy rounds statistics of integer arrays
        out = _astype(_round(out), region.dtype)
    return out


def _round(x):
    buf = x._concrete()  # integer input: no derivative to keep
    return Array._from_buffer(backend.namespace_of(buf).around(buf))


def _pad_stat(a, widths, mode, lengths):
    for ax, ((b, e), (lb, le)) in enumerate(zip(widths, lengths)):
        if not (b or e):
            continue
        n = a.shape[ax]
        lb = n if lb is None else min(lb, n)
        le = n if le is None else min(le, n)
        if lb == 0 or le == 0:
            raise ValueError("stat_length of 0 yields no value for padding")
        parts = [a]
        if b:
            s = _stat(getitem(a, _along(ax, slice(0, lb))), mode, ax)
            parts.insert(0, broadcast_to(s, a.shape[:ax] + (b,) + a.shape[ax + 1:]))
        if e:
            s = _stat(getitem(a, _along(ax, slice(n - le, n))), mode, ax)
            parts.append(broadcast_to(s, a.shape[:ax] + (e,) + a.shape[ax + 1:]))
        a = concatenate(parts, axis=ax)
    return a


def _pad_ramp(a, widths, ends):
    for ax, ((b, e), (vb, ve)) in enumerate(zip(widths, ends)):
        if not (b or e):
            continue
        n = a.shape[ax]
        view = [1] * a.ndim
        parts = [a]
        if b:
            view[ax] = b
            w = const_like((np.arange(b) / b).reshape(view), a)
            edge = getitem(a, _along(ax, slice(0, 1)))
            parts.insert(0, _ramp_cast(vb + (edge - vb) * w, a.dtype))
        if e:
            view[ax] = e
            w = const_like((np.arange(e)[::-1] / e).reshape(view), a)
            edge = getitem(a, _along(ax, slice(n - 1, n)))
            parts.append(_ramp_cast(ve + (edge - ve) * w, a.dtype))
        a = concatenate(parts, axis=ax)
    return a


def _ramp_cast(r, dtype):
    if r.dtype == dtype:
        return r
    if np.dtype(dtype).kind in "iub":  # numpy's integer linspace rounds towards -inf
        buf = r._concrete()  # integer output: no derivative to keep
        r = Array._from_buffer(backend.namespace_of(buf).floor(buf))
    return astype(r, dtype)
