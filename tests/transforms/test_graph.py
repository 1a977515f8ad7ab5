"""make_graph: a readable record of the primitives applied; DOT export; replay; linearize."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp


def test_graph_lists_inputs_equations_and_outputs():
    w = fnp.ones((3, 2))

    def f(x, y):
        return fnp.sum(fnp.tanh(x @ w) * y)

    g = fg.make_graph(f)(fnp.ones((4, 3)), fnp.ones(2))
    text = str(g)
    assert g.primitive_names() == ["matmul", "tanh", "multiply", "reduce_sum"]
    assert "a:f64[4,3] b:f64[2]" in text  # inputs with shapes and dtypes
    assert "c:f64[4,2] = matmul a g" in text  # w is a constant
    assert "reduce_sum[axes=(0, 1) keepdims=False] e" in text  # params shown
    assert text.strip().endswith("in (f,) }")
    assert repr(g) == text


def test_graph_of_a_function_using_grad_shows_the_backward_pass():
    g = fg.make_graph(fg.grad(lambda x: fnp.sum(fnp.sin(x) * x)))(fnp.ones(3, dtype=np.float32))
    names = g.primitive_names()
    assert names[:3] == ["sin", "multiply", "reduce_sum"]  # forward
    assert "cos" in names[3:] and names.count("multiply") >= 3  # backward: d sin, product rule
    assert "f32[3]" in str(g)


def test_python_control_flow_records_the_branch_taken():
    def f(x):
        return fnp.exp(x) if float(fnp.sum(x)) > 0 else fnp.sin(x)

    assert fg.make_graph(f)(fnp.ones(2)).primitive_names() == ["reduce_sum", "exp"]
    assert fg.make_graph(f)(-fnp.ones(2)).primitive_names() == ["reduce_sum", "sin"]


def test_to_dot_is_graphviz_text():
    dot = fg.make_graph(lambda x, y: x * y + 1.0)(fnp.ones(2), fnp.ones(2)).to_dot()
    assert dot.startswith('digraph "funcgrad" {') and dot.rstrip().endswith("}")
    assert '"a" -> "eqn0";' in dot and '"eqn0" -> "c";' in dot
    assert 'label="add"' in dot and 'label="1.0", shape=plaintext' in dot
    assert dot.count("{") == dot.count("}")


def test_replay_and_multiple_outputs_and_pytrees(rng):
    def f(p, x):
        h = fnp.tanh(x @ p["w"])
        return {"h": h, "n": fnp.argmax(h, axis=1)}

    p = {"w": fnp.asarray(rng.standard_normal((3, 2)))}
    x = fnp.asarray(rng.standard_normal((4, 3)))
    g = fg.make_graph(f)(p, x)
    x2 = fnp.asarray(rng.standard_normal((4, 3)))
    out = g(p, x2)
    np.testing.assert_allclose(np.asarray(out["h"]), np.asarray(f(p, x2)["h"]))
    assert np.array_equal(np.asarray(out["n"]), np.asarray(f(p, x2)["n"]))
    with pytest.raises(TypeError, match="traced as f64\\[4,3\\]"):
        g(p, fnp.ones((2, 3)))


def test_make_graph_under_vmap_and_inside_transformations():
    g = fg.make_graph(fg.vmap(lambda x: fnp.sum(x * 2.0)))(fnp.ones((5, 3)))
    assert g.primitive_names() == ["multiply", "reduce_sum"]
    assert "reduce_sum[axes=(1,) keepdims=False]" in str(g)
    # make_graph inside grad: the function is still differentiated
    d = fg.grad(lambda x: fg.make_graph(lambda y: fnp.sum(y ** 3))(x)(x))(fnp.asarray([1.0, 2.0]))
    np.testing.assert_allclose(np.asarray(d), [3.0, 12.0])


def test_linearize_matches_jvp_without_recomputing_the_primal(rng):
    calls = []

    def f(x):
        calls.append(1)
        return fnp.sin(x) * fnp.exp(x)

    x = fnp.asarray(rng.standard_normal(3))
    y, f_jvp = fg.linearize(f, x)
    np.testing.assert_allclose(np.asarray(y), np.asarray(f(x)))
    n = len(calls)
    for _ in range(3):
        t = fnp.asarray(rng.standard_normal(3))
        np.testing.assert_allclose(np.asarray(f_jvp(t)), np.asarray(fg.jvp(f, (x,), (t,))[1]), rtol=1e-13)
    assert len(calls) == n + 3  # only the jvp references ran f again
    with pytest.raises(TypeError, match="structure of the primals"):
        f_jvp(t, t)


def test_graph_shows_checkpoint_recomputation():
    def f(x):
        return fnp.sum(fnp.sin(fnp.sin(x)))

    plain = fg.make_graph(fg.grad(f))(fnp.ones(3)).primitive_names()
    ck = fg.make_graph(fg.grad(fg.checkpoint(f)))(fnp.ones(3)).primitive_names()
    assert plain.count("sin") == 2 and ck.count("sin") == 4  # the backward pass recomputes f
