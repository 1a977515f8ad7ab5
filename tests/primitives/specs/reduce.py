"""Specs: reductions (funcgrad.primitives.reduce)."""

import hypothesis.strategies as st
import numpy as np

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


@st.composite
def _extremum_args(draw, ties):
    shape = draw(fst.shapes(min_side=1))
    if ties:  # few distinct values: ties are common
        x = np.round(draw(floats_of(shape)))
    else:  # distinct values, at least 0.1 apart
        n = int(np.prod(shape))
        perm = np.asarray(draw(st.permutations(range(n))), dtype=np.float64)
        noise = draw(floats_of((n,), -0.1, 0.1))
        x = ((perm - n / 2) * 0.3 + noise).reshape(shape)
    return (x,), {"axis": draw(fst.axes(x.ndim)), "keepdims": draw(st.booleans())}


def _nonempty_reduction(c):
    x, kw = c[0][0], c[1]
    return (x.ndim > 0 and kw["axis"] != ()) or kw["keepdims"]


SPECS += [
    Spec("reduce_max", ("reduce_max",), lambda x, axis, keepdims: fnp.max(x, axis=axis, keepdims=keepdims),
         _extremum_args(False).filter(_nonempty_reduction)),
    Spec("reduce_min", ("reduce_min",), lambda x, axis, keepdims: fnp.min(x, axis=axis, keepdims=keepdims),
         _extremum_args(False).filter(_nonempty_reduction)),
    # with ties the function is not differentiable; first-order rules are checked against
    # the documented rule (equal split) in tests/numpy, here only shapes and dtypes
    Spec("reduce_max_ties", ("reduce_max",), lambda x, axis, keepdims: fnp.max(x, axis=axis, keepdims=keepdims),
         _extremum_args(True).filter(_nonempty_reduction), differentiable=False),
    Spec("argmax_argmin", ("argmax", "argmin"),
         lambda x, axis, keepdims: [fnp.argmax(x, axis=None if isinstance(axis, tuple) else axis, keepdims=keepdims),
                                    fnp.argmin(x, axis=None if isinstance(axis, tuple) else axis, keepdims=keepdims)],
         _extremum_args(True), differentiable=False),
]
