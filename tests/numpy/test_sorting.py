"""sort, argsort, searchsorted, unique against numpy, and their documented gradients."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

X = np.array([[3.0, 1.0, 2.0, 1.0], [0.5, -1.0, 7.0, 0.5]])


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_sort_argsort_match_numpy(axis):
    assert np.array_equal(fnp.sort(X, axis), np.sort(X, axis))
    assert np.array_equal(fnp.argsort(X, axis, stable=True), np.argsort(X, axis, stable=True))
    assert np.array_equal(fnp.argsort(X, axis, kind="mergesort"), np.argsort(X, axis, kind="mergesort"))
    ints = X.astype(np.int32)
    assert fnp.sort(ints, axis).dtype == np.int32 and np.array_equal(fnp.sort(ints, axis), np.sort(ints, axis))


def test_descending_is_stable():
    x = np.array([3, 1, 3, 2, 1, 3])
    assert np.array_equal(fnp.argsort(x, descending=True), [0, 2, 5, 3, 1, 4])
    assert np.array_equal(fnp.sort(x, descending=True), [3, 3, 3, 2, 1, 1])


def test_sort_gradient_flows_to_sorted_positions():
    x = fnp.asarray([3.0, 1.0, 2.0])
    g = fg.grad(lambda v: fnp.sort(v)[0] + 10.0 * fnp.sort(v)[2])(x)
    assert np.array_equal(g, [10.0, 1.0, 0.0])
    check_grads(lambda v: fnp.sort(v, axis=0) * fnp.arange(2.0).reshape(2, 1), (fnp.asarray(X + [[0, 0, 0, 0.1], [0, 0, 0, 0]]),))


def test_searchsorted():
    a = np.array([1.0, 2.0, 2.0, 5.0])
    for v in (2.0, [0.0, 2.0, 9.0], [[1.5], [5.0]]):
        for side in ("left", "right"):
            assert np.array_equal(fnp.searchsorted(a, v, side), np.searchsorted(a, v, side))
    s = np.array([3, 0, 2, 1])
    assert np.array_equal(fnp.searchsorted(a[::-1][s], [2.0], sorter=s), np.searchsorted(a[::-1][s], [2.0], sorter=s))
    assert np.array_equal(fnp.asarray(a).searchsorted(2.0), 1)
    with pytest.raises(ValueError, match="side"):
        fnp.searchsorted(a, 1.0, side="middle")


def test_unique():
    x = np.array([[2.0, 1.0], [2.0, 3.0]])
    got = fnp.unique(x, return_index=True, return_inverse=True, return_counts=True)
    want = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    assert all(np.array_equal(u, v) for u, v in zip(got, want))
    assert np.array_equal(fnp.unique(x, axis=0), np.unique(x, axis=0))
    nans = np.array([np.nan, 1.0, np.nan])
    assert np.array_equal(fnp.unique(nans), np.unique(nans), equal_nan=True)
    # the values' gradient goes to each value's first occurrence
    g = fg.grad(lambda v: fnp.sum(fnp.unique(v) ** 2))(fnp.asarray(x))
    assert np.array_equal(g, [[4.0, 2.0], [0.0, 6.0]])


def test_sort_errors_and_in_place_method():
    with pytest.raises(np.exceptions.AxisError):
        fnp.sort(X, 2)
    with pytest.raises(ValueError, match="kind"):
        fnp.sort(X, kind="bogo")
    with pytest.raises(TypeError, match="fnp.sort|funcgrad.numpy.sort"):
        fnp.asarray(X).sort()
    with pytest.raises(TypeError, match=r"\.at\[indices\]"):
        fnp.asarray(X).put([0], 1.0)
    assert np.array_equal(fnp.asarray(X).argsort(axis=0), np.argsort(X, axis=0))


def test_sorting_on_any_backend(device):
    x = fnp.asarray(X)
    assert np.array_equal(fnp.sort(x, 1), np.sort(X, 1))
    assert np.array_equal(fnp.unique(x), np.unique(X))
    assert np.array_equal(fg.grad(lambda v: fnp.sort(v, None)[-1])(x), (X == X.max()).astype(float))


def test_partition_argpartition_lexsort():
    for k in (0, 2, -1, (1, 3)):
        assert np.array_equal(fnp.partition(X, k, axis=1), np.partition(X, k, axis=1))
        assert np.array_equal(fnp.argpartition(X, k), np.argpartition(X, k))
    g = fg.grad(lambda v: fnp.partition(v, 1)[1])(fnp.asarray([3.0, 1.0, 2.0]))
    assert np.array_equal(g, [0.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="out of bounds"):
        fnp.partition(X, 4)
    a, b = np.array([1, 5, 1, 4, 3, 4, 4]), np.array([9, 4, 0, 4, 0, 2, 1])
    assert np.array_equal(fnp.lexsort((b, a)), np.lexsort((b, a)))
    keys = np.random.default_rng(0).integers(0, 3, (3, 4, 5))
    assert np.array_equal(fnp.lexsort(keys, axis=0), np.lexsort(keys, axis=0))
    assert np.array_equal(fnp.lexsort(keys), np.lexsort(keys))


@pytest.mark.parametrize("axis", [0, -1, 1, -2])
def test_argsort_of_a_0d_array_checks_the_axis_as_numpy(axis):
    """numpy argsorts a 0-d array as a 1-d one: axis 0 and -1 give [0], others raise AxisError."""
    if axis in (0, -1):
        np.testing.assert_array_equal(fnp.argsort(fnp.asarray(2.5), axis=axis), np.argsort(np.array(2.5), axis=axis))
    else:
        with pytest.raises(np.exceptions.AxisError):
            fnp.argsort(fnp.asarray(2.5), axis=axis)
