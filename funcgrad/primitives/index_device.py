"""Index operations that behave like numpy's on every backend.

cupy differs from numpy in two ways that would otherwise give silent wrong
answers or errors on a GPU (the stand-in backend mimics both, so CI sees them):

- integer index arrays out of bounds wrap around instead of raising:
  :func:`check_bounds` raises numpy's ``IndexError`` first;
- ``ufunc.at`` exists only for add/subtract (and for maximum/minimum in float32
  precision, NaN ignored), and ``out[idx] = v`` with a repeated index keeps an
  unspecified write: :func:`scatter_combine` is a device-generic
  ``multiply/minimum/maximum.at`` that combines repeated indices exactly, and a
  ``set`` where the last write wins, as in numpy.
"""

from __future__ import annotations

import numpy as np

from .index_parse import _rebuild, _Slot

__all__ = ["check_bounds", "scatter_combine"]


def _slot_axes(template, ndim):
    """(k, axis) for each index array slot of ``template`` over an ndim-d array."""
    used = sum(1 for t in template if t is not None and t is not Ellipsis)
    axis, out = 0, []
    for t in template:
        if t is Ellipsis:
            axis += max(ndim - used, 0)
        elif t is not None:
            if type(t) is _Slot:
                out.append((t.k, axis))
            axis += 1
    return out


def check_bounds(xp, template, arrays, shape):
    """numpy's IndexError if an index array is out of bounds (cupy would wrap it silently).

    One device-to-host transfer (a flag per index array) on a non-numpy backend;
    numpy checks by itself.
    """
    if xp is np or not arrays:
        return
    checks = []
    for k, axis in _slot_axes(template, len(shape)):
        a, n = arrays[k], shape[axis]
        if a.size:
            checks.append((a, axis, n, ((a < -n) | (a >= n)).any()))
    if not checks or not bool(xp.stack([c[3] for c in checks]).any()):
        return
    for a, axis, n, bad in checks:
        if bool(bad):
            first = int(a[(a < -n) | (a >= n)].ravel()[0])
            raise IndexError(f"index {first} is out of bounds for axis {axis} with size {n}")


def scatter_combine(xp, x, idx, v, ufunc=None):
    """A copy of x with ``ufunc.at(out, idx, v)`` applied (ufunc: multiply, minimum, maximum),
    or with ``out[idx] = v`` where the last write to a repeated position wins (ufunc None).

    Written with sort, compare and gather/scatter of distinct positions only, so it runs
    on any backend with numpy's semantics: the positions hit are sorted (with their
    order of appearance as tie-break), each run of equal positions is reduced by a
    segmented inclusive scan (log2(n) steps), and the last element of each run is
    combined into (or written to) the output.
    """
    flat = x.reshape(-1).copy()
    pos = xp.arange(x.size).reshape(x.shape)[idx]
    if pos.size == 0:
        return flat.reshape(x.shape)
    vals = xp.broadcast_to(xp.asarray(v).astype(x.dtype, copy=False) if hasattr(v, "astype")
                           else xp.asarray(v, dtype=x.dtype), pos.shape).reshape(-1)
    pos = pos.reshape(-1)
    n = pos.shape[0]
    order = xp.argsort(pos * n + xp.arange(n))  # stable whatever the backend's sort
    pos, vals = pos[order], vals[order]
    s = 1
    while ufunc is not None and s < n:  # vals[i] = ufunc over its run's elements (i-2s, i]
        same = pos[s:] == pos[:-s]
        vals = xp.concatenate([vals[:s], xp.where(same, ufunc(vals[s:], vals[:-s]), vals[s:])])
        s *= 2
    last = xp.concatenate([pos[1:] != pos[:-1], xp.ones(1, dtype=bool)])
    p, w = pos[last], vals[last]
    flat[p] = w if ufunc is None else ufunc(flat[p], w)
    return flat.reshape(x.shape)


def rebuild_checked(xp, template, arrays, shape):
    """The index tuple of ``template``/``arrays``, bounds-checked as numpy does."""
    check_bounds(xp, template, arrays, shape)
    return _rebuild(template, arrays)
