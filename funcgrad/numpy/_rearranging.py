"""Rearranging elements: flip, fliplr, flipud, roll, rot90, tile, repeat, pad.

flip is a strided view; roll is one concatenate per rolled axis; tile and
integer repeat are a broadcast view plus one reshape copy; per-element repeat
and the non-constant pad modes are one gather whose indices numpy computes on
the host (``np.repeat`` / ``np.pad`` of ``arange``), so their gradients
scatter-add exactly, whatever the pad widths.
"""

from __future__ import annotations

import numpy as np

from ..core import Tracer
from ..primitives import creation as _cp
from ..primitives import shape as _sp
from ..primitives.index import getitem
from ._indexing import const_like, take
from ._shape import broadcast_to, concatenate, reshape, transpose
from ._util import as_array, normalize_axes, normalize_axis

__all__ = ["flip", "fliplr", "flipud", "roll", "rot90", "tile", "repeat", "pad"]


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


# --- pad ------------------------------------------------------------------------------------

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


_GATHER_MODES = ("edge", "reflect", "symmetric", "wrap")


def pad(array, pad_width, mode="constant", **kwargs):
    """numpy.pad (modes constant, empty, edge, reflect, symmetric, wrap; every pad_width form).

    constant/empty: one ``pad`` primitive (its gradient slices the interior back out);
    edge/reflect/symmetric/wrap: one gather whose indices are ``np.pad(arange(n))``.
    """
    a = as_array(array)
    if isinstance(pad_width, dict):  # numpy >= 2.3: {axis: width}
        widths = [(0, 0)] * a.ndim
        for ax, w in pad_width.items():
            widths[normalize_axis(ax, a.ndim)] = _as_pairs(w, 1, "pad_width")[0]
        widths = tuple(widths)
    else:
        widths = _as_pairs(pad_width, a.ndim, "pad_width")
    if not any(b or e for b, e in widths):
        return a
    if mode in ("constant", "empty"):
        allowed = {"constant_values"} if mode == "constant" else set()
        _check_kwargs(kwargs, allowed, mode)
        cv = kwargs.get("constant_values", 0)
        if isinstance(cv, Tracer):  # a traced fill value: x padded with 0, plus cv on the border
            if cv.ndim != 0:
                raise TypeError("pad: a traced constant_values must be a scalar")
            border = _sp.pad(_cp.zeros_like(a), widths, 1)
            return _sp.pad(a, widths, 0) + cv * border
        cv_pairs = _as_pairs(cv, a.ndim, "constant_values", integral=False)
        flat = {v for p in cv_pairs for v in p}
        value = flat.pop() if len(flat) == 1 else cv_pairs
        return _sp.pad(a, widths, value)
    if mode not in _GATHER_MODES:
        raise ValueError(
            f"pad: mode {mode!r} is not supported; funcgrad supports 'constant', 'empty', "
            f"{', '.join(repr(m) for m in _GATHER_MODES)}"
        )
    _check_kwargs(kwargs, {"reflect_type"} if mode in ("reflect", "symmetric") else set(), mode)
    if kwargs.get("reflect_type", "even") != "even":
        raise ValueError("pad: only reflect_type='even' is supported")
    padded = [ax for ax, (b, e) in enumerate(widths) if b or e]
    index = []
    for ax, (b, e) in enumerate(widths):
        n = a.shape[ax]
        if (b or e) and n == 0:
            raise ValueError(f"can't extend empty axis {ax} using modes other than 'constant' or 'empty'")
        index.append(np.pad(np.arange(n), (b, e), mode=mode))
    if not padded:
        return a
    if len(padded) == 1:
        return take(a, index[padded[0]], axis=padded[0])
    grid = np.ix_(*index)  # all axes advanced and adjacent: the result keeps their order
    return getitem(a, tuple(const_like(g, a) for g in grid))


def _check_kwargs(kwargs, allowed, mode):
    extra = set(kwargs) - allowed
    if extra:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {sorted(extra)}")
