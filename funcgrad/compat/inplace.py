"""In-place operations with PyTorch's autograd semantics.

``inplace(x, fn, *others)`` computes ``fn(x, *others)`` out of place (recorded
like any op), writes the result into x's storage and bumps the version
counter shared by x and its views, so a saved copy that is now stale raises at
backward.  Under grad mode the history is rebased: x's grad_fn becomes the new
value's; for a view, its base gets a scatter node writing the new values into
the old base (``x[0] = y`` inside a graph).  In-place ops on a leaf that
requires grad (or a view of one) raise, except under ``no_grad``; writing to
an ``expand()``ed tensor raises.
"""

from __future__ import annotations

import numpy as np

from ..backend import kind_of
from ..primitives.index import _Slot, scatter_set_p
from ..primitives.shape import reshape_p
from . import dtypes
from ._dispatch import apply
from .device import device, like, mixed_devices
from .autograd.grad_mode import STATE
from .tensor import Tensor, _addr, _lowest, wrap

__all__ = ["inplace", "write", "positions"]

_CAT = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
_LEGACY_NAME = {"b": "Bool", "u": "Byte", "i": "Long", "f": "Float", "c": "ComplexFloat"}


def _check_writable(x):
    v = x._value
    if (not v.flags.writeable) if isinstance(v, np.ndarray) else (0 in v.strides and v.size > 1):
        if 0 in v.strides and v.size > 1:
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers to a single "
                "memory location. Please clone() the tensor before performing the operation.")
        raise RuntimeError("the tensor's storage is read-only (a non-writable numpy array)")


def _check_leaf(x):
    if x._req and x.grad_fn is None:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    b = x._base
    if b is not None and b._req and b.grad_fn is None and x._vc is b._vc:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")


def write(x, new):
    """Store ``new``'s values into x's storage (PyTorch's cast and shape rules), bump the version."""
    nv = new._value if isinstance(new, Tensor) else like(new, x._value)
    xd = x._value.dtype
    if _CAT[kind_of(nv.dtype)] > _CAT[kind_of(xd)]:
        raise RuntimeError(f"result type {_LEGACY_NAME[kind_of(nv.dtype)]} can't be cast to the desired output type "
                           f"{dtypes.dtype._BY_NP[xd].legacy_name}")
    if nv.shape != x._value.shape:
        try:
            b = np.broadcast_shapes(nv.shape, x._value.shape)
        except ValueError:
            b = None
        if b != x._value.shape:
            raise RuntimeError(f"output with shape {list(x._value.shape)} doesn't match the broadcast shape "
                               f"{list(b) if b is not None else list(nv.shape)}")
    if type(nv) is not type(x._value) and not isinstance(nv, np.generic):
        if not (type(nv) is np.ndarray and nv.ndim == 0):  # a 0-d cpu tensor is a scalar
            raise mixed_devices(x.device, device._of(nv))
        nv = nv[()]
    x._value[...] = nv
    x._bump()


def positions(view_buf, base_buf):
    """Flat indices (into the base, C order) of each element of a view of the base's storage.

    Host bookkeeping from shapes, strides and addresses (no data is read): a numpy array
    whatever the buffers' device."""
    isz = base_buf.dtype.itemsize
    lo = _lowest(base_buf)
    ids = np.empty(base_buf.shape, np.int64)
    ids[...] = np.arange(base_buf.size).reshape(base_buf.shape)
    # the base's element at byte offset o holds flat index ids[...]; map byte offsets -> flat index
    offs = np.zeros(base_buf.shape, np.int64)
    for d, (n, s) in enumerate(zip(base_buf.shape, base_buf.strides)):
        shape = [1] * base_buf.ndim
        shape[d] = n
        offs = offs + (np.arange(n) * s).reshape(shape)
    offs = offs + (_addr(base_buf) - lo)
    table = np.full(max(int(offs.max()) // isz + 1, 1) if offs.size else 1, -1, np.int64)
    table[(offs // isz).ravel()] = ids.ravel()
    voffs = np.zeros(view_buf.shape, np.int64) + (_addr(view_buf) - lo) // isz
    for d, (n, s) in enumerate(zip(view_buf.shape, view_buf.strides)):
        shape = [1] * view_buf.ndim
        shape[d] = n
        voffs = voffs + (np.arange(n) * (s // isz)).reshape(shape)
    return table[voffs]


def _snapshot(x):
    """A tensor with x's history and a private copy of its values (what the recorded op reads)."""
    s = wrap(x._value.copy())
    s.grad_fn = x.grad_fn
    s._output_nr = x._output_nr
    return s


def inplace(x, fn, *others, name=None):
    _check_writable(x)
    if not STATE.enabled:
        write(x, fn(x, *others))
        return x
    _check_leaf(x)
    needs = x.grad_fn is not None or any(isinstance(o, Tensor) and o.requires_grad for o in others)
    if not needs:
        write(x, fn(x, *others))
        return x
    base = x._base if (x._base is not None and x._vc is x._base._vc) else None
    src = _snapshot(x) if x.grad_fn is not None else wrap(x._value.copy())
    new = fn(src, *others)
    if base is not None:
        pos = positions(x._value, base._value) if base._value.size else None
        bsrc = _snapshot(base)
    write(x, new)
    if not new.requires_grad:
        x.grad_fn = None
        x._output_nr = 0
        return x
    if new._value.dtype != x._value.dtype:
        from ._dispatch import cast  # noqa: PLC0415

        new = cast(new, x._value.dtype)
    if new._value.shape != x._value.shape:
        from .ops_shape import expand  # noqa: PLC0415

        new = apply(reshape_p, expand(new, x._value.shape).contiguous(), shape=x._value.shape)
    x.grad_fn = new.grad_fn
    x._output_nr = new._output_nr
    if name is not None:
        x.grad_fn.name_ = name
    if base is not None and pos is not None:
        flat_b = apply(reshape_p, bsrc, shape=(base._value.size,))
        flat_v = apply(reshape_p, new, shape=(x._value.size,))
        nb = apply(scatter_set_p, flat_b, flat_v, wrap(like(pos.reshape(-1), base._value)), template=(_Slot(0),))
        nb = apply(reshape_p, nb, shape=base._value.shape)
        nb.grad_fn.name_ = "CopySlices"
        base.grad_fn = nb.grad_fn
        base._output_nr = 0
    return x
