"""Scatter-style ops: scatter_reduce(_), index_copy(_), index_reduce(_), select_scatter, slice_scatter, as_strided.

Built on the core's scatter primitives (scatter_set/add/multiply/min/max), whose rules give the gradients
(amax/amin: split evenly between ties, as PyTorch).
"""

from __future__ import annotations

import numpy as np

from ..backend import kind_of
from ..primitives.index import getitem_p, parse_index, scatter_add_p, scatter_max_p, scatter_min_p, \
    scatter_multiply_p, scatter_set_p
from . import dtypes
from ._dispatch import FUNCS, apply, cast, method, name_grad, op
from .device import like, xp_of
from .autograd.graph import link_view
from .inplace import inplace
from .tensor import _addr, _dim, _lowest, root, wrap

__all__ = ["scatter_reduce", "index_copy", "index_reduce", "select_scatter", "slice_scatter", "as_strided"]


def _int_t(a, ref):
    return wrap(like(np.asarray(a, np.int64), ref._value))


# --- scatters -----------------------------------------------------------------------------------

_REDUCE = {"sum": scatter_add_p, "prod": scatter_multiply_p, "amax": scatter_max_p, "amin": scatter_min_p,
           "mean": scatter_add_p}


def _identity(reduce, npd):
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    big = np.inf if kind_of(npd) == "f" else (np.iinfo(npd).max if npd.kind in "iu" else True)
    small = -np.inf if kind_of(npd) == "f" else (np.iinfo(npd).min if npd.kind in "iu" else False)
    return small if reduce == "amax" else big


def _reduce_into(input, template, arrays, src, reduce, include_self, name):
    if reduce not in _REDUCE:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    npd = input._value.dtype
    src = cast(src, npd)
    base = input
    if not include_self:
        base = apply(scatter_set_p, input, _identity(reduce, npd), *arrays, template=template)
    out = apply(_REDUCE[reduce], base, src, *arrays, template=template)
    if reduce == "mean":
        ones = wrap(xp_of(input._value).ones(src._value.shape, npd))
        count = apply(scatter_add_p, wrap(xp_of(input._value).full(input._value.shape, 1 if include_self else 0,
                                                                   npd)), ones, *arrays, template=template)
        count = FUNCS["clamp"](count, min=1)
        out = FUNCS["floor_divide"](out, count) if npd.kind in "iub" else FUNCS["div"](out, count)
    return name_grad(out, name)


@op("scatter_reduce")
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """``input`` with ``src`` combined into ``input[..., index, ...]`` along ``dim`` by ``reduce``."""
    from .ops_index import _check_index, _full_index  # noqa: PLC0415

    d = _dim(dim, input._value.ndim)
    _check_index(input, d, index, "scatter_reduce")
    if src._value.dtype != input._value.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if src._value.shape != index._value.shape:
        src = src[tuple(slice(0, n) for n in index._value.shape)]
    template, arrays = parse_index(_full_index(index, d, input._value.ndim), input._value.ndim)
    return _reduce_into(input, template, arrays, src, reduce, include_self, "ScatterReduceBackward0")


@method("scatter_reduce_")
def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
    return inplace(self, lambda s, v: scatter_reduce(s, dim, index, v, reduce, include_self=include_self), src)


def _same_dtype(input, src, what):
    if src._value.dtype != input._value.dtype:
        a, b = (dtypes.from_numpy_dtype(x._value.dtype).legacy_name for x in (input, src))
        raise RuntimeError(f"{what}: self ({a}) and source ({b}) must have the same scalar type")


def _along(input, dim, index, source, what):
    """index_copy/index_reduce: checks, and the index template along ``dim`` (0-d input: as 1-element)."""
    if index._value.ndim > 1:
        raise IndexError(f"{what}_(): Index should have dimension 1 or 0 (got {index._value.ndim})")
    if index._value.dtype.kind not in "iu":
        raise RuntimeError(f"{what}_(): Expected dtype int32/int64 for index but got: "
                           f"{dtypes.from_numpy_dtype(index._value.dtype).legacy_name}")
    _same_dtype(input, source, f"{what}_()")
    d = _dim(dim, max(input._value.ndim, 1))
    return d, parse_index((slice(None),) * d + (index.reshape(-1),), max(input._value.ndim, 1))


def _as_1d(input, source, fn):
    """Run ``fn(input, source)`` with a 0-d input (and source) as 1-element tensors; the result 0-d again."""
    if input._value.ndim:
        return fn(input, source)
    return fn(input.reshape(1), source.reshape(1)).reshape(())


@op("index_copy")
def index_copy(input, dim, index, source):
    _, (template, arrays) = _along(input, dim, index, source, "index_copy")
    return _as_1d(input, source, lambda x, s: name_grad(apply(scatter_set_p, x, s, *arrays, template=template),
                                                      "IndexCopyBackward0"))


@method("index_copy_")
def index_copy_(self, dim, index, source):
    return inplace(self, lambda s, v: index_copy(s, dim, index, v), source)


@op("index_reduce")
def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    _, (template, arrays) = _along(input, dim, index, source, "index_reduce")
    return _as_1d(input, source, lambda x, s: _reduce_into(x, template, arrays, s, reduce, include_self,
                                                         "IndexReduceBackward0"))


@method("index_reduce_")
def index_reduce_(self, dim, index, source, reduce, *, include_self=True):
    return inplace(self, lambda s, v: index_reduce(s, dim, index, v, reduce, include_self=include_self), source)


def _embed(input, src, tpl, name):
    region = input[tpl]
    if tuple(src.shape) != tuple(region.shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(region.shape)}")
    template, arrays = parse_index(tpl, input._value.ndim)
    return name_grad(apply(scatter_set_p, input, cast(src, input._value.dtype), *arrays, template=template), name)


@op("select_scatter")
def select_scatter(input, src, dim, index):
    nd = input._value.ndim
    d = _dim(dim, nd)
    n = input._value.shape[d]
    if not -n <= index < n:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(input.shape)} at "
                         f"dimension {d}")
    return _embed(input, src, (slice(None),) * d + (int(index) % n,), "SelectScatterBackward0")


@op("slice_scatter")
def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    d = _dim(dim, input._value.ndim)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    return _embed(input, src, (slice(None),) * d + (slice(start, end, step),), "SliceScatterBackward0")


def _storage_index(buf, lo):
    """Element index (in the storage starting at address ``lo``) of each element of ``buf``: host bookkeeping."""
    isz = buf.dtype.itemsize
    idx = np.full(buf.shape, (_addr(buf) - lo) // isz, np.int64)
    for k, (n, st) in enumerate(zip(buf.shape, buf.strides)):
        shp = [1] * buf.ndim
        shp[k] = n
        idx = idx + (np.arange(n, dtype=np.int64) * (st // isz)).reshape(shp)
    return idx


@op("as_strided")
def as_strided(input, size, stride, storage_offset=None):
    """A view of ``input``'s storage with the given sizes, strides and offset (in elements).

    Values are read from the storage; the gradient flows to the elements of ``input``'s base (or of
    ``input``) that the view covers, adding up where the view's elements overlap."""
    v = input._value
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError("as_strided: Negative strides are not supported at the moment, got strides: "
                           f"{list(stride)}")
    isz = v.dtype.itemsize
    rt = root(v)
    lo = _lowest(rt)
    total = rt.nbytes // isz
    off = input.storage_offset() if storage_offset is None else int(storage_offset)
    need = off + (sum((n - 1) * s for n, s in zip(size, stride)) if all(size) else -1) + 1
    if need > total and all(size):
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {off}, and "
                           f"itemsize {isz} requiring a storage size of {need * isz} are "
                           f"out of bounds for storage of size {total * isz}")
    pos = np.full(size, off, np.int64)  # the storage element each element of the result reads
    for k, (n, s) in enumerate(zip(size, stride)):
        shp = [1] * len(size)
        shp[k] = n
        pos = pos + (np.arange(n, dtype=np.int64) * s).reshape(shp)
    base = input._base if input._base is not None else input
    table = np.full(max(total, 1), -1, np.int64)  # storage element -> flat index into base
    table[_storage_index(base._value, lo).reshape(-1)] = np.arange(base._value.size)
    src = table[pos] if pos.size else pos
    xp = xp_of(v)
    flat_storage = xp.lib.stride_tricks.as_strided(rt, (total,), (isz,)) if total else rt.reshape(-1)
    values = xp.lib.stride_tricks.as_strided(flat_storage[off:] if total else flat_storage, size,
                                             tuple(s * isz for s in stride))
    covered = src >= 0
    if base._value.size == 0 or not covered.all():
        # parts of the storage outside the base: their values, with no gradient path
        r = wrap(values.copy())
        if base._value.size and covered.any():
            template, arrays = parse_index((_int_t(np.where(covered, src, 0), input),), 1)
            g = apply(getitem_p, base.reshape(-1), *arrays, template=template)
            r = FUNCS["where"](wrap(like(covered, v)), g, r)
    else:
        template, arrays = parse_index((_int_t(src, input),), 1)
        r = apply(getitem_p, base.reshape(-1), *arrays, template=template)
    r._value = values
    link_view(r, base)
    return name_grad(r, "AsStridedBackward0")


@method("as_strided_")
def as_strided_(self, size, stride, storage_offset=None):
    """``self`` made the :func:`as_strided` view of its storage (sizes, strides and offset change in place)."""
    from .autograd.grad_mode import STATE  # noqa: PLC0415
    from .inplace import _check_leaf  # noqa: PLC0415

    if STATE.enabled:
        _check_leaf(self)
    r = as_strided(self, size, stride, storage_offset)
    self._value = r._value
    if r.requires_grad and STATE.enabled:
        self.grad_fn, self._output_nr = r.grad_fn, r._output_nr
    return self
