"""custom_jvp / custom_vjp: the rule is used, composes with every transformation, stable
functions stay finite, and misuse gets clear errors."""

import functools

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp


@fg.custom_vjp
def softplus(x):
    return fnp.log1p(fnp.exp(x))  # overflows for large x: the rule must not go through it


def _softplus_fwd(x):
    return fnp.logaddexp(0.0, x), x


def _softplus_bwd(x, g):
    return (g * fnp.exp(-fnp.logaddexp(0.0, -x)),)  # sigmoid(x), stable


softplus.defvjp(_softplus_fwd, _softplus_bwd)


def test_custom_vjp_softplus_is_finite_and_correct_at_extremes():
    x = fnp.asarray([-1000.0, -1.0, 0.0, 1.0, 1000.0])
    g = np.asarray(fg.grad(lambda x: fnp.sum(softplus(x)))(x))
    assert np.all(np.isfinite(g))
    np.testing.assert_allclose(g, 1 / (1 + np.exp(-np.array([-1000.0, -1.0, 0.0, 1.0, 1000.0]))), rtol=1e-14)
    # naive differentiation of the same formula is not finite at +1000
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.asarray(fg.grad(lambda x: fnp.sum(fnp.log1p(fnp.exp(x))))(x))
    assert not np.all(np.isfinite(naive))


def test_custom_vjp_composes_with_vmap_grad_and_jacrev():
    x = fnp.asarray([-3.0, 0.5, 2.0])
    want = 1 / (1 + np.exp(-np.asarray(x)))
    np.testing.assert_allclose(np.asarray(fg.vmap(fg.grad(softplus))(x)), want)
    np.testing.assert_allclose(np.asarray(fg.grad(lambda x: fnp.sum(fg.vmap(softplus)(x)))(x)), want)
    np.testing.assert_allclose(np.asarray(fg.jacrev(softplus)(x)), np.diag(want))
    # second order: bwd is differentiated (sigmoid' = s (1 - s))
    np.testing.assert_allclose(np.asarray(fg.vmap(fg.grad(fg.grad(softplus)))(x)), want * (1 - want))
    # forward-over-reverse works (the jvp sees fwd and bwd's operations)
    t = fg.jvp(fg.grad(softplus), (x[1],), (fnp.asarray(1.0),))[1]
    assert float(t) == pytest.approx(want[1] * (1 - want[1]))


def test_jvp_of_custom_vjp_is_a_clear_error():
    with pytest.raises(TypeError, match="forward-mode derivative .* custom_vjp .* Use reverse mode"):
        fg.jvp(softplus, (fnp.asarray(1.0),), (fnp.asarray(1.0),))
    with pytest.raises(TypeError, match="custom_jvp"):
        fg.jacfwd(softplus)(fnp.asarray([1.0]))


def test_custom_vjp_rule_is_used_with_pytrees_and_none_cotangents():
    @fg.custom_vjp
    def f(d, y):
        return {"s": d["a"] * d["b"], "t": y}

    def fwd(d, y):
        return f(d, y), (d["a"], d["b"])

    def bwd(res, g):
        a, b = res
        return {"a": 10.0 * g["s"] * b, "b": 10.0 * g["s"] * a}, None  # scaled: shows the rule ran

    f.defvjp(fwd, bwd)
    d = {"a": fnp.asarray(2.0), "b": fnp.asarray(3.0)}
    gd, gy = fg.grad(lambda d, y: f(d, y)["s"] + f(d, y)["t"], argnums=(0, 1))(d, fnp.asarray(1.0))
    assert float(gd["a"]) == 30.0 and float(gd["b"]) == 20.0
    assert float(gy) == 0.0  # None means no cotangent


def test_custom_vjp_nondiff_argnums():
    @functools.partial(fg.custom_vjp, nondiff_argnums=(0,))
    def scale(k, x):
        return k * x

    scale.defvjp(lambda k, x: (k * x, None), lambda k, res, g: (g * k * 100.0,))
    assert float(fg.grad(lambda x: scale(3, x))(fnp.asarray(1.0))) == 300.0


# --- custom_jvp ---------------------------------------------------------------------------------

@fg.custom_jvp
def safe_log1pexp(x):
    return fnp.logaddexp(0.0, x)


@safe_log1pexp.defjvp
def _safe_log1pexp_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return safe_log1pexp(x), t * fnp.exp(-fnp.logaddexp(0.0, -x))


@fg.custom_jvp
def sin7(x):
    return fnp.sin(x)


@sin7.defjvp
def _sin7_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return sin7(x), 7.0 * fnp.cos(x) * t  # deliberately not sin's derivative: shows the rule ran


def test_custom_jvp_rule_is_used_by_every_mode():
    x = fnp.asarray(0.3)
    want = 7 * np.cos(0.3)
    assert float(fg.jvp(sin7, (x,), (fnp.asarray(1.0),))[1]) == pytest.approx(want)
    assert float(fg.grad(sin7)(x)) == pytest.approx(want)
    assert float(fg.jacfwd(sin7)(x)) == pytest.approx(want)
    assert float(fg.jacrev(sin7)(x)) == pytest.approx(want)
    np.testing.assert_allclose(np.asarray(fg.vmap(fg.grad(sin7))(fnp.asarray([0.3, 0.4]))), 7 * np.cos([0.3, 0.4]))
    np.testing.assert_allclose(np.asarray(fg.grad(lambda v: fnp.sum(fg.vmap(sin7)(v)))(fnp.asarray([0.3, 0.4]))),
                               7 * np.cos([0.3, 0.4]))


def test_grad_of_grad_of_custom_jvp():
    x = fnp.asarray(0.3)
    # the rule is differentiated: d/dx 7 cos(x) = -7 sin(x), in every pairing
    want = -7 * np.sin(0.3)
    assert float(fg.grad(fg.grad(sin7))(x)) == pytest.approx(want)
    assert float(fg.hessian(sin7)(x)) == pytest.approx(want)
    assert float(fg.jacrev(fg.jacrev(sin7))(x)) == pytest.approx(want)
    assert float(fg.jvp(fg.grad(sin7), (x,), (fnp.asarray(1.0),))[1]) == pytest.approx(want)
    assert float(fg.grad(lambda x: fg.jvp(sin7, (x,), (fnp.asarray(1.0),))[1])(x)) == pytest.approx(want)


def test_custom_jvp_stable_at_extremes_and_in_vmap():
    x = fnp.asarray([-1000.0, 0.0, 1000.0])
    g = np.asarray(fg.vmap(fg.grad(safe_log1pexp))(x))
    np.testing.assert_allclose(g, [0.0, 0.5, 1.0])
    h = np.asarray(fg.vmap(fg.grad(fg.grad(safe_log1pexp)))(x))
    assert np.all(np.isfinite(h))


def test_custom_jvp_nondiff_argnums_and_pytrees():
    @functools.partial(fg.custom_jvp, nondiff_argnums=(0,))
    def apply(fn, p):
        return fn(p["x"]) * p["y"]

    @apply.defjvp
    def apply_jvp(fn, primals, tangents):
        (p,), (t,) = primals, tangents
        return apply(fn, p), 2.0 * (t["x"] * p["y"] + fn(p["x"]) * t["y"])

    p = {"x": fnp.asarray(2.0), "y": fnp.asarray(3.0)}
    g = fg.grad(lambda p: apply(lambda v: v * v, p))(p)
    assert float(g["x"]) == 6.0 and float(g["y"]) == 8.0


def test_custom_rule_errors():
    @fg.custom_jvp
    def f(x):
        return x

    with pytest.raises(AttributeError, match="no jvp rule"):
        f(fnp.asarray(1.0))

    @f.defjvp
    def f_jvp(primals, tangents):
        return primals[0]  # not a pair

    with pytest.raises(TypeError, match="must return a pair"):
        fg.jvp(f, (fnp.asarray(1.0),), (fnp.asarray(1.0),))

    @fg.custom_vjp
    def g(x, y):
        return x * y

    g.defvjp(lambda x, y: (x * y, (x, y)), lambda res, ct: (ct,))
    with pytest.raises(TypeError, match="one cotangent per differentiable argument \\(2\\)"):
        fg.grad(g)(fnp.asarray(1.0), fnp.asarray(2.0))
