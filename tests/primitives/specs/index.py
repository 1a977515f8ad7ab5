"""Specs: indexing (gather and the scatters of x.at[...])."""

import hypothesis.strategies as st
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.testing import strategies as fst

from ..index_strategies import mixed_index
from ..spec import Spec, floats_of


@st.composite
def _basic_index(draw, ndim_min=1):
    x = draw(floats_of(fst.shapes(min_dims=ndim_min, min_side=1)))
    idx = []
    for d in x.shape:
        kind = draw(st.sampled_from(["int", "slice", "full", "newaxis"]))
        if kind == "int":
            idx.append(draw(st.integers(-d, d - 1)))
        elif kind == "slice":
            start = draw(st.one_of(st.none(), st.integers(-d, d)))
            stop = draw(st.one_of(st.none(), st.integers(-d, d)))
            step = draw(st.sampled_from([None, 1, 2, -1, -2]))
            idx.append(slice(start, stop, step))
        elif kind == "newaxis":
            idx.extend([None, slice(None)])
        else:
            idx.append(slice(None))
    if draw(st.booleans()) and len(idx) > 1:
        idx = [Ellipsis] + idx[1:]
    return (x,), {"idx": tuple(idx)}


@st.composite
def _advanced_index(draw):
    x = draw(floats_of(fst.shapes(min_dims=1, min_side=1)))
    n = x.shape[0]
    ind = draw(fst.host_arrays(fst.shapes(max_dims=2), np.int64, st.integers(-n, n - 1)))
    rest = tuple(slice(None) for _ in x.shape[1:])
    return (x,), {"idx": (ind,) + rest}


@st.composite
def _mask_index(draw):
    x = draw(floats_of(fst.shapes(min_dims=1)))
    mask = draw(fst.host_arrays(x.shape, np.bool_))
    return (x,), {"idx": mask}


@st.composite
def _scatter_args(draw):
    x = draw(floats_of(fst.shapes(min_dims=1, min_side=1), -2.0, 2.0))
    n = x.shape[0]
    ind = draw(fst.host_arrays(fst.shapes(min_dims=1, max_dims=1, max_side=4), np.int64, st.integers(-n, n - 1)))
    region = ind.shape + x.shape[1:]
    vshape = draw(fst.broadcastable_shapes(region))
    v = draw(floats_of(vshape, 0.5, 2.0))
    return (x, v), {"idx": ind}


@st.composite
def _unique_scatter_args(draw):
    (x, v), kw = draw(_scatter_args())
    n = x.shape[0]
    ind = np.unique(np.asarray(kw["idx"]) % n)
    region = ind.shape + x.shape[1:]
    v = draw(floats_of(region, 0.5, 2.0))
    return (x, v), {"idx": ind}


@st.composite
def _minmax_args(draw):
    """Unique indices and values on disjoint grids: no ties between x and the updates."""
    (x, v), kw = draw(_unique_scatter_args())
    return (np.round(x * 10) / 10, np.round(v * 10) / 10 + 0.05), kw


def _idx(kw):
    idx = kw["idx"]
    if isinstance(idx, np.ndarray):
        return fnp.asarray(idx)
    return tuple(fnp.asarray(i) if isinstance(i, np.ndarray) else i for i in idx)


SPECS = [
    Spec("getitem_basic", ("getitem",), lambda x, **kw: x[_idx(kw)], _basic_index()),
    Spec("getitem_advanced", ("getitem",), lambda x, **kw: x[_idx(kw)], _advanced_index()),
    Spec("getitem_mask", ("getitem",), lambda x, **kw: x[_idx(kw)], _mask_index()),
    Spec("scatter_set", ("scatter_set",), lambda x, v, **kw: x.at[_idx(kw)].set(v), _unique_scatter_args()),
    Spec("scatter_add", ("scatter_add",), lambda x, v, **kw: x.at[_idx(kw)].add(v), _scatter_args()),
    Spec("scatter_multiply", ("scatter_multiply",), lambda x, v, **kw: x.at[_idx(kw)].multiply(v), _scatter_args()),
    Spec("scatter_min", ("scatter_min",), lambda x, v, **kw: x.at[_idx(kw)].min(v), _minmax_args()),
    Spec("scatter_max", ("scatter_max",), lambda x, v, **kw: x.at[_idx(kw)].max(v), _minmax_args()),
]


@st.composite
def _transpose_args(draw):
    """A cotangent for x[idx] (basic or advanced index with repeats) and x's shape."""
    (x,), kw = draw(st.one_of(_basic_index(), _advanced_index()))
    region = np.empty(x.shape)[kw["idx"]].shape
    return (draw(floats_of(region)),), {"shape": x.shape, "idx": kw["idx"]}


def _gather_transpose(g, shape, idx):
    import funcgrad as fg

    _, pullback = fg.vjp(lambda t: t[_idx({"idx": idx})], fnp.zeros(shape, dtype=g.dtype))
    return pullback(g)[0]


SPECS += [
    Spec("getitem_transpose", ("getitem_transpose",), _gather_transpose, _transpose_args()),
]


SPECS += [
    Spec("getitem_mixed", ("getitem",), lambda x, **kw: x[_idx(kw)] * 1.0, mixed_index(), order=1),
]
