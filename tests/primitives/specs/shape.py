"""Specs: shape primitives (funcgrad.primitives.shape)."""

import hypothesis.strategies as st
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.testing import strategies as fst

from ..spec import Spec, floats_of


@st.composite
def _reshape_args(draw):
    x = draw(floats_of(fst.shapes(min_side=1)))
    n = x.size
    divisors = [d for d in range(1, n + 1) if n % d == 0]
    a = draw(st.sampled_from(divisors))
    shape = draw(st.sampled_from([(a, -1), (-1, a), (n,), (1, a, n // a), (n // a, 1, a)]))
    return (x,), {"shape": shape}


@st.composite
def _transpose_args(draw):
    x = draw(floats_of(fst.shapes()))
    perm = draw(st.permutations(range(x.ndim))) if x.ndim else []
    return (x,), {"axes": tuple(perm)}


@st.composite
def _broadcast_args(draw):
    shape = draw(fst.shapes(max_dims=3))
    src = draw(fst.broadcastable_shapes(shape))
    return (draw(floats_of(src)),), {"shape": shape}


@st.composite
def _concat_args(draw):
    base = list(draw(fst.shapes(min_dims=1)))
    axis = draw(st.integers(-len(base), len(base) - 1))
    n = draw(st.integers(1, 3))
    arrays = []
    for _ in range(n):
        s = list(base)
        s[axis] = draw(st.integers(0, 3))
        arrays.append(draw(floats_of(tuple(s))))
    return tuple(arrays), {"axis": axis}


SPECS = [
    Spec("reshape", ("reshape",), lambda x, shape: fnp.reshape(x, shape),
         _reshape_args().filter(lambda c: np.empty(c[0][0].shape).reshape(c[1]["shape"]).shape != c[0][0].shape)),
    Spec("transpose", ("transpose",), lambda x, axes: fnp.transpose(x, axes) * 1.0, _transpose_args().filter(lambda c: c[1]["axes"] != tuple(range(len(c[1]["axes"]))))),
    Spec("broadcast_to", ("broadcast_to",), lambda x, shape: fnp.broadcast_to(x, shape) * 2.0,
         _broadcast_args().filter(lambda c: c[0][0].shape != c[1]["shape"])),
    Spec("concatenate", ("concatenate",), lambda *xs, axis: fnp.concatenate(xs, axis=axis),
         _concat_args().filter(lambda c: len(c[0]) > 1)),
]
