"""Specs: pad and split primitives, and the gather/concatenate-based rearrangements
of funcgrad.numpy (flip, roll, rot90, tile, repeat, the non-constant pad modes)."""

import hypothesis.strategies as st
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.testing import strategies as fst

from ..spec import Spec, floats_of


@st.composite
def _pad_args(draw, modes, distinct=False):
    x = draw(floats_of(fst.shapes(min_dims=1, min_side=1, max_side=3)))
    if distinct:  # values at least 0.1 apart: max/min/median are smooth there
        perm = np.asarray(draw(st.permutations(range(x.size))), dtype=np.float64)
        x = ((perm - x.size / 2) * 0.3 + draw(floats_of((x.size,), -0.1, 0.1))).reshape(x.shape)
    form = draw(st.sampled_from(["int", "pair", "per_axis"]))
    w = st.integers(0, 4)
    if form == "int":
        pw = draw(w)
    elif form == "pair":
        pw = (draw(w), draw(w))
    else:
        pw = tuple((draw(w), draw(w)) for _ in x.shape)
    if not np.any(np.asarray(pw)):
        pw = 1
    return (x,), {"pad_width": pw, "mode": draw(st.sampled_from(modes))}


@st.composite
def _split_args(draw):
    x = draw(floats_of(fst.shapes(min_dims=1, max_side=5)))
    axis = draw(st.integers(-x.ndim, x.ndim - 1))
    n = x.shape[axis]
    bounds = sorted(draw(st.lists(st.integers(0, n), min_size=1, max_size=3)))
    return (x,), {"bounds": bounds, "axis": axis, "pick": draw(st.integers(0, len(bounds)))}


@st.composite
def _rearrange_args(draw):
    x = draw(floats_of(fst.shapes(min_dims=2, max_dims=3, max_side=3)))
    return (x,), {
        "shift": draw(st.integers(-4, 4)), "axis": draw(st.integers(-x.ndim, x.ndim - 1)),
        "k": draw(st.integers(-1, 4)), "reps": tuple(draw(st.lists(st.integers(0, 2), min_size=1, max_size=3))),
        "counts": draw(st.lists(st.integers(0, 3), min_size=x.shape[0], max_size=x.shape[0])),
    }


_PAD_KW = {"reflect": {"reflect_type": "odd"}, "symmetric": {"reflect_type": "odd"},
           "linear_ramp": {"end_values": (0.5, -1.0)}, "median": {"stat_length": 2}, "maximum": {"stat_length": (1, 3)}}


def _rearrange(x, shift, axis, k, reps, counts):
    return [fnp.flip(x, axis), fnp.roll(x, shift, axis), fnp.rot90(x, k), fnp.tile(x, reps),
            fnp.repeat(x, counts, axis=0), fnp.repeat(x, 2, axis=axis)]


SPECS = [
    Spec("pad_constant", ("pad",), lambda x, pad_width, mode: fnp.pad(x, pad_width, mode, constant_values=1.5),
         _pad_args(["constant"])),
    Spec("pad_gather_modes", ("getitem",), lambda x, pad_width, mode: fnp.pad(x, pad_width, mode),
         _pad_args(["edge", "reflect", "symmetric", "wrap"])),
    Spec("pad_composed_modes", ("getitem",),
         lambda x, pad_width, mode: fnp.pad(x, pad_width, mode, **_PAD_KW.get(mode, {})),
         _pad_args(["maximum", "minimum", "mean", "median", "linear_ramp", "reflect", "symmetric"], distinct=True)),
    Spec("split", ("split",), lambda x, bounds, axis, pick: fnp.split(x, bounds, axis)[pick] * 2.0
         + fnp.sum(fnp.split(x, bounds, axis)[0]), _split_args()),
    Spec("split_all_pieces", ("split",), lambda x, bounds, axis, pick: fnp.array_split(x, len(bounds) + 1, axis),
         _split_args()),
    Spec("rearrange", ("getitem", "reshape"), _rearrange, _rearrange_args()),
]
