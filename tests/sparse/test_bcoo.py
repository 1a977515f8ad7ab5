"""funcgrad.sparse.BCOO: values against the dense computation, gradients (finite differences and
the dense gradients), vmap, batch dimensions, errors, empty cases, on every backend."""

import contextlib

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import sparse
from funcgrad.testing import check_grads


@st.composite
def coo(draw, max_side=4, max_nse=6):
    """(data, indices, shape) host arrays; repeated coordinates (duplicates) allowed."""
    m, k = draw(st.integers(0, max_side)), draw(st.integers(0, max_side))
    nse = draw(st.integers(0, max_nse)) if m and k else 0
    rows = draw(st.lists(st.integers(0, max(m - 1, 0)), min_size=nse, max_size=nse))
    cols = draw(st.lists(st.integers(0, max(k - 1, 0)), min_size=nse, max_size=nse))
    data = draw(st.lists(st.floats(-2, 2, width=32), min_size=nse, max_size=nse))
    idx = np.array([rows, cols], dtype=np.int32).T.reshape(nse, 2)
    return np.array(data, np.float64), idx, (m, k)


DEVICES = ["cpu", "standin"] + (["cuda"] if fg.cuda_available() else [])


@contextlib.contextmanager
def on(dev):
    prev = fg.set_default_device(dev)
    try:
        yield
    finally:
        fg.set_default_device(prev)


def _dense(data, idx, shape):
    out = np.zeros(shape, data.dtype)
    np.add.at(out, (idx[:, 0], idx[:, 1]), data)
    return out


def _bcoo(data, idx, shape, dtype=np.float64):
    return sparse.BCOO((fnp.asarray(data, dtype=dtype), fnp.asarray(idx)), shape=shape)


@pytest.mark.parametrize("dev", DEVICES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@given(case=coo(), n=st.integers(0, 3), vector=st.booleans())
def test_products_match_dense(dev, dtype, case, n, vector):
    with on(dev):
        _check_products(dtype, case, n, vector)


def _check_products(dtype, case, n, vector):
    data, idx, shape = case
    a, ref = _bcoo(data, idx, shape, dtype), _dense(data, idx, shape).astype(dtype)
    rng = np.random.default_rng(0)
    right = rng.standard_normal((shape[1],) if vector else (shape[1], n)).astype(dtype)
    left = rng.standard_normal((shape[0],) if vector else (n, shape[0])).astype(dtype)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    out = a @ fnp.asarray(right)
    assert out.dtype == dtype and out.shape == (ref @ right).shape
    np.testing.assert_allclose(np.asarray(out), ref @ right, rtol=tol, atol=tol)
    np.testing.assert_allclose(np.asarray(fnp.asarray(left) @ a), left @ ref, rtol=tol, atol=tol)
    np.testing.assert_allclose(np.asarray(a.todense()), ref, rtol=tol, atol=tol)
    np.testing.assert_allclose(np.asarray(a.T.todense()), ref.T, rtol=tol, atol=tol)
    for axis in (0, 1, None):
        got = a.sum(axis).todense()
        np.testing.assert_allclose(np.asarray(got), ref.sum(axis), rtol=tol, atol=tol)


@pytest.mark.parametrize("dev", DEVICES)
@given(case=coo())
def test_sum_duplicates_and_fromdense_round_trip(dev, case):
    with on(dev):
        _check_round_trip(case)


def _check_round_trip(case):
    data, idx, shape = case
    ref = _dense(data, idx, shape)
    c = _bcoo(data, idx, shape).sum_duplicates()
    keys = [tuple(r) for r in np.asarray(c.indices)]
    assert keys == sorted(set(keys))  # unique, row-major sorted
    np.testing.assert_allclose(np.asarray(c.todense()), ref, atol=1e-12)
    f = sparse.BCOO.fromdense(fnp.asarray(ref))
    assert f.nse == int(np.count_nonzero(ref))
    np.testing.assert_array_equal(np.asarray(f.todense()), ref)


def test_grads_match_finite_differences_and_dense():
    rng = np.random.default_rng(1)
    data, idx, shape = rng.standard_normal(7), np.array([[0, 1], [2, 0], [1, 1], [0, 1], [2, 3], [1, 0], [0, 3]]), (3, 4)
    x = fnp.asarray(rng.standard_normal((4, 2)))
    a_idx = fnp.asarray(idx)

    def f(d, x):
        return fnp.sum(fnp.tanh(sparse.BCOO((d, a_idx), shape=shape) @ x) ** 2)

    check_grads(f, (fnp.asarray(data), x), order=2, modes=("fwd", "rev"))
    check_grads(lambda d: fnp.sum(fnp.sin(sparse.BCOO((d, a_idx), shape=shape).todense())),
                (fnp.asarray(data),), order=2)
    gd, gx = fg.grad(f, argnums=(0, 1))(fnp.asarray(data), x)
    dense = fnp.asarray(_dense(data, idx, shape))
    g_dense, gx_dense = fg.grad(lambda m, x: fnp.sum(fnp.tanh(m @ x) ** 2), argnums=(0, 1))(dense, x)
    np.testing.assert_allclose(np.asarray(gx), np.asarray(gx_dense), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(gd), np.asarray(g_dense)[idx[:, 0], idx[:, 1]], rtol=1e-12)


def test_fromdense_gradient_reaches_the_dense_array():
    m = fnp.asarray([[0.0, 2.0], [3.0, 0.0]])
    x = fnp.asarray([1.0, 5.0])
    g = fg.grad(lambda m: fnp.sum(sparse.BCOO.fromdense(m) @ x))(m)
    np.testing.assert_allclose(np.asarray(g), [[0.0, 5.0], [1.0, 0.0]])  # only stored entries


def test_vmap_over_dense_values_indices_and_batched_bcoo():
    rng = np.random.default_rng(2)
    idx = np.array([[0, 0], [1, 2], [2, 1], [1, 2]])
    shape = (3, 3)
    datas = rng.standard_normal((5, 4))
    xs = rng.standard_normal((5, 3, 2))
    a = _bcoo(datas[0], idx, shape)
    np.testing.assert_allclose(np.asarray(fg.vmap(lambda x: a @ x)(fnp.asarray(xs))),
                               np.stack([_dense(datas[0], idx, shape) @ x for x in xs]), rtol=1e-12)
    refs = np.stack([_dense(d, idx, shape) @ x for d, x in zip(datas, xs)])
    got = fg.vmap(lambda d, x: sparse.BCOO((d, fnp.asarray(idx)), shape=shape) @ x)(fnp.asarray(datas),
                                                                                   fnp.asarray(xs))
    np.testing.assert_allclose(np.asarray(got), refs, rtol=1e-12)
    # per-example patterns (batched indices) and a batched BCOO (JAX's n_batch = 1)
    idxs = np.stack([np.roll(idx, k, axis=0) % 3 for k in range(5)])
    batched = sparse.BCOO((fnp.asarray(datas), fnp.asarray(idxs)), shape=(5,) + shape)
    assert batched.n_batch == 1 and batched.shape == (5, 3, 3)
    refs = np.stack([_dense(d, i, shape) for d, i in zip(datas, idxs)])
    np.testing.assert_allclose(np.asarray(batched.todense()), refs, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(fg.vmap(lambda m, x: m @ x)(batched, fnp.asarray(xs))),
                               np.einsum("bij,bjk->bik", refs, xs), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(batched @ fnp.asarray(xs[0])), refs @ xs[0], rtol=1e-12)
    # grad of a vmapped product (batching rule under reverse mode)
    g = fg.grad(lambda d: fnp.sum(fg.vmap(lambda dd: sparse.BCOO((dd, fnp.asarray(idx)), shape=shape) @ xs[0])(d)))
    want = np.stack([xs[0][idx[:, 1]].sum(1)] * 5)
    np.testing.assert_allclose(np.asarray(g(fnp.asarray(datas))), want, rtol=1e-12)


def test_bcoo_dot_general_contracts_either_axis():
    rng = np.random.default_rng(3)
    data, idx, shape = rng.standard_normal(3), np.array([[0, 1], [1, 0], [1, 2]]), (2, 3)
    a, ref = _bcoo(data, idx, shape), _dense(data, idx, shape)
    x = rng.standard_normal((2, 4))
    got = sparse.bcoo_dot_general(a, fnp.asarray(x), dimension_numbers=(((0,), (0,)), ((), ())))
    np.testing.assert_allclose(np.asarray(got), ref.T @ x, rtol=1e-12)
    y = rng.standard_normal((4, 3))
    got = sparse.bcoo_dot_general(fnp.asarray(y), a, dimension_numbers=(((1,), (1,)), ((), ())))
    np.testing.assert_allclose(np.asarray(got), y @ ref.T, rtol=1e-12)


def test_errors_name_the_problem():
    a = _bcoo(np.ones(2), np.array([[0, 0], [1, 1]]), (2, 2))
    with pytest.raises(ValueError, match="cannot multiply"):
        a @ fnp.ones((3, 2))
    with pytest.raises(ValueError, match="indices"):
        sparse.BCOO((fnp.ones(2), fnp.zeros((3, 2), dtype=np.int32)), shape=(2, 2))
    with pytest.raises(TypeError, match="integers"):
        sparse.BCOO((fnp.ones(2), fnp.zeros((2, 2))), shape=(2, 2))
    with pytest.raises(NotImplementedError, match="BCOO @ BCOO"):
        a @ a
    with pytest.raises(ValueError, match="nse=1"):
        sparse.BCOO.fromdense(fnp.eye(2), nse=1)
    with pytest.raises(ValueError, match="exceeds|index"):
        _bcoo(np.ones(1), np.array([[0, 5]]), (2, 2)) @ fnp.ones(2)


def test_nse_padding_and_scalar_arithmetic():
    m = fnp.asarray([[0.0, 2.0], [3.0, 0.0]])
    p = sparse.BCOO.fromdense(m, nse=4)
    assert p.nse == 4
    np.testing.assert_array_equal(np.asarray(p.todense()), np.asarray(m))
    np.testing.assert_array_equal(np.asarray((2 * p / 4).todense()), np.asarray(m) / 2)
    np.testing.assert_array_equal(np.asarray((-p).todense()), -np.asarray(m))
    np.testing.assert_array_equal(np.asarray((p * fnp.asarray([[1.0, 10.0], [100.0, 1.0]])).todense()),
                                  [[0.0, 20.0], [300.0, 0.0]])


def test_matmul_follows_numpys_semantics_for_stacks():
    rng = np.random.default_rng(4)
    data, idx, shape = rng.standard_normal(4), np.array([[0, 1], [1, 0], [2, 2], [0, 1]]), (3, 3)
    a, ref = _bcoo(data, idx, shape), _dense(data, idx, shape)
    stack = rng.standard_normal((2, 4, 3, 5))
    np.testing.assert_allclose(np.asarray(a @ fnp.asarray(stack)), ref @ stack, rtol=1e-12)
    left = rng.standard_normal((2, 4, 5, 3))
    np.testing.assert_allclose(np.asarray(fnp.asarray(left) @ a), left @ ref, rtol=1e-12)
    datas = rng.standard_normal((2, 4))
    batched = sparse.BCOO((fnp.asarray(datas), fnp.asarray(np.stack([idx, idx]))), shape=(2,) + shape)
    refs = np.stack([_dense(d, idx, shape) for d in datas])
    xs = rng.standard_normal((2, 3, 5))
    np.testing.assert_allclose(np.asarray(batched @ fnp.asarray(xs)), refs @ xs, rtol=1e-12)
    with pytest.raises(ValueError, match="batch axes"):
        batched @ fnp.ones((3, 3, 5))


@given(data=st.data())
def test_vmap_equals_a_loop_for_every_batching_of_the_operands(data):
    """Each of values, indices and the dense operand batched or not, along any axis."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16), label="seed"))
    b, nse, (m, k, n) = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 4)), (3, 2, 2)
    vals = rng.standard_normal((b, nse))
    idx = np.stack([rng.integers(0, m, (b, nse)), rng.integers(0, k, (b, nse))], -1)
    dense = rng.standard_normal((b, k, n))
    axes = [data.draw(st.sampled_from([None, 0, 1]), label=f"axis {i}") for i in range(3)]
    if all(a is None for a in axes):
        axes[0] = 0
    args = [v[0] if a is None and b else (v if a is None else np.moveaxis(v, 0, a))
            for v, a in zip((vals, idx, dense), axes)]
    if b == 0 and any(a is None for a in axes):
        args = [np.zeros(v.shape[1:], v.dtype) if a is None else np.moveaxis(v, 0, a)
                for v, a in zip((vals, idx, dense), axes)]

    def f(d, i, x):
        return fnp.tanh(sparse.BCOO((d, i), shape=(m, k)) @ x)

    got = fg.vmap(f, in_axes=tuple(axes))(*map(fnp.asarray, args))
    per = [[np.moveaxis(a, ax, 0)[j] if ax is not None else a for a, ax in zip(args, axes)] for j in range(b)]
    want = np.stack([np.tanh(_dense(d, i, (m, k)) @ x) for d, i, x in per]) if b else np.zeros((0, m, n))
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12)
    if b:  # the batching rule under both modes of differentiation
        d0, x0 = fnp.asarray(args[0]), fnp.asarray(args[2])
        check_grads(lambda d, x: fg.vmap(f, in_axes=tuple(axes))(d, fnp.asarray(args[1]), x), (d0, x0), order=1)
