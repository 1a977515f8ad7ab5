"""quantile, percentile, nanquantile, nanpercentile, nanmedian (_quantiles.py): values, shapes
and dtypes against numpy for every method; derivatives in a and q against central differences."""

import warnings

import numpy as np
import pytest

import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

rng = np.random.default_rng(0)
A = rng.standard_normal((4, 5, 3))
METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
           "hazen", "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher",
           "midpoint", "nearest"]


def _close(r, e, dt):
    r = np.asarray(r)
    assert r.shape == e.shape and r.dtype == e.dtype, (r.shape, e.shape, r.dtype, e.dtype)
    tol = 1e-5 if dt == np.float32 else 1e-12
    np.testing.assert_allclose(r, e, rtol=tol, atol=tol)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int64])
def test_quantile_matches_numpy(method, dt):
    x = (A * 10).astype(dt)
    for q in (0.3, [0.0, 0.25, 0.5, 1.0], np.float32(0.7), np.array([[0.1], [0.9]])):
        for axis in (None, 1, -1, (0, 2)):
            for keepdims in (False, True):
                kw = dict(axis=axis, method=method, keepdims=keepdims)
                _close(fnp.quantile(x, q, **kw), np.quantile(x, q, **kw), dt)
    _close(fnp.percentile(x, [10, 50, 95], axis=0, method=method),
           np.percentile(x, [10, 50, 95], axis=0, method=method), dt)


@pytest.mark.parametrize("method", METHODS)
def test_nan_quantiles_match_numpy(method):
    x = A.copy()
    x[0, 0, :] = np.nan  # an all-NaN slice along the last axis
    x[1, 2, 1] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for axis in (None, 1, -1, (0, 1)):
            kw = dict(axis=axis, method=method)
            _close(fnp.nanquantile(x, [0.2, 0.9], **kw), np.nanquantile(x, [0.2, 0.9], **kw), np.float64)
            _close(fnp.quantile(x, [0.2, 0.9], **kw), np.quantile(x, [0.2, 0.9], **kw), np.float64)
            _close(fnp.nanpercentile(x, 40, **kw), np.nanpercentile(x, 40, **kw), np.float64)
        for axis in (None, 0, -1):
            _close(fnp.nanmedian(x, axis=axis), np.nanmedian(x, axis=axis), np.float64)
            _close(fnp.nanmedian(x, axis=axis, keepdims=True), np.nanmedian(x, axis=axis, keepdims=True),
                   np.float64)


def test_weighted_inverted_cdf():
    w = rng.random(5)
    _close(fnp.quantile(A, [0.1, 0.5], axis=1, method="inverted_cdf", weights=w),
           np.quantile(A, [0.1, 0.5], axis=1, method="inverted_cdf", weights=w), np.float64)
    W = rng.random(A.shape)
    _close(fnp.quantile(A, 0.4, method="inverted_cdf", weights=W),
           np.quantile(A, 0.4, method="inverted_cdf", weights=W), np.float64)
    with pytest.raises(ValueError, match="inverted_cdf"):
        fnp.quantile(A, 0.4, method="linear", weights=W)


def test_zero_d_and_errors():
    _close(fnp.quantile(5.0, 0.5), np.quantile(5.0, 0.5), np.float64)
    _close(fnp.median(np.float32(2.0)), np.median(np.float32(2.0)), np.float32)
    with pytest.raises(ValueError, match=r"range \[0, 1\]"):
        fnp.quantile(A, 1.5)
    with pytest.raises(ValueError, match=r"range \[0, 100\]"):
        fnp.percentile(A, -1)
    with pytest.raises(ValueError, match="not a valid method"):
        fnp.quantile(A, 0.5, method="bogus")
    with pytest.raises(np.exceptions.AxisError):
        fnp.quantile(A, 0.5, axis=3)


def test_derivatives():
    check_grads(lambda v: fnp.quantile(v, [0.3, 0.75], axis=1), (A,))
    check_grads(lambda v: fnp.percentile(v, 33.0, axis=(0, 2), method="median_unbiased"), (A,))
    check_grads(lambda q: fnp.quantile(A, q, axis=1, method="hazen"), (np.array([0.33, 0.61]),))
    x = A.copy()
    x[1, 2, 1] = x[0, 0, 0] = np.nan
    check_grads(lambda v: fnp.nanquantile(v, 0.4, axis=-1), (x,))
    check_grads(lambda v: fnp.nanmedian(v, axis=0), (x,))
