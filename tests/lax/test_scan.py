"""lax.scan against the same loop unrolled in Python: values, derivatives, vmap, jit, errors."""

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given, settings

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

lax = fg.lax


def cell(w):
    def step(carry, x):
        h, n = carry["h"], carry["n"]
        new = fnp.tanh(w * h + x)
        return {"h": new, "n": n + 1}, (new * 2.0, x.sum())
    return step


def unrolled_scan(f, init, xs, reverse=False):
    n = len(xs[0]) if isinstance(xs, tuple) else len(xs)
    carry, ys = init, []
    for i in (reversed(range(n)) if reverse else range(n)):
        carry, y = f(carry, fg.tree.tree_map(lambda a: a[i], xs))
        ys.append(y)
    if reverse:
        ys.reverse()
    return carry, ys


def test_values_pytree_carry_and_ys_match_unrolled():
    w, h0 = fnp.asarray([0.5, -0.3]), fnp.asarray([0.1, 0.2])
    xs = fnp.asarray(np.random.default_rng(0).normal(size=(5, 2)))
    for reverse in (False, True):
        carry, (ys, sums) = lax.scan(cell(w), {"h": h0, "n": 0}, xs, reverse=reverse)
        ref_c, ref_ys = unrolled_scan(cell(w), {"h": h0, "n": 0}, xs, reverse)
        np.testing.assert_allclose(carry["h"], ref_c["h"])
        assert int(carry["n"]) == 5 and carry["n"].dtype == np.int64
        np.testing.assert_allclose(ys, np.stack([y[0] for y in ref_ys]))
        np.testing.assert_allclose(sums, np.stack([y[1] for y in ref_ys]))


def test_length_zero_and_xs_none():
    c, ys = lax.scan(lambda c, x: (c + x, c * x), fnp.full(3, 1.5), fnp.zeros((0, 3)))
    assert ys.shape == (0, 3) and c.tolist() == [1.5, 1.5, 1.5]
    c, ys = lax.scan(lambda c, _: (c * 2.0, c), 1.0, None, length=4)
    assert float(c) == 16.0 and ys.tolist() == [1.0, 2.0, 4.0, 8.0]
    c, ys = lax.scan(lambda c, _: (c * 2.0, c), 1.0, None, length=0)
    assert float(c) == 1.0 and ys.shape == (0,)


def loss_scan(w, h0, xs):
    carry, (ys, _) = lax.scan(cell(w), {"h": h0, "n": 0}, xs)
    return fnp.sum(carry["h"] ** 2) + fnp.sum(ys * xs)


def loss_unrolled(w, h0, xs):
    carry, ys = unrolled_scan(cell(w), {"h": h0, "n": 0}, xs)
    return fnp.sum(carry["h"] ** 2) + sum(fnp.sum(y[0] * xs[i]) for i, y in enumerate(ys))


def test_grads_match_unrolled_and_check_to_order_2():
    rng = np.random.default_rng(1)
    args = (fnp.asarray(rng.normal(size=2)), fnp.asarray(rng.normal(size=2)), fnp.asarray(rng.normal(size=(4, 2))))
    got = fg.grad(loss_scan, argnums=(0, 1, 2))(*args)
    ref = fg.grad(loss_unrolled, argnums=(0, 1, 2))(*args)
    for a, b in zip(got, ref):
        np.testing.assert_allclose(a, b, rtol=1e-10)
    hs = fg.hessian(loss_scan)(*args)
    np.testing.assert_allclose(hs, fg.hessian(loss_unrolled)(*args), rtol=1e-9)
    check_grads(loss_scan, args, order=2, modes=("fwd", "rev"))


def test_jvp_matches_unrolled():
    args = (fnp.asarray([0.3, 0.2]), fnp.asarray([1.0, -1.0]), fnp.ones((3, 2)))
    tans = (fnp.asarray([1.0, 0.5]), fnp.asarray([0.0, 2.0]), fnp.full((3, 2), 0.1))
    out, t = fg.jvp(loss_scan, args, tans)
    ref_out, ref_t = fg.jvp(loss_unrolled, args, tans)
    np.testing.assert_allclose(out, ref_out)
    np.testing.assert_allclose(t, ref_t)


def test_vmap_over_init_xs_and_closed_over_weights():
    rng = np.random.default_rng(2)
    w, h0, xs = rng.normal(size=(3, 2)), rng.normal(size=(3, 2)), rng.normal(size=(4, 3, 2))
    got = fg.vmap(loss_scan, in_axes=(0, 0, 1))(fnp.asarray(w), fnp.asarray(h0), fnp.asarray(xs))
    ref = [float(loss_unrolled(fnp.asarray(w[b]), fnp.asarray(h0[b]), fnp.asarray(xs[:, b]))) for b in range(3)]
    np.testing.assert_allclose(got, ref)
    g = fg.vmap(fg.grad(loss_scan), in_axes=(0, None, None))(fnp.asarray(w), fnp.asarray(h0[0]), fnp.asarray(xs[:, 0]))
    ref_g = [fg.grad(loss_unrolled)(fnp.asarray(w[b]), fnp.asarray(h0[0]), fnp.asarray(xs[:, 0])) for b in range(3)]
    np.testing.assert_allclose(g, np.stack(ref_g))


def test_under_jit_one_equation_and_derivatives():
    args = (fnp.asarray([0.3, 0.2]), fnp.asarray([1.0, -1.0]), fnp.ones((6, 2)))
    jl = fg.jit(loss_scan)
    np.testing.assert_allclose(jl(*args), loss_unrolled(*args))
    graph = fg.make_jaxpr(loss_scan)(*args)
    assert [e.prim.name for e in graph.eqns].count("scan") == 1
    ref = fg.grad(loss_unrolled)(*args)
    np.testing.assert_allclose(fg.jit(fg.grad(loss_scan))(*args), ref)
    np.testing.assert_allclose(fg.grad(jl)(*args), ref)
    assert fg.jit(fg.grad(loss_scan)).lower(*args).compiled.n_eqns < 40  # the loop is not unrolled


def test_nested_scan_grad():
    def f(w, xs):
        def outer(c, row):
            inner, _ = lax.scan(lambda d, x: (d * w + x, None), c, row)
            return inner, inner
        return fnp.sum(lax.scan(outer, 0.5, xs)[1])

    def ref(w, xs):
        c, total = 0.5, 0.0
        for row in xs:
            for x in row:
                c = c * w + x
            total = total + c
        return total

    xs = fnp.asarray(np.arange(6.0).reshape(2, 3) / 6)
    np.testing.assert_allclose(f(0.7, xs), ref(0.7, xs))
    np.testing.assert_allclose(fg.grad(f)(0.7, xs), fg.grad(ref)(0.7, xs))
    np.testing.assert_allclose(fg.grad(fg.grad(f))(0.7, xs), fg.grad(fg.grad(ref))(0.7, xs))


@settings(max_examples=15, deadline=None)
@given(shape=st.sampled_from([(), (2,), (1, 3)]), length=st.integers(0, 4), reverse=st.booleans(),
       seed=st.integers(0, 2 ** 16))
def test_random_carries_and_lengths(shape, length, reverse, seed):
    rng = np.random.default_rng(seed)
    c0 = fnp.asarray(rng.normal(size=shape))
    xs = fnp.asarray(rng.normal(size=(length,) + shape))

    def step(c, x):
        return fnp.sin(c) * x + 0.5 * c, c * x

    def f(c0, xs):
        c, ys = lax.scan(step, c0, xs, reverse=reverse)
        return fnp.sum(c) + fnp.sum(ys ** 2)

    def ref(c0, xs):
        c, ys = unrolled_scan(step, c0, xs, reverse)
        return fnp.sum(c) + sum(fnp.sum(y ** 2) for y in ys)

    np.testing.assert_allclose(f(c0, xs), ref(c0, xs), rtol=1e-12)
    for a, b in zip(fg.grad(f, argnums=(0, 1))(c0, xs), fg.grad(ref, argnums=(0, 1))(c0, xs)):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("body, match", [
    (lambda c, x: (c.astype(np.float32), x), r"carry input \(init\) is float64\[\] at <root> but the carry output "
                                             r"is float32\[\]"),
    (lambda c, x: (fnp.stack([c, c]), x), r"float64\[\] at <root> but the carry output is float64\[2\]"),
    (lambda c, x: ((c, c), x), r"tree structure"),
])
def test_carry_type_change_errors_name_both_sides(body, match):
    with pytest.raises(TypeError, match=match):
        lax.scan(body, 1.0, fnp.ones(3))


def test_argument_errors():
    with pytest.raises(TypeError, match="must return a pair"):
        lax.scan(lambda c, x: c, 1.0, fnp.ones(3))
    with pytest.raises(ValueError, match=r"different leading-axis lengths \[3, 2\]"):
        lax.scan(lambda c, x: (c, None), 1.0, (fnp.ones(3), fnp.ones(2)))
    with pytest.raises(ValueError, match="length=4 but"):
        lax.scan(lambda c, x: (c, None), 1.0, fnp.ones(3), length=4)
    with pytest.raises(ValueError, match="leading axis"):
        lax.scan(lambda c, x: (c, None), 1.0, fnp.asarray(2.0))
    with pytest.raises(ValueError, match="length must be given"):
        lax.scan(lambda c, x: (c, None), 1.0, None)
    with pytest.raises(fg.ConcretizationTypeError):  # Python control flow on a traced carry
        lax.scan(lambda c, x: (c + 1 if c > 0 else c, None), 1.0, fnp.ones(3))


def test_reverse_mode_saves_per_step_residuals_not_recomputation():
    """The forward scan of grad saves what the body's vjp reads (here: 1 - tanh**2 and the state), per
    step; the closed-over weights are read directly by the backward scan, not stacked."""
    w, h0, xs = fnp.ones((4, 4)) / 8, fnp.ones(4), fnp.ones((50, 4))

    def loss(w, h0, xs):
        return fnp.sum(lax.scan(lambda h, x: (fnp.tanh(w @ h + x),) * 2, h0, xs)[1])

    scans = [e for e in fg.make_jaxpr(fg.grad(loss))(w, h0, xs).eqns if e.prim.name == "scan"]
    fwd, bwd = scans[-2:]
    stacked = [v.aval.shape for v in fwd.outputs[fwd.params["num_carry"]:]]
    assert sorted(stacked) == [(50, 4), (50, 4)]
    assert bwd.params["reverse"] and bwd.params["num_consts"] == 1  # w, read directly
    np.testing.assert_allclose(fg.grad(loss)(w, h0, xs), fg.grad(lambda w, h0, xs: fnp.sum(fnp.stack(
        unrolled_scan(lambda h, x: (fnp.tanh(w @ h + x),) * 2, h0, xs)[1])))(w, h0, xs))


def test_differentiating_a_body_that_calls_custom_vjp_is_a_clear_error():
    @fg.custom_vjp
    def clipped(x):
        return x

    clipped.defvjp(lambda x: (x, None), lambda _, g: (fnp.clip(g, -1.0, 1.0),))
    f = lambda c: lax.scan(lambda c, x: (clipped(c * x), None), c, fnp.ones(2))[0]  # noqa: E731
    assert float(f(2.0)) == 2.0
    with pytest.raises(NotImplementedError, match="custom_vjp"):
        fg.grad(f)(2.0)


def test_vmap_over_xs_batched_on_axis_0_and_reverse():
    rng = np.random.default_rng(5)
    xs = fnp.asarray(rng.normal(size=(3, 4, 2)))  # 3 examples of (T=4, 2)

    def f(xs):
        return lax.scan(lambda c, x: (c * 0.5 + x, c), fnp.zeros(2), xs, reverse=True)

    c, ys = fg.vmap(f)(xs)
    for b in range(3):
        rc, rys = unrolled_scan(lambda c, x: (c * 0.5 + x, c), fnp.zeros(2), xs[b], reverse=True)
        np.testing.assert_allclose(c[b], rc)
        np.testing.assert_allclose(ys[b], np.stack(rys))


@pytest.mark.parametrize("bad", [0, -2, 1.5, "2"])
def test_unroll_must_be_a_bool_or_a_positive_int(bad):
    with pytest.raises(ValueError, match="unroll"):
        fg.lax.scan(lambda c, x: (c + x, c), 0.0, fnp.ones(3), unroll=bad)
    with pytest.raises(ValueError, match="unroll"):
        fg.lax.fori_loop(0, 3, lambda i, c: c + 1.0, 0.0, unroll=bad)
    carry, _ = fg.lax.scan(lambda c, x: (c + x, c), 0.0, fnp.ones(3), unroll=True)
    assert float(carry) == 3.0
