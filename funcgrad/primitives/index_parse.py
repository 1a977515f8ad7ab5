"""Index parsing for funcgrad.primitives.index: numpy's index forms -> a static template.

An index is split into a static template (ints, slices, None, Ellipsis and
``_Slot`` placeholders) and the integer index arrays, which become positional
arguments of the gather/scatter primitives.  Boolean masks become integer
arrays (``nonzero``, as numpy does), after their shape is checked against the
dimensions they cover; 0-d booleans (``x[True]``) become a new size-1 axis
indexed by ``[0]`` or ``[]``.
"""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import Array, Tracer
from ..backend import default_device
from .shape import reshape


class _Slot:
    """Placeholder for the k-th index array in a static index template."""

    __slots__ = ("k",)

    def __init__(self, k):
        self.k = k

    def __repr__(self):
        return f"<index array {self.k}>"

    def __eq__(self, other):
        return isinstance(other, _Slot) and other.k == self.k

    def __hash__(self):
        return hash(("slot", self.k))


def _is_int_like(i):
    return isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_))


def _static_int(v, what):
    if v is None or _is_int_like(v):
        return None if v is None else int(v)
    if isinstance(v, Array) and v.ndim == 0 and v.dtype.kind in "iu":
        return int(v)
    raise IndexError(f"slice {what} must be an integer or None, got {v!r}")


def parse_index(idx, ndim, shape=None, device=None):
    """-> (template, arrays): the static part of ``idx`` and its index arrays.

    With ``shape`` (the indexed array's), integers are checked against their axis
    and boolean masks against the dimensions they cover, as numpy does (an
    IndexError naming both sizes).  Host index data (lists, numpy arrays) goes to
    ``device`` (the indexed array's; default: the default device).
    """
    items = idx if isinstance(idx, tuple) else (idx,)
    if isinstance(idx, list) and idx and all(isinstance(i, (slice, type(None), type(Ellipsis))) for i in idx):
        raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and integer or boolean arrays "
                         "are valid indices (a list of slices is not a multidimensional index: use a tuple)")
    template, arrays = [], []
    spans = _spans(items, ndim)
    for item, pos in zip(items, spans):
        if item is None or item is Ellipsis:
            template.append(item)
        elif isinstance(item, slice):
            template.append(slice(_static_int(item.start, "start"), _static_int(item.stop, "stop"),
                                  _static_int(item.step, "step")))
        elif _is_int_like(item):
            if shape is not None and pos < len(shape) and not -shape[pos] <= item < shape[pos]:
                # numpy's message (cupy's differs)
                raise IndexError(f"index {int(item)} is out of bounds for axis {pos} with size {shape[pos]}")
            template.append(int(item))
        else:
            arr = _index_array(item, device)
            if arr.dtype == np.bool_:
                if shape is not None:
                    _check_mask(arr, shape, pos)
                for a in _mask_to_indices(arr):
                    template.append(_Slot(len(arrays)))
                    arrays.append(a)
            elif arr.dtype.kind in "iu":
                template.append(_Slot(len(arrays)))
                arrays.append(arr)
            else:
                raise IndexError(
                    "only integers, slices (`:`), ellipsis (`...`), None and integer or boolean "
                    f"arrays are valid indices, got an array of dtype {arr.dtype}"
                )
    if sum(1 for t in template if t is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    return tuple(template), arrays


def _spans(items, ndim):
    """The first dimension of the indexed array that each index item applies to."""
    def width(item):
        if item is None or item is Ellipsis:
            return 0
        if isinstance(item, (Array, Tracer, np.ndarray)):
            return item.ndim if item.dtype == np.bool_ else 1
        if isinstance(item, list):
            try:
                host = np.asarray(item)
            except (TypeError, ValueError):
                return 1
            return host.ndim if host.dtype == np.bool_ else 1
        return 1

    widths = [width(i) for i in items]
    rest = ndim - sum(widths)
    out, pos = [], 0
    for item, w in zip(items, widths):
        out.append(pos)
        pos += max(rest, 0) if item is Ellipsis else w
    return out


def _check_mask(mask, shape, pos):
    for k, d in enumerate(mask.shape):
        axis = pos + k
        if axis >= len(shape):
            raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, but a boolean "
                             f"index of shape {tuple(mask.shape)} covers dimensions {pos}..{axis}")
        if shape[axis] != d:
            raise IndexError(
                f"boolean index did not match indexed array along axis {axis}; size of axis is "
                f"{shape[axis]} but size of corresponding boolean axis is {d}"
            )


def _index_array(item, device=None):
    if isinstance(item, (Array, Tracer)):
        return item
    if isinstance(item, (bool, np.bool_)):
        raise IndexError("a 0-d boolean index (True/False) works for reading (x[True]) but not in x.at[...] "
                         "updates; use funcgrad.numpy.where(cond, new, x) instead")
    host = np.asarray(item)
    if host.dtype == object or (host.size == 0 and host.dtype.kind == "f"):
        host = host.astype(np.intp) if host.size == 0 else host
    if host.dtype == object:
        raise IndexError(f"invalid index {item!r}")
    dev = default_device() if device is None else device
    return Array(host, device=dev)


def _mask_to_indices(mask):
    if isinstance(mask, Tracer) and not _has_concrete(mask):
        raise IndexError(
            "boolean mask indexing needs a concrete mask (its result's shape depends on the "
            "mask's values); under vmap use funcgrad.numpy.where(mask, x, 0) instead"
        )
    buf = mask._concrete()
    if not hasattr(buf, "ndim") or buf.ndim == 0:
        raise IndexError("a 0-d boolean index (True/False) works for reading (x[True]) but not in x.at[...] "
                         "updates; use funcgrad.numpy.where(cond, new, x) instead")
    xp = XP_OF_TYPE.get(type(buf), np)
    return [Array(a) for a in xp.nonzero(buf)]


def _has_concrete(t):
    try:
        t._concrete()
        return True
    except Exception:
        return False


def _rebuild(template, arrays):
    return tuple(arrays[t.k] if type(t) is _Slot else t for t in template)


def _is_scalar_bool(item):
    if isinstance(item, (bool, np.bool_)):
        return True
    return isinstance(item, (Array, np.ndarray)) and item.ndim == 0 and item.dtype == np.bool_


def _has_scalar_bool(idx):
    return any(_is_scalar_bool(i) for i in (idx if isinstance(idx, tuple) else (idx,)))


def _fold_scalar_bools(x, idx):
    """numpy's x[True] / x[False]: an advanced index of length 1 / 0 on a new size-1 axis.

    The new axes are inserted with a reshape, and each 0-d boolean becomes the
    integer index array [0] or [] on its axis: the same result and gradient.
    """
    items = list(idx) if isinstance(idx, tuple) else [idx]
    flags = [_is_scalar_bool(i) for i in items]
    n_new = x.ndim + sum(flags)
    spans = _spans([1 if f else i for f, i in zip(flags, items)], n_new)
    new_axes = {p for p, f in zip(spans, flags) if f}
    dims = iter(x.shape)
    x = reshape(x, tuple(1 if d in new_axes else next(dims) for d in range(n_new)))
    dev = array_device(x)
    for k, f in enumerate(flags):
        if f:
            items[k] = Array(np.zeros(1 if bool(items[k]) else 0, np.intp), device=dev)
    return x, tuple(items)


def array_device(x):
    """x's device, or None where it has no concrete value (under vmap: the default device)."""
    try:
        return x.device
    except Exception:
        return None
