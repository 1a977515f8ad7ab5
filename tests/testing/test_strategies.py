"""The Hypothesis strategies produce what they document, and shrink well."""

import numpy as np
from hypothesis import find, given, settings
from hypothesis import strategies as st

import funcgrad as fg
from funcgrad import tree
from funcgrad.testing import strategies as fst


@settings(max_examples=60)
@given(st.data())
def test_shapes_cover_0d_and_size_0_eventually(data):
    s = data.draw(fst.shapes())
    assert len(s) <= 3 and all(0 <= d <= 4 for d in s)


def test_shapes_include_scalar_and_empty():
    assert find(fst.shapes(), lambda s: s == ()) == ()
    assert 0 in find(fst.shapes(), lambda s: 0 in s)


@settings(max_examples=40)
@given(st.data())
def test_broadcastable_shapes_broadcast_to_target(data):
    target = data.draw(fst.shapes())
    s = data.draw(fst.broadcastable_shapes(target))
    assert np.broadcast_shapes(s, target) == target
    a, b = data.draw(fst.mutually_broadcastable_shapes(2))
    np.broadcast_shapes(a, b)


@settings(max_examples=40)
@given(fst.arrays(shape=fst.shapes(min_dims=1, min_side=1)))
def test_arrays_are_funcgrad_arrays_on_the_default_device(x):
    assert isinstance(x, fg.Array) and x.device == fg.default_device()


def test_arrays_can_be_strided_views():
    x = find(fst.arrays(shape=(3,)), lambda a: not a._value.flags.c_contiguous)  # the device buffer
    assert x.shape == (3,)


def test_differentiable_floats_respect_the_predicate():
    v = find(fst.differentiable_floats(-2, 2, smooth=lambda t: abs(t) > 0.5), lambda t: True)
    assert abs(v) > 0.5


def test_pytrees_shrink_to_minimal_example():
    t = find(fst.pytrees(st.integers(0, 9)), lambda t: sum(tree.tree_leaves(t)) >= 10)
    assert sum(tree.tree_leaves(t)) == 10


def test_axes_are_valid_for_the_rank():
    ax = find(fst.axes(3), lambda a: isinstance(a, tuple) and len(a) == 2)
    assert all(-3 <= a < 3 for a in ax)
