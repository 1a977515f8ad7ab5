"""nanvar, nanstd, nanargmax, nanargmin, nancumsum, nancumprod (_nanfunctions.py) against
numpy (dtypes, axes, keepdims, ddof, ints, complex, empty), derivatives against central
differences; NaNs get gradient 0."""

import warnings

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

rng = np.random.default_rng(1)
A = rng.standard_normal((4, 5, 3))
A[0, 1, :] = np.nan
A[2, 2, 1] = np.nan
A[3, :, 0] = np.nan


def _same(r, e):
    r = np.asarray(r)
    assert r.dtype == e.dtype and r.shape == e.shape, (r.dtype, e.dtype, r.shape, e.shape)
    np.testing.assert_allclose(r, e, rtol=1e-5)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex128])
def test_nanvar_nanstd(dt):
    x = A.astype(dt) * (1 + 1j if dt == np.complex128 else 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for name in ("nanvar", "nanstd"):
            for axis in (None, 0, -1, (0, 2)):
                for kw in ({}, {"ddof": 1}, {"keepdims": True}, {"correction": 2}):
                    _same(getattr(fnp, name)(x, axis=axis, **kw), getattr(np, name)(x, axis=axis, **kw))
            _same(getattr(fnp, name)(np.array([])), getattr(np, name)(np.array([])))
            _same(getattr(fnp, name)(np.arange(12).reshape(3, 4), axis=0),
                  getattr(np, name)(np.arange(12).reshape(3, 4), axis=0))
            mask = rng.random(A.shape) > 0.3
            _same(getattr(fnp, name)(x, axis=1, where=mask), getattr(np, name)(x, axis=1, where=mask))


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32])
def test_nancumulative(dt):
    x = A.astype(dt) if dt != np.int32 else np.arange(24, dtype=dt).reshape(2, 3, 4)
    for name in ("nancumsum", "nancumprod"):
        for axis in (None, 0, -1):
            _same(getattr(fnp, name)(x, axis=axis), getattr(np, name)(x, axis=axis))
        _same(getattr(fnp, name)(x, axis=1, dtype=np.float64), getattr(np, name)(x, axis=1, dtype=np.float64))


def test_nanarg():
    b = A[1:3]
    for name in ("nanargmax", "nanargmin"):
        for axis in (None, 0, -1):
            for keepdims in (False, True):
                r, e = getattr(fnp, name)(b, axis=axis, keepdims=keepdims), getattr(np, name)(b, axis=axis, keepdims=keepdims)
                np.testing.assert_array_equal(r, e)
                assert r.dtype == e.dtype
        np.testing.assert_array_equal(getattr(fnp, name)(np.arange(6), axis=-1), getattr(np, name)(np.arange(6)))
        with pytest.raises(ValueError, match="All-NaN slice"):
            getattr(fnp, name)(A, axis=-1)


def test_derivatives():
    y = rng.standard_normal((3, 4))
    y[0, 0] = np.nan
    check_grads(lambda v: fnp.nanvar(v, axis=1, ddof=1), (y,))
    check_grads(lambda v: fnp.nanstd(v, axis=0), (y,))
    check_grads(lambda v: fnp.nancumsum(v, axis=1), (y,))
    check_grads(lambda v: fnp.nancumprod(v, axis=0), (y,))
    g = fg.grad(lambda v: fnp.nansum(fnp.nanstd(v, axis=1)))(y)
    assert np.asarray(g)[0, 0] == 0  # the NaN's gradient
    np.testing.assert_array_equal(fg.grad(lambda v: fnp.nanstd(v))(np.ones(3)), np.zeros(3))
