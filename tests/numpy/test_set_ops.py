"""union1d, intersect1d, setdiff1d, setxor1d, isin (_set_ops.py) against numpy; the values
are gathers of the inputs, so their gradients land on the first occurrences."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

a = np.array([3.0, 1, 2, 3, 5, 1])
b = np.array([[1.0, 7], [3, 9]])
PAIRS = [(a, b), (b, a), (a, []), (np.arange(5), [2, 9]), (np.arange(4, dtype=np.int32), a),
         (np.array([1 + 1j, 2]), [2, 3]), (np.array([np.nan, 1.0]), [np.nan])]


def _same(r, e):
    r, e = np.asarray(r), np.asarray(e)
    assert r.shape == e.shape and r.dtype == e.dtype, (r.shape, e.shape, r.dtype, e.dtype)
    np.testing.assert_array_equal(r, e)


@pytest.mark.parametrize("name", ["union1d", "intersect1d", "setdiff1d", "setxor1d"])
def test_set_ops_match_numpy(name):
    for u, v in PAIRS:
        _same(getattr(fnp, name)(u, v), getattr(np, name)(u, v))
    if name != "union1d":
        _same(getattr(fnp, name)([1, 2, 3], [2, 4], assume_unique=True),
              getattr(np, name)([1, 2, 3], [2, 4], assume_unique=True))


def test_intersect1d_indices():
    for r, e in zip(fnp.intersect1d(a, b, return_indices=True), np.intersect1d(a, b, return_indices=True)):
        _same(r, e)


@pytest.mark.parametrize("invert", [False, True])
def test_isin_matches_numpy(invert):
    for u, v in PAIRS + [(2.0, a), (np.zeros((0, 2)), a), (b, 3)]:
        _same(fnp.isin(u, v, invert=invert), np.isin(u, v, invert=invert))
    with pytest.raises(ValueError, match="kind"):
        fnp.isin(a, b, kind="hash")


def test_gradients_go_to_first_occurrences():
    g = fg.grad(lambda v: fnp.sum(fnp.setxor1d(v, b) * np.arange(4.0)))(a)
    np.testing.assert_array_equal(g, [0, 0, 0, 0, 1, 0])  # 2 -> weight 0, 5 -> weight 1
    g = fg.grad(lambda v: fnp.sum(fnp.intersect1d(v, b) * np.array([1.0, 10.0])))(a)
    np.testing.assert_array_equal(g, [10, 1, 0, 0, 0, 0])
    g = fg.grad(lambda v: fnp.sum(fnp.setdiff1d(v, b) ** 2))(a)
    np.testing.assert_array_equal(g, [0, 0, 4, 0, 10, 0])
    g = fg.grad(lambda v: fnp.sum(fnp.union1d(v, b)))(a)
    np.testing.assert_array_equal(g, [1, 1, 1, 0, 1, 0])
    assert fg.vmap(lambda v: fnp.isin(v, b))(np.array([[1.0, 2.0]])).tolist() == [[True, False]]
