"""asanyarray, ascontiguousarray, asfortranarray, asarray_chkfinite, require, copy,
fromfunction, fromiter, from_dlpack (_conversions.py), and asarray/array of (nested)
sequences holding traced values (stacked, differentiable)."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads


def _same(r, e):
    r, e = np.asarray(r), np.asarray(e)
    assert r.shape == e.shape and r.dtype == e.dtype, (r.shape, e.shape, r.dtype, e.dtype)
    np.testing.assert_array_equal(r, e)


@pytest.mark.parametrize("v", [3.0, [1, 2], np.ones((2, 3), np.float32), np.array([1 + 2j]), np.zeros((0, 2))])
def test_layout_variants_match_numpy(v):
    for name in ("asanyarray", "ascontiguousarray", "asfortranarray", "asarray_chkfinite", "copy"):
        _same(getattr(fnp, name)(v), getattr(np, name)(v))
    _same(fnp.asanyarray(v, dtype=np.complex128), np.asanyarray(v, dtype=np.complex128))
    _same(fnp.require(v, np.complex64, ["C", "A"]), np.require(v, np.complex64, ["C", "A"]))


def test_checks_and_errors():
    with pytest.raises(ValueError, match="infs or NaNs"):
        fnp.asarray_chkfinite([1.0, np.inf])
    with pytest.raises(ValueError, match="immutable"):
        fnp.require([1.0], requirements="W")
    with pytest.raises(ValueError, match="both 'C' and 'F'"):
        fnp.require([1.0], requirements="CF")
    with pytest.raises(KeyError):
        fnp.require([1.0], requirements=["X"])


def test_fromfunction_fromiter_from_dlpack():
    _same(fnp.fromfunction(lambda i, j: i + j, (2, 3)), np.fromfunction(lambda i, j: i + j, (2, 3)))
    _same(fnp.fromfunction(lambda i: i * 2, (4,), dtype=int), np.fromfunction(lambda i: i * 2, (4,), dtype=int))
    _same(fnp.fromiter(range(5), float, 3), np.fromiter(range(5), float, 3))
    _same(fnp.fromiter((k * k for k in range(4)), np.int32), np.fromiter((k * k for k in range(4)), np.int32))
    _same(fnp.fromiter([], float), np.fromiter([], float))
    with pytest.raises(ValueError, match="iterator too short"):
        fnp.fromiter(range(2), float, 5)
    _same(fnp.from_dlpack(np.arange(3.0)), np.arange(3.0))
    x = fnp.arange(3.0)
    assert fnp.from_dlpack(x) is x


def test_traced_values_are_stacked():
    assert fg.grad(lambda t: fnp.sum(fnp.array([t, 2 * t, 1.0]) ** 2))(3.0) == 30.0
    assert fg.grad(lambda t: fnp.sum(fnp.asarray([[t, 2 * t], (1.0, t)]) ** 2))(3.0) == 36.0
    check_grads(lambda v: fnp.array([v[0] * v[1], [v[1], 3.0][0], fnp.sin(v[0])]), (np.array([0.4, 1.3]),))
    check_grads(lambda v: fnp.asarray([v, fnp.ones(2), 2 * v], dtype=np.float64), (np.array([0.4, 1.3]),))
    check_grads(lambda t: fnp.fromiter((t * k for k in range(3)), float), (np.array(0.7),))
    np.testing.assert_allclose(fg.jacobian(lambda t: fnp.array([t, t ** 2]))(2.0), [1.0, 4.0])
    np.testing.assert_allclose(fg.jvp(lambda t: fnp.array([[t], [3 * t]]), (1.0,), (1.0,))[1], [[1.0], [3.0]])
    out = fg.vmap(lambda t: fnp.array([t, 2 * t]))(np.arange(3.0))
    np.testing.assert_allclose(out, [[0, 0], [1, 2], [2, 4]])
    z = fg.grad(lambda t: fnp.real(fnp.sum(fnp.array([t * 1j, t]) * fnp.array([1j, 1.0]))))(2.0)
    assert z == 0.0  # d/dt Re(t*1j*1j + t) = -1 + 1
    with pytest.raises(ValueError):  # ragged, as numpy refuses it
        fg.grad(lambda v: fnp.sum(fnp.array([v, [1.0]])))(np.array([1.0, 2.0]))
