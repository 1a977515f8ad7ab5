"""funcgrad.numpy creation functions: numpy values/dtypes/shapes, devices, derivatives."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads


def _same(got, want):
    assert tuple(got.shape) == np.shape(want) and got.dtype == np.asarray(want).dtype, (got, want)
    assert np.array_equal(np.asarray(got), want)


def test_basic_creation_matches_numpy(device):
    _same(fnp.zeros((2, 3)), np.zeros((2, 3)))
    _same(fnp.ones(3, dtype=np.int32), np.ones(3, dtype=np.int32))
    _same(fnp.empty((0, 2)), np.zeros((0, 2)))
    _same(fnp.full((2,), 7), np.full((2,), 7))
    _same(fnp.full((2, 2), [1.0, 2.0]), np.full((2, 2), [1.0, 2.0]))
    _same(fnp.zeros_like(np.ones((2, 1), np.float32)), np.zeros((2, 1), np.float32))
    _same(fnp.ones_like(np.ones(2, int), dtype=float), np.ones(2))
    _same(fnp.full_like(np.ones((2, 2)), [1, 2]), np.full_like(np.ones((2, 2)), [1, 2]))
    _same(fnp.arange(5), np.arange(5))
    _same(fnp.arange(1.0, 2.0, 0.25), np.arange(1.0, 2.0, 0.25))
    _same(fnp.eye(3, 4, k=-1, dtype=int), np.eye(3, 4, k=-1, dtype=int))
    _same(fnp.identity(2), np.identity(2))
    _same(fnp.tri(3, 4, 1), np.tri(3, 4, 1))
    assert fnp.zeros(2).device == fg.default_device()
    assert fnp.linspace(0, 1, 3).device == fg.default_device()
    with pytest.raises(ValueError, match="negative"):
        fnp.zeros((2, -1))


@pytest.mark.parametrize("kw", [{}, {"endpoint": False}, {"axis": 1}, {"axis": -1}, {"dtype": int},
                                {"dtype": np.float32}, {"num": 1}, {"num": 0}])
def test_linspace_matches_numpy(kw):
    kw = dict({"num": 4}, **kw)
    start, stop = np.array([0.0, 1.0]), 5.0
    want = np.linspace(start, stop, **kw)
    _same(fnp.linspace(start, stop, **kw), want)  # host path
    got = fnp.linspace(fnp.asarray(start), fnp.asarray(stop), **kw)  # traced-capable path
    assert got.shape == want.shape and got.dtype == want.dtype and np.allclose(got, want)
    got, step = fnp.linspace(fnp.asarray(0.0), 1.0, 5, retstep=True)
    assert float(step) == 0.25 and np.allclose(got, np.linspace(0, 1, 5))
    with pytest.raises(ValueError, match="non-negative"):
        fnp.linspace(0, 1, -1)


def test_linspace_logspace_meshgrid_full_are_differentiable():
    check_grads(lambda s, e: fnp.linspace(s, e, 5), (np.array([0.0, 1.0]), np.array(3.0)), order=2)
    check_grads(lambda s, e: fnp.logspace(s, e, 4, endpoint=False), (np.array(0.5), np.array(1.5)), order=2)
    check_grads(lambda a, b: fnp.meshgrid(a, b, indexing="ij"), (np.arange(3.0), np.arange(2.0)), order=2)
    assert float(fg.grad(lambda v: fnp.sum(fnp.full((3,), v)))(2.0)) == 3.0
    assert float(fg.grad(lambda s: fnp.sum(fnp.linspace(s, 1.0, 3)))(0.0)) == 1.5
    _same(fnp.logspace(0, 2, 3, base=2.0), np.logspace(0, 2, 3, base=2.0))


@pytest.mark.parametrize("kw", [{}, {"indexing": "ij"}, {"sparse": True}, {"sparse": True, "indexing": "ij"}])
def test_meshgrid_matches_numpy(kw):
    xs = (np.arange(3.0), np.arange(2.0), np.arange(4.0))
    for n in (1, 2, 3):
        for g, w in zip(fnp.meshgrid(*xs[:n], **kw), np.meshgrid(*xs[:n], **kw)):
            _same(g, w)
    with pytest.raises(ValueError, match="indexing"):
        fnp.meshgrid(xs[0], indexing="xx")


def test_array_and_asarray():
    _same(fnp.array([[1, 2]], dtype=np.float32), np.array([[1, 2]], dtype=np.float32))
    _same(fnp.array(3.0, ndmin=2), np.array(3.0, ndmin=2))
    x = fnp.asarray([1.0, 2.0])
    assert fnp.asarray(x) is x
    assert fnp.asarray(x, dtype=np.float32).dtype == np.float32
    g = fg.grad(lambda v: fnp.sum(fnp.asarray([v, 2 * v])))(1.0)
    assert float(g) == 3.0


@pytest.mark.parametrize("args,kw", [
    ((1, 1000, 4), {}), ((-1, -1000, 4), {}), ((1j, 1000j, 4), {}), ((-1 + 0j, 1 + 0j, 5), {}),
    ((1, 256, 9), {"dtype": int}), ((1, 1000, 4), {"endpoint": False}), (([1, 2], [100, 200], 3), {"axis": 1}),
    (([1, 2], [100, 200], 3), {"axis": -1}), ((2, 2, 0), {}), ((1, 10, 1), {}),
    ((np.float32(1), np.float32(10), 3), {}), ((1, 10, 3), {"dtype": np.float32}),
])
def test_geomspace_matches_numpy(args, kw):
    got, want = fnp.geomspace(*args, **kw), np.geomspace(*args, **kw)
    assert got.dtype == want.dtype and tuple(got.shape) == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-6 if want.dtype == np.float32 else 1e-12)


def test_geomspace_errors_and_derivatives():
    with pytest.raises(ValueError, match="cannot include zero"):
        fnp.geomspace(0, 10)
    check_grads(lambda a, b: fnp.geomspace(a, b, 5), (np.array(2.0), np.array(50.0)))
    check_grads(lambda a, b: fnp.geomspace(a, b, 4, endpoint=False), (np.array(-2.0), np.array(-50.0)))
    check_grads(lambda a: fnp.geomspace(a, 3.0 * a, 3, axis=-1), (np.array([1.0, 2.0]),))


def test_numpy_dtype_names_are_numpys():
    for name in ("longdouble", "clongdouble", "double", "single", "intp", "uint", "bool", "half",
                 "floating", "complexfloating", "integer", "number", "generic", "euler_gamma", "True_"):
        assert getattr(fnp, name) is getattr(np, name), name
    for name in ("float128", "complex256", "float96", "complex192"):
        assert hasattr(fnp, name) == hasattr(np, name), name
    x = fnp.asarray(np.ones(3, fnp.longdouble))
    assert x.dtype == np.longdouble
    assert fg.grad(lambda t: fnp.sum(fnp.sin(t)))(x).dtype == np.longdouble
    assert fnp.issubdtype(fnp.float32, fnp.floating) and fnp.isdtype(fnp.float64, "real floating")
    assert fnp.exceptions.AxisError is np.exceptions.AxisError
