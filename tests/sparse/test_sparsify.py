"""funcgrad.sparse.sparsify: a dense-written function on BCOO arguments equals the function on the
dense arrays; operations with sparse rules stay sparse (no scatter to a dense array); others densify."""

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import sparse

M = np.array([[0.0, 2.0, 0.0], [3.0, 0.0, 4.0]])
X = np.arange(6.0).reshape(3, 2)


def _f(a, x):
    return fnp.tanh(a @ x) + fnp.sum(a * 2, axis=1)[:, None] + fnp.sum(-a.T / 2) + fnp.exp(a)[0, 0]


def test_values_match_the_dense_function():
    a = sparse.BCOO.fromdense(fnp.asarray(M))
    np.testing.assert_allclose(np.asarray(sparse.sparsify(_f)(a, fnp.asarray(X))), np.asarray(_f(fnp.asarray(M), X)),
                               rtol=1e-12)


def test_sparse_results_stay_bcoo_and_supported_ops_never_densify():
    a = sparse.BCOO.fromdense(fnp.asarray(M))
    out = sparse.sparsify(lambda a: (a * 3).T.astype(np.float32))(a)
    assert isinstance(out, sparse.BCOO) and out.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(out.todense()), 3 * M.T)
    graph = fg.make_graph(lambda d: sparse.sparsify(lambda a, x: fnp.sum(a @ x) + fnp.sum(a * 2))(
        sparse.BCOO((d, a.indices), shape=a.shape), fnp.asarray(X)))(a.data)
    names = graph.primitive_names()
    assert "coo_matmul" in names and not any(n.startswith("scatter") for n in names), names
    dense_fallback = fg.make_graph(lambda d: sparse.sparsify(lambda a: fnp.exp(a))(
        sparse.BCOO((d, a.indices), shape=a.shape)))(a.data)
    assert "scatter_add" in dense_fallback.primitive_names()  # exp has no sparse form: todense first


def test_grad_and_vmap_see_through_sparsify():
    a = sparse.BCOO.fromdense(fnp.asarray(M))
    x = fnp.asarray(X)
    g = fg.grad(lambda d: fnp.sum(sparse.sparsify(_f)(sparse.BCOO((d, a.indices), shape=a.shape), x)))(a.data)
    g_dense = fg.grad(lambda m: fnp.sum(_f(m, x)))(fnp.asarray(M))
    idx = np.asarray(a.indices)
    np.testing.assert_allclose(np.asarray(g), np.asarray(g_dense)[idx[:, 0], idx[:, 1]], rtol=1e-12)
    xs = np.random.default_rng(0).standard_normal((4, 3, 2))
    got = fg.vmap(lambda xx: sparse.sparsify(lambda a, y: a @ y)(a, xx))(fnp.asarray(xs))
    np.testing.assert_allclose(np.asarray(got), M @ xs, rtol=1e-12)


def test_sparse_grad_returns_bcoo_gradients_of_the_same_pattern():
    a = sparse.BCOO.fromdense(fnp.asarray(M))
    x = fnp.asarray(X)

    def f(p, x):
        return fnp.sum(fnp.sin(p["a"] @ x)) + fnp.sum(x)

    (value, (ga, gx)) = sparse.value_and_grad(f, argnums=(0, 1))({"a": a}, x)
    assert isinstance(ga["a"], sparse.BCOO) and ga["a"].indices is a.indices
    g_dense, gx_dense = fg.grad(lambda m, x: fnp.sum(fnp.sin(m @ x)) + fnp.sum(x), argnums=(0, 1))(fnp.asarray(M), x)
    idx = np.asarray(a.indices)
    np.testing.assert_allclose(np.asarray(ga["a"].data), np.asarray(g_dense)[idx[:, 0], idx[:, 1]], rtol=1e-12)
    np.testing.assert_allclose(np.asarray(gx), np.asarray(gx_dense), rtol=1e-12)
    np.testing.assert_allclose(float(value), float(f({"a": fnp.asarray(M)}, x)), rtol=1e-12)
    g, aux = sparse.grad(lambda m: (fnp.sum(m.todense() ** 2), "aux"), has_aux=True)(a)
    assert aux == "aux"
    np.testing.assert_allclose(np.asarray(g.data), 2 * np.asarray(a.data))
