"""append, insert, delete, resize, trim_zeros: new arrays with elements added or removed.

Each is one gather (``take``) with indices computed on the host, from the input
or from the input concatenated with the new values, so gradients flow to the
kept elements and to the inserted values.
"""

from __future__ import annotations

import numpy as np

from ._elementwise import astype
from ._indexing import take
from ._shape import broadcast_to, concatenate, moveaxis, ravel, reshape
from ._util import as_array, normalize_axis
from .. import backend
from ..primitives.creation import zeros_like
from ._indexing import _concrete

__all__ = ["append", "delete", "insert", "resize", "trim_zeros"]


def append(arr, values, axis=None):
    """numpy.append: flattened unless ``axis`` is given (then shapes must match but on axis)."""
    a, v = as_array(arr), as_array(values)
    if axis is None:
        return concatenate([ravel(a), ravel(v)], axis=0)
    return concatenate([a, v], axis=axis)


def _positions(obj, n, axis, fname):
    """Integer positions from an int, slice or integer sequence (bounds-checked, non-negative)."""
    if isinstance(obj, slice):
        return np.arange(*obj.indices(n)), False
    o = np.asarray(obj)
    if o.size == 0 and o.dtype.kind == "f":
        o = o.astype(np.intp)
    if o.dtype.kind not in "iu" or o.ndim > 1:
        raise IndexError(f"{fname}: index array argument obj must be one dimensional or scalar integers, "
                         f"got dtype {o.dtype} and shape {o.shape}")
    limit = n + 1 if fname == "insert" else n
    bad = o[(o < -n) | (o >= limit)]
    if bad.size:
        raise IndexError(f"index {int(bad[0])} is out of bounds for axis {axis} with size {n}")
    return np.where(o < 0, o + n, o), o.ndim == 0


def delete(arr, obj, axis=None):
    """numpy.delete: the array without the entries ``obj`` (int, slice, ints or a mask) along axis."""
    a = as_array(arr)
    if axis is None:
        a, axis = ravel(a), 0
    axis = normalize_axis(axis, a.ndim)
    n = a.shape[axis]
    keep = np.ones(n, dtype=bool)
    o = None if isinstance(obj, slice) else np.asarray(obj)
    if o is not None and o.dtype == np.bool_:
        if o.shape != (n,):
            raise ValueError(f"boolean array argument obj to delete must be one dimensional and match the axis "
                             f"length of {n}")
        keep = ~o
    else:
        keep[_positions(obj, n, axis, "delete")[0]] = False
    return take(a, np.flatnonzero(keep), axis=axis)


def insert(arr, obj, values, axis=None):
    """numpy.insert: ``values`` (cast to arr's dtype, broadcast) inserted before the indices ``obj``."""
    a = as_array(arr)
    if axis is None:
        a, axis = ravel(a), 0
    axis = normalize_axis(axis, a.ndim)
    n = a.shape[axis]
    v = as_array(values)
    if v.dtype != a.dtype:
        v = astype(v, a.dtype)
    if v.ndim < a.ndim:  # numpy: array(values, ndmin=arr.ndim)
        v = reshape(v, (1,) * (a.ndim - v.ndim) + tuple(v.shape))
    pos, scalar = _positions(obj, n, axis, "insert")
    if scalar:  # one index: the values' first axis becomes the inserted run along `axis`
        v = moveaxis(v, 0, axis)
        m = v.shape[axis]
        new_at = np.arange(int(pos), int(pos) + m)
    else:  # value j goes before old index pos[j]; ties keep their order (numpy's stable sort)
        m = pos.shape[0]
        new_at = pos.copy()
        new_at[np.argsort(pos, kind="stable")] += np.arange(m)
    v = broadcast_to(v, tuple(a.shape[:axis]) + (m,) + tuple(a.shape[axis + 1:]))
    src = np.empty(n + m, dtype=np.intp)
    is_new = np.zeros(n + m, dtype=bool)
    is_new[new_at] = True
    src[new_at] = n + np.arange(m)  # positions in concatenate([a, v])
    src[~is_new] = np.arange(n)
    return take(concatenate([a, v], axis=axis), src, axis=axis)


def resize(a, new_shape):
    """numpy.resize: the flattened array repeated (or cut) to fill ``new_shape``."""
    a = as_array(a)
    shape = (int(new_shape),) if isinstance(new_shape, (int, np.integer)) else tuple(int(d) for d in new_shape)
    if any(d < 0 for d in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    total = int(np.prod(shape, dtype=np.int64))
    flat = ravel(a)
    if a.size == 0 or total == 0:
        return zeros_like(flat, shape=shape)
    return reshape(take(flat, np.arange(total) % a.size), shape)


def trim_zeros(filt, trim="fb", axis=None):
    """numpy.trim_zeros: the slice without leading ('f') and/or trailing ('b') zeros (of every
    axis, or of ``axis``); the zeros are found on the concrete values."""
    a, buf = _concrete(filt, "trim_zeros")
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    nonzero = np.argwhere(backend.to_numpy(buf))
    width = a.ndim if axis is None else 1
    if nonzero.size == 0:
        start = stop = np.zeros(width, dtype=np.intp)
    else:
        cols = nonzero if axis is None else nonzero[:, [normalize_axis(axis, a.ndim)]]
        start, stop = cols.min(axis=0), cols.max(axis=0) + 1
    start = start.tolist() if "f" in trim else [None] * width
    stop = stop.tolist() if "b" in trim else [None] * width
    if axis is None:
        return a[tuple(slice(lo, hi) for lo, hi in zip(start, stop))]
    ax = normalize_axis(axis, a.ndim)
    return a[(slice(None),) * ax + (slice(start[0], stop[0]),)]
