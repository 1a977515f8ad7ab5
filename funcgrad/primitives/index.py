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


def parse_index(idx, ndim, shape=None):
    """-> (template, arrays): the static part of ``idx`` and its index arrays.

    With ``shape`` (the indexed array's), boolean masks are checked against
    the dimensions they cover, as numpy does (an IndexError naming both sizes).
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
            template.append(int(item))
        else:
            arr = _index_array(item)
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


def _index_array(item):
    if isinstance(item, (Array, Tracer)):
        return item
    if isinstance(item, (bool, np.bool_)):
        raise IndexError("a 0-d boolean index (x[True]) is not supported; use x[None] or funcgrad.numpy.where")
    host = np.asarray(item)
    if host.dtype == object or (host.size == 0 and host.dtype.kind == "f"):
        host = host.astype(np.intp) if host.size == 0 else host
    if host.dtype == object:
        raise IndexError(f"invalid index {item!r}")
    from ..backend import default_device  # noqa: PLC0415

    return Array(host, device=default_device()) if default_device().kind != "cpu" else Array(host)


def _mask_to_indices(mask):
    if isinstance(mask, Tracer) and not _has_concrete(mask):
        raise IndexError(
            "boolean mask indexing needs a concrete mask (its result's shape depends on the "
            "mask's values); under vmap use funcgrad.numpy.where(mask, x, 0) instead"
        )
    buf = mask._concrete()
    if not hasattr(buf, "ndim") or buf.ndim == 0:
        raise IndexError("a 0-d boolean index (x[True]) is not supported; use x[None] or funcgrad.numpy.where")
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


def _xp(x, *rest):
    get = XP_OF_TYPE.get
    xp = get(type(x))
    if xp is None:
        xp = next((get(type(r)) for r in rest if get(type(r)) is not None), np)
    return xp


# --- gather: x[idx] -------------------------------------------------------------------------

def _getitem_impl(x, *arrays, template):
    if isinstance(x, (int, float, complex, bool)):
        x = np.asarray(x)
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
    template, arrays = parse_index(idx, x.ndim, x.shape)
    return getitem_p.bind(x, *arrays, template=template)


# --- scatter: x.at[idx].set/add/multiply/min/max ---------------------------------------------

def _scatter_impl_factory(mode):
    def impl(x, v, *arrays, template):
        xp = _xp(x, v)
        if not hasattr(x, "copy") or isinstance(x, np.generic):
            x = xp.asarray(x)
        out = x.copy()
        idx = _rebuild(template, arrays)
        if mode == "set":
            out[idx] = v
        elif mode == "add" and not arrays:
            out[idx] += v  # basic indexing cannot repeat a position
        else:
            ufunc = {"add": xp.add, "multiply": xp.multiply, "min": xp.minimum, "max": xp.maximum}[mode]
            ufunc.at(out, idx, v)
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
    template, arrays = parse_index(idx, x.ndim, x.shape)
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
