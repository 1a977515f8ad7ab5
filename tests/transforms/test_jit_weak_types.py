"""fg.jit traces Python numbers as weakly typed inputs (JAX's rule): one trace for every value, numpy's
treatment of Python numbers at run time, static where the function needs the value."""

import logging

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp


def _x(dtype=np.float32, n=3):
    return fg.asarray(np.linspace(0.5, 1.5, n).astype(dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_a_python_float_keeps_the_array_dtype_and_does_not_retrace(dtype):
    f = fg.jit(lambda x, s: x * s + (s - 1.0))
    x = _x(dtype)
    for s in (2.5, -1.0, 0.0, 1e10):
        out = f(x, s)
        assert out.dtype == dtype
        np.testing.assert_allclose(np.asarray(out), np.asarray(x) * s + (s - 1.0), rtol=1e-6)
    assert f.trace_count == 1


def test_python_int_and_complex_are_weak_too():
    f = fg.jit(lambda x, k: x * k)
    assert f(_x(np.float32), 3).dtype == np.float32
    assert f(_x(np.float32), 4).dtype == np.float32
    assert f.trace_count == 1
    assert f(fg.asarray(np.arange(3, dtype=np.int8)), 2).dtype == np.int8
    assert f(_x(np.float32), 2j).dtype == np.complex64
    assert f.trace_count == 3  # (int8 array; a complex number is another signature)


def test_arithmetic_between_weak_values_stays_weak():
    f = fg.jit(lambda x, lr, b: x * (lr * 0.5) / (1 - b ** 2))
    x = _x(np.float32)
    out = f(x, 0.1, 0.9)
    assert out.dtype == np.float32
    np.testing.assert_allclose(np.asarray(out), np.asarray(x) * 0.05 / (1 - 0.81), rtol=1e-6)
    graph = fg.make_jaxpr(lambda lr: lr * 2)(1.5)
    assert "f64[]{weak}" in str(graph)


def test_an_operation_needing_an_array_gets_a_strong_zero_d_array():
    f = fg.jit(lambda x, s: x + fnp.asarray(s, dtype=fnp.float32))
    out = f(fg.asarray(np.ones(3, np.float16)), 2.0)
    assert out.dtype == np.float32  # the explicit float32 array is strong: float16 + float32
    np.testing.assert_allclose(np.asarray(out), [3.0, 3.0, 3.0])
    g = fg.jit(lambda s: fnp.reshape(s, (1,)))
    r = g(3.0)
    assert r.shape == (1,) and r.dtype == np.float64 and float(r[0]) == 3.0
    h = fg.jit(lambda x, s: x + fnp.reshape(s, (1,)))  # a reshaped number is a strong float64 array
    assert h(_x(np.float32), 1.0).dtype == np.float64


def test_a_weak_number_returned_is_a_zero_d_array():
    f = fg.jit(lambda s, t: (s, s * t))
    a, b = f(1.5, 2.0)
    assert isinstance(a, fg.Array) and a.shape == () and a.dtype == np.float64 and float(a) == 1.5
    assert float(b) == 3.0
    assert int(fg.jit(lambda k: k + 1)(41)) == 42


def test_a_number_whose_value_is_needed_becomes_static(caplog):
    def f(x, n):
        for _ in range(n):  # Python control flow on the number
            x = x * 2.0
        return x

    jf = fg.jit(f)
    x = _x(np.float64)
    with caplog.at_level(logging.INFO, logger="funcgrad.jit"):
        np.testing.assert_allclose(np.asarray(jf(x, 3)), np.asarray(x) * 8)
    assert any("argument 'n'" in r.getMessage() and "static" in r.getMessage() for r in caplog.records)
    np.testing.assert_allclose(np.asarray(jf(x, 2)), np.asarray(x) * 4)
    np.testing.assert_allclose(np.asarray(jf(x, 3)), np.asarray(x) * 8)
    assert jf.trace_count == 2  # one per value of n; the failed weak trace is not counted


def test_only_the_number_whose_value_is_needed_becomes_static():
    def f(x, n, s):
        return x * s if n > 0 else x - s

    jf = fg.jit(f)
    x = _x(np.float32)
    for s in (1.0, 2.0, 3.0):
        assert jf(x, 1, s).dtype == np.float32
    np.testing.assert_allclose(np.asarray(jf(x, 0, 2.0)), np.asarray(x) - 2.0)
    assert jf.trace_count == 2  # n static (two values), s weak


def test_a_traced_array_value_still_raises():
    with pytest.raises(fg.ConcretizationTypeError, match="argument 'x'"):
        fg.jit(lambda x, s: x * s if float(x.sum()) > 0 else x)(_x(), 1.0)


def test_bools_are_static():
    f = fg.jit(lambda x, flag: x * 2.0 if flag else x)
    np.testing.assert_allclose(np.asarray(f(_x(), True)), np.asarray(_x()) * 2)
    np.testing.assert_allclose(np.asarray(f(_x(), False)), np.asarray(_x()))
    assert f.trace_count == 2


@pytest.mark.parametrize("order", ["grad(jit)", "jit(grad)", "vmap(jit)", "jit(vmap)", "jvp(jit)"])
def test_composition_with_transformations(order):
    x = fg.asarray(np.linspace(0.1, 1.0, 4))

    def loss(v, s):
        return fnp.sum(fnp.sin(v) * s)

    expect = np.cos(np.asarray(x)) * 3.0
    if order == "grad(jit)":
        j = fg.jit(loss)
        out = fg.grad(lambda v: j(v, 3.0))(x)
    elif order == "jit(grad)":
        out = fg.jit(fg.grad(loss))(x, 3.0)
    elif order == "vmap(jit)":
        j = fg.jit(lambda v, s: fnp.cos(v) * s)
        out = fg.vmap(j, in_axes=(0, None))(x, 3.0)
    elif order == "jit(vmap)":
        out = fg.jit(lambda v, s: fg.vmap(lambda e: fnp.cos(e) * s)(v))(x, 3.0)
    else:
        j = fg.jit(loss)
        _, t = fg.jvp(lambda v: j(v, 3.0), (x,), (fnp.ones_like(x),))
        out, expect = t, np.sum(expect)
    np.testing.assert_allclose(np.asarray(out), expect, rtol=1e-12)


def test_nested_jit_keeps_the_weak_type():
    inner = fg.jit(lambda x, s: x * s)
    outer = fg.jit(lambda x, s: inner(x, s * 2.0) + s)
    out = outer(_x(np.float32), 1.5)
    assert out.dtype == np.float32
    np.testing.assert_allclose(np.asarray(out), np.asarray(_x(np.float32)) * 3.0 + 1.5, rtol=1e-6)


def test_a_closure_over_a_grad_tracer_traces_the_number_static():
    x = fg.asarray(np.linspace(0.1, 1.0, 4))

    def outer(v):
        j = fg.jit(lambda s: fnp.sum(v * s))  # closes over grad's tracer v
        return j(2.0)

    np.testing.assert_allclose(np.asarray(fg.grad(outer)(x)), np.full(4, 2.0))


def test_donating_a_number_is_harmless():
    f = fg.jit(lambda x, s: x * s, donate_argnums=(0, 1))
    x = fg.asarray(np.ones(3))
    np.testing.assert_allclose(np.asarray(f(x, 2.0)), [2.0, 2.0, 2.0])


def test_the_graph_replays_a_weak_input_as_a_python_number():
    graph = fg.make_jaxpr(lambda x, s: x * s)(_x(np.float32), 2.0)
    out = graph(_x(np.float32), 3.0)
    out = out[0] if isinstance(out, (tuple, list)) else out
    assert out.dtype == np.float32


def test_structured_primitives_take_the_number_as_a_zero_d_array():
    xs = fg.asarray(np.arange(5.0))
    f = fg.jit(lambda xs, c0: fg.lax.scan(lambda c, e: (c + e, c * 2.0), c0, xs))
    carry, ys = f(xs, 1.5)
    assert float(carry) == 11.5 and carry.dtype == np.float64
    np.testing.assert_allclose(np.asarray(ys), 2 * (1.5 + np.concatenate([[0.0], np.cumsum(np.arange(4.0))])))
    carry, _ = f(xs, -1.0)
    assert float(carry) == 9.0 and f.trace_count == 1
    w = fg.jit(lambda c, x, s: fnp.where(c, x, s))
    c, x = fg.asarray(np.array([True, False])), fg.asarray(np.ones(2))
    np.testing.assert_allclose(np.asarray(w(c, x, 4.0)), [1.0, 4.0])
    np.testing.assert_allclose(np.asarray(fg.jit(lambda x, s: fnp.dot(x, x) * s)(x, 2.0)), 4.0)
