"""Index-driven functions: take, take_along_axis, choose, select, diagonal/diag/trace,
tril/triu, and the concrete-valued nonzero/argwhere/flatnonzero.

Everything differentiable here is a gather (``getitem`` with integer arrays),
a scatter or a select, so gradients come from those primitives' rules:
repeated indices accumulate.  Index arrays are never differentiated; they are
placed on the data's device.
"""

from __future__ import annotations

import numpy as np

from .. import backend
from ..core import Array, Tracer
from ..primitives import creation as _cp
from ..primitives import elementwise as _ew
from ..primitives.index import getitem
from ._shape import broadcast_to, moveaxis, ravel, stack
from ._util import as_array, no_out, normalize_axis

__all__ = [
    "nonzero", "argwhere", "flatnonzero", "take", "take_along_axis", "choose", "select",
    "diagonal", "diag", "diagflat", "trace", "tril", "triu", "put_along_axis",
]


def _device(x):
    try:
        return x.device
    except Exception:  # no concrete value (vmap): index arrays go to the default device
        return backend.default_device()


def const_like(host, like):
    """Host data (index arrays, masks) as an Array on ``like``'s device."""
    dev = _device(like)
    return Array(host) if dev.kind == "cpu" else Array(host, device=dev)


def index_operand(indices, like, fname):
    """Integer indices as an Array on ``like``'s device (numpy's casting error otherwise)."""
    traced_or_array = isinstance(indices, (Array, Tracer))
    if traced_or_array:
        dtype = np.dtype(indices.dtype)
    else:
        indices = np.asarray(indices)
        if indices.size == 0 and indices.dtype.kind == "f":
            indices = indices.astype(np.intp)
        dtype = indices.dtype
    if dtype.kind not in "iu":
        raise TypeError(f"{fname}: indices must be integers, got dtype {dtype} "
                        "(Cannot cast array data to int64 according to the rule 'safe')")
    return indices if traced_or_array else const_like(indices, like)


def _concrete(a, fname):
    a = as_array(a)
    try:
        return a, a._concrete()
    except Exception:
        raise TypeError(
            f"{fname} needs a concrete array: its result's shape depends on the values "
            "(not available under vmap)"
        ) from None


def host_values(a, fname):
    """The concrete values of ``a`` as a numpy array (copied from the device if need be)."""
    return backend.to_numpy(_concrete(a, fname)[1])


def nonzero(a):
    """Indices of the non-zero elements (a tuple of int arrays); needs a concrete array."""
    a, buf = _concrete(a, "nonzero")
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use atleast_1d(x).nonzero() instead.")
    return tuple(Array._from_buffer(i) for i in backend.namespace_of(buf).nonzero(buf))


def argwhere(a):
    a, buf = _concrete(a, "argwhere")
    return Array._from_buffer(backend.namespace_of(buf).argwhere(buf))


def flatnonzero(a):
    a, buf = _concrete(a, "flatnonzero")
    return Array._from_buffer(backend.namespace_of(buf).flatnonzero(buf))


# --- gathers ------------------------------------------------------------------------------

def _wrap_mode(idx, n, mode, fname):
    """Indices under numpy's ``mode``: 'raise' leaves them (the gather checks bounds)."""
    if mode == "raise":
        return idx
    if mode not in ("wrap", "clip"):
        raise ValueError(f"{fname}: clipmode must be one of 'clip', 'raise', or 'wrap', got {mode!r}")
    if n == 0:
        raise IndexError(f"{fname}: cannot do a non-empty take from an empty axis")
    buf = idx._concrete()
    xp = backend.namespace_of(buf)
    out = xp.mod(buf, n) if mode == "wrap" else xp.clip(buf, 0, n - 1)
    return Array._from_buffer(out)


def take(a, indices, axis=None, out=None, mode="raise"):
    """numpy.take: a gather along ``axis`` (flattened if None); gradients scatter-add."""
    no_out(out, "take")
    a = as_array(a)
    if axis is None:
        a, axis = ravel(a), 0
    axis = normalize_axis(axis, a.ndim)
    idx = _wrap_mode(index_operand(indices, a, "take"), a.shape[axis], mode, "take")
    return getitem(a, (slice(None),) * axis + (idx,))


def _grid(shape, axis, idx, like):
    """Index tuple selecting idx along ``axis`` and every position of the other axes."""
    out = []
    for d, n in enumerate(shape):
        if d == axis:
            out.append(idx)
        else:
            view = [1] * len(shape)
            view[d] = n
            out.append(const_like(np.arange(n).reshape(view), like))
    return tuple(out)


def take_along_axis(arr, indices, axis=-1):
    """numpy.take_along_axis: one gather (all-advanced index); gradients scatter-add."""
    a = as_array(arr)
    if axis is None:
        a, axis = ravel(a), 0
    idx = index_operand(indices, a, "take_along_axis")
    if idx.ndim != a.ndim:
        raise ValueError(
            f"`indices` and `arr` must have the same number of dimensions: shapes "
            f"{tuple(idx.shape)} and {tuple(a.shape)}"
        )
    axis = normalize_axis(axis, a.ndim)
    return getitem(a, _grid(a.shape, axis, idx, a))


def put_along_axis(arr, indices, values, axis):
    """Functional numpy.put_along_axis: returns ``arr`` with the values written (a new array)."""
    a = as_array(arr)
    if axis is None:
        a2, ax = ravel(a), 0
    else:
        a2, ax = a, normalize_axis(axis, a.ndim)
    idx = index_operand(indices, a2, "put_along_axis")
    if idx.ndim != a2.ndim:
        raise ValueError(f"`indices` and `arr` must have the same number of dimensions: shapes {tuple(idx.shape)} and {tuple(a2.shape)}")
    grid = _grid(a2.shape, ax, idx, a2)
    shape = np.broadcast_shapes(*(tuple(g.shape) for g in grid))
    out = a2.at[grid].set(broadcast_to(as_array(values), shape))
    return out if axis is not None else out.reshape(a.shape)


def choose(a, choices, out=None, mode="raise"):
    """numpy.choose: result[i] = choices[a[i]][i]; differentiable in the choices."""
    no_out(out, "choose")
    choices = [as_array(c) for c in choices]
    n = len(choices)
    if n == 0:
        raise ValueError("choose: choices must not be empty")
    idx = index_operand(a, choices[0], "choose")
    if mode == "raise":
        buf = idx._concrete()
        xp = backend.namespace_of(buf)
        if buf.size and bool(xp.any((buf < 0) | (buf >= n))):
            raise ValueError(f"invalid entry in choice array: indices must be in [0, {n}) with mode='raise'")
    else:
        idx = _wrap_mode(idx, n, mode, "choose")
    shape = np.broadcast_shapes(tuple(idx.shape), *(tuple(c.shape) for c in choices))
    stacked = stack([broadcast_to(c, shape) for c in choices])
    idx = broadcast_to(idx, shape).reshape((1,) + shape)
    return take_along_axis(stacked, idx, axis=0).reshape(shape)


def select(condlist, choicelist, default=0):
    """numpy.select: the first true condition picks the choice (a chain of selects)."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if not condlist:
        raise ValueError("select with an empty condition list is not possible")
    from ._elementwise import where  # noqa: PLC0415

    out = default  # a Python scalar stays weakly typed, as in numpy
    for k in range(len(condlist) - 1, -1, -1):  # the first true condition is applied last
        c = as_array(condlist[k])
        if c.dtype != np.bool_:
            raise TypeError(f"invalid entry {k} in condlist: should be boolean ndarray")
        out = where(c, choicelist[k], out)
    return out


# --- diagonals and triangles --------------------------------------------------------------------

def diagonal(a, offset=0, axis1=0, axis2=1):
    """numpy.diagonal: the diagonal becomes the last axis (a gather; numpy returns a view)."""
    a = as_array(a)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    ax1, ax2 = normalize_axis(axis1, a.ndim, "axis1"), normalize_axis(axis2, a.ndim, "axis2")
    if ax1 == ax2:
        raise ValueError("axis1 and axis2 cannot be the same")
    m = moveaxis(a, (ax1, ax2), (-2, -1))
    n1, n2 = m.shape[-2], m.shape[-1]
    r0, c0 = max(-offset, 0), max(offset, 0)
    k = max(0, min(n1 - r0, n2 - c0))
    rows = const_like(np.arange(r0, r0 + k), a)
    cols = const_like(np.arange(c0, c0 + k), a)
    return getitem(m, (Ellipsis, rows, cols))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    from ._reductions import sum as _sum  # noqa: PLC0415

    no_out(out, "trace")
    return _sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


def diag(v, k=0):
    """numpy.diag: the k-th diagonal of a 2-d array, or a 2-d array with v on it (a scatter)."""
    v = as_array(v)
    if v.ndim == 2:
        return diagonal(v, k)
    if v.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    n = v.shape[0] + abs(k)
    r0, c0 = max(-k, 0), max(k, 0)
    rows = const_like(np.arange(r0, r0 + v.shape[0]), v)
    cols = const_like(np.arange(c0, c0 + v.shape[0]), v)
    return _cp.zeros_like(v, shape=(n, n)).at[rows, cols].set(v)


def diagflat(v, k=0):
    return diag(ravel(as_array(v)), k)


def _triangle(m, k, lower):
    m = as_array(m)
    if m.ndim == 0:
        raise ValueError(f"{'tril' if lower else 'triu'} needs an array of at least 1 dimension")
    n1, n2 = m.shape[-2:] if m.ndim > 1 else (m.shape[0], m.shape[0])  # numpy: 1-d -> (n, n)
    mask = np.tri(n1, n2, k, dtype=bool) if lower else ~np.tri(n1, n2, k - 1, dtype=bool)
    return _ew.where(const_like(mask, m), m, _cp.zeros_like(m, shape=()))


def tril(m, k=0):
    """Lower triangle (elements above the k-th diagonal zeroed): a select."""
    return _triangle(m, k, True)


def triu(m, k=0):
    """Upper triangle (elements below the k-th diagonal zeroed): a select."""
    return _triangle(m, k, False)
