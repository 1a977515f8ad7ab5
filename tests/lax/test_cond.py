"""lax.cond and lax.switch against Python if/else: values, derivatives, vmap (batched predicates), jit, errors."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

lax = fg.lax


def branchy(x, w):
    return lax.cond(fnp.sum(x) > 0, lambda a: {"y": fnp.sin(a) * w, "n": 1},
                    lambda a: {"y": a ** 3 * w, "n": 2}, x)


def branchy_py(x, w):
    return {"y": fnp.sin(x) * w, "n": 1} if fnp.sum(x) > 0 else {"y": x ** 3 * w, "n": 2}


@pytest.mark.parametrize("x", [[0.5, 0.25], [-0.5, -1.0]])
def test_values_and_grads_of_the_taken_branch_to_order_2(x):
    x, w = fnp.asarray(x), fnp.asarray(1.5)
    out, ref = branchy(x, w), branchy_py(x, w)
    np.testing.assert_allclose(out["y"], ref["y"])
    assert int(out["n"]) == ref["n"]

    def loss(f):
        return lambda x, w: fnp.sum(f(x, w)["y"] ** 2)

    for argnums in (0, 1):
        np.testing.assert_allclose(fg.grad(loss(branchy), argnums)(x, w), fg.grad(loss(branchy_py), argnums)(x, w))
    np.testing.assert_allclose(fg.hessian(loss(branchy))(x, w), fg.hessian(loss(branchy_py))(x, w))
    check_grads(loss(branchy), (x, w), order=2, modes=("fwd", "rev"))
    out, t = fg.jvp(loss(branchy), (x, w), (fnp.ones(2), fnp.asarray(0.5)))
    np.testing.assert_allclose(t, fg.jvp(loss(branchy_py), (x, w), (fnp.ones(2), fnp.asarray(0.5)))[1])


def test_vmap_with_batched_predicate_selects_per_example():
    xs = fnp.asarray([[0.5, 0.25], [-0.5, -1.0], [2.0, -1.0]])
    w = fnp.asarray(1.5)
    got = fg.vmap(branchy, in_axes=(0, None))(xs, w)
    for b in range(3):
        ref = branchy_py(xs[b], w)
        np.testing.assert_allclose(got["y"][b], ref["y"])
        assert int(got["n"][b]) == ref["n"]
    g = fg.vmap(fg.grad(lambda x, w: fnp.sum(branchy(x, w)["y"])), in_axes=(0, None))(xs, w)
    ref_g = [fg.grad(lambda x, w: fnp.sum(branchy_py(x, w)["y"]))(xs[b], w) for b in range(3)]
    np.testing.assert_allclose(g, np.stack(ref_g))


def test_vmap_with_unbatched_predicate():
    f = lambda p, x: lax.cond(p, lambda a: a * 2.0, lambda a: -a, x)  # noqa: E731
    np.testing.assert_allclose(fg.vmap(f, in_axes=(None, 0))(True, fnp.arange(3.0)), [0.0, 2.0, 4.0])
    np.testing.assert_allclose(fg.vmap(f, in_axes=(None, 0))(False, fnp.arange(3.0)), [0.0, -1.0, -2.0])


def test_under_jit_with_traced_predicate():
    jf = fg.jit(branchy)
    w = fnp.asarray(1.5)
    for x in ([0.5, 0.25], [-0.5, -1.0]):
        np.testing.assert_allclose(jf(fnp.asarray(x), w)["y"], branchy_py(fnp.asarray(x), w)["y"])
    assert jf.trace_count == 1
    loss = lambda x, w: fnp.sum(branchy(x, w)["y"])  # noqa: E731
    ref = lambda x, w: fnp.sum(branchy_py(x, w)["y"])  # noqa: E731
    x = fnp.asarray([-0.5, -1.0])
    np.testing.assert_allclose(fg.jit(fg.grad(loss))(x, w), fg.grad(ref)(x, w))
    np.testing.assert_allclose(fg.grad(fg.jit(loss))(x, w), fg.grad(ref)(x, w))


def test_branches_closing_over_different_outer_values():
    def f(a, b, x):
        return lax.cond(x > 0, lambda: a * b, lambda: fnp.sin(b))

    for x in (1.0, -1.0):
        ga, gb = fg.grad(f, argnums=(0, 1))(2.0, 3.0, x)
        ref = fg.grad(lambda a, b: a * b if x > 0 else fnp.sin(b), argnums=(0, 1))(2.0, 3.0)
        np.testing.assert_allclose([ga, gb], ref)


def test_switch_clamps_index_and_differentiates():
    branches = [lambda v: v, lambda v: v * v, lambda v: v ** 3]
    f = lambda i, v: lax.switch(i, branches, v)  # noqa: E731
    assert [float(f(i, 3.0)) for i in (-4, 0, 1, 2, 9)] == [3.0, 3.0, 9.0, 27.0, 27.0]
    assert [float(fg.grad(f, argnums=1)(i, 3.0)) for i in (0, 1, 2)] == [1.0, 6.0, 27.0]
    np.testing.assert_allclose(fg.vmap(f, in_axes=(0, None))(fnp.asarray([0, 1, 2, 7]), 3.0), [3.0, 9.0, 27.0, 27.0])
    np.testing.assert_allclose(fg.vmap(fg.grad(f, argnums=1), in_axes=(0, None))(fnp.asarray([0, 2]), 3.0), [1.0, 27.0])
    np.testing.assert_allclose(fg.jit(f)(fnp.asarray(1), fnp.asarray(3.0)), 9.0)


@pytest.mark.parametrize("t, f, match", [
    (lambda x: x, lambda x: x.astype(np.float32), r"false_fun \(<lambda>\) is float32\[\] at <root> but true_fun is "
                                                  r"float64\[\]"),
    (lambda x: x, lambda x: fnp.stack([x, x]), r"float64\[2\] at <root> but true_fun is float64\[\]"),
    (lambda x: (x, x), lambda x: x, "tree structure"),
])
def test_branch_output_mismatch_errors_name_both_sides(t, f, match):
    with pytest.raises(TypeError, match=match):
        lax.cond(True, t, f, 1.0)


def test_predicate_and_index_errors():
    with pytest.raises(TypeError, match=r"pred must be a scalar, got bool\[2\]"):
        lax.cond(fnp.asarray([True, False]), lambda: 1.0, lambda: 2.0)
    with pytest.raises(TypeError, match=r"boolean or integer scalar, got float64\[\]"):
        lax.cond(1.5, lambda: 1.0, lambda: 2.0)
    assert float(lax.cond(2, lambda: 1.0, lambda: 2.0)) == 1.0  # a nonzero integer is true
    with pytest.raises(TypeError, match=r"index must be an integer scalar, got float64\[\]"):
        lax.switch(1.0, [lambda: 1.0], )
    with pytest.raises(ValueError, match="non-empty"):
        lax.switch(0, [])
    with pytest.raises(TypeError, match=r"branch 1 must be callable"):
        lax.switch(0, [lambda: 1.0, 3])
