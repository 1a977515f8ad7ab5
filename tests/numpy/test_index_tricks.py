"""r_, c_, s_, index_exp, mgrid, ogrid, ndenumerate (_index_tricks.py) against numpy;
r_/c_ are differentiable in the arrays they join."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

a, b = np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])
m = np.arange(6.0).reshape(2, 3)


def _same(r, e):
    r = np.asarray(r)
    assert r.dtype == e.dtype and r.shape == e.shape, (r.dtype, e.dtype, r.shape, e.shape)
    np.testing.assert_allclose(r, e)


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # numpy's r_["r", ...] builds a matrix
def test_r_and_c_match_numpy():
    _same(fnp.r_[1:4, 0, 4, [5, 6]], np.r_[1:4, 0, 4, [5, 6]])
    _same(fnp.r_[a, 0, b], np.r_[a, 0, b])
    _same(fnp.r_[-1:1:6j, [0] * 3, 5, 6], np.r_[-1:1:6j, [0] * 3, 5, 6])
    _same(fnp.r_["-1,2,0", a, b], np.r_["-1,2,0", a, b])
    _same(fnp.r_["0,2,1", a, b], np.r_["0,2,1", a, b])
    _same(fnp.r_["1,2", m, m], np.r_["1,2", m, m])
    _same(fnp.r_["-1", m, m], np.r_["-1", m, m])
    _same(fnp.r_[np.float32(1), np.array([2], np.float32)], np.r_[np.float32(1), np.array([2], np.float32)])
    _same(fnp.c_[a, b], np.c_[a, b])
    _same(fnp.c_[m, m], np.c_[m, m])
    _same(fnp.c_[np.array([[1, 2, 3]]), 0, 0, np.array([[4, 5, 6]])],
          np.c_[np.array([[1, 2, 3]]), 0, 0, np.array([[4, 5, 6]])])
    _same(fnp.r_["r", a, b], np.asarray(np.r_["r", a, b]))
    _same(fnp.r_["c", a, b], np.asarray(np.r_["c", a, b]))
    _same(fnp.r_[1 + 2j, a], np.r_[1 + 2j, a])
    assert len(fnp.r_) == 0


def test_directive_errors():
    with pytest.raises(ValueError, match="first entry"):
        fnp.r_[a, "0"]
    with pytest.raises(ValueError, match="unknown special directive"):
        fnp.r_["x,y", a]
    with pytest.raises(TypeError, match="matrix"):
        fnp.r_["1 2; 3 4"]


def test_r_c_are_differentiable():
    check_grads(lambda x: fnp.r_[x, 0.0, 2 * x], (a,))
    check_grads(lambda x: fnp.c_[x, x ** 2], (a,))
    g = fg.grad(lambda x: fnp.sum(fnp.r_[x, x[:1]] ** 2))(a)
    np.testing.assert_allclose(g, [4.0, 4.0, 6.0])


def test_grids_and_index_expressions():
    _same(fnp.mgrid[0:5, 0:3], np.mgrid[0:5, 0:3])
    _same(fnp.mgrid[-1:1:5j], np.mgrid[-1:1:5j])
    for r, e in zip(fnp.ogrid[0:3, 0:4], np.ogrid[0:3, 0:4]):
        _same(r, e)
    _same(fnp.ogrid[0:1:4j], np.ogrid[0:1:4j])
    assert fnp.s_[1:2, ::3] == np.s_[1:2, ::3]
    assert fnp.index_exp[1:2] == np.index_exp[1:2]
    x = fnp.arange(10.0)
    _same(x[fnp.s_[2::3]], np.arange(10.0)[2::3])


def test_ndenumerate():
    got = list(fnp.ndenumerate(m))
    want = list(np.ndenumerate(m))
    assert [i for i, _ in got] == [i for i, _ in want]
    np.testing.assert_array_equal([float(v) for _, v in got], [v for _, v in want])
    assert list(fnp.ndenumerate(np.float64(3.0)))[0][0] == ()
    g = fg.grad(lambda x: sum(v * (i[0] + 1) for i, v in fnp.ndenumerate(x)))(m)
    np.testing.assert_array_equal(g, [[1, 1, 1], [2, 2, 2]])
