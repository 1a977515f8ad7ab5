"""The immutable Array, bind's dispatch, and core error messages."""

import gc
import weakref

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core import REGISTRY, MissingRuleError, Primitive


@pytest.fixture(autouse=True)
def _restore_default_device():
    prev = fg.default_device()
    yield
    fg.set_default_device(prev)


def test_array_metadata_and_repr():
    fg.set_default_device("cpu")  # (restored by the autouse fixture below)
    x = fnp.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert x.shape == (2, 3) and x.ndim == 2 and x.size == 6
    assert x.dtype == np.float64 and str(x.device) == "cpu"
    assert repr(x) == "Array([[1., 2., 3.],\n       [4., 5., 6.]], dtype=float64)"
    assert repr(fnp.asarray(3, dtype=np.int32)) == "Array(3, dtype=int32)"
    assert repr(fnp.zeros((0, 2))) == "Array([], shape=(0, 2), dtype=float64)"
    assert str(fnp.asarray([1.5, 2.0])) == "[1.5 2. ]"
    assert len(x) == 2 and [r.shape for r in x] == [(3,), (3,)]


def test_array_is_immutable_and_points_to_at():
    x = fnp.arange(4.0)
    with pytest.raises(TypeError, match=r"x\.at\[0\]\.set\(value\)"):
        x[0] = 1.0
    with pytest.raises(TypeError, match=r"x\.at\[1:3\]\.set"):
        x[1:3] = 0.0
    host = np.asarray(x)
    assert not host.flags.writeable
    with pytest.raises(ValueError):
        host[0] = 5.0
    assert float(x[0]) == 0.0


def test_asarray_copies_host_data():
    host = np.ones(3)
    x = fg.asarray(host)
    host[0] = 7.0
    assert float(x[0]) == 1.0


def test_functional_updates():
    x = fnp.arange(5.0)
    assert np.array_equal(x.at[1].set(9.0), [0, 9, 2, 3, 4])
    assert np.array_equal(x.at[1:3].add(1.0), [0, 2, 3, 3, 4])
    assert np.array_equal(x.at[fnp.asarray([0, 0, 1])].add(1.0), [2, 2, 2, 3, 4])
    assert np.array_equal(x.at[2].multiply(3.0), [0, 1, 6, 3, 4])
    assert np.array_equal(x.at[:].min(2.0), [0, 1, 2, 2, 2])
    assert np.array_equal(x.at[:].max(2.0), [2, 2, 2, 3, 4])
    assert np.array_equal(x.at[-2:].get(), [3, 4])
    assert np.array_equal(x, [0, 1, 2, 3, 4])  # the original is unchanged


def test_protocols():
    x = fnp.asarray([1.0, 2.0])
    # numpy imports host memory only (a cuda array raises BufferError, as cupy's does)
    assert np.array_equal(np.from_dlpack(fg.device_put(x, "cpu")), [1.0, 2.0])
    assert x.__array_namespace__() is fnp
    assert float(fnp.asarray(2.5)) == 2.5 and int(fnp.asarray(3)) == 3
    assert [10, 20, 30][fnp.asarray(1)] == 20
    with pytest.raises(TypeError, match="only size-1"):
        float(x)
    with pytest.raises(ValueError, match="ambiguous"):
        bool(x)
    assert f"{fnp.asarray(2.5):.2f}" == "2.50"


def test_numpy_operands_defer_to_array():
    x = fnp.asarray([1.0, 2.0])
    out = np.array([1.0, 1.0]) + x
    assert isinstance(out, fg.Array)
    assert isinstance(np.float64(2.0) * x, fg.Array)


def test_shape_mismatch_is_numpys_value_error_naming_both_shapes():
    with pytest.raises(ValueError, match=r"\(2,\).*\(3,\)"):
        fnp.ones(2) + fnp.ones(3)
    with pytest.raises(ValueError, match="add"):
        fnp.ones(2) + fnp.ones(3)
    with pytest.raises(ValueError, match=r"mismatch in its core dimension"):
        fnp.ones((2, 3)) @ fnp.ones((2, 3))


def test_mixing_devices_is_a_clear_error():
    a = fnp.ones(3, device="cpu")
    b = fg.device_put(fnp.ones(3), "standin")
    with pytest.raises(fg.DeviceMismatchError, match="cpu and standin:0"):
        a + b
    # numpy scalars (and 0-d results computed on the cpu) act as host scalars
    assert (np.float64(2.0) * b).device == b.device
    with pytest.raises(fg.DeviceMismatchError, match="standin:0 and cpu"):
        b * a


def test_device_put_roundtrip_and_gradient(device):
    x = fnp.asarray([1.0, 2.0, 3.0])
    y = fg.device_put(x, "standin")
    assert str(y.device) == "standin:0"
    assert np.array_equal(fg.device_put(y, "cpu"), x)
    g = fg.grad(lambda v: fnp.sum(fg.device_put(v, "standin") ** 2))(fg.device_put(x, "cpu"))
    assert str(g.device) == "cpu" and np.allclose(g, [2, 4, 6])


def test_unknown_device_errors():
    with pytest.raises(ValueError, match="unknown device 'tpu'"):
        fg.device_put(fnp.ones(2), "tpu")
    if not fg.cuda_available():
        with pytest.raises(RuntimeError, match=r"funcgrad\[gpu\]"):
            fg.device_put(fnp.ones(2), "cuda")


def test_missing_rule_names_primitive_and_mode():
    p = REGISTRY.get("test_norule") or Primitive("test_norule", lambda x: x * 2, lambda x: x)
    with pytest.raises(MissingRuleError, match=r"'test_norule' has no vjp rule"):
        fg.grad(lambda x: p.bind(x))(1.0)
    with pytest.raises(MissingRuleError, match=r"'test_norule' has no jvp rule"):
        fg.jvp(lambda x: p.bind(x), (1.0,), (1.0,))


def test_escaped_tracer_is_detected():
    leaked = []

    def f(x):
        leaked.append(x * 2)
        return x * 3

    fg.grad(f)(1.0)
    with pytest.raises(fg.EscapedTracerError, match="leaked"):
        leaked[0] + 1.0


def test_traced_value_refuses_numpy_conversion():
    def f(x):
        return np.sin(x)

    with pytest.raises(TypeError, match="funcgrad.numpy"):
        fg.grad(f)(1.0)


def test_eager_ops_accept_lists_and_numpy():
    assert np.allclose(fnp.sin([0.0, np.pi / 2]), [0, 1])
    assert np.allclose(fnp.multiply(np.arange(3.0), 2), [0, 2, 4])
    with pytest.raises(TypeError, match="argument 1 has type str"):
        fnp.add(fnp.ones(2), "a")


def test_dtype_promotion_follows_numpy():
    f32 = fnp.ones(3, dtype=np.float32)
    assert (f32 * 2.0).dtype == np.float32
    assert (f32 + fnp.ones(3)).dtype == np.float64
    assert (fnp.arange(3) * 2.5).dtype == np.float64
    assert (fnp.arange(3) > 1).dtype == np.bool_


def test_graph_is_released_after_grad():
    from funcgrad.transforms import reverse

    refs = []
    orig = reverse.VJPTrace.leaf

    def spy(self, primal):
        t = orig(self, primal)
        refs.append(weakref.ref(t.node))
        refs.append(weakref.ref(self))
        return t

    reverse.VJPTrace.leaf = spy
    try:
        fg.grad(lambda x: fnp.sum(fnp.tanh(x) * x))(fnp.ones(4))
    finally:
        reverse.VJPTrace.leaf = orig
    gc.collect()
    assert refs and all(r() is None for r in refs)


def test_memory_flat_over_many_grad_calls():
    import tracemalloc

    f = fg.grad(lambda x: fnp.sum(fnp.sin(x) * fnp.exp(x)))
    x = fnp.ones(16)
    for _ in range(200):
        f(x)
    tracemalloc.start()
    gc.collect()
    base = tracemalloc.get_traced_memory()[0]
    for _ in range(10_000):
        f(x)
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    assert grown < 200_000, f"memory grew by {grown} bytes over 10,000 grad calls"
