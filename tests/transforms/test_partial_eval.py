"""Reverse mode of jitted calls saves residuals (partial evaluation) instead of recomputing the forward."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core import Primitive
from funcgrad.transforms.jit_primitive import jit_p


@pytest.fixture
def replays(monkeypatch):
    """The names of the compiled graphs jit_p replays, in order."""
    seen = []
    impl = jit_p.impl

    def spy(*buffers, jitted):
        seen.append(jitted.fname)
        return impl(*buffers, jitted=jitted)

    monkeypatch.setattr(jit_p, "impl", spy)
    monkeypatch.setattr(jit_p, "fast", {})
    return seen


def _f(x, w):
    h = fnp.tanh(x @ w)
    return fnp.sum(fnp.sin(h) * h) + fnp.sum(x ** 2)


def _data():
    rng = np.random.default_rng(0)
    return fnp.asarray(rng.standard_normal((4, 3))), fnp.asarray(rng.standard_normal((3, 2)))


def test_grad_of_jit_runs_forward_once_then_backward_from_residuals(replays):
    x, w = _data()
    f = fg.jit(_f)
    out, pullback = fg.vjp(f, x, w)
    assert replays == ["forward of vjp of _f"]  # outputs and residuals in one replay
    cts = pullback(fnp.asarray(1.0))
    assert replays == ["forward of vjp of _f", "backward of vjp of _f"]  # no recomputation
    want = fg.grad(_f, argnums=(0, 1))(x, w)
    for c, e in zip(cts, want):
        np.testing.assert_allclose(np.asarray(c), np.asarray(e), rtol=1e-12)
    np.testing.assert_allclose(float(out), float(_f(x, w)), rtol=1e-12)


def test_residuals_are_specialised_to_the_traced_arguments():
    x, w = _data()
    f = fg.jit(_f)
    gw = fg.grad(f, argnums=1)(x, w)
    gx = fg.grad(f, argnums=0)(x, w)
    np.testing.assert_allclose(np.asarray(gw), np.asarray(fg.grad(_f, argnums=1)(x, w)), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(gx), np.asarray(fg.grad(_f, argnums=0)(x, w)), rtol=1e-12)
    compiled = f.lower(x, w).compiled
    keys = sorted(k[1] for k in compiled.derived if k[0] == "residuals")
    assert keys == [(False, True), (True, False)]


def test_integer_inputs_unused_outputs_and_higher_orders():
    def g(x, idx):
        y = fnp.take(x, idx) * 2.0
        return fnp.sum(fnp.exp(y)), idx + 1, y  # an integer output, and one the loss ignores

    jg = fg.jit(g)
    x = fnp.asarray(np.linspace(-1, 1, 5))
    idx = fnp.asarray(np.array([0, 3, 3, 4]))
    loss = lambda h: lambda x: h(x, idx)[0]  # noqa: E731
    np.testing.assert_allclose(np.asarray(fg.grad(loss(jg))(x)), np.asarray(fg.grad(loss(g))(x)), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(fg.hessian(loss(jg))(x)), np.asarray(fg.hessian(loss(g))(x)), rtol=1e-12)
    third = fg.grad(lambda x: fg.grad(lambda x: fg.grad(loss(jg))(x)[3])(x)[3])(x)
    want = fg.grad(lambda x: fg.grad(lambda x: fg.grad(loss(g))(x)[3])(x)[3])(x)
    np.testing.assert_allclose(np.asarray(third), np.asarray(want), rtol=1e-10)


def test_float32_and_complex_keep_their_dtypes():
    x32 = fnp.asarray(np.arange(1.0, 4.0, dtype=np.float32))
    g = fg.grad(fg.jit(lambda x: fnp.sum(fnp.log(x) * x)))(x32)
    assert g.dtype == np.float32
    np.testing.assert_allclose(np.asarray(g), np.log(np.arange(1.0, 4.0)) + 1, rtol=1e-6)
    z = fnp.asarray(np.array([1 + 2j, -0.5 + 1j]))
    gz = fg.grad(fg.jit(lambda z: fnp.sum(fnp.abs(z * z) ** 2)))(z)
    np.testing.assert_allclose(np.asarray(gz), np.asarray(fg.grad(lambda z: fnp.sum(fnp.abs(z * z) ** 2))(z)),
                               rtol=1e-12)


def test_defvjp_residuals_needs_multiple_results():
    p = Primitive("test_partial_eval_single", lambda x: x)
    with pytest.raises(ValueError, match="multiple results"):
        p.defvjp_residuals(lambda args, traced, params: None)


def _residual_count(f, *args):
    jf = fg.jit(f)
    fg.grad(jf)(*args)
    compiled = jf.lower(*args).compiled
    (fwd_params, _, _), = [v for k, v in compiled.derived.items() if k[0] == "residuals"]
    fwd = fwd_params["jitted"]
    return len(fwd.graph.outvars) - len(compiled.out_avals)


def test_small_elementwise_results_are_recomputed_and_large_ones_saved():
    def chain(x):
        for _ in range(20):
            x = fnp.sin(x) * 1.5 + x
        return fnp.sum(x)

    small = fnp.asarray(np.linspace(0, 1, 10))
    assert _residual_count(chain, small) <= 1  # only the input: the backward recomputes the chain
    large = fnp.asarray(np.linspace(0, 1, 10_000))
    assert _residual_count(chain, large) >= 20  # too large to recompute: saved
    for x in (small, large):
        np.testing.assert_allclose(np.asarray(fg.grad(fg.jit(chain))(x)), np.asarray(fg.grad(chain)(x)), rtol=1e-12)


def test_the_vjp_rule_is_the_forward_and_backward_parts_in_a_row():
    x, w = _data()
    f = fg.jit(_f)
    compiled = f.lower(x, w).compiled
    (out,) = jit_p.bind(x, w, jitted=compiled)
    cts = jit_p.vjp_all((fnp.asarray(1.0),), (out,), x, w, jitted=compiled)
    for c, e in zip(cts, fg.grad(_f, argnums=(0, 1))(x, w)):
        np.testing.assert_allclose(np.asarray(c), np.asarray(e), rtol=1e-12)
