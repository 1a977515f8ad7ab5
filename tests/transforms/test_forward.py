"""jvp: forward mode."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp


def test_jvp_values_and_tangents():
    x = fnp.asarray([0.1, 0.2, 0.3])
    v = fnp.asarray([1.0, 0.0, -1.0])
    out, t = fg.jvp(lambda a: fnp.sin(a) * a, (x,), (v,))
    xn, vn = np.asarray(x), np.asarray(v)
    assert np.allclose(out, np.sin(xn) * xn)
    assert np.allclose(t, (np.cos(xn) * xn + np.sin(xn)) * vn)


def test_jvp_pytrees_and_constants():
    def f(p, c):
        return {"y": p["a"] * c + p["b"], "k": c}

    primals = ({"a": fnp.ones(2), "b": 1.0}, 3.0)
    tangents = ({"a": fnp.asarray([1.0, 2.0]), "b": 1.0}, 0.0)
    out, t = fg.jvp(f, primals, tangents)
    assert np.allclose(t["y"], [4.0, 7.0])
    assert float(t["k"]) == 0.0


def test_jvp_broadcast_tangent_is_broadcast_to_output():
    _, t = fg.jvp(lambda a: a + fnp.zeros((2, 3)), (fnp.ones(3),), (fnp.asarray([1.0, 2.0, 3.0]),))
    assert t.shape == (2, 3) and np.allclose(t, [[1, 2, 3], [1, 2, 3]])


def test_jvp_input_errors():
    with pytest.raises(TypeError, match=r"jvp\(f, \(x,\), \(t,\)\)"):
        fg.jvp(fnp.sin, 1.0, 1.0)
    with pytest.raises(ValueError, match="shape"):
        fg.jvp(fnp.sin, (fnp.ones(3),), (fnp.ones(2),))
    with pytest.raises(TypeError, match="dtype"):
        fg.jvp(fnp.sin, (fnp.ones(3),), (fnp.ones(3, dtype=np.float32),))
    with pytest.raises(ValueError, match="lengths differ"):
        fg.jvp(lambda a: a[0], ([1.0, 2.0],), ([1.0],))


def test_forward_over_reverse_hvp_equals_hessian_vector():
    def f(x):
        return fnp.sum(fnp.exp(x) * fnp.tanh(x[::-1]))

    x = fnp.asarray([0.2, -0.4, 0.7])
    v = fnp.asarray([1.0, 2.0, -1.0])
    hv = fg.jvp(fg.grad(f), (x,), (v,))[1]
    # Hessian by finite differences of the gradient
    h = 1e-6
    cols = []
    for i in range(3):
        e = np.zeros(3)
        e[i] = h
        cols.append((np.asarray(fg.grad(f)(x + e)) - np.asarray(fg.grad(f)(x - e))) / (2 * h))
    H = np.stack(cols, axis=1)
    assert np.allclose(hv, H @ np.asarray(v), rtol=1e-5, atol=1e-7)


def test_higher_order_forward():
    d3 = lambda f: lambda x: fg.jvp(lambda y: fg.jvp(lambda z: fg.jvp(f, (z,), (1.0,))[1], (y,), (1.0,))[1], (x,), (1.0,))[1]  # noqa: E731
    assert np.isclose(d3(fnp.sin)(0.4), -np.cos(0.4))
