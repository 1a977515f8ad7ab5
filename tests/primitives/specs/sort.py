"""Specs: argsort and searchsorted (integer results) and sort (a gather at argsort's indices)."""

import hypothesis.strategies as st
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.testing import strategies as fst

from ..spec import Spec, floats_of


@st.composite
def _distinct(draw, ties=False):
    shape = draw(fst.shapes(min_dims=1))
    n = int(np.prod(shape))
    if ties:
        x = np.round(draw(floats_of(shape)))
    else:  # distinct values at least 0.1 apart: sort is smooth there
        perm = np.asarray(draw(st.permutations(range(n))), dtype=np.float64)
        x = ((perm - n / 2) * 0.3 + draw(floats_of((n,), -0.1, 0.1))).reshape(shape)
    return (x,), {"axis": draw(st.one_of(st.none(), st.integers(-len(shape), len(shape) - 1))),
                  "descending": draw(st.booleans())}


SPECS = [
    Spec("sort", ("argsort", "getitem"), lambda x, axis, descending: fnp.sort(x, axis, descending=descending),
         _distinct()),
    Spec("argsort_searchsorted", ("argsort", "searchsorted"),
         lambda x, axis, descending: [fnp.argsort(x, axis, stable=True, descending=descending),
                                      fnp.searchsorted(fnp.sort(x, None), x.ravel() * 0.5, side="right")],
         _distinct(ties=True), differentiable=False),
    Spec("partition", ("argpartition", "getitem"),
         lambda x, axis, descending: fnp.partition(x, [0, -1], axis=0 if axis is None else axis),
         _distinct().filter(lambda c: c[0][0].size > 0)),
]
