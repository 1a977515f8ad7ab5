"""torch.quantile/nanquantile/nanmedian/cov/corrcoef/histogram (compat ops_stats.py) against numpy;
gradients by gradcheck in float64."""

import warnings

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat.autograd import gradcheck

nan = float("nan")
rng = np.random.default_rng(0)
MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _np(t):
    return t.detach().numpy()


def _t(a, grad=False):
    return torch.tensor(np.asarray(a, np.float64), requires_grad=grad)


def _nan_ref(f, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy: All-NaN slice
        return f(*a, **k)


@pytest.mark.parametrize("mode", MODES)
def test_quantile_matches_numpy(mode):
    a = rng.standard_normal((3, 5)).astype(np.float32)
    x = torch.tensor(a)
    q = np.array([0.0, 0.2, 0.5, 0.625, 1.0], np.float32)
    for dim in (None, 0, -1):
        ref = np.quantile(a, q, axis=dim, method=mode)
        r = torch.quantile(x, torch.tensor(q), dim=dim, interpolation=mode)
        assert r.dtype == torch.float32 and r.shape == ref.shape
        np.testing.assert_allclose(_np(r), ref, rtol=1e-5, atol=1e-6)
        r = x.quantile(0.3, dim, keepdim=True, interpolation=mode)
        np.testing.assert_allclose(_np(r), np.quantile(a, 0.3, axis=dim, method=mode, keepdims=True), rtol=1e-5, atol=1e-6)
    b = a.copy()
    b[0, 1] = b[2, 0] = nan
    b[1] = nan
    for dim in (None, 1):
        np.testing.assert_allclose(_np(torch.nanquantile(torch.tensor(b), torch.tensor(q), dim, interpolation=mode)),
                                   _nan_ref(np.nanquantile, b, q, axis=dim, method=mode), rtol=1e-5, atol=1e-6)
        r = _np(torch.quantile(torch.tensor(b), 0.5, dim, interpolation=mode))
        assert np.isnan(r).all()  # every slice holds a NaN


def test_quantile_shapes_and_errors():
    assert torch.quantile(torch.tensor(2.0), 0.5).shape == ()
    assert torch.quantile(torch.tensor(2.0), 0.5, 0, keepdim=True).shape == ()
    assert torch.quantile(torch.ones(2, 3), torch.tensor([0.1, 0.9]), None, keepdim=True).shape == (2, 1, 1)
    assert torch.quantile(torch.ones(2, 3), torch.tensor(0.5), 1).shape == (2,)
    for args, msg in (((torch.tensor([]), 0.5), "non-empty"), ((torch.ones(3), 1.5), r"range \[0, 1\]"),
                      ((torch.tensor([1, 2]), 0.5), "float or double"),
                      ((torch.ones(3), torch.tensor([0.5], dtype=torch.float64)), "same dtype"),
                      ((torch.ones(3), torch.ones(1, 1) * 0.5), "scalar or 1D")):
        with pytest.raises(RuntimeError, match=msg):
            torch.quantile(*args)
    with pytest.raises(RuntimeError, match="interpolation must be one of"):
        torch.quantile(torch.ones(3), 0.5, interpolation="cubic")


def test_quantile_grad():
    a = rng.standard_normal((3, 5))
    for mode in MODES:
        assert gradcheck(lambda v, m=mode: torch.quantile(v, _t([0.2, 0.5, 0.9]), 1, interpolation=m), (_t(a, True),))
    b = a.copy()
    b[0, 2] = nan
    x = _t(b, True)
    torch.nanquantile(x, 0.5, 1).sum().backward()
    g = _np(x.grad)
    assert g[0, 2] == 0 and np.allclose(g.sum(1), 1.0)


def test_nanmedian():
    a = np.array([[1.0, nan, 3.0, 0.5], [2.0, 4.0, 1.0, 3.0], [nan, nan, nan, nan]], np.float32)
    x = torch.tensor(a)
    v, i = torch.nanmedian(x, 1)
    # PyTorch's median is the lower of the two middle values
    ref = [1.0, 2.0, nan]
    np.testing.assert_array_equal(_np(v), ref)
    np.testing.assert_array_equal(_np(i)[:2], [0, 0])
    assert float(torch.nanmedian(x)) == 2.0
    assert np.isnan(float(torch.nanmedian(torch.tensor([]))))
    v, i = x.nanmedian(0, keepdim=True)
    assert v.shape == (1, 4) and i.dtype == torch.int64
    assert np.isnan(float(torch.nanmedian(torch.tensor([nan, nan]))))
    with pytest.raises(NotImplementedError):
        torch.nanmedian(torch.tensor([True]))
    g = _t(a[:2], True)
    torch.nanmedian(g, 1).values.sum().backward()
    np.testing.assert_array_equal(_np(g.grad), [[1, 0, 0, 0], [1, 0, 0, 0]])


def test_cov_corrcoef():
    a = rng.standard_normal((3, 6))
    fw, aw = np.array([1, 2, 1, 3, 1, 1]), rng.uniform(0.5, 2, 6)
    np.testing.assert_allclose(_np(torch.cov(_t(a))), np.cov(a))
    np.testing.assert_allclose(_np(torch.cov(_t(a), correction=0)), np.cov(a, ddof=0))
    np.testing.assert_allclose(_np(torch.cov(_t(a), fweights=torch.tensor(fw), aweights=_t(aw))),
                               np.cov(a, fweights=fw, aweights=aw))
    np.testing.assert_allclose(_np(torch.cov(_t(a), aweights=_t(aw), correction=2)), np.cov(a, aweights=aw, ddof=2))
    assert torch.cov(_t(a[0])).shape == () and torch.cov(_t(a[:1])).shape == ()
    np.testing.assert_allclose(float(torch.cov(_t(a[0]))), np.cov(a[0]))
    assert torch.cov(torch.tensor([[1, 2, 4]])).dtype == torch.float32
    np.testing.assert_allclose(_np(torch.corrcoef(_t(a))), np.corrcoef(a))
    assert float(torch.corrcoef(_t(a[0]))) == 1.0
    with pytest.raises(RuntimeError, match="two or fewer dimensions"):
        torch.cov(torch.ones(2, 2, 2))
    with pytest.raises(RuntimeError, match="integral dtype"):
        torch.cov(_t(a), fweights=_t(fw))
    assert gradcheck(torch.cov, (_t(a, True),))
    assert gradcheck(lambda v, w: torch.cov(v, aweights=w), (_t(a, True), _t(aw, True)))
    assert gradcheck(torch.corrcoef, (_t(a, True),))


def test_histogram():
    a = rng.standard_normal(30).astype(np.float32)
    h, e = torch.histogram(torch.tensor(a), 5)
    rh, re_ = np.histogram(a, 5)
    np.testing.assert_array_equal(_np(h), rh)
    np.testing.assert_allclose(_np(e), re_, rtol=1e-5, atol=1e-6)
    assert h.dtype == torch.float32
    w = rng.uniform(size=30).astype(np.float32)
    edges = np.array([-2.0, -0.5, 0.0, 3.0], np.float32)
    h, e = torch.tensor(a).histogram(torch.tensor(edges), weight=torch.tensor(w), density=True)
    np.testing.assert_allclose(_np(h), np.histogram(a, edges, weights=w, density=True)[0], rtol=1e-5)
    h, _ = torch.histogram(torch.tensor(a), 4, range=(-1.0, 1.0))
    np.testing.assert_array_equal(_np(h), np.histogram(a, 4, range=(-1.0, 1.0))[0])
    r = torch.histogram(torch.tensor([1.0, 2.0]), 2)
    assert repr(r).startswith("torch.return_types.histogram(") and r.hist is r[0]
    with pytest.raises(NotImplementedError, match="'Long'"):
        torch.histogram(torch.tensor([1, 2]), 2)
    with pytest.raises(RuntimeError, match="not finite"):
        torch.histogram(torch.tensor([1.0, nan]), 2)


def test_standin_device():
    """Nothing here computes with numpy on tensor data: the strict stand-in device refuses it."""
    d = "standin"
    x = torch.tensor([[1.0, nan, 3.0, 0.5], [2.0, 4.0, 1.0, 3.0]], device=d, requires_grad=True)
    r = torch.nanquantile(x, torch.tensor([0.25, 0.5], device=d), 1)
    r.sum().backward()
    assert r.device == x.grad.device == torch.device("standin:0")
    assert torch.nanmedian(x, 1).indices.device == torch.device("standin:0")
    c = torch.tensor(rng.standard_normal((3, 5)), device=d, requires_grad=True)
    torch.corrcoef(c).sum().backward()
    w = torch.tensor([1, 2, 1, 1, 1], device=d)
    assert torch.cov(c, fweights=w, aweights=torch.rand(5, dtype=torch.float64).to(d)).device == torch.device("standin:0")
    assert torch.histogram(c.detach().reshape(-1), 3).hist.device == torch.device("standin:0")
