"""Indexing: x[idx], x[idx] = v, gather/scatter, index_select, masked_*, nonzero, take.

Basic indexing (ints, slices, None, Ellipsis) gives views of the storage;
integer-tensor and boolean-mask indexing copies.  Gradients come from the
core's getitem/scatter primitives.
"""

from __future__ import annotations

import numpy as np

from ..backend import kind_of
from ..core import Array, Tracer
from ..primitives.index import (
    _Slot,
    getitem_p,
    parse_index,
    scatter_add_p,
    scatter_set_p,
)
from . import _validate as check
from . import dtypes
from ._dispatch import METHODS, apply, as_t, cast, method, name_grad, op
from .device import like, xp_of
from .autograd.grad_mode import STATE
from .autograd.graph import OpError
from .inplace import _check_leaf, _check_writable, inplace
from .tensor import Tensor, _dim, wrap

_VALUE_TYPES = (Tensor, Array, Tracer, int, float, complex, np.generic)  # what x[i] = v assigns


def _bound(v):
    """A slice bound: one-element integer tensors (``x[:lengths[i]]``) become ints, as PyTorch's ``__index__``."""
    return v.__index__() if isinstance(v, Tensor) else v


def _norm_index(idx, buf):
    """Index items for ``buf``: index tensors and host arrays (lists, numpy) on buf's device.

    As PyTorch, cpu index tensors may index a tensor of any device; an index tensor on
    another device indexes only tensors of its own device (or the cpu)."""
    items = idx if isinstance(idx, tuple) else (idx,)
    out = []
    pos = 0  # the indexed dim of the item (until an Ellipsis)
    for it in items:
        if isinstance(it, slice) and any(isinstance(b, Tensor) for b in (it.start, it.stop, it.step)):
            it = slice(_bound(it.start), _bound(it.stop), _bound(it.step))
        if isinstance(it, slice) and it.step is not None and int(it.step) <= 0:
            raise ValueError("step must be greater than zero")
        if isinstance(it, Tensor):
            if kind_of(it._value.dtype) == "f":
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            if it._value.dtype == np.uint8:
                it = wrap(it._value.astype(bool))
            if it._value.dtype == np.bool_ and pos is not None:
                check.mask_shape(it._value, buf.shape, pos, len(out))
            if type(it._value) is not type(buf) and it._value.ndim and not isinstance(it._value, Tracer) \
                    and not isinstance(buf, Tracer):  # (a transformation's values: its own device rule)
                if type(it._value) is not np.ndarray:
                    raise RuntimeError(f"indices should be either on cpu or on the same device as the indexed "
                                       f"tensor ({_dev(buf)})")
                it = wrap(like(it._value, buf))
        elif isinstance(it, (list, np.ndarray)):
            it = wrap(like(np.asarray(it), buf))
        if it is Ellipsis:
            pos = None
        elif pos is not None and it is not None:
            pos += it._value.ndim if isinstance(it, Tensor) and it._value.dtype == np.bool_ else 1
        out.append(it)
    return tuple(out) if isinstance(idx, tuple) or len(out) != 1 else out[0]


def _dev(buf):
    from .device import device  # noqa: PLC0415

    return device._of(buf)


def getitem(self, idx):
    if isinstance(idx, (bool, np.bool_)):  # x[True]: x[None]; x[False]: its empty slice (as PyTorch)
        r = getitem(self, None)
        return r if idx else getitem(r, slice(0, 0))
    idx = _norm_index(idx, self._value)
    template, arrays = parse_index(idx, self._value.ndim)
    if not arrays:
        r = apply(getitem_p, self, template=template)
        if r.grad_fn is not None:
            r.grad_fn.name_ = "SelectBackward0" if any(type(t) is int for t in template) else "SliceBackward0"
        return r
    return name_grad(apply(getitem_p, self, *arrays, template=template), "IndexBackward0")


def _check_leaf_view(x):
    if x._req and x.grad_fn is None:  # x[idx] = v writes through a view of x
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    _check_leaf(x)


def _np_index(idx):
    items = idx if isinstance(idx, tuple) else (idx,)
    out = tuple(it._value if isinstance(it, Tensor) else it for it in items)
    return out if isinstance(idx, tuple) else out[0]


def setitem(self, idx, value):
    idx = _norm_index(idx, self._value)
    _check_writable(self)
    if isinstance(value, Tensor) and type(value._value) is not type(self._value):
        from .ops_convert import _to_device  # noqa: PLC0415  (x[i] = v copies v, as copy_: any device)

        value = _to_device(value, _dev(self._value))
    elif not isinstance(value, _VALUE_TYPES):  # PyTorch assigns tensors and numbers only (not lists, arrays)
        kind = type(value)
        kind = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
        raise TypeError(f"can't assign a {kind} to a torch.{check.scalar_name(self._value)}Tensor")
    if not STATE.enabled or not (self.requires_grad or (isinstance(value, Tensor) and value.requires_grad)):
        if STATE.enabled:
            _check_leaf_view(self)
        v = value._value if isinstance(value, Tensor) else value
        if isinstance(value, Tensor) and dtypes._CAT[kind_of(value._value.dtype)] > dtypes._CAT[kind_of(self._value.dtype)]:
            v = v.astype(self._value.dtype)
        try:
            self._value[_np_index(idx)] = v
        except ValueError as e:  # shapes that do not broadcast: PyTorch's RuntimeError
            raise OpError(f"setitem: {e}") from None
        self._bump()
        return
    if STATE.enabled:
        _check_leaf_view(self)
    template, arrays = parse_index(idx, self._value.ndim)

    def put(s, v):
        v = cast(as_t(v), s._value.dtype) if isinstance(v, Tensor) else v
        return apply(scatter_set_p, s, v, *arrays, template=template)

    inplace(self, put, value, name="CopySlices")


METHODS["__getitem__"] = getitem
METHODS["__setitem__"] = setitem


def _full_index(index, dim, nd):
    grids = [wrap(like(g, index._value)) for g in np.indices(index._value.shape, sparse=True)]
    grids[dim] = index
    return tuple(grids)


def _check_index(input, dim, index, what):
    if index._value.dtype.kind not in "iu":
        raise RuntimeError(f"{what}(): Expected dtype int64 for index")
    if index._value.ndim != input._value.ndim and input._value.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    check.index_range(index, input._value.shape[dim] if input._value.ndim else 1, dim, what)


@op("gather")
def gather(input, dim, index, *, sparse_grad=False, out=None):
    d = _dim(dim, input._value.ndim)
    _check_index(input, d, index, "gather")
    template, arrays = parse_index(_full_index(index, d, input._value.ndim), input._value.ndim)
    return name_grad(apply(getitem_p, input, *arrays, template=template), "GatherBackward0")


def _scatter(prim, input, dim, index, src, name):
    d = _dim(dim, input._value.ndim)
    _check_index(input, d, index, "scatter")
    if isinstance(src, Tensor):
        if src._value.shape != index._value.shape:
            src = src[tuple(slice(0, n) for n in index._value.shape)]
        src = cast(src, input._value.dtype)
    template, arrays = parse_index(_full_index(index, d, input._value.ndim), input._value.ndim)
    return name_grad(apply(prim, input, src, *arrays, template=template), name)


@op("scatter")
def scatter(input, dim, index, src=None, value=None, *, reduce=None):
    src = value if src is None else src
    if reduce == "add":
        return _scatter(scatter_add_p, input, dim, index, src, "ScatterBackward0")
    return _scatter(scatter_set_p, input, dim, index, src, "ScatterBackward0")


@op("scatter_add")
def scatter_add(input, dim, index, src):
    return _scatter(scatter_add_p, input, dim, index, src, "ScatterAddBackward0")


@method("scatter_")
def scatter_(self, dim, index, src=None, value=None, *, reduce=None):
    return inplace(self, lambda s, v: scatter(s, dim, index, v, reduce=reduce), value if src is None else src)


@method("scatter_add_")
def scatter_add_(self, dim, index, src):
    return inplace(self, lambda s, v: scatter_add(s, dim, index, v), src)


@op("index_select")
def index_select(input, dim, index):
    d = _dim(dim, input._value.ndim, "index_select")
    check.index_tensor(index, "index_select")
    v = check.values(index)
    if v is not None and v.size and (int(v.min()) < 0 or int(v.max()) >= (input._value.shape[d] if input._value.ndim else 1)):
        raise IndexError("index_select(): index out of range in self")
    if index._value.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    template, arrays = parse_index((slice(None),) * d + (index.reshape(-1),), input._value.ndim)
    return name_grad(apply(getitem_p, input, *arrays, template=template), "IndexSelectBackward0")


@op("index_add")
def index_add(input, dim, index, source, *, alpha=1):
    d = _dim(dim, input._value.ndim)
    if alpha != 1:
        source = source * alpha
    template, arrays = parse_index((slice(None),) * d + (index,), input._value.ndim)
    return name_grad(apply(scatter_add_p, input, cast(source, input._value.dtype), *arrays, template=template),
                     "IndexAddBackward0")


@method("index_add_")
def index_add_(self, dim, index, source, *, alpha=1):
    return inplace(self, lambda s, v: index_add(s, dim, index, v, alpha=alpha), source)


@op("index_put")
def index_put(input, indices, values, accumulate=False):
    """``input[indices] = values`` (``+=`` with ``accumulate``, repeated indices adding up), out of place."""
    idx = _norm_index(tuple(indices), input._value)
    template, arrays = parse_index(idx, input._value.ndim, input._value.shape)
    v = cast(as_t(values), input._value.dtype) if isinstance(values, Tensor) else values
    prim = scatter_add_p if accumulate else scatter_set_p
    return name_grad(apply(prim, input, v, *arrays, template=template), "IndexPutBackward0")


@method("index_put_")
def index_put_(self, indices, values, accumulate=False):
    return inplace(self, lambda s, v: index_put(s, indices, v, accumulate), values, name="IndexPutBackward0")


@op("index_fill")
def index_fill(input, dim, index, value):
    d = _dim(dim, input._value.ndim)
    template, arrays = parse_index((slice(None),) * d + (index,), input._value.ndim)
    return apply(scatter_set_p, input, value, *arrays, template=template)


@method("index_fill_")
def index_fill_(self, dim, index, value):
    return inplace(self, lambda s, v: index_fill(s, dim, index, v), value)


@op("masked_select")
def masked_select(input, mask):
    from .ops_shape import expand  # noqa: PLC0415

    if mask._value.dtype != np.bool_:
        raise RuntimeError(f"masked_select: expected BoolTensor for mask, got {check.scalar_name(mask._value)}")
    shape = check.broadcast_shapes(input._value.shape, mask._value.shape)
    x = expand(input, shape) if input._value.shape != shape else input
    xp = xp_of(mask._value)
    m = xp.broadcast_to(mask._value, shape)
    template, arrays = parse_index(tuple(wrap(a) for a in xp.nonzero(m)), len(shape))
    return name_grad(apply(getitem_p, x, *arrays, template=template), "MaskedSelectBackward0")


@op("masked_fill")
def masked_fill(input, mask, value):
    from .ops_elementwise import where  # noqa: PLC0415

    if mask._value.dtype != np.bool_:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype {mask.dtype}")
    v = value
    if isinstance(v, Tensor):
        if v._value.ndim:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor")
        v = cast(v, input._value.dtype)
    r = where(mask, v, input)
    return name_grad(cast(r, input._value.dtype), "MaskedFillBackward0")


@method("masked_fill_")
def masked_fill_(self, mask, value):
    return inplace(self, lambda s, v: masked_fill(s, mask, v), value)


@op("masked_scatter")
def masked_scatter(input, mask, source):
    xp = xp_of(mask._value)
    m = xp.broadcast_to(mask._value, input._value.shape)
    n = int(m.sum())
    template, arrays = parse_index(tuple(wrap(a) for a in xp.nonzero(m)), input._value.ndim)
    vals = source.reshape(-1)[:n]
    return apply(scatter_set_p, input, cast(vals, input._value.dtype), *arrays, template=template)


@op("nonzero")
def nonzero(input, *, as_tuple=False):
    xp = xp_of(input._value)
    nz = xp.nonzero(xp.atleast_1d(input._value) if input._value.ndim == 0 else input._value)
    if as_tuple:
        return tuple(wrap(a.astype(np.int64)) for a in nz)
    return wrap(xp.stack(nz, axis=1).astype(np.int64))


@op("argwhere")
def argwhere(input):
    return nonzero(input)


@op("take")
def take(input, index):
    template, arrays = parse_index((index,), 1)
    return apply(getitem_p, input.reshape(-1), *arrays, template=template)


@op("take_along_dim")
def take_along_dim(input, indices, dim=None):
    if dim is None:
        return take(input, indices.reshape(-1))
    return gather(input, dim, indices)


__all__ = ["getitem", "setitem", "gather", "scatter", "nonzero", "_Slot"]
