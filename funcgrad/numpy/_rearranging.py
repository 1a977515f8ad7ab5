"""Rearranging elements: flip, fliplr, flipud, roll, rot90, tile, repeat (pad: _pad.py).

flip is a strided view; roll is one concatenate per rolled axis; tile and
integer repeat are a broadcast view plus one reshape copy; per-element repeat
is one gather whose indices numpy computes on the host (``np.repeat`` of
``arange``), so its gradient scatter-adds exactly.
"""

from __future__ import annotations

import numpy as np

from ..core import Tracer
from ..primitives.index import getitem
from ._indexing import take
from ._shape import broadcast_to, concatenate, reshape, transpose
from ._util import as_array, normalize_axes, normalize_axis

__all__ = ["flip", "fliplr", "flipud", "roll", "rot90", "tile", "repeat"]


def flip(m, axis=None):
    """numpy.flip: a view with negative strides along ``axis`` (all axes if None)."""
    m = as_array(m)
    axes = normalize_axes(axis, m.ndim)
    if not axes:
        return m
    return getitem(m, tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(m.ndim)))


def fliplr(m):
    m = as_array(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return flip(m, 1)


def flipud(m):
    m = as_array(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return flip(m, 0)


def roll(a, shift, axis=None):
    """numpy.roll: elements shifted cyclically (one concatenate of two views per axis)."""
    a = as_array(a)
    if axis is None:
        return reshape(roll(reshape(a, (a.size,)), shift, 0), a.shape)
    pairs = np.broadcast(np.asarray(shift), np.asarray(axis))
    if pairs.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    total = {}
    for s, ax in pairs:
        ax = normalize_axis(int(ax), a.ndim)
        total[ax] = total.get(ax, 0) + int(s)
    for ax, s in total.items():
        n = a.shape[ax]
        s = s % n if n else 0
        if s:
            pre = (slice(None),) * ax
            a = concatenate([getitem(a, pre + (slice(n - s, None),)), getitem(a, pre + (slice(0, n - s),))], axis=ax)
    return a


def rot90(m, k=1, axes=(0, 1)):
    """numpy.rot90: rotation by 90 degrees k times in the plane of ``axes`` (flips and a transpose)."""
    m = as_array(m)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if not (-m.ndim <= axes[0] < m.ndim and -m.ndim <= axes[1] < m.ndim):
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k %= 4
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = list(range(m.ndim))
    a0, a1 = axes[0] % m.ndim, axes[1] % m.ndim
    perm[a0], perm[a1] = perm[a1], perm[a0]
    return transpose(flip(m, axes[1]), perm) if k == 1 else flip(transpose(m, perm), axes[1])


def tile(A, reps):
    """numpy.tile: a broadcast view reshaped (one copy); the gradient sums the tiles."""
    A = as_array(A)
    reps = (int(reps),) if isinstance(reps, (int, np.integer)) else tuple(int(r) for r in reps)
    if any(r < 0 for r in reps):
        raise ValueError(f"negative dimensions are not allowed in reps {reps}")
    nd = max(len(reps), A.ndim)
    reps = (1,) * (nd - len(reps)) + reps
    shape = (1,) * (nd - A.ndim) + tuple(A.shape)
    if all(r == 1 for r in reps):
        return reshape(A, shape)
    inter = tuple(v for d in shape for v in (1, d))
    big = tuple(v for r, d in zip(reps, shape) for v in (r, d))
    return reshape(broadcast_to(reshape(A, inter), big), tuple(r * d for r, d in zip(reps, shape)))


def repeat(a, repeats, axis=None):
    """numpy.repeat: int repeats broadcast (a view, then one copy); per-element repeats gather."""
    a = as_array(a)
    if axis is None:
        a, axis = reshape(a, (a.size,)), 0
    axis = normalize_axis(axis, a.ndim)
    if isinstance(repeats, Tracer):
        raise TypeError("repeat: repeats must be concrete integers (they decide the result's shape)")
    reps = np.asarray(repeats)
    if reps.size == 0:
        reps = reps.astype(np.intp)
    if reps.dtype.kind not in "iub":
        raise TypeError(f"repeat: repeats must be integers, got dtype {reps.dtype}")
    if np.any(reps < 0):
        raise ValueError("repeat: negative dimensions are not allowed")
    n = a.shape[axis]
    if reps.size == 1:
        r = int(reps.ravel()[0])
        shape = tuple(a.shape)
        inter = shape[:axis + 1] + (1,) + shape[axis + 1:]
        big = shape[:axis + 1] + (r,) + shape[axis + 1:]
        return reshape(broadcast_to(reshape(a, inter), big), shape[:axis] + (n * r,) + shape[axis + 1:])
    if reps.ndim != 1 or reps.shape[0] != n:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) ({reps.size},)")
    return take(a, np.repeat(np.arange(n), reps), axis=axis)
