"""jacrev / jacfwd / hessian: agreement, shapes as JAX's, Hessians vs finite differences,
Hessian-vector products, and nested derivatives without perturbation confusion."""

import numpy as np
import pytest
from hypothesis import assume, given

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import strategies as fst

_FUNCS = {
    "sin_times_sum": lambda x: fnp.sin(x) * fnp.sum(x ** 2),
    "tanh_outer": lambda x: fnp.tanh(fnp.reshape(x, (-1, 1)) * fnp.reshape(x, (1, -1))),
    "softplus": lambda x: fnp.log1p(fnp.exp(x)),
    "normalize": lambda x: x / fnp.sqrt(fnp.sum(x * x) + 1.0),
    "max_and_mean": lambda x: fnp.stack([fnp.max(x + fnp.arange(x.size).reshape(x.shape) * 10.0), fnp.mean(x)]),
    "indexing": lambda x: fnp.reshape(x, (-1,))[::-1][: max(x.size - 1, 0)] * 3.0,
    "scatter": lambda x: fnp.zeros(x.size + 1).at[1:].add(fnp.reshape(x, (-1,)) ** 3),
    "where": lambda x: fnp.where(x > 0, x ** 2, -x),
    "transpose_matmul": lambda x: fnp.reshape(x, (-1, 1)) @ fnp.reshape(fnp.cos(x), (1, -1)),
    "exp_sum_scalar": lambda x: fnp.sum(fnp.exp(x)),
}


@pytest.mark.parametrize("name", sorted(_FUNCS))
@given(x=fst.arrays(shape=fst.shapes(max_dims=2, max_side=3), elements=fst.floats(-2.0, 2.0, avoid=(0.0,))))
def test_jacfwd_equals_jacrev(name, x):
    f = _FUNCS[name]
    x = fg.asarray(np.asarray(x))
    assume(x.size or name != "max_and_mean")  # max of nothing is an error
    jf, jr = fg.jacfwd(f)(x), fg.jacrev(f)(x)
    y = f(x)
    assert jf.shape == jr.shape == tuple(y.shape) + tuple(x.shape)
    np.testing.assert_allclose(np.asarray(jf), np.asarray(jr), rtol=1e-10, atol=1e-12)


def test_jacobian_is_jacrev_and_matches_finite_differences(rng):
    assert fg.jacobian is fg.jacrev
    x = rng.standard_normal(4)
    f = _FUNCS["normalize"]
    j = np.asarray(fg.jacobian(f)(fg.asarray(x)))
    eps = 1e-6
    num = np.stack([(np.asarray(f(fg.asarray(x + eps * e))) - np.asarray(f(fg.asarray(x - eps * e)))) / (2 * eps)
                    for e in np.eye(4)], axis=1)
    np.testing.assert_allclose(j, num, rtol=1e-6, atol=1e-8)


def test_pytree_shapes_follow_jax(rng):
    a = fg.asarray(rng.standard_normal((2, 3)))
    b = fg.asarray(rng.standard_normal((3, 4)))

    def f(a, b):
        return {"u": a * b[:, 0], "v": fnp.sum(a @ b)}

    for jac in (fg.jacrev, fg.jacfwd):
        single = jac(f)(a, b)
        assert single["u"].shape == (2, 3, 2, 3) and single["v"].shape == (2, 3)
        both = jac(f, argnums=(0, 1))(a, b)
        assert isinstance(both["u"], tuple)
        assert [x.shape for x in both["u"]] == [(2, 3, 2, 3), (2, 3, 3, 4)]
        assert [x.shape for x in both["v"]] == [(2, 3), (3, 4)]
        tree_in = jac(lambda p: p["w"] @ p["x"])({"w": b.T, "x": a[0]})
        assert tree_in["w"].shape == (4, 4, 3) and tree_in["x"].shape == (4, 3)
    r, f_ = fg.jacrev(f, argnums=(0, 1))(a, b), fg.jacfwd(f, argnums=(0, 1))(a, b)
    for x, y in zip(fg.tree.tree_leaves(r), fg.tree.tree_leaves(f_)):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-12, atol=1e-12)


def test_has_aux_and_scalar_cases():
    x = fg.asarray([1.0, 2.0])
    for jac in (fg.jacrev, fg.jacfwd):
        j, aux = jac(lambda x: (x ** 2, {"n": fnp.sum(x)}), has_aux=True)(x)
        np.testing.assert_allclose(np.asarray(j), np.diag([2.0, 4.0]))
        assert float(aux["n"]) == 3.0
        assert jac(lambda s: s ** 3)(fg.asarray(2.0)).shape == ()
        assert float(jac(lambda s: s ** 3)(fg.asarray(2.0))) == pytest.approx(12.0)
        assert jac(lambda v: v[:0])(x).shape == (0, 2)


def test_integer_inputs_or_outputs_are_errors():
    with pytest.raises(TypeError, match="integer"):
        fg.jacrev(lambda x: x * 2)(fg.asarray([1, 2]))
    with pytest.raises(TypeError, match="floating-point inputs"):
        fg.jacfwd(lambda x: x * 2)(fg.asarray([1, 2]))
    with pytest.raises(TypeError, match="floating-point outputs"):
        fg.jacrev(lambda x: fnp.argmax(x))(fg.asarray([1.0, 2.0]))


def _hess_fd(f, x, eps=1e-5):
    g = fg.grad(f)
    cols = [(np.asarray(g(fg.asarray(x + eps * e))) - np.asarray(g(fg.asarray(x - eps * e)))) / (2 * eps)
            for e in np.eye(x.size).reshape((x.size,) + x.shape)]
    return np.stack(cols, axis=-1).reshape(x.shape + x.shape)


@pytest.mark.parametrize("f", [
    lambda x: fnp.sum(fnp.sin(x) * x[0] ** 2),
    lambda x: fnp.log(fnp.sum(fnp.exp(x))),
    lambda x: fnp.sum(fnp.tanh(fnp.reshape(x, (2, 2)) @ fnp.reshape(x, (2, 2)))),
    lambda x: fnp.sqrt(fnp.sum(x ** 4) + 1.0),
])
def test_hessian_matches_finite_differences_and_hvp(rng, f):
    x = rng.standard_normal(4)
    h = np.asarray(fg.hessian(f)(fg.asarray(x)))
    assert h.shape == (4, 4)
    np.testing.assert_allclose(h, _hess_fd(f, x), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(h, h.T, rtol=1e-10, atol=1e-12)
    v = rng.standard_normal(4)
    hvp = fg.jvp(fg.grad(f), (fg.asarray(x),), (fg.asarray(v),))[1]
    np.testing.assert_allclose(np.asarray(hvp), h @ v, rtol=1e-10, atol=1e-12)
    # reverse-over-reverse and reverse-over-forward give the same matrix
    np.testing.assert_allclose(np.asarray(fg.jacrev(fg.jacrev(f))(fg.asarray(x))), h, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(np.asarray(fg.jacrev(fg.jacfwd(f))(fg.asarray(x))), h, rtol=1e-10, atol=1e-12)


def test_hessian_of_matrix_input_and_argnums(rng):
    x = rng.standard_normal((2, 3))
    f = lambda a, b: fnp.sum(fnp.sin(a) * b)  # noqa: E731
    h = fg.hessian(f, argnums=(0, 1))(fg.asarray(x), fg.asarray(x))
    assert h[0][0].shape == (2, 3, 2, 3) and h[0][1].shape == (2, 3, 2, 3)
    np.testing.assert_allclose(np.asarray(h[0][1]).reshape(6, 6), np.diag(np.cos(x).ravel()), atol=1e-12)


# --- nested derivatives: the classic perturbation-confusion cases --------------------------------

def _d(kind):
    """Derivative operator of a scalar function by each transformation."""
    if kind == "rev":
        return fg.grad
    if kind == "fwd":
        return lambda f: (lambda x: fg.jvp(f, (x,), (fnp.ones_like(fg.asarray(x)),))[1])
    if kind == "jacrev":
        return fg.jacrev
    if kind == "jacfwd":
        return fg.jacfwd
    if kind == "vmap_rev":  # a derivative taken through a vmap of size 1
        return lambda f: (lambda x: fg.vmap(fg.grad(f))(fnp.reshape(fg.asarray(x), (1,)))[0])
    raise ValueError(kind)


KINDS = ["rev", "fwd", "jacrev", "jacfwd", "vmap_rev"]


@pytest.mark.parametrize("outer", KINDS)
@pytest.mark.parametrize("inner", KINDS)
def test_no_perturbation_confusion(outer, inner):
    # d/dx [x * d/dy (x * y) at y=2] = d/dx x^2 = 2x  (the "egg": 2 at x = 1)
    out = _d(outer)(lambda x: x * _d(inner)(lambda y: x * y)(fg.asarray(2.0)))(fg.asarray(1.0))
    assert float(out) == pytest.approx(2.0)
    # d/dx [d/dy (x + y) at y=x] = d/dx 1 = 0, and the Siskind-Pearlmutter case
    out = _d(outer)(lambda x: _d(inner)(lambda y: x + y)(x))(fg.asarray(3.0))
    assert float(out) == pytest.approx(0.0)
    out = _d(outer)(lambda x: x * _d(inner)(lambda y: x * y ** 2)(x))(fg.asarray(1.5))  # d/dx 2x^3 = 6x^2
    assert float(out) == pytest.approx(6 * 1.5 ** 2)


def test_hessian_has_aux_and_float32():
    h, aux = fg.hessian(lambda x: (fnp.sum(x ** 3), {"s": fnp.sum(x)}), has_aux=True)(fg.asarray([1.0, 2.0]))
    np.testing.assert_allclose(np.asarray(h), np.diag([6.0, 12.0]))
    assert float(aux["s"]) == 3.0
    x32 = fg.asarray(np.array([0.5, -1.0], np.float32))
    for jac in (fg.jacrev, fg.jacfwd):
        j = jac(fnp.sin)(x32)
        assert j.dtype == np.float32
        np.testing.assert_allclose(np.asarray(j), np.diag(np.cos([0.5, -1.0])), rtol=1e-6)
