"""grad / value_and_grad / vjp: the core issue's must-holds."""

import collections

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp


@pytest.mark.parametrize("x", [0.3, 1.0, -2.0])
def test_fourth_order_sin_and_cos(x):
    d4 = fg.grad(fg.grad(fg.grad(fg.grad(fnp.sin))))
    assert np.isclose(d4(x), np.sin(x))
    c4 = fg.grad(fg.grad(fg.grad(fg.grad(fnp.cos))))
    assert np.isclose(c4(x), np.cos(x))
    e5 = fg.grad(fg.grad(fg.grad(fg.grad(fg.grad(fnp.exp)))))
    assert np.isclose(e5(x), np.exp(x))


def test_fourth_order_tanh_matches_closed_form():
    x = 0.7
    t = np.tanh(x)
    s = 1 - t**2  # tanh' = s, s' = -2 t s
    expected = 16 * t * s**2 - 8 * t**3 * s
    d4 = fg.grad(fg.grad(fg.grad(fg.grad(fnp.tanh))))(x)
    assert np.isclose(d4, expected, rtol=1e-12)


def test_no_perturbation_confusion():
    assert fg.grad(lambda x: x * fg.grad(lambda y: x * y)(2.0))(1.0) == 2.0
    assert fg.grad(lambda x: x * fg.grad(lambda y: x + y)(1.0))(1.0) == 1.0


def _d_fwd(f):
    return lambda x: fg.jvp(f, (x,), (fnp.ones_like(fnp.asarray(x)),))[1]


@pytest.mark.parametrize("outer", ["rev", "fwd"])
@pytest.mark.parametrize("inner", ["rev", "fwd"])
def test_nested_derivative_egg_in_all_pairings(outer, inner):
    d_out = fg.grad if outer == "rev" else _d_fwd
    d_in = fg.grad if inner == "rev" else _d_fwd
    assert float(d_out(lambda x: x * d_in(lambda y: x * y)(2.0))(1.0)) == 2.0
    assert float(d_out(lambda x: x * d_in(lambda y: x + y)(1.0))(1.0)) == 1.0


def test_equal_leaves_stay_distinct():
    ga, gb = fg.grad(lambda a, b: a + b, argnums=(0, 1))(3.0, 3.0)
    assert (float(ga), float(gb)) == (1.0, 1.0)
    ga, gb = fg.grad(lambda a, b: a * b, argnums=(0, 1))(3.0, 3.0)
    assert (float(ga), float(gb)) == (3.0, 3.0)


def test_where_sqrt_at_zero_is_finite():
    g = fg.grad(lambda x: fnp.where(x > 0, fnp.sqrt(x), 0.0))(0.0)
    assert float(g) == 0.0
    with np.errstate(divide="ignore", invalid="ignore"):  # log(0), log(-1) forward, as numpy
        g = fg.grad(lambda x: fnp.sum(fnp.where(x > 0, fnp.log(x), 0.0)))(fnp.asarray([0.0, -1.0, 2.0]))
    assert np.array_equal(g, [0.0, 0.0, 0.5])
    gg = fg.grad(fg.grad(lambda x: fnp.where(x > 0, fnp.sqrt(x), 0.0)))(0.0)
    assert np.isfinite(float(gg))


def test_grad_of_pytrees_keeps_structure():
    Point = collections.namedtuple("Point", "x y")
    params = {"w": fnp.ones((2, 2)), "b": [fnp.zeros(2), (1.5, Point(2.0, fnp.ones(3)))]}

    def loss(p):
        return fnp.sum(p["w"] ** 2) + fnp.sum(p["b"][0] + 1) * p["b"][1][0] + p["b"][1][1].x * fnp.sum(p["b"][1][1].y)

    g = fg.grad(loss)(params)
    assert fg.tree.tree_structure(g) == fg.tree.tree_structure(params)
    assert np.allclose(g["w"], 2.0)
    assert np.allclose(g["b"][0], 1.5)
    assert float(g["b"][1][0]) == 2.0
    assert isinstance(g["b"][1][1], Point) and float(g["b"][1][1].x) == 3.0
    assert np.allclose(g["b"][1][1].y, 2.0)


def test_argnums_and_has_aux():
    def f(x, y, z):
        return x * y + z, {"xy": x * y}

    (gx, gz), aux = fg.grad(f, argnums=(0, 2), has_aux=True)(2.0, 3.0, 4.0)
    assert (float(gx), float(gz)) == (3.0, 1.0)
    assert float(aux["xy"]) == 6.0 and type(aux["xy"]) is fg.Array
    (val, aux), gy = fg.value_and_grad(f, argnums=1, has_aux=True)(2.0, 3.0, 4.0)
    assert float(val) == 10.0 and float(gy) == 2.0
    assert float(fg.grad(f, argnums=-2, has_aux=True)(2.0, 3.0, 4.0)[0]) == 2.0


def test_unused_input_gets_zero_gradient_of_its_shape():
    g = fg.grad(lambda x, y: fnp.sum(x), argnums=(0, 1))(fnp.ones(2), fnp.ones((3, 1), dtype=np.float32))
    assert g[1].shape == (3, 1) and g[1].dtype == np.float32 and not np.any(g[1])
    assert float(fg.grad(lambda x: 3.0)(1.0)) == 0.0


def test_float32_in_float32_out():
    x32 = fnp.ones(3, dtype=np.float32)
    g = fg.grad(lambda x: fnp.sum(fnp.sin(x) * fnp.ones(3)))(x32)  # float64 constant inside
    assert g.dtype == np.float32
    v, vjp_fn = fg.vjp(lambda x: fnp.exp(x), x32)
    assert v.dtype == np.float32 and vjp_fn(fnp.ones(3, dtype=np.float32))[0].dtype == np.float32


def test_broadcasting_gradients_sum_to_input_shapes():
    x = fnp.ones((3, 1))
    y = fnp.ones((1, 4)) * 2.0
    z = 5.0
    gx, gy = fg.grad(lambda a, b: fnp.sum(a * b + z), argnums=(0, 1))(x, y)
    assert gx.shape == (3, 1) and np.allclose(gx, 8.0)
    assert gy.shape == (1, 4) and np.allclose(gy, 3.0)
    g0 = fg.grad(lambda a: fnp.sum(a * fnp.ones((2, 3, 4))))(fnp.asarray(1.0))
    assert g0.shape == () and float(g0) == 24.0


def test_non_scalar_output_error_names_shape():
    with pytest.raises(TypeError, match=r"scalar output.*shape \(3,\)"):
        fg.grad(lambda x: x * 2)(fnp.ones(3))
    with pytest.raises(TypeError, match="has_aux=True"):
        fg.grad(lambda x: (x, x))(1.0)


@pytest.mark.parametrize("bad", [1, True, np.arange(3), np.array([True])])
def test_integer_or_bool_inputs_are_a_type_error_with_the_fix(bad):
    with pytest.raises(TypeError, match=r"(integer|boolean).*(float|astype)"):
        fg.grad(lambda x: fnp.sum(x * 1.0))(bad)


def test_vjp_multiple_outputs_and_reuse():
    def f(x, y):
        return {"a": x * y, "b": fnp.sin(x)}

    out, vjp_fn = fg.vjp(f, fnp.asarray([1.0, 2.0]), 3.0)
    ct = {"a": fnp.ones(2), "b": fnp.asarray([1.0, 0.0])}
    gx, gy = vjp_fn(ct)
    assert np.allclose(gx, [3 + np.cos(1.0), 3])
    assert float(gy) == 3.0
    gx2, _ = vjp_fn(ct)  # callable again
    assert np.allclose(gx, gx2)


def test_vjp_cotangent_structure_mismatch_shows_key_path():
    _, vjp_fn = fg.vjp(lambda x: {"a": x, "b": [x, x]}, 1.0)
    with pytest.raises(ValueError, match=r"\['b'\].*lengths differ \(2 vs 3\)"):
        vjp_fn({"a": 1.0, "b": [1.0, 1.0, 1.0]})
    with pytest.raises(ValueError, match=r"keys differ"):
        vjp_fn({"a": 1.0, "c": [1.0, 1.0]})
    _, vjp_fn = fg.vjp(lambda x: x * 2, fnp.ones(3))
    with pytest.raises(ValueError, match=r"shape \(2,\).*shape \(3,\)"):
        vjp_fn(fnp.ones(2))
    with pytest.raises(TypeError, match="dtype float32"):
        vjp_fn(fnp.ones(3, dtype=np.float32))


def test_grad_of_vjp_fn_and_jvp_of_grad():
    # d/dx of the vjp (a Hessian-vector product by reverse-over-reverse)
    def f(x):
        return fnp.sum(fnp.sin(x) * x)

    x = fnp.asarray([0.1, 0.5, 0.9])
    v = fnp.asarray([1.0, -1.0, 2.0])
    hess_diag = 2 * np.cos(x) - np.asarray(x) * np.sin(x)
    hv_rr = fg.grad(lambda y: fnp.sum(fg.grad(f)(y) * v))(x)
    hv_fr = fg.jvp(fg.grad(f), (x,), (v,))[1]
    assert np.allclose(hv_rr, hess_diag * v) and np.allclose(hv_fr, hess_diag * v)


def test_stop_gradient():
    g = fg.grad(lambda x: x * fg.stop_gradient(x))(3.0)
    assert float(g) == 3.0
    tree = fg.stop_gradient({"a": fnp.ones(2), "b": 1})
    assert tree["b"] == 1


def test_python_control_flow_on_traced_values():
    def f(x):
        return x**2 if x > 0 else -x

    assert float(fg.grad(f)(3.0)) == 6.0 and float(fg.grad(f)(-3.0)) == -1.0


def test_mlp_training_with_grad_reduces_loss():
    rng = np.random.default_rng(0)
    X = fnp.asarray(rng.standard_normal((64, 3)))
    y = fnp.asarray(np.sin(np.asarray(X) @ np.array([1.0, -2.0, 0.5])))
    params = {
        "w1": fnp.asarray(rng.standard_normal((3, 16)) * 0.5), "b1": fnp.zeros(16),
        "w2": fnp.asarray(rng.standard_normal((16,)) * 0.5), "b2": fnp.asarray(0.0),
    }

    def loss(p):
        h = fnp.tanh(X @ p["w1"] + p["b1"])
        return fnp.mean((h @ p["w2"] + p["b2"] - y) ** 2)

    l0 = float(loss(params))
    step = fg.value_and_grad(loss)
    for _ in range(300):
        l, g = step(params)
        params = fg.tree.tree_map(lambda p, d: p - 0.1 * d, params, g)
    assert float(loss(params)) < 0.1 * l0
