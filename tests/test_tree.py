"""Pytrees."""

import collections
import dataclasses

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import tree


def test_flatten_unflatten_roundtrip():
    P = collections.namedtuple("P", "x y")
    t = {"b": [1, (2, None)], "a": P(3, {"c": 4})}
    leaves, td = tree.tree_flatten(t)
    assert leaves == [3, 4, 1, 2]  # sorted keys; None is an empty subtree
    assert tree.tree_unflatten(td, leaves) == t
    assert tree.tree_map(lambda v: v * 10, t)["a"].y["c"] == 40


def test_registered_dataclass_with_static_fields():
    @tree.register_dataclass
    @dataclasses.dataclass(frozen=True)
    class Layer:
        w: object
        b: object
        name: str = dataclasses.field(default="layer", metadata={"static": True})

    layer = Layer(fnp.ones(2), fnp.zeros(2), "fc")
    leaves, td = tree.tree_flatten(layer)
    assert len(leaves) == 2
    back = tree.tree_unflatten(td, leaves)
    assert isinstance(back, Layer) and back.name == "fc"
    g = fg.grad(lambda m: fnp.sum(m.w * 3 + m.b))(layer)
    assert isinstance(g, Layer) and np.allclose(g.w, 3) and g.name == "fc"
    other = Layer(fnp.ones(2), fnp.zeros(2), "other")
    assert "static" in tree.structure_mismatch(layer, other)


def test_tree_map_mismatch_shows_key_path():
    with pytest.raises(ValueError, match=r"\['a'\]\[1\]"):
        tree.tree_map(lambda x, y: x + y, {"a": [1, 2]}, {"a": [1, (2, 3)]})


def test_tree_reduce_and_leaves():
    assert tree.tree_reduce(lambda a, b: a + b, [1, (2, 3)]) == 6
    assert tree.tree_reduce(lambda a, b: a + b, [], 0) == 0
    with pytest.raises(ValueError, match="initial"):
        tree.tree_reduce(lambda a, b: a + b, [])
    assert tree.tree_leaves({"x": None}) == []
