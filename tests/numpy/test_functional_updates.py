"""fill_diagonal, put, place, putmask as functional updates (_functional_updates.py): with
inplace=False the result equals what numpy writes into its argument; inplace=True is refused;
derivatives in the array and the values (a repeated index: the last write wins)."""

import numpy as np
import pytest

import funcgrad.numpy as fnp
from funcgrad.testing import check_grads


def ref(f, a, *args, **kw):
    a = np.array(a, copy=True)
    f(a, *args, **kw)
    return a


def same(r, e):
    r = np.asarray(r)
    assert r.shape == e.shape and r.dtype == e.dtype, (r.shape, e.shape, r.dtype, e.dtype)
    np.testing.assert_array_equal(r, e)


x = np.arange(6.0)
m = x > 2


@pytest.mark.parametrize("a,args", [
    (np.zeros((3, 5)), ([1, 2],)), (np.zeros((3, 5)), ([1, 2], True)), (np.zeros((7, 3)), (5, True)),
    (np.zeros((7, 3)), (5,)), (np.zeros((2, 2, 2)), (4,)), (np.zeros((3, 3), int), (2.7,)),
    (np.zeros((0, 0)), (1,)), (np.zeros((2, 2), complex), (1j,)),
])
def test_fill_diagonal(a, args):
    same(fnp.fill_diagonal(a, *args, inplace=False), ref(np.fill_diagonal, a, *args))


@pytest.mark.parametrize("ind,v,mode", [
    ([0, -1, 7], [1, 2, 3], "wrap"), ([1, 1], [3, 4], "raise"), ([], [], "raise"), ([0, 9], [5], "clip"),
    (np.array([[1, 2]]), [7.0, 8], "raise"), (3, 9, "raise"), ([-6, 5], [1.5], "raise"),
])
def test_put(ind, v, mode):
    same(fnp.put(x, ind, v, mode, inplace=False), ref(np.put, x, ind, v, mode))
    same(fnp.put(x.astype(np.float32), ind, v, mode, inplace=False), ref(np.put, x.astype(np.float32), ind, v, mode))


@pytest.mark.parametrize("vals", [[10, 20], [1], [1, 2, 3, 4, 5]])
def test_place_and_putmask(vals):
    same(fnp.place(x, m, vals, inplace=False), ref(np.place, x, m, vals))
    same(fnp.putmask(x, m, vals, inplace=False), ref(np.putmask, x, m, vals))
    same(fnp.place(x.reshape(2, 3), m.reshape(2, 3), vals, inplace=False),
         ref(np.place, x.reshape(2, 3), m.reshape(2, 3), vals))
    same(fnp.putmask(x.reshape(2, 3), m.reshape(2, 3), vals, inplace=False),
         ref(np.putmask, x.reshape(2, 3), m.reshape(2, 3), vals))
    same(fnp.putmask(x, m, [], inplace=False), ref(np.putmask, x, m, []))


def test_refusals_and_errors():
    for call in (lambda: fnp.fill_diagonal(np.zeros((2, 2)), 1), lambda: fnp.put(x, [0], [1]),
                 lambda: fnp.place(x, m, [1]), lambda: fnp.putmask(x, m, [1])):
        with pytest.raises(TypeError, match="inplace=False"):
            call()
    with pytest.raises(IndexError, match="out of bounds"):
        fnp.put(x, [9], [1], inplace=False)
    with pytest.raises(ValueError, match="empty array"):
        fnp.place(x, m, [], inplace=False)
    with pytest.raises(IndexError):
        fnp.put(np.zeros(0), [0], [1], "wrap", inplace=False)
    with pytest.raises(ValueError, match="equal length"):
        fnp.fill_diagonal(np.zeros((2, 3, 2)), 1, inplace=False)
    with pytest.raises(ValueError, match="same size"):
        fnp.putmask(x, m[:3], [1], inplace=False)


def test_derivatives():
    check_grads(lambda a, v: fnp.fill_diagonal(a, v, inplace=False), (np.ones((3, 3)), np.array([2.0, 3.0])))
    check_grads(lambda a, v: fnp.put(a, [0, 2, 2], v, inplace=False), (x, np.array([2.0, 3.0, 4.0])))
    check_grads(lambda a, v: fnp.place(a, m, v, inplace=False), (x, np.array([2.0, 3.0])))
    check_grads(lambda a, v: fnp.putmask(a, m, v, inplace=False), (x, np.array([2.0, 3.0])))
