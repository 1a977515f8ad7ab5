"""fg.jit: caching and retracing, static and donated arguments, pytrees, composition with every
transformation in both orders, tracing errors, and what lower/make_jaxpr show."""

import logging

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import optim


def _f(x, y):
    return fnp.sum(fnp.sin(x) * y + 2.0)


def test_cached_calls_do_not_retrace_and_new_signatures_do():
    calls = []

    @fg.jit
    def f(x):
        calls.append(1)  # a Python side effect: runs at trace time only
        return x * 2.0 + 1.0

    x = fnp.arange(3.0)
    for _ in range(3):
        np.testing.assert_array_equal(f(x), [1.0, 3.0, 5.0])
    assert len(calls) == 1 and f.trace_count == 1
    f(fnp.arange(4.0))  # new shape
    f(fnp.arange(3.0, dtype=np.float32))  # new dtype
    assert f(fnp.arange(3.0, dtype=np.float32)).dtype == np.float32
    assert len(calls) == 3


def test_retrace_reasons_are_logged(caplog):
    f = fg.jit(lambda x, n: x * n, static_argnums=1)
    with caplog.at_level(logging.INFO, logger="funcgrad.jit"):
        f(fnp.ones(2), 2)
        f(fnp.ones(3), 2)
        f(fnp.ones(3), 5)
    msgs = [r.getMessage() for r in caplog.records]
    assert "first call" in msgs[0] and "leaf 0 changed: float64[2] on cpu -> float64[3] on cpu" in msgs[1]
    assert "static argument changed" in msgs[2]


def test_static_arguments():
    def f(x, n, mode="sum"):
        out = x
        for _ in range(n):  # Python control flow on a static value
            out = out * 2.0
        return fnp.sum(out) if mode == "sum" else out

    jf = fg.jit(f, static_argnums=1, static_argnames="mode")
    x = fnp.ones(3)
    assert float(jf(x, 3)) == 24.0
    np.testing.assert_array_equal(jf(x, 2, mode="none"), [4.0, 4.0, 4.0])
    np.testing.assert_array_equal(jf(x, 2, "none"), [4.0, 4.0, 4.0])  # a static name passed positionally
    with pytest.raises(TypeError, match="argument 1.*hashable"):
        jf(x, [1, 2])
    with pytest.raises(TypeError, match="static_argnums includes 1"):
        jf(x)


def test_python_control_flow_on_a_traced_value_names_the_argument():
    def f(x, y):
        return x if float(fnp.sum(y)) > 0 else -x

    with pytest.raises(fg.ConcretizationTypeError, match="argument 'y'.*static_argnums"):
        fg.jit(f)(fnp.ones(2), fnp.ones(2))
    with pytest.raises(TypeError):  # it is a TypeError, as JAX's
        fg.jit(lambda x: bool(x))(fnp.asarray(1.0))
    with pytest.raises((fg.ConcretizationTypeError, IndexError), match="concrete"):
        fg.jit(lambda x: x[x > 0])(fnp.ones(3))  # a data-dependent shape
    assert float(fg.jit(lambda x: fnp.where(x > 0, x, -x))(fnp.asarray(-2.0))) == 2.0


def test_pytrees_in_and_out_and_python_numbers_out():
    @fg.jit
    def f(p, scale):
        return {"y": p["w"] * scale["s"], "n": 3.0, "pair": (p["w"], p["b"] + 1)}

    p = {"w": fnp.arange(2.0), "b": fnp.zeros(2)}
    out = f(p, {"s": fnp.asarray(2.0)})
    np.testing.assert_array_equal(out["y"], [0.0, 2.0])
    assert isinstance(out["n"], fg.Array) and float(out["n"]) == 3.0
    np.testing.assert_array_equal(out["pair"][1], [1.0, 1.0])


def test_constants_fold_and_dead_code_is_removed():
    c = fnp.arange(3.0)

    def f(x):
        unused = fnp.exp(x)  # noqa: F841 - dead
        k = fnp.sin(c) * 2.0  # constants only: folded
        return x * k + x * k  # common subexpression

    lowered = fg.jit(f).lower(fnp.ones(3))
    body = [line for line in lowered.source.splitlines() if "#" in line]
    ops = [line.split("#")[1].strip() for line in body]
    assert ops.count("multiply") == 1 and "exp" not in ops and "sin" not in ops
    np.testing.assert_allclose(fg.jit(f)(fnp.ones(3)), f(fnp.ones(3)))


def test_intermediate_buffers_are_reused_without_corrupting_views():
    def f(x):
        a = fnp.sin(x)
        v = a.reshape(2, 2)  # a view of a's buffer, used after a's last use
        b = fnp.cos(a)
        return b * 2.0, v + 1.0

    x = fnp.asarray(np.linspace(0, 1, 4))
    for got, want in zip(fg.jit(f)(x), f(x)):
        np.testing.assert_allclose(got, want)
    src = fg.jit(lambda x: fnp.tanh(fnp.sin(x) * 2.0)).lower(x).source
    assert "out=" in src
    np.testing.assert_array_equal(x, np.linspace(0, 1, 4))  # inputs are never overwritten


def test_donated_arguments_are_reused_and_then_unusable():
    f = fg.jit(lambda x, y: x * 2.0 + y, donate_argnums=0)
    x, y = fnp.ones(4), fnp.ones(4)
    assert "out=a0" in f.lower(x, y).source
    np.testing.assert_array_equal(f(x, y), [3.0] * 4)
    np.testing.assert_array_equal(y, [1.0] * 4)
    with pytest.raises(RuntimeError, match="donated"):
        x + 1


@pytest.mark.parametrize("order", [1, 2, 3])
def test_grad_of_jit_and_jit_of_grad_to_order_3(order):
    def f(x):
        return fnp.sum(fnp.sin(x) ** 2 * fnp.exp(x))

    def nth(fun):
        g = fun
        for _ in range(order):
            g = fg.grad(lambda x, g=g: fnp.sum(g(x)))
        return g

    x = fnp.asarray(np.linspace(-1, 1, 5))
    want = nth(f)(x)
    np.testing.assert_allclose(nth(fg.jit(f))(x), want, rtol=1e-10)
    np.testing.assert_allclose(fg.jit(nth(f))(x), want, rtol=1e-10)
    np.testing.assert_allclose(fg.jit(nth(fg.jit(f)))(x), want, rtol=1e-10)


def test_composition_with_vmap_jvp_vjp_hessian_and_nested_jit():
    x, y = fnp.asarray(np.linspace(0, 1, 5)), fnp.ones(5)
    j = fg.jit(_f)
    np.testing.assert_allclose(fg.vmap(j)(fnp.stack([x, x]), fnp.stack([y, 2 * y])),
                               fg.vmap(_f)(fnp.stack([x, x]), fnp.stack([y, 2 * y])))
    np.testing.assert_allclose(fg.jit(fg.vmap(_f, in_axes=(0, None)))(fnp.stack([x, x]), y),
                               fg.vmap(_f, in_axes=(0, None))(fnp.stack([x, x]), y))
    t = (fnp.ones(5), fnp.zeros(5))
    np.testing.assert_allclose(fg.jvp(j, (x, y), t)[1], fg.jvp(_f, (x, y), t)[1])
    np.testing.assert_allclose(fg.hessian(j)(x, y), fg.hessian(_f)(x, y))
    np.testing.assert_allclose(fg.jit(fg.hessian(_f))(x, y), fg.hessian(_f)(x, y))
    outer = fg.jit(lambda x, y: fg.jit(_f)(x, y) * fg.jit(fnp.cos)(x))
    np.testing.assert_allclose(outer(x, y), _f(x, y) * fnp.cos(x))
    assert "jit" not in " ".join(line.split("#")[-1] for line in outer.lower(x, y).source.splitlines()[1:])


def test_closing_over_a_value_of_an_outer_transformation():
    def g(a):
        return fg.jit(lambda x: x * a)(fnp.asarray(2.0))  # `a` is a grad tracer

    assert float(fg.grad(g)(fnp.asarray(3.0))) == 2.0
    assert float(fg.grad(fg.grad(lambda a: fg.jit(lambda x: x * a * a)(fnp.asarray(2.0))))(fnp.asarray(3.0))) == 4.0


def test_custom_rules_and_checkpoint_inside_jit():
    @fg.custom_vjp
    def clip_grad(x):
        return x

    clip_grad.defvjp(lambda x: (x, None), lambda _, g: (fnp.clip(g, -1.0, 1.0),))

    def f(x):
        return fnp.sum(clip_grad(x) * 10.0) + fnp.sum(fg.checkpoint(fnp.sin)(x))

    x = fnp.asarray(np.linspace(0, 1, 3))
    np.testing.assert_allclose(fg.grad(f)(x), 1.0 + np.cos(np.linspace(0, 1, 3)))
    np.testing.assert_allclose(fg.jit(fg.grad(f))(x), fg.grad(f)(x))
    np.testing.assert_allclose(fg.jit(f)(x), f(x))
    with pytest.raises(NotImplementedError, match="jit\\(grad\\(f\\)\\)"):
        fg.grad(fg.jit(f))(x)  # refused rather than silently ignoring the custom rule


def test_a_jitted_training_loop_matches_eager_and_keeps_memory_flat():
    import funcgrad.nn as nn
    import funcgrad.nn.functional as F

    model = nn.MLP(4, 3, 8, 1, key=fg.random.key(0), dtype=np.float64)
    opt = optim.adam(1e-2)
    loss_and_grad = fg.value_and_grad(lambda m, x, y: F.cross_entropy(m(x), y))

    def step(m, s, x, y):
        loss, g = loss_and_grad(m, x, y)
        upd, s = opt.update(g, s, m)
        return optim.apply_updates(m, upd), s, loss

    rng = np.random.default_rng(0)
    x, y = fg.asarray(rng.standard_normal((16, 4))), fg.asarray(rng.integers(0, 3, 16))
    eager = (model, opt.init(model))
    jitted = (model, opt.init(model))
    jstep = fg.jit(step)
    for _ in range(20):
        eager = step(*eager, x, y)[:2]
        jitted = jstep(*jitted, x, y)[:2]
    for a, b in zip(fg.tree.tree_leaves(jitted[0]), fg.tree.tree_leaves(eager[0])):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-12)
    # the state's count starts as the Python int 0 (weakly typed), then is the 0-d array the step returns
    assert jstep.trace_count == 2

    import tracemalloc

    tracemalloc.start()
    for i in range(300):
        jitted = jstep(*jitted, x, y)[:2]
        if i == 99:
            after_100 = tracemalloc.get_traced_memory()[0]
    grown = tracemalloc.get_traced_memory()[0] - after_100
    tracemalloc.stop()
    assert grown < 50_000, f"memory grew by {grown} bytes over 200 jitted steps"


def test_make_jaxpr_lower_and_dot():
    x = fnp.ones(3)
    graph = fg.make_jaxpr(_f)(x, x)
    text = str(graph)
    assert "sin a" in text and "reduce_sum" in text and "f64[3]" in text
    assert graph.to_dot().startswith('digraph "funcgrad"')
    lowered = fg.jit(_f).lower(x, x)
    assert lowered.source.startswith("def replay(a0, a1):") and "sin" in lowered.source
    assert lowered.as_text() == text


def test_jit_on_the_standin_backend():
    prev = fg.set_default_device("standin")
    try:
        x = fnp.asarray(np.linspace(0, 1, 4))
        np.testing.assert_allclose(fg.jit(fg.grad(_f))(x, fnp.ones(4)), fg.grad(_f)(x, fnp.ones(4)))
    finally:
        fg.set_default_device(prev)


def test_bad_uses():
    with pytest.raises(TypeError, match="expects a function"):
        fg.jit(3)
    with pytest.raises(TypeError, match="returned a str leaf"):
        fg.jit(lambda x: "no")(fnp.ones(1))
