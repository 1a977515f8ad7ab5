"""apply_along_axis, apply_over_axes, piecewise, vectorize (_functional.py) against numpy;
derivatives through the user's function against central differences."""

import numpy as np
import pytest

import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

a = np.arange(24.0).reshape(2, 3, 4)
x = np.linspace(-2.5, 2.5, 6)


def _same(r, e):
    if isinstance(e, tuple):
        assert len(r) == len(e)
        for u, v in zip(r, e):
            _same(u, v)
        return
    r, e = np.asarray(r), np.asarray(e)
    assert r.shape == e.shape and r.dtype == e.dtype, (r.shape, e.shape, r.dtype, e.dtype)
    np.testing.assert_allclose(r, e)


def _branch(u, v):
    return u - v if u > v else u + v


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_apply_along_axis(axis):
    _same(fnp.apply_along_axis(lambda v: v.sum(), axis, a), np.apply_along_axis(lambda v: v.sum(), axis, a))
    _same(fnp.apply_along_axis(lambda v: v[::-1] * 2, axis, a), np.apply_along_axis(lambda v: v[::-1] * 2, axis, a))
    _same(fnp.apply_along_axis(lambda v: fnp.outer(v, v), axis, a), np.apply_along_axis(lambda v: np.outer(v, v), axis, a))
    _same(fnp.apply_along_axis(lambda v, s: v * s, axis, a.astype(np.float32), 2),
          np.apply_along_axis(lambda v, s: v * s, axis, a.astype(np.float32), 2))
    with pytest.raises(ValueError, match="iteration dimensions are 0"):
        fnp.apply_along_axis(lambda v: v, 0, np.zeros((2, 0)))


def test_apply_over_axes():
    _same(fnp.apply_over_axes(fnp.sum, a, [0, 2]), np.apply_over_axes(np.sum, a, [0, 2]))
    _same(fnp.apply_over_axes(fnp.sum, a, -1), np.apply_over_axes(np.sum, a, -1))
    _same(fnp.apply_over_axes(fnp.mean, a.astype(int), (1,)), np.apply_over_axes(np.mean, a.astype(int), (1,)))


def test_piecewise():
    for conds, funcs in [([x < 0, x >= 0], [lambda v: -v, lambda v: v ** 2]), ([x < 0], [lambda v: -v, 7]),
                         (x > 1, [lambda v: v + 10]), ([x > 10], [lambda v: v, 3.0])]:
        _same(fnp.piecewise(x, conds, funcs), np.piecewise(x, conds, funcs))
    i = np.arange(5)
    _same(fnp.piecewise(i, [i > 2], [lambda v: v * 1.5, 1]), np.piecewise(i, [i > 2], [lambda v: v * 1.5, 1]))
    s = np.float64(3.0)
    _same(fnp.piecewise(s, s > 0, [lambda v: v * 2, 0]), np.piecewise(s, s > 0, [lambda v: v * 2, 0]))
    fx = fnp.asarray(x)
    _same(fnp.piecewise(fx, fx < 0, [lambda v: -v, lambda v: v * 3]), np.piecewise(x, x < 0, [lambda v: -v, lambda v: v * 3]))
    _same(fnp.piecewise(fx, [fx < 0, fx > 1], [-1.0, 1.0]), np.piecewise(x, [x < 0, x > 1], [-1.0, 1.0]))
    with pytest.raises(ValueError, match="functions are expected"):
        fnp.piecewise(x, [x < 0], [1, 2, 3])
    with pytest.raises(ValueError, match="with 3 condition"):  # an array condition is a list of rows, as in numpy
        fnp.piecewise(a[0], a[0] > 2, [1.0, 2.0])
    with pytest.raises(IndexError):  # ... each of which must have x's shape
        fnp.piecewise(a[0], a[0] > 2, [1.0, 2.0, 3.0])


def test_vectorize():
    _same(fnp.vectorize(_branch)([1.0, 4, 3], [2.0, 2, 2]), np.vectorize(_branch)([1.0, 4, 3], [2.0, 2, 2]))
    _same(fnp.vectorize(_branch)(np.ones((2, 1)), np.arange(3.0)), np.vectorize(_branch)(np.ones((2, 1)), np.arange(3.0)))
    two = lambda u, v: (u + v, u * v)  # noqa: E731
    _same(fnp.vectorize(two)(np.arange(3.0), 2.0), np.vectorize(two)(np.arange(3.0), 2.0))
    _same(fnp.vectorize(_branch, otypes=[np.float32])([1.0, 4], [2.0, 2]),
          np.vectorize(_branch, otypes=[np.float32])([1.0, 4], [2.0, 2]))
    poly = lambda p, t: sum(c * t ** i for i, c in enumerate(p))  # noqa: E731
    _same(fnp.vectorize(poly, excluded={0})([1.0, 2], [3.0, 4]), np.vectorize(poly, excluded={0})([1.0, 2], [3.0, 4]))
    _same(fnp.vectorize(lambda t, p: poly(p, t), excluded={"p"})([3.0, 4], p=[1.0, 2]),
          np.vectorize(lambda t, p: poly(p, t), excluded={"p"})([3.0, 4], p=[1.0, 2]))
    _same(fnp.vectorize(lambda u, v: fnp.sum(u * v), signature="(n),(n)->()")(a, np.ones(4)),
          np.vectorize(lambda u, v: np.sum(u * v), signature="(n),(n)->()")(a, np.ones(4)))
    _same(fnp.vectorize(lambda u: fnp.outer(u, u), signature="(n)->(n,n)")(a),
          np.vectorize(lambda u: np.outer(u, u), signature="(n)->(n,n)")(a))
    _same(fnp.vectorize(_branch, otypes=[float])([], []), np.vectorize(_branch, otypes=[float])([], []))
    _same(fnp.vectorize(lambda u: u * 2)(3.0), np.vectorize(lambda u: u * 2)(3.0))
    with pytest.raises(ValueError, match="otypes"):
        fnp.vectorize(_branch)([], [])
    with pytest.raises(ValueError, match="signature"):
        fnp.vectorize(_branch, signature="(n)->")
    with pytest.raises(ValueError, match="core dimension"):
        fnp.vectorize(lambda u, v: fnp.sum(u * v), signature="(n),(n)->()")(np.ones(3), np.ones(4))


def test_derivatives():
    check_grads(lambda v: fnp.apply_along_axis(lambda s: fnp.sum(s ** 2) * s, 1, v), (a[:, :, :2] + 0.1,))
    check_grads(lambda v: fnp.apply_over_axes(fnp.sum, v ** 2, [0, 2]), (a / 10,))
    check_grads(lambda v: fnp.piecewise(v, [v < 0, v >= 0], [lambda t: -t ** 3, lambda t: fnp.sin(t)]), (x,))
    check_grads(lambda v: fnp.piecewise(v, v < 0, [lambda t: -t ** 3, fnp.sin]), (x,))
    check_grads(lambda u, v: fnp.vectorize(_branch)(u, v), (np.array([1.0, 4.0, 3.0]), np.array([2.0, 2.1, 2.0])))
    check_grads(lambda u: fnp.vectorize(lambda s: fnp.outer(s, s), signature="(n)->(n,n)")(u), (a[0] / 10,))
