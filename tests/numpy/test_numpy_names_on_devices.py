"""The functions of the coverage work (quantiles, nan-functions, polynomials, histograms, set
operations, index tricks, windows, functional helpers, conversions, Array-API names) on every
backend: on the default device (the ``device`` fixture: cpu, the strict stand-in, cuda if
present) and on arrays placed on the stand-in explicitly, the results stay on the inputs'
device and equal the CPU results."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

rng = np.random.default_rng(0)
A = rng.standard_normal((4, 5))
V = rng.standard_normal(6)
W = rng.random(6)
P = np.array([3.0, -2, 0.5, 1])

CASES = {
    "quantile": lambda a, v, w, p: fnp.quantile(a, [0.2, 0.7], axis=1),
    "quantile_weights": lambda a, v, w, p: fnp.quantile(v, 0.3, method="inverted_cdf", weights=w),
    "nanquantile": lambda a, v, w, p: fnp.nanquantile(a, 0.2, axis=0),
    "nanmedian": lambda a, v, w, p: fnp.nanmedian(a),
    "percentile_lower": lambda a, v, w, p: fnp.percentile(a, 30, method="lower"),
    "nanvar": lambda a, v, w, p: fnp.nanvar(a, axis=0),
    "nanstd": lambda a, v, w, p: fnp.nanstd(a),
    "nanargmax": lambda a, v, w, p: fnp.nanargmax(a, axis=1),
    "nancumprod": lambda a, v, w, p: fnp.nancumprod(a, axis=1),
    "polyval": lambda a, v, w, p: fnp.polyval(p, a),
    "polydiv": lambda a, v, w, p: fnp.polydiv(p, p[:2]),
    "polyfit": lambda a, v, w, p: fnp.polyfit(v, w, 2),
    "polyint": lambda a, v, w, p: fnp.polyint(p, 2),
    "polyder": lambda a, v, w, p: fnp.polyder(p),
    "polyadd": lambda a, v, w, p: fnp.polyadd(p, p[:2]),
    "roots": lambda a, v, w, p: fnp.roots(p),
    "poly": lambda a, v, w, p: fnp.poly(v),
    "vander": lambda a, v, w, p: fnp.vander(v, 3),
    "histogram": lambda a, v, w, p: fnp.histogram(v, bins=3, weights=w, density=True),
    "histogram_counts": lambda a, v, w, p: fnp.histogram(v),
    "histogram2d": lambda a, v, w, p: fnp.histogram2d(v, w, bins=2),
    "bincount": lambda a, v, w, p: fnp.bincount(fnp.astype(fnp.abs(v) * 2, np.int64), w),
    "digitize": lambda a, v, w, p: fnp.digitize(v, fnp.sort(p)),
    "union1d": lambda a, v, w, p: fnp.union1d(v, w),
    "setxor1d": lambda a, v, w, p: fnp.setxor1d(v, v[:3]),
    "isin": lambda a, v, w, p: fnp.isin(v, v[:2]),
    "r_": lambda a, v, w, p: fnp.r_[v, 0.0, v],
    "c_": lambda a, v, w, p: fnp.c_[v, w],
    "kaiser": lambda a, v, w, p: fnp.kaiser(5, p[0]),
    "geomspace": lambda a, v, w, p: fnp.geomspace(w[0], w[1], 4),
    "block": lambda a, v, w, p: fnp.block([[a, a]]),
    "trim_zeros": lambda a, v, w, p: fnp.trim_zeros(p * 0),
    "piecewise": lambda a, v, w, p: fnp.piecewise(v, [v < 0], [lambda t: -t, 1.0]),
    "vectorize": lambda a, v, w, p: fnp.vectorize(lambda t: t * 2 if t > 0 else t)(v),
    "matvec": lambda a, v, w, p: fnp.matvec(a, a[0]),
    "fill_diagonal": lambda a, v, w, p: fnp.fill_diagonal(a, p, wrap=True, inplace=False),
    "putmask": lambda a, v, w, p: fnp.putmask(v, v > 0, w, inplace=False),
    "fromiter": lambda a, v, w, p: fnp.fromiter(iter([v[0], v[1]]), float),
    "asarray_of_arrays": lambda a, v, w, p: fnp.asarray([v, w]),
    "grad_quantile": lambda a, v, w, p: fg.grad(lambda x: fnp.sum(fnp.quantile(x, 0.3, axis=1)))(a),
    "grad_histogram": lambda a, v, w, p: fg.grad(lambda x: fnp.sum(fnp.histogram(v, bins=3, weights=x)[0]))(w),
    "grad_polyfit": lambda a, v, w, p: fg.grad(lambda y: fnp.sum(fnp.polyfit(v, y, 2)))(w),
}


def _leaves(r):
    return [x for x in (r if isinstance(r, (tuple, list)) else [r]) for x in (x if isinstance(x, list) else [x])]


def _check(name, place, device_name):
    want = _leaves(CASES[name](A, V, W, P))
    got = _leaves(CASES[name](*(place(x) for x in (A, V, W, P))))
    assert len(got) == len(want)
    for g, e in zip(got, want):
        assert str(g.device) == device_name, (name, g.device)
        np.testing.assert_allclose(fg.device_put(g, "cpu"), fg.device_put(e, "cpu"), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_on_the_default_device(name, device):
    _check(name, fnp.asarray, str(fg.asarray(0.0).device))


@pytest.mark.parametrize("name", sorted(CASES))
def test_on_explicitly_placed_arrays(name):
    _check(name, lambda x: fg.device_put(x, "standin"), "standin:0")
