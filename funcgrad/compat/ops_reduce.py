"""Reductions: sum/mean/prod/max/min (values, indices)/median/mode/sort/topk/kthvalue/std/var/
norm/dist/cumsum/cumprod/logsumexp/all/any/argmax/argmin.

Selections (max over a dim, median, sort, topk, ...) compute indices with
numpy and gather the values through the core's getitem primitive, so the
gradient goes to the selected elements; ``x.max()`` without dim uses the
core's reduce_max (ties split evenly, as PyTorch).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..backend import kind_of, to_numpy
from ..core import REGISTRY
from ..primitives import reduce as rd
from ..primitives.index import getitem_p, parse_index
from . import _validate as check
from . import dtypes
from ._dispatch import (
    apply,
    as_t,
    cast,
    float_input,
    name_grad,
    norm_dim,
    op,
    tensor_arg,
)
from .device import like, xp_of
from .dtypes import buf_of
from .dtypes_limited import LIMITED
from .dtypes_limited import check as check_limited
from .tensor import Tensor, _dim, wrap

_values_indices = {}


def _vi(name):
    if name not in _values_indices:
        base = namedtuple(name, ["values", "indices"])
        _values_indices[name] = type(name, (base,), {"__slots__": (), "__repr__": _rt_repr})
    return _values_indices[name]


def _rt_repr(self):
    body = ",\n".join(f"{k}={v!r}" for k, v in zip(self._fields, self))
    return f"torch.return_types.{type(self).__name__}(\n{body})"


def _axes(dim, nd):
    if dim is None:
        return tuple(range(nd))
    d = norm_dim(dim, nd)
    if nd == 0:  # a 0-d tensor takes dim 0 / -1 (checked) and reduces nothing
        return ()
    return d if isinstance(d, tuple) else (d,)


@op("sum")
def sum(input, dim=None, keepdim=False, *, dtype=None, axis=None):  # noqa: A001
    tensor_arg(input, "sum")
    dim = axis if dim is None else dim
    x = input
    if dtype is not None:
        x = cast(x, dtypes.as_dtype(dtype).dtype)
    elif buf_of(x).dtype.kind in "biu":
        x = cast(x, np.dtype(np.int64))
    axes = _axes(dim, buf_of(x).ndim) if not (isinstance(dim, (list, tuple)) and len(dim) == 0) else tuple(range(buf_of(x).ndim))
    r = apply(rd.reduce_sum_p, x, axes=axes, keepdims=bool(keepdim))
    return name_grad(r, "SumBackward0" if dim is None else "SumBackward1")


@op("mean")
def mean(input, dim=None, keepdim=False, *, dtype=None, axis=None):
    tensor_arg(input, "mean")
    dim = axis if dim is None else dim
    x = input
    if dtype is not None:
        x = cast(x, dtypes.as_dtype(dtype).dtype)
    if kind_of(buf_of(x).dtype) not in "fc":
        raise RuntimeError(
            f"mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
            f"dtype. Got: {dtypes.as_dtype(x.dtype).legacy_name}")
    axes = _axes(dim, buf_of(x).ndim)
    n = int(np.prod([buf_of(x).shape[a] for a in axes], dtype=np.int64)) if buf_of(x).ndim else 1
    s = apply(rd.reduce_sum_p, x, axes=axes, keepdims=bool(keepdim))
    from .ops_elementwise import div  # noqa: PLC0415

    return name_grad(div(s, float(n) if n else float("nan")), "MeanBackward0" if dim is None else "MeanBackward1")


@op("prod")
def prod(input, dim=None, keepdim=False, *, dtype=None):
    tensor_arg(input, "prod")
    x = input if dtype is None else cast(input, dtypes.as_dtype(dtype).dtype)
    if buf_of(x).dtype.kind in "biu" and dtype is None:
        x = cast(x, np.dtype(np.int64))
    axes = _axes(dim, buf_of(x).ndim)
    r = apply(REGISTRY["reduce_prod"], x, axes=axes, keepdims=bool(keepdim) and dim is not None)
    return name_grad(r, "ProdBackward0" if dim is None else "ProdBackward1")


def _take(x, idx, d):
    """x's values at integer positions ``idx`` along dim d (gathered: differentiable)."""
    grids = [like(g, idx) for g in np.indices(idx.shape, sparse=True)]
    grids[d] = idx
    template, arrays = parse_index(tuple(wrap(g) for g in grids), buf_of(x).ndim)
    return apply(getitem_p, x, *arrays, template=template)


def _select_reduce(name, x, dim, keepdim, pick):
    """(values, indices) of a selection along ``dim``; pick(buf, d) -> index array with keepdims."""
    if buf_of(x).ndim == 0:
        return _vi(name)(x, wrap(xp_of(x._value).zeros((), np.int64)))
    d = _dim(dim, buf_of(x).ndim)
    if buf_of(x).shape[d] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    idx = pick(x._value, d).astype(np.int64)
    vals = _take(x, idx, d)
    if not keepdim:
        vals = vals.squeeze(d)
        idx = idx.squeeze(d)
    return _vi(name)(name_grad(vals, name.title() + "Backward0"), wrap(idx))


def _extreme(kind):
    prim = rd.reduce_max_p if kind == "max" else rd.reduce_min_p

    def f(input, dim=None, keepdim=False, *, out=None):
        if isinstance(dim, Tensor):  # torch.max(a, b): element-wise
            from .ops_elementwise import maximum, minimum  # noqa: PLC0415

            return (maximum if kind == "max" else minimum)(input, dim)
        if dim is None:
            if buf_of(input).size == 0:
                raise RuntimeError(f"{kind}(): Expected reduction dim to be specified for input.numel() == 0. "
                                   "Specify the reduction dim with the 'dim' argument.")
            return name_grad(apply(prim, input, axes=tuple(range(buf_of(input).ndim)), keepdims=False),
                             kind.title() + "Backward1")

        def pick(buf, d):
            xp = xp_of(buf)
            nanpos = xp.isnan(buf).any(axis=d, keepdims=True) if kind_of(buf.dtype) == "f" else None
            i = xp.expand_dims((xp.argmax if kind == "max" else xp.argmin)(buf, axis=d), d)
            if nanpos is not None and bool(nanpos.any()):
                i = xp.where(nanpos, xp.expand_dims(xp.argmax(xp.isnan(buf), axis=d), d), i)
            return i
        return _select_reduce(kind, input, dim, keepdim, pick)
    f.__name__ = kind
    return f


max = op("max")(_extreme("max"))  # noqa: A001
min = op("min")(_extreme("min"))  # noqa: A001
def _amax_amin(name, input, dim, keepdim):
    """amax/amin over ``dim`` (all dims for ``()``); a reduced dim of size 0 is PyTorch's IndexError."""
    shape = buf_of(input).shape
    axes = _axes(None if isinstance(dim, (tuple, list)) and not dim else dim, len(shape))
    for a in axes:
        if shape[a] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {a} to have non-zero size.")
    return apply(rd.reduce_max_p if name == "amax" else rd.reduce_min_p, input, axes=axes, keepdims=keepdim)


op("amax")(lambda input, dim=(), keepdim=False: _amax_amin("amax", input, dim, keepdim))
op("amin")(lambda input, dim=(), keepdim=False: _amax_amin("amin", input, dim, keepdim))


def _arg_extreme(name):
    def f(input, dim=None, keepdim=False):
        buf = input._value
        if buf.dtype in LIMITED:  # uint16/32/64, float8: PyTorch has no kernel
            check_limited(name, (buf,))
        xp = xp_of(buf)
        fn = getattr(xp, name)
        if dim is None:
            if buf.size == 0:
                raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
            r = fn(buf.reshape(-1))
            if keepdim:
                r = r.reshape((1,) * buf.ndim)
        else:
            d = _dim(dim, input.dim(), name)
            if buf.ndim and buf.shape[d] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
            r = fn(buf, axis=d, keepdims=keepdim)
        return wrap(xp.asarray(r).astype(np.int64))
    f.__name__ = name
    return f


argmax = op("argmax")(_arg_extreme("argmax"))
argmin = op("argmin")(_arg_extreme("argmin"))


def _sorted_idx(buf, d, descending=False, stable=True):
    xp = xp_of(buf)
    if descending:  # stable: equal elements keep their original order
        return buf.shape[d] - 1 - xp.flip(xp.argsort(xp.flip(buf, d), axis=d, kind="stable"), d)
    return xp.argsort(buf, axis=d, kind="stable")


@op("sort")
def sort(input, dim=-1, descending=False, stable=False):
    if buf_of(input).ndim == 0:
        return _vi("sort")(input, wrap(xp_of(input._value).zeros((), np.int64)))
    d = _dim(dim, buf_of(input).ndim)
    idx = _sorted_idx(input._value, d, descending)
    return _vi("sort")(name_grad(_take(input, idx, d), "SortBackward0"), wrap(idx.astype(np.int64)))


@op("argsort")
def argsort(input, dim=-1, descending=False, stable=False):
    return sort(input, dim, descending).indices


@op("topk")
def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    d = _dim(dim, buf_of(input).ndim, "topk")
    k = check.int_arg(k, "topk", "k", 1)
    if not 0 <= k <= (buf_of(input).shape[d] if buf_of(input).ndim else 1):
        raise RuntimeError("selected index k out of range")
    idx = _sorted_idx(input._value, d, descending=largest)
    idx = idx[(slice(None),) * d + (slice(0, k),)]
    return _vi("topk")(name_grad(_take(input, idx, d), "TopkBackward0"), wrap(idx.astype(np.int64)))


@op("kthvalue")
def kthvalue(input, k, dim=-1, keepdim=False):
    k = check.int_arg(k, "kthvalue", "k", 1)

    def pick(buf, d):
        if not 1 <= k <= buf.shape[d]:
            raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
        return _take_pos(xp_of(buf).argsort(buf, axis=d, kind="stable"), k - 1, d)
    return _select_reduce("kthvalue", input, dim, keepdim, pick)


@op("median")
def median(input, dim=None, keepdim=False):
    """The lower of the two middle values for an even count (PyTorch)."""
    if dim is None:
        flat = input.reshape(-1)
        n = buf_of(flat).size
        if n == 0:
            return wrap(xp_of(input._value).full((), np.nan, buf_of(input).dtype))
        r = _select_reduce("median", flat, 0, False,
                           lambda b, d: _take_pos(xp_of(b).argsort(b, kind="stable"), (n - 1) // 2, 0)).values
        return name_grad(r, "MedianBackward0")
    return _select_reduce("median", input, dim, keepdim,
                          lambda b, d: _take_pos(xp_of(b).argsort(b, axis=d, kind="stable"), (b.shape[d] - 1) // 2, d))


def _take_pos(idx, k, d):
    """idx[..., k:k+1, ...] along d (keeps the dimension)."""
    return idx[(slice(None),) * d + (slice(k, k + 1),)]


@op("mode")
def mode(input, dim=-1, keepdim=False):
    """The smallest of the most frequent values (and the index of its last occurrence, as PyTorch)."""
    def pick(buf, d):
        on = buf
        buf = to_numpy(buf)  # a per-row host loop: the rows are copied to the host once
        moved = np.moveaxis(buf, d, -1)
        out = np.empty(moved.shape[:-1] + (1,), np.int64)
        for pos in np.ndindex(moved.shape[:-1]):
            row = moved[pos]
            vals, counts = np.unique(row, return_counts=True)
            v = vals[np.argmax(counts)]
            out[pos + (0,)] = np.nonzero(row == v)[0][-1]
        return like(np.moveaxis(out, -1, d), on)
    return _select_reduce("mode", input, dim, keepdim, pick)


def _var(input, dim, correction, keepdim):
    from .ops_elementwise import div, mul, sub  # noqa: PLC0415

    x = float_input(input)
    axes = _axes(dim, buf_of(x).ndim)
    n = int(np.prod([buf_of(x).shape[a] for a in axes], dtype=np.int64)) if buf_of(x).ndim else 1
    m = div(apply(rd.reduce_sum_p, x, axes=axes, keepdims=True), float(n) if n else float("nan"))
    dev = sub(x, m)
    ss = apply(rd.reduce_sum_p, mul(dev, dev), axes=axes, keepdims=bool(keepdim))
    denom = n - correction
    return div(ss, float(denom) if denom > 0 else float("nan")) if denom > 0 else mul(ss, float("nan"))


def _correction(unbiased, correction):
    if correction is not None:
        return correction
    return 1 if unbiased in (None, True) else 0


@op("var")
def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    return name_grad(_var(input, dim, _correction(unbiased, correction), keepdim), "VarBackward0")


@op("std")
def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    from .ops_elementwise import sqrt  # noqa: PLC0415

    if isinstance(dim, bool):
        dim, unbiased = None, dim
    return name_grad(sqrt(_var(input, dim, _correction(unbiased, correction), keepdim)), "StdBackward0")


@op("var_mean")
def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return var(input, dim, unbiased, keepdim, correction=correction), mean(input, dim, keepdim)


@op("std_mean")
def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return std(input, dim, unbiased, keepdim, correction=correction), mean(input, dim, keepdim)


@op("norm")
def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    from ._dispatch import FUNCS  # noqa: PLC0415
    from .ops_elementwise import abs as _abs  # noqa: PLC0415, F401
    from .ops_elementwise import pow as _pow
    from .ops_elementwise import sqrt

    x = float_input(input)
    if p in ("fro", 2, 2.0, None):
        r = sqrt(sum(FUNCS["mul"](x, x), dim, keepdim))
    elif p in (float("inf"), "inf"):
        r = max(FUNCS["abs"](x)) if dim is None else amax_(FUNCS["abs"](x), dim, keepdim)
    elif p in (-float("inf"),):
        r = min(FUNCS["abs"](x)) if dim is None else amin_(FUNCS["abs"](x), dim, keepdim)
    elif p == 1:
        r = sum(FUNCS["abs"](x), dim, keepdim)
    elif p == 0:
        r = sum(cast(FUNCS["ne"](x, 0), buf_of(x).dtype), dim, keepdim)
    else:
        r = FUNCS["pow"](sum(FUNCS["pow"](FUNCS["abs"](x), float(p)), dim, keepdim), 1.0 / float(p))
    return name_grad(r, "NormBackward1" if dim is not None else "NormBackward0")


def amax_(x, dim, keepdim):
    return apply(rd.reduce_max_p, x, axes=_axes(dim, x.dim()), keepdims=keepdim)


def amin_(x, dim, keepdim):
    return apply(rd.reduce_min_p, x, axes=_axes(dim, x.dim()), keepdims=keepdim)


@op("dist")
def dist(input, other, p=2):
    from ._dispatch import FUNCS  # noqa: PLC0415

    return norm(FUNCS["sub"](input, other), p)


def _cumulative(input, dim, dtype, prim_name, grad_name, **params):
    x = input if dtype is None else cast(input, dtypes.as_dtype(dtype).dtype)
    if buf_of(x).dtype.kind in "biu" and dtype is None:
        x = cast(x, np.dtype(np.int64))
    d = _dim(dim, buf_of(x).ndim, prim_name)
    if buf_of(x).ndim == 0:
        return x
    return name_grad(apply(REGISTRY[prim_name], x, axis=d, **params), grad_name)


@op("cumsum")
def cumsum(input, dim, *, dtype=None):
    return _cumulative(input, dim, dtype, "cumsum", "CumsumBackward0", reverse=False)


@op("cumprod")
def cumprod(input, dim, *, dtype=None):
    return _cumulative(input, dim, dtype, "cumprod", "CumprodBackward0")


@op("logsumexp")
def logsumexp(input, dim, keepdim=False):
    from .ops_elementwise import add, exp, log, sub  # noqa: PLC0415

    if dim is None:
        raise TypeError("logsumexp(): argument 'dim' must be tuple of ints, not NoneType")
    x = float_input(input)
    axes = _axes(dim, buf_of(x).ndim)
    xp = xp_of(x._value)
    m = xp.max(x._value, axis=axes, keepdims=True) if buf_of(x).size else xp.zeros((1,) * buf_of(x).ndim, buf_of(x).dtype)
    m = wrap(xp.where(xp.isfinite(m), m, 0).astype(buf_of(x).dtype))
    s = apply(rd.reduce_sum_p, exp(sub(x, m)), axes=axes, keepdims=True)
    r = add(log(s), m)
    if not keepdim:
        r = r.reshape(tuple(n for i, n in enumerate(r.shape) if i not in axes))
    return name_grad(r, "LogsumexpBackward0")


@op("all")
def all(input, dim=None, keepdim=False):  # noqa: A001
    return _logical_reduce(input, dim, keepdim, "all")


def _logical_reduce(input, dim, keepdim, name):
    b = input._value.astype(bool)
    xp = xp_of(b)
    r = getattr(xp, name)(b) if dim is None else getattr(xp, name)(b, axis=_dim(dim, b.ndim), keepdims=keepdim)
    return wrap(xp.asarray(r).astype(np.uint8 if buf_of(input).dtype == np.uint8 else np.bool_))


@op("any")
def any(input, dim=None, keepdim=False):  # noqa: A001
    return _logical_reduce(input, dim, keepdim, "any")


@op("count_nonzero")
def count_nonzero(input, dim=None):
    xp = xp_of(input._value)
    return wrap(xp.asarray(xp.count_nonzero(input._value, axis=dim)).astype(np.int64))


@op("unique")
def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    xp = xp_of(input._value)
    res = xp.unique(input._value, return_inverse=return_inverse, return_counts=return_counts, axis=dim)
    if isinstance(res, tuple):
        return tuple(wrap(xp.asarray(r) if i == 0 else xp.asarray(r).astype(np.int64)) for i, r in enumerate(res))
    return wrap(res)


@op("bincount")
def bincount(input, weights=None, minlength=0):
    return wrap(xp_of(input._value).bincount(input._value, None if weights is None else weights._value, minlength))


@op("histc")
def histc(input, bins=100, min=0, max=0):  # noqa: A002
    lo, hi = (min, max) if (min, max) != (0, 0) else (float(input._value.min()), float(input._value.max()))
    return wrap(xp_of(input._value).histogram(input._value, bins, (lo, hi))[0].astype(buf_of(input).dtype))


__all__ = ["sum", "mean", "max", "min", "as_t"]
