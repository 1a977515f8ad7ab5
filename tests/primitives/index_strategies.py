"""Hypothesis strategy for arbitrary numpy indices (shared by the index specs and
tests/numpy/test_indexing.py; it imports nothing from the spec table, so importing it
from a test module does not collect the table half-initialised)."""

import hypothesis.strategies as st
import numpy as np
from hypothesis import reject

from funcgrad.testing import strategies as fst


def floats_of(shape):
    return fst.host_arrays(shape, np.float64, fst.floats(-2.0, 2.0))


@st.composite
def mixed_index(draw):
    """Any numpy index: ints (negative too), slices, None, Ellipsis, integer arrays (with
    repeats, broadcasting, separated by slices) and boolean masks, on a small array."""
    x = draw(floats_of(fst.shapes(min_dims=1, max_dims=4, min_side=1, max_side=3)))
    dims = list(x.shape)
    items, d = [], 0
    used_ellipsis = False
    while d < len(dims) and draw(st.booleans()):
        n = dims[d]
        kind = draw(st.sampled_from(["int", "slice", "array", "array", "mask", "none", "ellipsis"]))
        if kind == "int":
            items.append(draw(st.integers(-n, n - 1)))
        elif kind == "slice":
            items.append(slice(draw(st.one_of(st.none(), st.integers(-n - 1, n + 1))),
                               draw(st.one_of(st.none(), st.integers(-n - 1, n + 1))),
                               draw(st.sampled_from([None, 1, 2, -1, -3]))))
        elif kind == "array":
            shape = draw(st.sampled_from([(), (2,), (1, 2), (3,)]))
            items.append(draw(fst.host_arrays(shape, np.int64, st.integers(-n, n - 1))))
        elif kind == "mask":
            k = draw(st.integers(1, len(dims) - d))
            items.append(draw(fst.host_arrays(tuple(dims[d:d + k]), np.bool_)))
            d += k
            continue
        elif kind == "none":
            items.append(None)
            continue
        elif not used_ellipsis:
            used_ellipsis = True
            items.append(Ellipsis)
            d = max(d, len(dims) - draw(st.integers(0, len(dims) - d)))
            continue
        d += 1
    try:  # broadcasting of the integer arrays can fail: then draw again
        np.empty(x.shape)[tuple(items)]
    except IndexError:
        reject()
    return (x,), {"idx": tuple(items)}
