"""torch.tile/repeat_interleave/tensordot/broadcast_*/unflatten/flips/splits/stacks/diagflat/tri*_indices/
unravel_index/unique_consecutive/msort/scatter_reduce/index_copy/index_reduce/*_scatter/as_strided/
chain_matmul/combinations/matrix_exp/pdist/poisson against numpy references; gradients by gradcheck (float64)."""

import itertools
import warnings

import numpy as np
import pytest
import scipy.linalg

import funcgrad.compat as torch

R = np.random.RandomState(0)


def _np(t):
    return t.detach().numpy()


def _t(a, grad=False):
    return torch.tensor(np.asarray(a, np.float64), requires_grad=grad)


def _gc(f, *arrays):
    assert torch.autograd.gradcheck(f, tuple(_t(a, True) for a in arrays))


def test_tile():
    m = R.randn(3, 4)
    np.testing.assert_array_equal(_np(torch.tile(_t(m), (2,))), np.tile(m, (2,)))
    np.testing.assert_array_equal(_np(_t(m).tile(2, 1, 2)), np.tile(m, (2, 1, 2)))
    np.testing.assert_array_equal(_np(torch.tile(_t(2.0), (3,))), np.tile(2.0, 3))
    assert torch.tile(torch.zeros(0, 2), (2, 2)).shape == (0, 4)
    assert torch.ones(2, 3).tile(0, 1).shape == (0, 3)
    with pytest.raises(RuntimeError, match="negative dimension"):
        torch.tile(torch.ones(2), (-1,))
    _gc(lambda x: torch.tile(x, (2, 3)), m)


def test_repeat_interleave():
    m = R.randn(3, 4)
    np.testing.assert_array_equal(_np(torch.repeat_interleave(_t(m), 2)), np.repeat(m, 2))
    r = torch.tensor([1, 0, 2])
    np.testing.assert_array_equal(_np(torch.repeat_interleave(_t(m), r, dim=0)), np.repeat(m, [1, 0, 2], 0))
    np.testing.assert_array_equal(_np(_t(m).repeat_interleave(3, dim=-1, output_size=12)), np.repeat(m, 3, -1))
    np.testing.assert_array_equal(_np(torch.repeat_interleave(torch.tensor([2, 0, 3]))), [0, 0, 2, 2, 2])
    np.testing.assert_array_equal(_np(torch.repeat_interleave(_t(1.5), 3)), [1.5] * 3)
    with pytest.raises(RuntimeError, match="output_size"):
        _t(m).repeat_interleave(3, dim=-1, output_size=11)
    with pytest.raises(RuntimeError, match="same size"):
        torch.repeat_interleave(_t(m), torch.tensor([1, 2]), dim=0)
    with pytest.raises(RuntimeError, match="negative"):
        torch.repeat_interleave(_t(m), -1)
    _gc(lambda x: torch.repeat_interleave(x, torch.tensor([2, 0, 1]), dim=0), m)


@pytest.mark.parametrize("dims, bshape", [
    (0, (3, 2)), (1, (4, 3)), (2, (3, 4)), (([1, 2], [0, 1]), (3, 4, 2)), (([0], [1]), (5, 2)), (([-1], [0]), (4,)),
])
def test_tensordot(dims, bshape):
    a, b = R.randn(2, 3, 4), R.randn(*bshape)
    ref = np.tensordot(a, b, dims)
    np.testing.assert_allclose(_np(torch.tensordot(_t(a), _t(b), dims)), ref)
    _gc(lambda x, y: torch.tensordot(x, y, dims), a, b)


def test_tensordot_errors():
    with pytest.raises(RuntimeError, match="contracted dimensions"):
        torch.tensordot(_t(R.randn(2, 3)), _t(R.randn(4)), ([0], [0]))
    with pytest.raises(RuntimeError):
        torch.tensordot(_t(R.randn(2, 3)), torch.ones(3, dtype=torch.float32), 1)


def test_broadcast():
    a, b = R.randn(3, 4), R.randn(2, 1, 1)
    xs = torch.broadcast_tensors(_t(a), _t(b))
    for x, r in zip(xs, np.broadcast_arrays(a, b)):
        np.testing.assert_array_equal(_np(x), r)
    assert xs[0].stride() == (0, 4, 1)  # expanded views
    with pytest.raises(RuntimeError):
        torch.broadcast_tensors(_t(a), _t(R.randn(5)))
    assert torch.broadcast_shapes((2, 1), (3,)) == torch.Size([2, 3])
    assert torch.broadcast_shapes(2, (3, 1)) == (3, 2)
    assert torch.broadcast_shapes() == ()
    with pytest.raises(RuntimeError, match="Shape mismatch"):
        torch.broadcast_shapes((2,), (3,))
    _gc(lambda x, y: torch.broadcast_tensors(x, y)[1], a, b)


def test_unflatten():
    x = R.randn(2, 3, 4)
    u = torch.unflatten(_t(x), -1, (2, -1))
    np.testing.assert_array_equal(_np(u), x.reshape(2, 3, 2, 2))
    t = _t(x)
    v = t.unflatten(1, (3, 1))
    assert v.shape == (2, 3, 1, 4)
    v[0, 0, 0, 0] = 100.0  # a view
    assert t[0, 0, 0].item() == 100.0
    with pytest.raises(RuntimeError, match="multiply up"):
        t.unflatten(1, (2, 2))
    with pytest.raises(RuntimeError, match="inferred"):
        t.unflatten(1, (-1, -1))
    with pytest.raises(IndexError):
        _t(1.0).unflatten(0, (1,))
    _gc(lambda y: y.unflatten(2, (2, 2)), x)


def test_flips():
    x = R.randn(2, 3, 4)
    np.testing.assert_array_equal(_np(torch.fliplr(_t(x))), np.fliplr(x))
    np.testing.assert_array_equal(_np(_t(x).flipud()), np.flipud(x))
    with pytest.raises(RuntimeError, match=">= 2-d"):
        torch.fliplr(_t([1.0, 2.0]))
    with pytest.raises(RuntimeError, match=">= 1-d"):
        torch.flipud(_t(1.0))
    _gc(torch.fliplr, x)


@pytest.mark.parametrize("name, arg, shape", [
    ("hsplit", 2, (3, 4)), ("hsplit", [1, 3], (5,)), ("vsplit", 3, (3, 4)), ("vsplit", [1, -1], (4, 2)),
    ("dsplit", [1, 2], (2, 3, 4)), ("dsplit", 2, (2, 3, 4)),
])
def test_directional_splits(name, arg, shape):
    x = R.randn(*shape)
    got = getattr(torch, name)(_t(x), arg)
    ref = getattr(np, name)(x, arg)
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        np.testing.assert_array_equal(_np(g), r)
    t = _t(x)
    first = getattr(t, name)(arg)[0]
    first[(0,) * first.dim()] = 42.0  # views of the input
    assert t[(0,) * t.dim()].item() == 42.0


def test_directional_split_errors():
    with pytest.raises(RuntimeError, match="not divisible"):
        torch.hsplit(_t(R.randn(2, 3)), 2)
    with pytest.raises(RuntimeError, match="at least 2"):
        torch.vsplit(_t(R.randn(3)), 1)
    with pytest.raises(RuntimeError, match="at least 3"):
        torch.dsplit(_t(R.randn(3, 2)), 1)


def test_stacks():
    a, b, c = R.randn(3), R.randn(3, 2), np.array([1.0, 2, 3])
    np.testing.assert_array_equal(_np(torch.column_stack([_t(a), _t(b), _t(c)])), np.column_stack([a, b, c]))
    np.testing.assert_array_equal(_np(torch.column_stack([_t(1.0), _t(2.0)])), np.column_stack([1.0, 2.0]))
    m = R.randn(3, 4)
    np.testing.assert_array_equal(_np(torch.dstack([_t(m), _t(m)])), np.dstack([m, m]))
    np.testing.assert_array_equal(_np(torch.dstack([_t(a), _t(c)])), np.dstack([a, c]))
    _gc(lambda x, y: torch.column_stack([x, y]), a, b)
    _gc(lambda x, y: torch.dstack([x, y]), m, m)


def test_diagflat():
    m = R.randn(2, 3)
    for k in (0, 1, -2):
        np.testing.assert_array_equal(_np(torch.diagflat(_t(m), k)), np.diagflat(m, k))
    np.testing.assert_array_equal(_np(_t(2.0).diagflat()), [[2.0]])
    _gc(lambda x: x.diagflat(1), m)


@pytest.mark.parametrize("row, col, off", [(3, 4, 1), (4, 3, -1), (0, 3, 0), (3, 3, 5), (3, 3, -5)])
def test_tri_indices(row, col, off):
    np.testing.assert_array_equal(_np(torch.tril_indices(row, col, off)), np.stack(np.tril_indices(row, off, col)))
    u = torch.triu_indices(row, col, off)
    assert u.dtype == torch.int64 and u.shape[0] == 2
    np.testing.assert_array_equal(_np(u), np.stack(np.triu_indices(row, off, col)))
    assert torch.tril_indices(3, 3, dtype=torch.int32).dtype == torch.int32


def test_unravel_index():
    got = torch.unravel_index(torch.tensor([4, 7, 0]), (2, 4))
    for g, r in zip(got, np.unravel_index([4, 7, 0], (2, 4))):
        np.testing.assert_array_equal(_np(g), r)
        assert g.dtype == torch.int64
    got = torch.unravel_index(torch.tensor([[-1, 9]]), (2, 4))  # wraps, as PyTorch's arithmetic
    np.testing.assert_array_equal([_np(g) for g in got], [[[1, 0]], [[3, 1]]])
    assert [g.item() for g in torch.unravel_index(torch.tensor(5), (2, 3))] == [1, 2]
    with pytest.raises(TypeError):
        torch.unravel_index(torch.tensor([1.0]), (2,))


def _np_unique_consecutive(x):
    vals = [k for k, _ in itertools.groupby(x)]
    counts = [len(list(g)) for _, g in itertools.groupby(x)]
    return np.array(vals), np.repeat(np.arange(len(vals)), counts), np.array(counts)


def test_unique_consecutive():
    y = np.array([1, 1, 2, 2, 3, 1, 1, 2])
    v, inv, cnt = torch.unique_consecutive(torch.tensor(y), return_inverse=True, return_counts=True)
    rv, rinv, rcnt = _np_unique_consecutive(y)
    np.testing.assert_array_equal(_np(v), rv)
    np.testing.assert_array_equal(_np(inv), rinv)
    np.testing.assert_array_equal(_np(cnt), rcnt)
    v, inv = torch.tensor(y.reshape(2, 4)).unique_consecutive(return_inverse=True)
    np.testing.assert_array_equal(_np(v), rv)
    assert inv.shape == (2, 4)
    m = np.array([[1, 2], [1, 2], [3, 4], [1, 2]])
    v, inv, cnt = torch.unique_consecutive(torch.tensor(m), return_inverse=True, return_counts=True, dim=0)
    np.testing.assert_array_equal(_np(v), [[1, 2], [3, 4], [1, 2]])
    np.testing.assert_array_equal(_np(inv), [0, 0, 1, 2])
    np.testing.assert_array_equal(_np(cnt), [2, 1, 1])
    v, cnt = torch.unique_consecutive(torch.tensor(m.T), return_counts=True, dim=1)
    np.testing.assert_array_equal(_np(v), m.T[:, [0, 2, 3]])
    assert torch.unique_consecutive(torch.tensor([], dtype=torch.int64)).shape == (0,)


def test_msort():
    m = R.randn(4, 3)
    np.testing.assert_array_equal(_np(torch.msort(_t(m))), np.sort(m, 0))
    _gc(torch.msort, m)


def _np_scatter_reduce(x, dim, idx, src, reduce, include_self):
    out = x.copy()
    groups = {}
    for pos in np.ndindex(idx.shape):
        tgt = list(pos)
        tgt[dim] = idx[pos]
        groups.setdefault(tuple(tgt), []).append(src[pos])
    mean = (lambda v: np.sum(v) // len(v)) if x.dtype.kind == "i" else np.mean  # integer mean rounds down
    fn = {"sum": np.sum, "prod": np.prod, "mean": mean, "amax": np.max, "amin": np.min}[reduce]
    for tgt, vals in groups.items():
        out[tgt] = fn(([x[tgt]] if include_self else []) + vals)
    return out


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce(reduce, include_self):
    x, src = R.randn(2, 4), R.randn(2, 4)
    idx = np.array([[0, 1, 0, 2], [2, 2, 0, 0]])
    got = torch.scatter_reduce(_t(x), 1, torch.tensor(idx), _t(src), reduce, include_self=include_self)
    np.testing.assert_allclose(_np(got), _np_scatter_reduce(x, 1, idx, src, reduce, include_self))
    _gc(lambda a, s: torch.scatter_reduce(a, 1, torch.tensor(idx), s, reduce, include_self=include_self), x, src)
    y = _t(x)
    y.scatter_reduce_(1, torch.tensor(idx), _t(src), reduce, include_self=include_self)
    np.testing.assert_allclose(_np(y), _np(got))
    xi, si = np.arange(8).reshape(2, 4), np.arange(8).reshape(2, 4) * 3 - 7
    got = torch.tensor(xi).scatter_reduce(1, torch.tensor(idx), torch.tensor(si), reduce, include_self=include_self)
    assert got.dtype == torch.int64
    ref = _np_scatter_reduce(xi, 1, idx, si, reduce, include_self)
    np.testing.assert_array_equal(_np(got), ref)


def test_scatter_reduce_ties_and_errors():
    x = _t([1.0, 0.0], True)
    s = _t([1.0, 1.0, -1.0], True)
    torch.scatter_reduce(x, 0, torch.tensor([0, 0, 1]), s, "amax").sum().backward()
    np.testing.assert_allclose(_np(x.grad), [1 / 3, 1])  # split evenly between ties
    np.testing.assert_allclose(_np(s.grad), [1 / 3, 1 / 3, 0])
    with pytest.raises(RuntimeError, match="reduce argument"):
        torch.scatter_reduce(_t([1.0]), 0, torch.tensor([0]), _t([1.0]), "max")


@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
def test_index_reduce(reduce):
    x, src = R.randn(3, 2), R.randn(3, 2)
    idx = torch.tensor([0, 2, 0])
    for inc in (True, False):
        got = torch.index_reduce(_t(x), 0, idx, _t(src), reduce, include_self=inc)
        ref = _np_scatter_reduce(x, 0, np.array([[0, 0], [2, 2], [0, 0]]), src, reduce, inc)
        np.testing.assert_allclose(_np(got), ref)
        y = _t(x)
        y.index_reduce_(0, idx, _t(src), reduce, include_self=inc)
        np.testing.assert_allclose(_np(y), ref)
    _gc(lambda a, s: torch.index_reduce(a, 0, idx, s, reduce), x, src)
    with pytest.raises(RuntimeError, match="reduce"):
        torch.index_reduce(_t(x), 0, idx, _t(src), "sum")


def test_index_copy():
    m, s = R.randn(3, 4), R.randn(3, 2)
    ref = m.copy()
    ref[:, [2, 0]] = s
    np.testing.assert_array_equal(_np(torch.index_copy(_t(m), 1, torch.tensor([2, 0]), _t(s))), ref)
    y = _t(m)
    y.index_copy_(1, torch.tensor([2, 0]), _t(s))
    np.testing.assert_array_equal(_np(y), ref)
    _gc(lambda a, b: torch.index_copy(a, 1, torch.tensor([2, 0]), b), m, s)


def test_select_slice_scatter():
    m, s = R.randn(3, 4), R.randn(3)
    ref = m.copy()
    ref[:, -1] = s
    np.testing.assert_array_equal(_np(torch.select_scatter(_t(m), _t(s), 1, -1)), ref)
    with pytest.raises(RuntimeError, match="size"):
        torch.select_scatter(_t(m), _t(R.randn(4)), 1, 0)
    with pytest.raises(IndexError):
        torch.select_scatter(_t(m), _t(s), 1, 4)
    s2 = R.randn(3, 2)
    ref = m.copy()
    ref[:, 1::2] = s2
    np.testing.assert_array_equal(_np(torch.slice_scatter(_t(m), _t(s2), 1, 1, None, 2)), ref)
    np.testing.assert_array_equal(_np(_t(m).slice_scatter(_t(m * 2))), m * 2)
    _gc(lambda a, b: torch.select_scatter(a, b, 1, -1), m, s)
    _gc(lambda a, b: torch.slice_scatter(a, b, 1, 1, None, 2), m, s2)


def test_as_strided():
    m = np.arange(12.0).reshape(3, 4)
    t = _t(m)
    a = torch.as_strided(t, (2, 2), (1, 4), 1)
    np.testing.assert_array_equal(_np(a), np.lib.stride_tricks.as_strided(m.ravel()[1:], (2, 2), (8, 32)))
    assert a.stride() == (1, 4) and a.storage_offset() == 1
    a[0, 0] = 7.0  # a view of the storage
    assert t[0, 1].item() == 7.0
    b = t[1:].as_strided((2,), (5,))  # offset defaults to the input's
    np.testing.assert_array_equal(_np(b), [4.0, 9.0])
    with pytest.raises(RuntimeError, match="out of bounds"):
        t.as_strided((3,), (6,), 1)
    _gc(lambda x: (x * 1).as_strided((2, 3), (1, 2), 1), R.randn(3, 4))  # overlapping windows add up
    # over the storage, not the tensor: a detached slice keeps its offset; parts outside it get no gradient
    x = torch.arange(6.0)[1:].detach().requires_grad_()
    y = x.as_strided((3,), (2,), 0)
    np.testing.assert_array_equal(_np(y), [0.0, 2.0, 4.0])
    assert y._base is x
    y.sum().backward()
    np.testing.assert_array_equal(_np(x.grad), [0, 1, 0, 1, 0])
    np.testing.assert_array_equal(_np(torch.arange(12.0).reshape(3, 4).t().as_strided((2,), (3,))), [0.0, 3.0])


def test_chain_matmul_combinations():
    a, b, c = R.randn(2, 3), R.randn(3, 4), R.randn(4, 2)
    with pytest.warns(UserWarning, match="deprecated"):
        got = torch.chain_matmul(_t(a), _t(b), _t(c))
    np.testing.assert_allclose(_np(got), a @ b @ c)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _gc(lambda x, y, z: torch.chain_matmul(x, y, z), a, b, c)
        with pytest.raises(RuntimeError, match="dimension"):
            torch.chain_matmul(_t(a), _t(R.randn(3)))
    v = R.randn(4)
    for r, rep in ((2, False), (3, True), (5, False)):
        gen = itertools.combinations_with_replacement if rep else itertools.combinations
        ref = np.array([[v[i] for i in c] for c in gen(range(4), r)]).reshape(-1, r)
        np.testing.assert_array_equal(_np(torch.combinations(_t(v), r, rep)), ref)
    assert torch.combinations(_t(v), 0).shape == (0,)
    _gc(lambda x: torch.combinations(x, 2), v)


def test_matrix_exp():
    a = R.randn(2, 3, 3) * 0.5
    got = torch.matrix_exp(_t(a))
    np.testing.assert_allclose(_np(got), np.stack([scipy.linalg.expm(m) for m in a]), rtol=1e-10)
    np.testing.assert_allclose(_np(_t(a[0]).matrix_exp()), scipy.linalg.expm(a[0]), rtol=1e-10)
    with pytest.raises(RuntimeError, match="square"):
        torch.matrix_exp(_t(R.randn(2, 3)))
    _gc(torch.matrix_exp, a[0])


@pytest.mark.parametrize("p", [2, 1, 0, 3.5, float("inf")])
def test_pdist(p):
    x = R.randn(4, 3)
    i, j = np.triu_indices(4, 1)
    d = np.abs(x[i] - x[j])
    ref = {0: (d != 0).sum(-1), float("inf"): d.max(-1)}.get(p)
    ref = (d ** p).sum(-1) ** (1 / p) if ref is None else ref
    np.testing.assert_allclose(_np(torch.pdist(_t(x), p)), ref)
    if p not in (0, float("inf")):
        _gc(lambda y: torch.pdist(y, p), x)
    with pytest.raises(RuntimeError, match="2D"):
        torch.pdist(_t(R.randn(3)))


def test_poisson():
    rates = torch.full((4000,), 3.5, dtype=torch.float64, requires_grad=True)
    s = torch.poisson(rates)
    assert s.dtype == torch.float64 and abs(s.mean().item() - 3.5) < 0.2
    assert np.all(_np(s) == np.round(_np(s))) and np.all(_np(s) >= 0)
    s.sum().backward()
    assert not rates.grad.any()  # zero gradient, as PyTorch
    g1, g2 = torch.Generator().manual_seed(3), torch.Generator().manual_seed(3)
    np.testing.assert_array_equal(_np(torch.poisson(_t([1.0, 5.0]), g1)), _np(torch.poisson(_t([1.0, 5.0]), g2)))
    assert torch.poisson(torch.zeros(0)).shape == (0,)
    with pytest.raises(RuntimeError, match="non-negative"):
        torch.poisson(_t([-1.0]))


def test_lu_deprecated():
    a = R.randn(2, 4, 4)
    with pytest.warns(UserWarning, match="deprecated"):
        packed, piv, info = torch.lu(_t(a), get_infos=True)
    assert piv.dtype == torch.int32 and info.dtype == torch.int32 and info.shape == (2,)
    for k in range(2):
        lu, p = scipy.linalg.lu_factor(a[k])
        np.testing.assert_allclose(_np(packed[k]), lu, rtol=1e-12)
        np.testing.assert_array_equal(_np(piv[k]), p + 1)  # 1-based, as LAPACK
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert torch.lu(_t([[1.0, 2.0], [2.0, 4.0]]), get_infos=True)[2].item() == 2  # singular: U[1, 1] == 0
        _gc(lambda x: x.lu()[0], a[0])
        with pytest.raises(RuntimeError, match="square"):
            torch.lu(_t(R.randn(2, 3)))


def test_scatter_family_checks():
    with pytest.raises(RuntimeError, match="dtype"):
        torch.zeros(3).scatter_reduce(0, torch.tensor([0, 1]), torch.tensor([1, 2]), "sum")
    with pytest.raises(RuntimeError, match="same scalar type"):
        torch.zeros(3, 2).index_copy(0, torch.tensor([0]), torch.ones(1, 2, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="for index"):
        torch.zeros(3, 2).index_reduce(0, torch.tensor([0.0]), torch.ones(1, 2), "amax")
    with pytest.raises(IndexError, match="dimension 1 or 0"):
        torch.zeros(3, 2).index_copy(0, torch.tensor([[0]]), torch.ones(1, 2))
    r = torch.tensor(1.0).index_copy(0, torch.tensor([0]), torch.tensor([5.0]))  # 0-d input
    assert r.shape == () and r.item() == 5.0
    with pytest.raises(ValueError, match="negative"):
        torch.broadcast_shapes((-1,), (3,))


def test_on_standin_device():
    """The ops keep the strict CPU stand-in device (no hard-coded numpy on data) and match the cpu."""
    x0 = R.randn(3, 4)
    idx = [[0, 1, 0, 2], [2, 2, 0, 0], [1, 1, 1, 1]]
    fns = [
        lambda x, d: torch.tile(x, (2,)),
        lambda x, d: x.repeat_interleave(torch.tensor([1, 0, 2], device=d), dim=0),
        lambda x, d: torch.tensordot(x, x.t(), 1),
        lambda x, d: x.unflatten(1, (2, 2)),
        lambda x, d: torch.column_stack([x, x.fliplr()]),
        lambda x, d: x.scatter_reduce(1, torch.tensor(idx, device=d), x * 2, "amax", include_self=False),
        lambda x, d: x.index_reduce(0, torch.tensor([2, 0, 0], device=d), x * 2, "mean"),
        lambda x, d: x.slice_scatter(x[:, :2] * 3, 1, 0, 2),
        lambda x, d: (x * 1).as_strided((2, 2), (1, 4), 1),
        lambda x, d: torch.pdist(x),
        lambda x, d: torch.matrix_exp(x[:, :3]),
    ]
    for f in fns:
        res = []
        for d in ("cpu", "standin"):
            x = torch.tensor(x0, device=d, requires_grad=True)
            out = f(x, d)
            assert out.device.type == d
            (out * out).sum().backward()
            res.append((_np(out.cpu()), _np(x.grad.cpu())))
        np.testing.assert_allclose(res[1][0], res[0][0])
        np.testing.assert_allclose(res[1][1], res[0][1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lu, piv = torch.lu(torch.tensor(x0[:, :3], device="standin"))
    assert lu.device.type == piv.device.type == "standin"
    assert torch.unique_consecutive(torch.tensor([1, 1, 2], device="standin")).device.type == "standin"


def test_second_order():
    idx = torch.tensor([[0, 1, 0, 2], [2, 2, 0, 0]])
    cases = [
        (lambda a, s: torch.scatter_reduce(a, 1, idx, s, "amax", include_self=False) ** 2, (R.randn(2, 4), R.randn(2, 4))),
        (lambda a, s: torch.scatter_reduce(a, 1, idx, s, "mean") ** 2, (R.randn(2, 4), R.randn(2, 4))),
        (lambda a, b: torch.tensordot(a, b, 1) ** 2, (R.randn(2, 3), R.randn(3, 2))),
        (lambda a: (a * 1).as_strided((2, 2), (1, 2), 1) ** 2, (R.randn(3, 3),)),
        (lambda a: torch.pdist(a) ** 2, (R.randn(3, 3),)),
    ]
    for f, arrays in cases:
        assert torch.autograd.gradgradcheck(f, tuple(_t(a, True) for a in arrays))


def test_as_strided_inplace():
    x = torch.arange(6.0)
    assert x.as_strided_((2, 2), (1, 2), 1) is x
    np.testing.assert_array_equal(_np(x), [[1.0, 3.0], [2.0, 4.0]])
    assert x.stride() == (1, 2) and x.storage_offset() == 1
    leaf = _t(R.randn(4), True)
    with pytest.raises(RuntimeError, match="leaf Variable"):
        leaf.as_strided_((2,), (2,))
    w = leaf * 1
    w.as_strided_((2,), (2,))
    assert not w.is_leaf and w.shape == (2,)
    w.sum().backward()
    np.testing.assert_array_equal(_np(leaf.grad), [1, 0, 1, 0])
