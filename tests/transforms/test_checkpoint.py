"""checkpoint / remat: same derivatives, body recomputed, intermediates not kept."""

import gc
import weakref

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp


def _net(ws, x, block):
    for w in ws:
        x = block(w, x)
    return fnp.sum(x ** 2)


def _block(w, x):
    return fnp.tanh(x @ w)


@pytest.fixture
def params(rng):
    ws = [fnp.asarray(rng.standard_normal((3, 3)) * 0.7) for _ in range(3)]
    return ws, fnp.asarray(rng.standard_normal((2, 3)))


def test_same_gradient_and_body_is_recomputed(params):
    ws, x = params
    calls = []

    def counted(w, x):
        calls.append(1)
        return _block(w, x)

    want = fg.grad(_net, argnums=(0, 1))(ws, x, _block)
    got = fg.grad(_net, argnums=(0, 1))(ws, x, fg.checkpoint(counted))
    assert len(calls) == 6  # forward, then once more per block in the backward pass
    for a, b in zip(fg.tree.tree_leaves(want), fg.tree.tree_leaves(got)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-13, atol=1e-14)
    assert fg.remat is fg.checkpoint


def test_intermediates_are_not_kept_between_forward_and_backward(params):
    ws, x = params
    refs, alive = [], []

    def body(w, x):
        h = x @ w
        refs.append(weakref.ref(getattr(h, "primal", h)))
        return fnp.sin(h)  # sin's vjp would save h

    def loss(w, x, block):
        y = block(w, x)
        gc.collect()
        alive.append(refs[-1]() is not None)
        return fnp.sum(y)

    fg.grad(loss)(ws[0], x, body)
    fg.grad(loss)(ws[0], x, fg.checkpoint(body))
    assert alive == [True, False]


def _twice(w, x):
    return _block(w, _block(w, x) * 0.5)


@pytest.mark.parametrize("ck_block, ref_block", [
    (fg.checkpoint(_block), _block),
    (fg.checkpoint(fg.checkpoint(_block)), _block),
    (fg.checkpoint(lambda w, x: fg.checkpoint(_block)(w, _block(w, x) * 0.5)), _twice),
], ids=["single", "doubly", "nested_inside"])
def test_nested_and_higher_order_and_under_jvp_vmap(params, ck_block, ref_block):
    ws, x = params
    f_ref = lambda x: _net(ws, x, ref_block)  # noqa: E731
    f_ck = lambda x: _net(ws, x, ck_block)  # noqa: E731
    t = fnp.ones_like(x)
    np.testing.assert_allclose(np.asarray(fg.jvp(f_ck, (x,), (t,))[1]), np.asarray(fg.jvp(f_ref, (x,), (t,))[1]), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(fg.vmap(fg.grad(f_ck))(x)), np.asarray(fg.vmap(fg.grad(f_ref))(x)), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(fg.grad(lambda x: fnp.sum(fg.vmap(f_ck)(x)))(x)),
                               np.asarray(fg.grad(lambda x: fnp.sum(fg.vmap(f_ref)(x)))(x)), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(fg.hessian(f_ck)(x[0])), np.asarray(fg.hessian(f_ref)(x[0])), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(np.asarray(fg.jacrev(fg.grad(f_ck))(x[0])), np.asarray(fg.hessian(f_ref)(x[0])),
                               rtol=1e-10, atol=1e-12)


def test_pytree_outputs_and_constants(params):
    ws, x = params

    @fg.checkpoint
    def f(d, k):
        return {"y": fnp.sin(d["a"]) * k, "n": fnp.argmax(d["a"])}

    g = fg.grad(lambda a: fnp.sum(f({"a": a}, 3)["y"]))(x)
    np.testing.assert_allclose(np.asarray(g), 3 * np.cos(np.asarray(x)))
    assert int(f({"a": x}, 1)["n"]) == int(np.argmax(np.asarray(x)))


def test_benchmark_shows_the_memory_saving():
    from benchmarks.checkpoint_memory import run

    res = run(n_layers=36, width=8, batch=256)
    assert res["max_abs_diff"] == 0.0
    assert res["ratio"] > 2.0
