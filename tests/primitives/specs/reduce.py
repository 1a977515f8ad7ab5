"""Specs: reductions (funcgrad.primitives.reduce)."""

import hypothesis.strategies as st

import funcgrad.numpy as fnp
from funcgrad.testing import strategies as fst

from ..spec import Spec, floats_of


@st.composite
def _sum_args(draw):
    x = draw(floats_of(fst.shapes()))
    return (x,), {"axis": draw(fst.axes(x.ndim)), "keepdims": draw(st.booleans())}


SPECS = [
    Spec("reduce_sum", ("reduce_sum",), lambda x, axis, keepdims: fnp.sum(x, axis=axis, keepdims=keepdims),
         _sum_args().filter(lambda c: c[0][0].ndim > 0 and c[1]["axis"] != () or c[1]["keepdims"])),
    Spec("sum_of_0d_or_no_axes", (), lambda x, axis, keepdims: fnp.sum(x, axis=axis, keepdims=keepdims),
         _sum_args().filter(lambda c: (c[0][0].ndim == 0 or c[1]["axis"] == ()) and not c[1]["keepdims"])),
    Spec("mean", ("divide",), lambda x, axis, keepdims: fnp.mean(x, axis=axis, keepdims=keepdims),
         _sum_args().filter(lambda c: c[0][0].size > 0)),
]
