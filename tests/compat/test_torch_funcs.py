"""torch.nan_to_num/diff/logcumsumexp/cummax/cummin/searchsorted/bucketize/trapezoid/aminmax/bernoulli/cdist/
block_diag/cartesian_prod/rot90/vander/atleast_Nd/tensor_split against numpy references."""

import itertools

import numpy as np
import pytest

import funcgrad.compat as torch

nan, inf = float("nan"), float("inf")


def _np(t):
    return t.detach().numpy()


def _grad(f, x):
    t = torch.tensor(x, requires_grad=True)
    f(t).backward()
    return _np(t.grad)


def _num_grad(f, x, eps=1e-6):
    x = np.asarray(x, np.float64)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


def test_nan_to_num():
    x = torch.tensor([nan, inf, -inf, 1.5])
    np.testing.assert_array_equal(_np(torch.nan_to_num(x)), np.nan_to_num(np.array([nan, inf, -inf, 1.5], np.float32)))
    np.testing.assert_array_equal(_np(x.nan_to_num(nan=1.0, posinf=2.0, neginf=-3.0)), [1.0, 2.0, -3.0, 1.5])
    assert torch.nan_to_num(torch.tensor([1, 2])).dtype == torch.int64
    y = torch.tensor([nan, 2.0], dtype=torch.float64)
    y.nan_to_num_(nan=7.0)
    np.testing.assert_array_equal(_np(y), [7.0, 2.0])
    np.testing.assert_array_equal(_grad(lambda t: (torch.nan_to_num(t) * 0.5).sum(), [nan, inf, 1.0]), [0, 0, 0.5])
    assert torch.nan_to_num(torch.tensor(nan)).item() == 0.0


@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("dim", [0, -1])
def test_diff(n, dim):
    a = np.array([[1.0, 4, 9, 16], [2, 3, 5, 8], [0, 1, 0, 1]])
    np.testing.assert_allclose(_np(torch.diff(torch.tensor(a), n=n, dim=dim)), np.diff(a, n=n, axis=dim))
    pre, app = np.zeros((3, 4)), np.ones((3, 4))
    r = torch.diff(torch.tensor(a), n=n, dim=dim, prepend=torch.tensor(pre), append=torch.tensor(app))
    np.testing.assert_allclose(_np(r), np.diff(a, n=n, axis=dim, prepend=pre, append=app))


def test_diff_dtypes_and_grad():
    np.testing.assert_array_equal(_np(torch.diff(torch.tensor([True, False, False]))), [True, False])
    assert torch.diff(torch.tensor([1, 5, 2])).tolist() == [4, -3]
    assert torch.diff(torch.zeros(0)).shape == (0,)
    assert torch.diff(torch.tensor([1.0, 2.0]), prepend=torch.tensor(0.0)).tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="at least one-dimensional"):
        torch.diff(torch.tensor(1.0))
    x = [1.0, 4.0, 9.0, 16.0, 3.0]
    w = np.arange(3.0)
    np.testing.assert_allclose(_grad(lambda t: (torch.diff(t, n=2) * torch.tensor(w)).sum(), x),
                               _num_grad(lambda v: (np.diff(v, n=2) * w).sum(), x), atol=1e-6)


def test_logcumsumexp():
    a = np.array([-1000.0, 0.0, 1000.0, 3.0, -inf, 2.0, 5.0])
    ref = np.logaddexp.accumulate(a)
    np.testing.assert_allclose(_np(torch.logcumsumexp(torch.tensor(a), 0)), ref, rtol=1e-12)
    b = np.random.default_rng(0).normal(size=(3, 5))
    np.testing.assert_allclose(_np(torch.logcumsumexp(torch.tensor(b), -1)), np.logaddexp.accumulate(b, axis=-1),
                               rtol=1e-12)
    np.testing.assert_allclose(_np(torch.tensor(b).logcumsumexp(0)), np.logaddexp.accumulate(b, axis=0), rtol=1e-12)
    assert torch.logcumsumexp(torch.zeros(0), 0).shape == (0,)
    with pytest.raises(NotImplementedError):
        torch.logcumsumexp(torch.tensor([1, 2]), 0)
    x = [0.5, -1.0, 2.0, 0.0]
    w = np.arange(1.0, 5.0)
    np.testing.assert_allclose(_grad(lambda t: (torch.logcumsumexp(t, 0) * torch.tensor(w)).sum(), x),
                               _num_grad(lambda v: (np.logaddexp.accumulate(v) * w).sum(), x), rtol=1e-6)


def _np_cumext(a, axis, better):
    """Reference values and indices (the last index of the running extreme; NaN sticks) by a loop."""
    a = np.moveaxis(np.asarray(a), axis, -1)
    vals, idx = np.empty_like(a), np.empty(a.shape, np.int64)
    for pos in np.ndindex(a.shape[:-1]):
        best, bi = None, 0
        for j, v in enumerate(a[pos]):
            if best is None or np.isnan(v) or (not np.isnan(best) and better(v, best)):
                best, bi = v, j
            vals[pos + (j,)], idx[pos + (j,)] = best, bi
    return np.moveaxis(vals, -1, axis), np.moveaxis(idx, -1, axis)


@pytest.mark.parametrize("name,better", [("cummax", np.greater_equal), ("cummin", np.less_equal)])
@pytest.mark.parametrize("data", [[1.0, 3.0, 3.0, 2.0, nan, 5.0, nan], [[3, 1, 1, 2], [0, 5, -1, -1]],
                                  [[True, False], [True, True]]])
@pytest.mark.parametrize("dim", [0, -1])
def test_cummax_cummin(name, better, data, dim):
    a = np.array(data)
    if a.ndim == 1 and dim != 0:
        return
    r = getattr(torch, name)(torch.tensor(data), dim)
    v, i = _np_cumext(a, dim, better)
    np.testing.assert_array_equal(_np(r.values), v)
    np.testing.assert_array_equal(_np(r.indices), i)
    assert r.values.dtype == torch.tensor(data).dtype and r.indices.dtype == torch.int64


def test_cummax_grad_and_edges():
    np.testing.assert_array_equal(_grad(lambda t: (torch.cummax(t, 0)[0] * torch.arange(5.0)).sum(),
                                        [1.0, 3.0, 3.0, 2.0, 5.0]), [0, 1, 5, 0, 4])
    r = torch.cummin(torch.tensor(2.0), 0)
    assert r.values.item() == 2.0 and r.indices.item() == 0
    assert torch.cummax(torch.zeros(2, 0), 1).indices.shape == (2, 0)


def test_searchsorted_bucketize():
    s = np.array([1, 3, 5, 7])
    v = np.array([[3, 6], [9, 0]])
    for right in (False, True):
        side = "right" if right else "left"
        np.testing.assert_array_equal(_np(torch.searchsorted(torch.tensor(s), torch.tensor(v), right=right)),
                                      np.searchsorted(s, v, side=side))
        np.testing.assert_array_equal(_np(torch.bucketize(torch.tensor(v), torch.tensor(s), right=right)),
                                      np.searchsorted(s, v, side=side))
    s2 = np.array([[1, 3, 5], [2, 4, 6]])
    r = torch.searchsorted(torch.tensor(s2), torch.tensor([[3], [5]]), side="right", out_int32=True)
    assert r.dtype == torch.int32 and r.tolist() == [[2], [2]]
    assert torch.searchsorted(torch.tensor([1.0, 3.0]), 3.0).item() == 1
    order = torch.tensor([1, 2, 0])
    assert torch.searchsorted(torch.tensor([5, 1, 3]), torch.tensor([2, 4]), sorter=order).tolist() == [1, 2]
    with pytest.raises(RuntimeError, match="first N-1 dimensions"):
        torch.searchsorted(torch.tensor(s2), torch.tensor([1, 2]))
    with pytest.raises(RuntimeError, match="opposites"):
        torch.searchsorted(torch.tensor(s), torch.tensor([1]), right=True, side="left")


def test_trapezoid():
    y = np.array([[1.0, 2, 4], [4, 5, 7]])
    np.testing.assert_allclose(_np(torch.trapezoid(torch.tensor(y))), np.trapezoid(y))
    np.testing.assert_allclose(_np(torch.trapezoid(torch.tensor(y), dx=0.5, dim=0)), np.trapezoid(y, dx=0.5, axis=0))
    x = np.array([0.0, 1, 3])
    np.testing.assert_allclose(_np(torch.trapezoid(torch.tensor(y), torch.tensor(x))), np.trapezoid(y, x))
    x0 = np.array([0.0, 2])
    np.testing.assert_allclose(_np(torch.trapezoid(torch.tensor(y), torch.tensor(x0), dim=0)),
                               np.trapezoid(y, x0, axis=0))
    assert torch.trapezoid(torch.tensor([1, 2, 3])).item() == 4.0
    assert torch.trapz(torch.tensor([1.0, 2, 3]), dx=2.0).item() == 8.0
    np.testing.assert_allclose(_grad(lambda t: torch.trapezoid(t * t), [1.0, 3.0, 2.0]), [1.0, 6.0, 2.0])


def test_aminmax():
    a = np.array([[1, 5], [3, 2]])
    r = torch.aminmax(torch.tensor(a), dim=1)
    assert r.min.tolist() == [1, 2] and r.max.tolist() == [5, 3]
    r = torch.tensor(a.astype(float)).aminmax(dim=-1, keepdim=True)
    assert r[0].shape == (2, 1)
    r = torch.aminmax(torch.tensor(a))
    assert (r.min.item(), r.max.item()) == (1, 5)
    with pytest.raises(RuntimeError):
        torch.aminmax(torch.zeros(0))
    def f(t):
        m = torch.aminmax(t)
        return m.max * 2 + m.min
    np.testing.assert_array_equal(_grad(f, [[1.0, 3.0], [0.0, 2.0]]), [[0, 2], [1, 0]])


def test_bernoulli():
    torch.manual_seed(0)
    p = torch.tensor([0.0, 1.0, 0.0, 1.0])
    assert torch.bernoulli(p).tolist() == [0.0, 1.0, 0.0, 1.0]
    draws = torch.bernoulli(torch.full((4000,), 0.3))
    assert abs(draws.mean().item() - 0.3) < 0.04
    assert set(np.unique(_np(torch.bernoulli(torch.zeros(50), 0.5))).tolist()) <= {0.0, 1.0}
    g = torch.Generator().manual_seed(3)
    a = torch.bernoulli(torch.full((20,), 0.5), generator=g)
    g.manual_seed(3)
    assert torch.equal(a, torch.bernoulli(torch.full((20,), 0.5), generator=g))
    y = torch.zeros(2, 3, dtype=torch.int64)
    y.bernoulli_(torch.tensor([0.0, 1.0, 1.0]))
    assert y.tolist() == [[0, 1, 1], [0, 1, 1]] and y.dtype == torch.int64
    z = torch.zeros(3000).bernoulli_(0.8)
    assert abs(z.mean().item() - 0.8) < 0.04
    q = torch.tensor([0.2, 0.7], requires_grad=True)
    b = torch.bernoulli(q)
    assert b.grad_fn.name() == "BernoulliBackward0"
    b.sum().backward()
    assert q.grad.tolist() == [0.0, 0.0]
    with pytest.raises(RuntimeError):
        torch.bernoulli(torch.tensor([1.5]))
    with pytest.raises(NotImplementedError):
        torch.bernoulli(torch.tensor([1, 0]))


def _np_cdist(a, b, p):
    d = np.abs(a[..., :, None, :] - b[..., None, :, :])
    if p == 0:
        return (d != 0).sum(-1).astype(a.dtype)
    if p == inf:
        return d.max(-1)
    return (d ** p).sum(-1) ** (1 / p)


@pytest.mark.parametrize("p", [0, 1, 2, 3.0, inf])
def test_cdist(p):
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 5, 4))
    np.testing.assert_allclose(_np(torch.cdist(torch.tensor(a), torch.tensor(b), p=p)), _np_cdist(a, b, p),
                               rtol=1e-10)
    if p not in (0, inf):
        x = rng.normal(size=(3, 2))
        np.testing.assert_allclose(_grad(lambda t: torch.cdist(t, t[:2] * 2, p=p).sum(), x),
                                   _num_grad(lambda v: _np_cdist(v, v[:2] * 2, p).sum(), x), rtol=1e-5, atol=1e-7)


def test_cdist_zero_distance_grad_and_errors():
    x = torch.tensor([[0.0, 0.0], [1.0, 1.0]], requires_grad=True)
    torch.cdist(x, x).sum().backward()
    assert np.isfinite(_np(x.grad)).all()
    np.testing.assert_allclose(_np(x.grad), [[-2 ** -0.5 * 2] * 2, [2 ** -0.5 * 2] * 2])
    with pytest.raises(RuntimeError, match="same number of columns"):
        torch.cdist(torch.ones(2, 3), torch.ones(2, 2))
    with pytest.raises(RuntimeError, match="at least 2D"):
        torch.cdist(torch.ones(3), torch.ones(2, 3))


def test_block_diag_cartesian_prod():
    r = torch.block_diag(torch.tensor(1), torch.tensor([2, 3.0]), torch.ones(2, 1, dtype=torch.int32))
    ref = np.zeros((4, 4))
    ref[0, 0], ref[1, 1:3], ref[2:, 3] = 1, [2, 3], 1
    np.testing.assert_array_equal(_np(r), ref)
    assert r.dtype == torch.float32
    assert torch.block_diag(torch.tensor([[1, 2]]), torch.zeros(0, 2, dtype=torch.int64)).shape == (1, 4)
    with pytest.raises(RuntimeError, match="2 or fewer dimensions"):
        torch.block_diag(torch.ones(1, 1, 1))
    a, b = [1, 2], [3, 4, 5]
    np.testing.assert_array_equal(_np(torch.cartesian_prod(torch.tensor(a), torch.tensor(b))),
                                  list(itertools.product(a, b)))
    np.testing.assert_array_equal(_np(torch.cartesian_prod(torch.tensor(a))), a)
    g = _grad(lambda t: (torch.block_diag(t, t[0] * 2) * torch.arange(16.0).reshape(4, 4)).sum(),
              [[1.0, 3.0], [0.0, 2.0], [1.0, 1.0]])
    w = np.arange(16.0).reshape(4, 4)
    np.testing.assert_allclose(g, w[:3, :2] + np.vstack([2 * w[3, 2:], np.zeros((2, 2))]))


@pytest.mark.parametrize("k", [-3, -1, 0, 1, 2, 5])
@pytest.mark.parametrize("dims", [(0, 1), (2, 0), (-1, -2)])
def test_rot90(k, dims):
    a = np.arange(24).reshape(2, 3, 4)
    np.testing.assert_array_equal(_np(torch.rot90(torch.tensor(a), k, dims)), np.rot90(a, k, dims))
    np.testing.assert_array_equal(_np(torch.tensor(a).rot90(k, dims)), np.rot90(a, k, dims))


def test_rot90_errors_and_grad():
    with pytest.raises(RuntimeError, match="total dims >= 2"):
        torch.rot90(torch.ones(3))
    with pytest.raises(RuntimeError, match="different"):
        torch.rot90(torch.ones(2, 2), 1, [0, -2])
    w = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(_grad(lambda t: (torch.rot90(t) * torch.tensor(w)).sum(), np.ones((3, 2))),
                                  np.rot90(w, -1))


def test_vander():
    x = np.array([1, 2, 3])
    np.testing.assert_array_equal(_np(torch.vander(torch.tensor(x))), np.vander(x))
    assert torch.vander(torch.tensor(x, dtype=torch.int32)).dtype == torch.int64
    assert torch.vander(torch.tensor([True, False])).dtype == torch.int64
    np.testing.assert_allclose(_np(torch.vander(torch.tensor([1.5, -2.0]), N=4, increasing=True)),
                               np.vander([1.5, -2.0], 4, increasing=True))
    assert torch.vander(torch.tensor([1.0, 2.0]), N=0).shape == (2, 0)
    np.testing.assert_array_equal(_np(torch.vander(torch.tensor([1.0, 2.0]), N=1)), [[1.0], [1.0]])
    w = np.arange(8.0).reshape(2, 4)
    np.testing.assert_allclose(_grad(lambda t: (torch.vander(t, 4) * torch.tensor(w)).sum(), [1.5, -2.0]),
                               _num_grad(lambda v: (np.vander(v, 4) * w).sum(), [1.5, -2.0]), rtol=1e-6)


def test_atleast():
    for nd, fn in ((1, np.atleast_1d), (2, np.atleast_2d), (3, np.atleast_3d)):
        f = getattr(torch, f"atleast_{nd}d")
        for shape in [(), (4,), (2, 3), (2, 3, 4, 1)]:
            a = np.arange(int(np.prod(shape))).reshape(shape)
            assert f(torch.tensor(a)).shape == fn(a).shape
        r = f(torch.tensor(1.0), torch.ones(2))
        assert isinstance(r, tuple) and [t.shape for t in r] == [fn(np.ones(())).shape, fn(np.ones(2)).shape]
        assert isinstance(f([torch.tensor(1.0)]), tuple)
    x = torch.ones(3)
    v = torch.atleast_2d(x)
    v[0, 0] = 5.0
    assert x[0].item() == 5.0  # a view, as in PyTorch


@pytest.mark.parametrize("spec", [3, 1, 7, 10, [1, 5], [5, 1, -1, 10], [], [0, 0]])
def test_tensor_split(spec):
    a = np.arange(14).reshape(7, 2)
    got = torch.tensor_split(torch.tensor(a), spec)
    ref = np.array_split(a, spec)
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        np.testing.assert_array_equal(_np(g), r)
    got = torch.tensor(a.T).tensor_split(torch.tensor(spec) if isinstance(spec, list) and spec else spec, dim=-1)
    for g, r in zip(got, np.array_split(a.T, spec, axis=-1)):
        np.testing.assert_array_equal(_np(g), r)


def test_tensor_split_errors_and_grad():
    with pytest.raises(RuntimeError, match="at least a 1-dimensional"):
        torch.tensor_split(torch.tensor(1.0), 2)
    with pytest.raises(RuntimeError, match="larger than 0"):
        torch.tensor_split(torch.ones(3), 0)
    g = _grad(lambda t: sum((p * (i + 1)).sum() for i, p in enumerate(torch.tensor_split(t, 3))), [1.0] * 5)
    np.testing.assert_array_equal(g, [1, 1, 2, 2, 3])


# ---- gradient -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_matches_numpy(edge_order):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 4, 5))
    coords = np.cumsum(rng.uniform(0.5, 2.0, 4))
    for spacing, np_spacing in [(1, ()), (2.5, (2.5,)), ([1.0, 2.0, 0.5], (1.0, 2.0, 0.5))]:
        got = torch.gradient(torch.tensor(a), spacing=spacing, edge_order=edge_order)
        want = np.gradient(a, *np_spacing, edge_order=edge_order)
        assert len(got) == 3
        for g, w in zip(got, want):
            np.testing.assert_allclose(_np(g), w, rtol=1e-12, atol=1e-12)
    (g,) = torch.gradient(torch.tensor(a), spacing=[torch.tensor(coords)], dim=-2, edge_order=edge_order)
    np.testing.assert_allclose(_np(g), np.gradient(a, coords, axis=1, edge_order=edge_order), rtol=1e-12)
    g0, g2 = torch.gradient(torch.tensor(a), dim=[0, 2], edge_order=edge_order)
    np.testing.assert_allclose(_np(g2), np.gradient(a, axis=2, edge_order=edge_order), rtol=1e-12)


def test_gradient_dtypes_edges_and_errors():
    (g,) = torch.gradient(torch.tensor([1, 4, 9, 16, 25]))  # integers: the default float dtype
    assert g.dtype == torch.float32 and g.tolist() == [3.0, 4.0, 6.0, 8.0, 9.0]
    assert torch.gradient(torch.tensor(3.0)) == ()
    with pytest.raises(RuntimeError, match="at least edge_order\\+1"):
        torch.gradient(torch.tensor([1.0, 2.0]), edge_order=2)
    with pytest.raises(RuntimeError, match="list of length 2"):
        torch.gradient(torch.tensor([1.0, 3.0, 7.0]), spacing=[1.0, 2.0])
    with pytest.raises(RuntimeError, match="edge_order=1 and edge_order=2"):
        torch.gradient(torch.tensor([1.0, 3.0, 7.0]), edge_order=3)


def test_gradient_is_differentiable():
    x = torch.tensor(np.random.default_rng(4).standard_normal((4, 5)), requires_grad=True)
    c = torch.tensor([0.0, 0.5, 2.0, 2.5, 4.0])
    assert torch.autograd.gradcheck(lambda t: torch.gradient(t, spacing=[c], dim=1, edge_order=2)[0], (x,))
    assert torch.autograd.gradcheck(lambda t: torch.gradient(t, spacing=0.3)[0], (x,))
