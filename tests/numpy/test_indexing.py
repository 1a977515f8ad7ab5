"""x[idx] and x.at[idx] against numpy's indexing semantics, and the index-driven functions."""

import numpy as np
import pytest
from hypothesis import given

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

from ..primitives.index_strategies import mixed_index

X = np.arange(60.0).reshape(3, 4, 5)
I = np.array

INDICES = [
    0, -1, (1, 2), (Ellipsis, 1), (None, 1), (slice(None), None, 2), (1, slice(None, None, -2)),
    I([0, 2, 2]), [0, -1], ([0, 1], [1, 2]), (slice(None), [0, 0, 1]),
    ([0, 1], slice(None), [1, 2]),  # advanced indices separated by a slice: broadcast dims go first
    (slice(1, None), [1, 2], [3, 4]), (Ellipsis, [0, 4]), ([[0], [2]], [1, 3]),
    X[..., 0] > 20, X > 30, (X[:, 0, 0] > 10, 1), (1, X[0, :, 0] > 4), (slice(None), X[0] > 3),
    I([], dtype=int), ([], []), (0, Ellipsis, [1, 1, 1]), (None, [0, 1], None, slice(None, None, -1), [2, 3]),
    (I(1), I([[1]])), (np.int64(-2), slice(None, None, 2)), ([True, False, True],), (Ellipsis, [[True] * 5] * 4),
    True, (0, False), (Ellipsis, True, 1), ([0, 1], True), (True, [0, 1], slice(None), [1, 2]), (None, np.bool_(True), 1),
]


@pytest.mark.parametrize("idx", INDICES, ids=[str(i)[:40] for i in range(len(INDICES))])
def test_getitem_and_its_gradient_match_numpy(idx):
    want = X[idx]
    got = fnp.asarray(X)[idx]
    assert got.shape == want.shape and np.array_equal(got, want)
    w = np.arange(want.size, dtype=float).reshape(want.shape)
    g = fg.grad(lambda v: fnp.sum(v[idx] * w))(fnp.asarray(X))
    ref = np.zeros_like(X)
    np.add.at(ref, idx, w)  # repeated positions accumulate
    assert np.array_equal(g, ref)


@given(mixed_index())
def test_any_index_matches_numpy_with_scatter_add_gradient(case):
    (x,), kw = case
    idx = kw["idx"]
    want = x[idx]
    got = fnp.asarray(x)[idx]
    assert got.shape == want.shape and np.array_equal(got, want)
    w = np.arange(1.0, want.size + 1).reshape(want.shape)
    g = fg.grad(lambda v: fnp.sum(v[idx] * w))(fnp.asarray(x))
    ref = np.zeros_like(x)
    np.add.at(ref, idx, w)
    assert np.array_equal(g, ref)


def test_getitem_index_arrays_on_any_backend(device):
    x = fnp.asarray(X)
    assert np.array_equal(x[fnp.asarray([2, 0]), 1:3], X[[2, 0], 1:3])
    assert np.array_equal(x[x > 50], X[X > 50])
    assert np.array_equal(x.at[[0, 0], 1].add(1.0)[0, 1], X[0, 1] + 2.0)
    check_grads(lambda v: v[[1, 1, -1], :, 2], (fnp.asarray(X[:, :2]),), order=2)


@pytest.mark.parametrize("bad, match", [
    ((3,), "index 3 is out of bounds for axis 0 with size 3"),
    ((0, -5), "index -5 is out of bounds for axis 1 with size 4"),
    ((I([0, 3]),), "index 3 is out of bounds for axis 0 with size 3"),
    ((slice(None), slice(None), I([5])), "out of bounds for axis 2 with size 5"),
    ((0, 0, 0, 0), "too many indices"),
    (1.5, "only integers"),
    ((I([1.0]),), "only integers"),
    ((X > 0)[:2], "boolean index did not match indexed array along axis 0; size of axis is 3"),
    ((Ellipsis, [True, False]), "along axis 2; size of axis is 5"),
])
def test_bad_indices_raise_index_error(bad, match):
    with pytest.raises(IndexError, match=match):
        fnp.asarray(X)[bad]
    with pytest.raises(IndexError):
        X[bad]


def test_zero_d_boolean_index_reads_but_does_not_update():
    assert fnp.asarray(3.0)[True].shape == (1,) and fnp.asarray(3.0)[False].shape == (0,)
    with pytest.raises(IndexError, match="x.at"):
        fnp.ones(3).at[True].set(1.0)


def test_scatter_updates_match_numpy_with_duplicates():
    x = np.arange(5.0)
    idx = [0, 2, 2, -1]
    ref = x.copy()
    np.add.at(ref, idx, [1.0, 2.0, 3.0, 4.0])
    assert np.array_equal(fnp.asarray(x).at[idx].add(fnp.asarray([1.0, 2.0, 3.0, 4.0])), ref)
    ref = x.copy()
    ref[idx] = 7.0
    assert np.array_equal(fnp.asarray(x).at[idx].set(7.0), ref)
    with pytest.raises(IndexError, match="out of bounds"):
        fnp.asarray(x).at[[5]].add(1.0)


def test_take_modes_and_axes():
    a = np.arange(12.0).reshape(3, 4)
    for args in [([0, 5, -1], None, "raise"), ([[0, 7]], None, "wrap"), ([-2, 9], 1, "clip"), ([1, 1], 0, "raise"),
                 (2, 1, "raise"), ([[5, -7]], -1, "wrap")]:
        idx, axis, mode = args
        assert np.array_equal(fnp.take(a, idx, axis=axis, mode=mode), np.take(a, idx, axis=axis, mode=mode))
        assert np.array_equal(fnp.asarray(a).take(idx, axis=axis, mode=mode), np.take(a, idx, axis=axis, mode=mode))
    with pytest.raises(IndexError, match="out of bounds"):
        fnp.take(a, [12])
    with pytest.raises(TypeError, match="integers"):
        fnp.take(a, [0.5])
    with pytest.raises(np.exceptions.AxisError):
        fnp.take(a, [0], axis=2)
    g = fg.grad(lambda v: fnp.sum(fnp.take(v, [0, 0, 2], axis=1)))(fnp.asarray(a))
    assert np.array_equal(g, np.tile([2.0, 0.0, 1.0, 0.0], (3, 1)))


def test_take_along_axis_and_put_along_axis():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4))
    idx = np.argsort(a, axis=1)
    for axis, ind in [(1, idx), (0, np.argsort(a, axis=0)[:2]), (1, idx[:, :1]), (None, np.array([3, 0, 0]))]:
        assert np.array_equal(fnp.take_along_axis(a, ind, axis), np.take_along_axis(a, ind, axis))
    check_grads(lambda v: fnp.take_along_axis(v, idx[:, [0, 0, 3]], 1), (fnp.asarray(a),), order=2)
    ref = a.copy()
    np.put_along_axis(ref, idx[:, :1], 9.0, 1)
    assert np.array_equal(fnp.put_along_axis(a, idx[:, :1], 9.0, 1), ref)
    with pytest.raises(ValueError, match="same number of dimensions"):
        fnp.take_along_axis(a, idx[0], 1)


def test_choose_select():
    choices = [np.arange(4.0), np.arange(4.0) * 10, -np.ones(4)]
    a = np.array([0, 2, 1, 1])
    assert np.array_equal(fnp.choose(a, choices), np.choose(a, choices))
    assert np.array_equal(fnp.choose([5, -1, 1, 3], choices, mode="wrap"), np.choose([5, -1, 1, 3], choices, mode="wrap"))
    assert np.array_equal(fnp.choose([5, -1, 1, 3], choices, mode="clip"), np.choose([5, -1, 1, 3], choices, mode="clip"))
    with pytest.raises(ValueError, match="invalid entry"):
        fnp.choose([3, 0, 0, 0], choices)
    x = np.arange(-3.0, 3.0)
    conds, vals = [x < -1, x > 1], [x * 2, x ** 2]
    assert np.array_equal(fnp.select(conds, vals, 0.5), np.select(conds, vals, 0.5))
    g = fg.grad(lambda v: fnp.sum(fnp.select([v < -1, v > 1], [v * 2, v ** 2], 0.0)))(fnp.asarray(x))
    assert np.array_equal(g, np.select(conds, [2.0 * np.ones(6), 2 * x], 0.0))
    with pytest.raises(TypeError, match="condlist"):
        fnp.select([x], [x])


def test_diagonals_and_triangles():
    a = np.arange(24.0).reshape(2, 3, 4)
    for off, a1, a2 in [(0, 0, 1), (1, 1, 2), (-1, 2, 1), (5, 1, 2), (-2, -1, 0)]:
        assert np.array_equal(fnp.diagonal(a, off, a1, a2), np.diagonal(a, off, a1, a2))
        assert np.array_equal(fnp.trace(a, off, a1, a2), np.trace(a, off, a1, a2))
    m = a[0]
    for k in (-1, 0, 2):
        assert np.array_equal(fnp.diag(m, k), np.diag(m, k))
        assert np.array_equal(fnp.diag(m[0], k), np.diag(m[0], k))
        assert np.array_equal(fnp.diagflat(m[:2, :2], k), np.diagflat(m[:2, :2], k))
        assert np.array_equal(fnp.tril(a, k), np.tril(a, k)) and np.array_equal(fnp.triu(a, k), np.triu(a, k))
    assert np.array_equal(fnp.tril(np.arange(3)), np.tril(np.arange(3)))
    assert fnp.triu(np.ones((2, 2), np.int8)).dtype == np.int8
    check_grads(lambda v: [fnp.diag(v, 1), fnp.trace(fnp.outer(v, v)), fnp.tril(fnp.outer(v, v), -1)],
                (fnp.asarray([1.0, 2.0, 3.0]),), order=2)
    with pytest.raises(ValueError, match="1- or 2-d"):
        fnp.diag(a)
    with pytest.raises(ValueError, match="cannot be the same"):
        fnp.diagonal(a, 0, 1, -2)


def test_nonzero_argwhere_flatnonzero():
    a = np.array([[0, 3], [1, 0]])
    for f, g in [(fnp.nonzero, np.nonzero), (fnp.argwhere, np.argwhere), (fnp.flatnonzero, np.flatnonzero)]:
        got, want = f(a), g(a)
        if isinstance(want, tuple):
            assert all(np.array_equal(u, v) for u, v in zip(got, want))
        else:
            assert np.array_equal(got, want)
    assert all(np.array_equal(u, v) for u, v in zip(fnp.where(a), np.where(a)))
    assert all(np.array_equal(u, v) for u, v in zip(fnp.asarray(a).nonzero(), a.nonzero()))


def test_index_tools():
    a = np.arange(12.0).reshape(3, 4)

    def same(got, want):
        if isinstance(want, tuple):
            return all(same(g, w) for g, w in zip(got, want))
        return np.asarray(got).dtype == np.asarray(want).dtype and np.array_equal(got, want)

    assert same(fnp.compress([0, 1, 1], a, axis=0), np.compress([0, 1, 1], a, axis=0))
    assert same(fnp.compress([1, 0, 1], a), np.compress([1, 0, 1], a))
    assert same(fnp.extract(a > 4, a), np.extract(a > 4, a))
    assert same(fnp.ix_([0, 1], [2, 3]), np.ix_([0, 1], [2, 3]))
    assert same(fnp.indices((2, 3)), np.indices((2, 3)))
    assert same(fnp.unravel_index([5, 7], (3, 4)), np.unravel_index([5, 7], (3, 4)))
    assert same(fnp.ravel_multi_index(([1, 2], [0, 3]), (3, 4)), np.ravel_multi_index(([1, 2], [0, 3]), (3, 4)))
    assert same(fnp.tril_indices(3, -1), np.tril_indices(3, -1))
    assert same(fnp.triu_indices_from(a, 1), np.triu_indices_from(a, 1))
    assert same(fnp.diag_indices(3), np.diag_indices(3))
    x = fnp.asarray(a)
    assert np.array_equal(x[fnp.ix_([0, 2], [1, 3])], a[np.ix_([0, 2], [1, 3])])
    g = fg.grad(lambda v: fnp.sum(fnp.compress([True, False, True], v, axis=1)))(x)
    assert np.array_equal(g, np.tile([1.0, 0.0, 1.0, 0.0], (3, 1)))
    with pytest.raises(IndexError, match="out of bounds"):
        fnp.compress([1, 0, 1, 1], a, axis=0)


def test_mask_indices_matches_numpy():
    for n, k in ((3, 0), (4, 1), (4, -1), (0, 0)):
        for fn, ref in ((fnp.triu, np.triu), (fnp.tril, np.tril)):
            got, want = fnp.mask_indices(n, fn, k), np.mask_indices(n, ref, k)
            assert len(got) == len(want)
            for g, w in zip(got, want):
                np.testing.assert_array_equal(g, w)
                assert g.dtype == w.dtype
