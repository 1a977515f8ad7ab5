"""concat, permute_dims, matrix_transpose, unstack, vecdot, matvec, vecmat and
linalg.diagonal/trace/tensordot (_array_api_names.py) against numpy; derivatives."""

import numpy as np
import pytest

import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

rng = np.random.default_rng(0)
A = rng.standard_normal((2, 3, 4))
C = A + 1j * rng.standard_normal(A.shape)
v = rng.standard_normal(4)


def _same(r, e):
    if isinstance(e, tuple):
        assert isinstance(r, tuple) and len(r) == len(e)
        for u, w in zip(r, e):
            _same(u, w)
        return
    r = np.asarray(r)
    assert r.shape == e.shape and r.dtype == e.dtype, (r.shape, e.shape, r.dtype, e.dtype)
    np.testing.assert_allclose(r, e, atol=1e-12)


@pytest.mark.parametrize("X", [A, A.astype(np.float32), C, A.astype(np.int32)])
def test_values_match_numpy(X):
    _same(fnp.concat([X, X], axis=1), np.concat([X, X], axis=1))
    _same(fnp.concat([X, X], axis=None), np.concat([X, X], axis=None))
    _same(fnp.concat([X, X], axis=-1), np.concat([X, X], axis=-1))
    _same(fnp.permute_dims(X, (2, 0, 1)), np.permute_dims(X, (2, 0, 1)))
    _same(fnp.permute_dims(X), np.permute_dims(X))
    _same(fnp.matrix_transpose(X), np.matrix_transpose(X))
    for axis in (0, -1):
        _same(fnp.unstack(X, axis=axis), np.unstack(X, axis=axis))
    _same(fnp.vecdot(X, X), np.vecdot(X, X))
    _same(fnp.vecdot(X, X, axis=0), np.vecdot(X, X, axis=0))
    _same(fnp.matvec(X, v), np.matvec(X, v))
    _same(fnp.vecmat(X[0, 0], np.swapaxes(X, 1, 2)), np.vecmat(X[0, 0], np.swapaxes(X, 1, 2)))
    for off in (0, 1, -1):
        _same(fnp.linalg.diagonal(X, offset=off), np.linalg.diagonal(X, offset=off))
        _same(fnp.linalg.trace(X, offset=off), np.linalg.trace(X, offset=off))
    _same(fnp.linalg.tensordot(X, X, axes=([1, 2], [1, 2])), np.linalg.tensordot(X, X, axes=([1, 2], [1, 2])))
    _same(fnp.linalg.tensordot(X, X[0], axes=2), np.linalg.tensordot(X, X[0], axes=2))


def test_empty_and_errors():
    _same(fnp.unstack(np.zeros((0, 3))), np.unstack(np.zeros((0, 3))))
    _same(fnp.matvec(np.zeros((0, 2, 3)), np.zeros(3)), np.matvec(np.zeros((0, 2, 3)), np.zeros(3)))
    with pytest.raises(ValueError):
        fnp.unstack(np.float64(1.0))
    with pytest.raises(ValueError, match="core dimension"):
        fnp.matvec(A, np.ones(3))
    with pytest.raises(ValueError, match="core dimension"):
        fnp.vecmat(np.ones(4), A)
    with pytest.raises(ValueError):
        fnp.matrix_transpose(v)


def test_derivatives():
    check_grads(lambda x, y: fnp.matvec(x, y), (A, v))
    check_grads(lambda x, y: fnp.vecmat(x, y), (v, np.swapaxes(A, 1, 2)))
    check_grads(lambda x: fnp.vecdot(x, x), (A,))
    check_grads(lambda x: fnp.concat([x, 2 * x], axis=None), (A,))
    check_grads(lambda x: fnp.unstack(x, axis=1)[2], (A,))
    check_grads(lambda x: fnp.linalg.trace(x, offset=1), (A,))
    check_grads(lambda x: fnp.linalg.diagonal(x), (A,))
    check_grads(lambda x: fnp.permute_dims(x, (1, 2, 0)), (A,))
