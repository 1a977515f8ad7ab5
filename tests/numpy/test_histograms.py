"""histogram, histogram_bin_edges, histogram2d, histogramdd, bincount, digitize
(_histograms.py) against numpy; derivatives in weights, samples (density, edges) against
central differences."""

import numpy as np
import pytest

import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

rng = np.random.default_rng(0)
a = rng.standard_normal(50)
w = rng.random(50)
x, y = rng.standard_normal(30), rng.standard_normal(30)
s3 = rng.standard_normal((40, 3))


def _same(r, e):
    if isinstance(e, (tuple, list)):
        assert len(r) == len(e)
        for u, v in zip(r, e):
            _same(u, v)
        return
    r, e = np.asarray(r), np.asarray(e)
    assert r.shape == e.shape and r.dtype == e.dtype, (r.shape, e.shape, r.dtype, e.dtype)
    np.testing.assert_allclose(r, e, rtol=1e-12, atol=1e-12)


HIST_KW = [{}, {"bins": 5}, {"bins": [-1, 0, 0.5, 2]}, {"range": (-1, 1)}, {"weights": w},
           {"density": True}, {"weights": w, "density": True, "bins": 7}, {"bins": "auto"},
           {"bins": "fd", "range": (-2, 2)}, {"range": (np.float32(-1), np.float32(1))}]


@pytest.mark.parametrize("kw", HIST_KW)
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int64])
def test_histogram_matches_numpy(kw, dt):
    v = (a * 3).astype(dt)
    _same(fnp.histogram(v, **kw), np.histogram(v, **kw))
    if "weights" not in kw and "density" not in kw:
        _same(fnp.histogram_bin_edges(v, **kw), np.histogram_bin_edges(v, **kw))


def test_histogram_special_inputs():
    _same(fnp.histogram(np.array([])), np.histogram(np.array([])))
    _same(fnp.histogram(np.ones(4)), np.histogram(np.ones(4)))
    _same(fnp.histogram(np.float64(2.0)), np.histogram(np.float64(2.0)))
    _same(fnp.histogram(a.reshape(5, 10), weights=w.reshape(5, 10)), np.histogram(a.reshape(5, 10), weights=w.reshape(5, 10)))
    with pytest.raises(ValueError, match="same shape"):
        fnp.histogram(a, weights=w[:3])
    with pytest.raises(ValueError, match="monotonically"):
        fnp.histogram(a, bins=[0, 2, 1])
    with pytest.raises(ValueError, match="positive"):
        fnp.histogram(a, bins=0)
    with pytest.raises(ValueError, match="larger than min"):
        fnp.histogram(a, range=(1, 0))


@pytest.mark.parametrize("kw", [{}, {"bins": 4}, {"bins": [3, 5]}, {"weights": w[:30]}, {"density": True},
                                {"range": [(-1, 1), (-2, 2)]}, {"bins": np.linspace(-2, 2, 5)}])
def test_histogram2d_matches_numpy(kw):
    _same(fnp.histogram2d(x, y, **kw), np.histogram2d(x, y, **kw))


def test_histogramdd_matches_numpy():
    for kw in [{"bins": 3}, {"bins": (2, 3, 4), "density": True}, {"weights": w[:40]}]:
        _same(fnp.histogramdd(s3, **kw), np.histogramdd(s3, **kw))
    _same(fnp.histogramdd(a, bins=4), np.histogramdd(a, bins=4))
    _same(fnp.histogramdd([x, y], bins=(2, 3)), np.histogramdd([x, y], bins=(2, 3)))
    with pytest.raises(ValueError, match="dimension of bins"):
        fnp.histogramdd(s3, bins=(2, 3))


def test_bincount_and_digitize():
    for xs, kw in [([0, 1, 1, 3, 2, 1, 7], {}), ([0, 1, 1, 3], {"minlength": 7}),
                   ([0, 1, 1], {"weights": [0.5, 1, 2]}), (np.array([], int), {}),
                   (np.array([2, 0], np.int32), {"weights": np.array([1, 2], np.float32)}),
                   (np.array([True, False, True]), {})]:
        _same(fnp.bincount(xs, **kw), np.bincount(xs, **kw))
    with pytest.raises(ValueError, match="negative"):
        fnp.bincount([-1, 2])
    with pytest.raises(TypeError):
        fnp.bincount([1.5, 2])
    xs = np.array([0.2, 6.4, 3.0, 1.6, 1.0, -1, 10])
    for bins in ([0.0, 1, 2.5, 4, 10], [10, 4, 2.5, 1, 0.0]):
        for right in (False, True):
            _same(fnp.digitize(xs, bins, right), np.digitize(xs, bins, right))
    _same(fnp.digitize(np.arange(5), [1, 3]), np.digitize(np.arange(5), [1, 3]))
    with pytest.raises(ValueError, match="monotonically"):
        fnp.digitize(xs, [0, 2, 1])


def test_derivatives():
    check_grads(lambda ww: fnp.histogram(a, bins=6, weights=ww)[0], (w,))
    check_grads(lambda aa: fnp.histogram(aa, bins=6, density=True)[0], (a,))
    check_grads(lambda aa: fnp.histogram_bin_edges(aa, bins=6), (a,))
    check_grads(lambda lo: fnp.histogram(a, bins=4, range=(lo, 3.0), density=True)[0], (np.array(-3.0),))
    check_grads(lambda ww: fnp.histogram2d(x, y, bins=3, weights=ww)[0], (w[:30],))
    check_grads(lambda ww: fnp.histogramdd(s3, bins=2, weights=ww, density=True)[0], (w[:40],))
    check_grads(lambda ww: fnp.bincount([0, 1, 1, 3], ww), (w[:4],))
