"""nn.Module, layers, init: immutability, pytrees, PyTorch's initialisation conventions."""

import dataclasses
import math

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.nn as nn
import funcgrad.numpy as fnp


def test_module_is_an_immutable_pytree():
    m = nn.Linear(3, 2, key=fg.random.key(0))
    assert len(fg.tree.tree_leaves(m)) == 2
    with pytest.raises(dataclasses.FrozenInstanceError, match="replace"):
        m.weight = fnp.zeros((2, 3))
    m2 = m.replace(bias=None)
    assert m2.bias is None and m.bias is not None
    doubled = fg.tree.tree_map(lambda a: a * 2, m)
    np.testing.assert_allclose(np.asarray(doubled.weight), 2 * np.asarray(m.weight))
    g = fg.grad(lambda m: fnp.sum(m(fnp.ones((4, 3)))))(m)
    assert isinstance(g, nn.Linear)
    np.testing.assert_allclose(np.asarray(g.weight), 4.0)
    with pytest.raises(TypeError, match="unknown field"):
        m.replace(foo=1)


def test_partition_combine_and_filter_grad():
    bn = nn.BatchNorm(3)
    st = bn.init_state()
    params, rest = nn.partition(st)
    assert params.num_batches_tracked is None and rest.running_mean is None
    back = nn.combine(params, rest)
    assert int(back.num_batches_tracked) == 0
    x = fnp.arange(12.0).reshape(4, 3)
    g = nn.filter_grad(lambda s: fnp.sum(s.running_mean * x[0]))(st)
    np.testing.assert_array_equal(np.asarray(g.running_mean), [0.0, 1.0, 2.0])
    assert g.num_batches_tracked is None


def test_default_init_matches_pytorch_bounds():
    k = fg.random.key(1)
    lin = nn.Linear(100, 50, key=k)
    w = np.asarray(lin.weight)
    assert w.shape == (50, 100) and np.abs(w).max() <= 0.1 and np.abs(w).max() > 0.09
    assert abs(w.std() - 0.1 / math.sqrt(3)) < 0.005
    conv = nn.Conv2d(4, 8, 3, groups=2, key=k)
    bound = 1 / math.sqrt(2 * 9)
    assert conv.weight.shape == (8, 2, 3, 3) and np.abs(np.asarray(conv.weight)).max() <= bound
    assert np.abs(np.asarray(conv.bias)).max() <= bound


def test_init_functions_follow_torch_conventions():
    k = fg.random.key(2)
    shape = (200, 100, 3)
    fi, fo = nn.init.fans(shape)
    assert (fi, fo) == (300, 600)
    w = np.asarray(nn.init.kaiming_normal(k, shape, nonlinearity="relu"))
    assert abs(w.std() - math.sqrt(2 / fi)) < 0.002
    w = np.asarray(nn.init.xavier_uniform(k, shape, gain=2.0))
    assert abs(np.abs(w).max() - 2 * math.sqrt(6 / (fi + fo))) < 1e-3
    w = np.asarray(nn.init.kaiming_uniform(k, shape, a=math.sqrt(5)))
    assert np.abs(w).max() <= 1 / math.sqrt(fi)
    assert nn.init.calculate_gain("leaky_relu", 0.2) == pytest.approx(math.sqrt(2 / 1.04))
    q = np.asarray(nn.init.orthogonal(k, (4, 6)))
    np.testing.assert_allclose(q @ q.T, np.eye(4), atol=1e-12)
    t = np.asarray(nn.init.trunc_normal(k, (5000,), std=0.5, a=-0.5, b=0.5))
    assert t.min() >= -0.5 and t.max() <= 0.5
    with pytest.raises(ValueError, match="fewer than 2"):
        nn.init.xavier_uniform(k, (3,))
    assert nn.init.zeros((2,), np.float32).dtype == np.float32


def test_batchnorm_state_and_layers():
    bn = nn.BatchNorm(2, momentum=None)
    st = bn.init_state()
    x1 = fg.random.normal(fg.random.key(0), (8, 2))
    x2 = fg.random.normal(fg.random.key(1), (8, 2)) + 3
    _, st = bn(x1, st, training=True)
    _, st = bn(x2, st, training=True)
    # cumulative average of the two batches' means
    expect = (np.asarray(x1).mean(0) + np.asarray(x2).mean(0)) / 2
    np.testing.assert_allclose(np.asarray(st.running_mean), expect)
    assert int(st.num_batches_tracked) == 2
    y, st2 = bn(x1, st, training=False)
    assert st2 is st
    seq = nn.Sequential(nn.Linear(4, 8, key=fg.random.key(0)), nn.functional.relu, nn.Dropout(0.5),
                        nn.LayerNorm(8), nn.Linear(8, 2, key=fg.random.key(1)))
    out = seq(fnp.ones((3, 4)), key=fg.random.key(3))
    assert out.shape == (3, 2)
    with pytest.raises(ValueError, match="key"):
        seq(fnp.ones((3, 4)))
    assert seq(fnp.ones((3, 4)), training=False).shape == (3, 2)
    emb = nn.Embedding(5, 3, padding_idx=0, key=fg.random.key(0))
    np.testing.assert_array_equal(np.asarray(emb.weight)[0], 0.0)
    mlp = nn.MLP(3, 1, 4, 2, key=fg.random.key(0), dtype=np.float32)
    assert mlp(fnp.ones((2, 3), dtype=np.float32)).dtype == np.float32


def test_module_definition_errors():
    class Bad(nn.Module):
        w: fg.Array

        def __init__(self):
            pass

    with pytest.raises(TypeError, match="did not set"):
        Bad()

    class Typo(nn.Module):
        w: fg.Array

        def __init__(self):
            self.v = 1

    with pytest.raises(AttributeError, match="no field 'v'"):
        Typo()


def test_dataclass_generated_init_and_static_fields():
    class Affine(nn.Module):
        w: fg.Array
        b: fg.Array
        name: str = nn.static_field(default="affine")

        def __call__(self, x):
            return x * self.w + self.b

    class Scaled(Affine):
        scale: float = nn.static_field(default=2.0)

        def __call__(self, x):
            return super().__call__(x) * self.scale

    m = Scaled(fnp.asarray(2.0), fnp.asarray(1.0))
    assert float(m(fnp.asarray(3.0))) == 14.0 and m.name == "affine"
    assert len(fg.tree.tree_leaves(m)) == 2
    g = fg.grad(lambda m: m(fnp.asarray(3.0)))(m)
    assert float(g.w) == 6.0 and float(g.b) == 2.0 and g.scale == 2.0
    # static fields are part of the structure: different values, different trees
    assert fg.tree.tree_structure(m) != fg.tree.tree_structure(m.replace(scale=3.0))
