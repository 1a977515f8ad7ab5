"""Indexing: ``x[idx]`` (gather) and the functional updates of ``x.at[idx]``.

An index is split into a static template (ints, slices, None, Ellipsis and
placeholders) and the integer index arrays, which are positional arguments of
the primitive (so vmap can batch them).  Boolean masks become integer arrays
(``nonzero``), as numpy does; that needs a concrete mask.

Gradients: the vjp of a gather scatter-adds the cotangent into zeros, so
repeated indices accumulate.  Scatter rules: ``set`` sends the cotangent of
each overwritten position to the values written there (with repeated
indices, numpy's last write wins, and every duplicate receives that
position's cotangent); ``min``/``max`` split the cotangent evenly among tied
contributors; ``multiply`` is exact except for a zero multiplier at a
repeated index (it then gets the cotangent of the non-repeated formula).
"""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import Array, Primitive, ShapedArray, Tracer
from ._batching import gather_batch_rule, scatter_batch_rule
from .creation import zeros_like
from .elementwise import convert, divide, equal, multiply, not_equal, where
from .index_device import check_bounds, rebuild_checked, scatter_combine
from .index_parse import (  # noqa: F401
    _fold_scalar_bools,
    _has_scalar_bool,
    _rebuild,
    _Slot,
    array_device,
    parse_index,
)


def _xp(x, *rest):
    get = XP_OF_TYPE.get
    xp = get(type(x))
    if xp is None:
        xp = next((get(type(r)) for r in rest if get(type(r)) is not None), np)
    return xp


# --- gather: x[idx] -------------------------------------------------------------------------

def _getitem_impl(x, *arrays, template):
    if not arrays:  # basic indexing (no arrays: the template is the index)
        return (np.asarray(x) if isinstance(x, (int, float, complex, bool)) else x)[template]
    if type(x) is not np.ndarray:  # numpy checks bounds itself
        if isinstance(x, (int, float, complex, bool)):
            x = np.asarray(x)
        check_bounds(_xp(x, *arrays), template, arrays, x.shape)
    return x[_rebuild(template, arrays)]


def _dummy(aval):
    return np.lib.stride_tricks.as_strided(np.zeros(1, aval.dtype), aval.shape, (0,) * len(aval.shape))


def _getitem_abstract(x, *arrays, template):
    idx = _rebuild(template, [np.zeros(a.shape, a.dtype) for a in arrays])
    return ShapedArray(_dummy(x)[idx].shape, x.dtype)


def _getitem_vjp(g, ans, x, *arrays, template):
    return getitem_transpose_p.bind(g, *arrays, template=template, shape=tuple(x.shape), dtype=x.dtype)


getitem_p = Primitive("getitem", _getitem_impl, _getitem_abstract)
getitem_p.defvjp(_getitem_vjp, unsaved_args=(0,), saves_out=False)
getitem_p.defjvp(lambda t, ans, x, *arrays, template: getitem_p.bind(t, *arrays, template=template))


# --- the transpose of a gather: scatter-add into fresh zeros ---------------------------------
# (scatter_add(zeros, g) would fill and then copy a zeros array: this allocates it once)

def _getitem_transpose_impl(g, *arrays, template, shape, dtype):
    xp = _xp(g, *arrays)
    out = xp.zeros(shape, dtype=dtype)
    idx = _rebuild(template, arrays)
    if arrays:
        xp.add.at(out, idx, g)  # repeated indices accumulate
    else:
        out[idx] = g  # basic indexing never repeats a position
    return out


getitem_transpose_p = Primitive(
    "getitem_transpose", _getitem_transpose_impl,
    lambda g, *arrays, template, shape, dtype: ShapedArray(shape, dtype),
)
getitem_transpose_p.defvjp(lambda ct, ans, g, *arrays, template, shape, dtype: _gather(ct, arrays, template),
                           unsaved_args=(0,), saves_out=False)
getitem_transpose_p.defjvp(lambda t, ans, g, *arrays, template, shape, dtype: getitem_transpose_p.bind(
    t, *arrays, template=template, shape=shape, dtype=dtype))


def getitem(x, idx):
    if _has_scalar_bool(idx):
        x, idx = _fold_scalar_bools(x, idx)
    template, arrays = parse_index(idx, x.ndim, x.shape, array_device(x))
    return getitem_p.bind(x, *arrays, template=template)


# --- scatter: x.at[idx].set/add/multiply/min/max ---------------------------------------------

def _scatter_impl_factory(mode):
    def impl(x, v, *arrays, template):
        xp = _xp(x, v)
        if not hasattr(x, "copy") or isinstance(x, np.generic):
            x = xp.asarray(x)
        idx = rebuild_checked(xp, template, arrays, x.shape)
        if mode == "set" and arrays and xp is not np:
            return scatter_combine(xp, x, idx, v)  # numpy's last write wins (cupy: unspecified)
        out = x.copy()
        if mode == "set":
            out[idx] = v
        elif mode == "add" and not arrays:
            out[idx] += v  # basic indexing cannot repeat a position
        else:
            ufunc = {"add": xp.add, "multiply": xp.multiply, "min": xp.minimum, "max": xp.maximum}[mode]
            if xp is np or mode == "add":
                ufunc.at(out, idx, v)
            elif not arrays:
                out[idx] = ufunc(out[idx], v)
            else:  # cupy has no multiply.at, and its minimum/maximum.at round float64 to float32
                return scatter_combine(xp, x, idx, v, ufunc)
        return out

    impl.__name__ = f"scatter_{mode}_impl"
    return impl


def _scatter_abstract(x, v, *arrays, template):
    region = _getitem_abstract(x, *arrays, template=template).shape
    vshape = getattr(v, "shape", ())
    try:
        np.broadcast_shapes(vshape, region)
    except ValueError:
        raise ValueError(f"cannot scatter values of shape {vshape} into an indexed region of shape {region}") from None
    return ShapedArray(x.shape, x.dtype)


def _gather(x, arrays, template):
    return getitem_p.bind(x, *arrays, template=template)


def _scatter(prim, x, v, arrays, template):
    return prim.bind(x, v, *arrays, template=template)


def _make_scatter(mode):
    return Primitive(f"scatter_{mode}", _scatter_impl_factory(mode), _scatter_abstract)


scatter_set_p = _make_scatter("set")
scatter_set_p.defvjp(
    lambda g, ans, x, v, *arrays, template: _scatter(scatter_set_p, g, 0, arrays, template),
    lambda g, ans, x, v, *arrays, template: _gather(g, arrays, template),
    unsaved_args=(0, 1), saves_out=False,
)
scatter_set_p.defjvp(
    lambda t, ans, x, v, *arrays, template: _scatter(scatter_set_p, t, 0, arrays, template),
    lambda t, ans, x, v, *arrays, template: _scatter(scatter_set_p, zeros_like(ans, dtype=t.dtype), t, arrays, template),
)

scatter_add_p = _make_scatter("add")
scatter_add_p.defvjp(
    lambda g, ans, x, v, *arrays, template: g,
    lambda g, ans, x, v, *arrays, template: _gather(g, arrays, template),
    unsaved_args=(0, 1), saves_out=False,
)
scatter_add_p.defjvp(
    lambda t, ans, x, v, *arrays, template: t,
    lambda t, ans, x, v, *arrays, template: _scatter(scatter_add_p, zeros_like(ans, dtype=t.dtype), t, arrays, template),
)


def _safe_v(v):
    return where(not_equal(v, 0), v, 1)


def _mul_dv(ans, x, v, arrays, template):
    """d out[i] / d v_j at the gathered positions (exact unless a zero multiplier repeats)."""
    return where(not_equal(v, 0), divide(_gather(ans, arrays, template), _safe_v(v)), _gather(x, arrays, template))


scatter_multiply_p = _make_scatter("multiply")
scatter_multiply_p.defvjp(
    lambda g, ans, x, v, *arrays, template: _scatter(scatter_multiply_p, g, v, arrays, template),
    lambda g, ans, x, v, *arrays, template: multiply(_gather(g, arrays, template), _mul_dv(ans, x, v, arrays, template)),
)
scatter_multiply_p.defjvp(
    lambda t, ans, x, v, *arrays, template: _scatter(scatter_multiply_p, t, v, arrays, template),
    lambda t, ans, x, v, *arrays, template: _scatter(
        scatter_add_p, zeros_like(ans, dtype=t.dtype), multiply(t, _mul_dv(ans, x, v, arrays, template)), arrays, template),
)


def _minmax_weights(ans, x, v, arrays, template):
    """Where x and where each v produced the result, divided by the number of ties."""
    hit_x = convert(equal(x, ans), ans.dtype)
    hit_v = convert(equal(v, _gather(ans, arrays, template)), ans.dtype)
    count = hit_x + _scatter(scatter_add_p, zeros_like(ans), hit_v, arrays, template)
    return hit_x / count, hit_v, count


def _minmax_vjp_x(g, ans, x, v, *arrays, template):
    wx, _, _ = _minmax_weights(ans, x, v, arrays, template)
    return g * wx


def _minmax_vjp_v(g, ans, x, v, *arrays, template):
    _, hit_v, count = _minmax_weights(ans, x, v, arrays, template)
    return _gather(g / count, arrays, template) * hit_v


def _minmax_jvp_v(t, ans, x, v, *arrays, template):
    _, hit_v, count = _minmax_weights(ans, x, v, arrays, template)
    return _scatter(scatter_add_p, zeros_like(ans, dtype=t.dtype), t * hit_v, arrays, template) / count


for _mode in ("min", "max"):
    _p = _make_scatter(_mode)
    _p.defvjp(_minmax_vjp_x, _minmax_vjp_v)
    _p.defjvp(lambda t, ans, x, v, *arrays, template: t * _minmax_weights(ans, x, v, arrays, template)[0],
              _minmax_jvp_v)
    if _mode == "min":
        scatter_min_p = _p
    else:
        scatter_max_p = _p
del _p, _mode
_SCATTERS = {"set": scatter_set_p, "add": scatter_add_p, "multiply": scatter_multiply_p,
             "min": scatter_min_p, "max": scatter_max_p}


def scatter_add(x, v, arrays, template):
    return _scatter(scatter_add_p, x, v, arrays, template)


def scatter(x, idx, v, mode):
    """``x`` with ``x[idx]`` combined with ``v`` by ``mode`` (a new array)."""
    template, arrays = parse_index(idx, x.ndim, x.shape, array_device(x))
    return _scatter(_SCATTERS[mode], x, v, arrays, template)


class _IndexUpdateRef:
    """``x.at[idx]``: a pending functional update (set/add/multiply/min/max/get)."""

    __slots__ = ("array", "index")

    def __init__(self, array, index):
        self.array, self.index = array, index

    def get(self):
        return getitem(self.array, self.index)

    def set(self, values):
        return scatter(self.array, self.index, values, "set")

    def add(self, values):
        return scatter(self.array, self.index, values, "add")

    def subtract(self, values):
        return scatter(self.array, self.index, -values if isinstance(values, (Array, Tracer)) else np.negative(values), "add")

    def multiply(self, values):
        return scatter(self.array, self.index, values, "multiply")

    def divide(self, values):
        return scatter(self.array, self.index, 1.0 / values if not isinstance(values, (Array, Tracer)) else divide(1.0, values), "multiply")

    def min(self, values):
        return scatter(self.array, self.index, values, "min")

    def max(self, values):
        return scatter(self.array, self.index, values, "max")

    def __repr__(self):
        return f"_IndexUpdateRef({self.array!r}, {self.index!r})"


class IndexUpdateHelper:
    """The ``.at`` property: ``x.at[idx].set(v)`` returns an updated copy of x."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __getitem__(self, index):
        return _IndexUpdateRef(self.array, index)


# --- batching (vmap): batched x, index arrays and values (rules in _batching.py) -------------

getitem_p.batch = gather_batch_rule
for _p in _SCATTERS.values():
    _p.batch = scatter_batch_rule(_p)
del _p
