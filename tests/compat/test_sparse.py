"""Sparse tensors in funcgrad.compat: construction, coalescing, products, sum, softmax, layouts,
gradients to the values and the dense operand, errors (expected values from PyTorch 2.13)."""

import numpy as np
import pytest

import funcgrad.compat as torch

I = [[0, 1, 1, 0], [2, 0, 2, 2]]
V = [3.0, 4.0, 5.0, 1.0]  # (0, 2) is stored twice: 3 + 1
DENSE = np.array([[0.0, 0.0, 4.0], [4.0, 0.0, 5.0]])


def _a(requires_grad=False, dtype=torch.float32):
    v = torch.tensor(V, dtype=dtype, requires_grad=requires_grad)
    return torch.sparse_coo_tensor(torch.tensor(I), v, (2, 3)), v


def test_construction_metadata_and_to_dense():
    a, _ = _a()
    assert isinstance(a, torch.Tensor) and a.is_sparse and not a.is_sparse_csr
    assert a.layout == torch.sparse_coo and torch.ones(1).layout == torch.strided
    assert a.shape == torch.Size([2, 3]) and a.dim() == 2 and a.numel() == 6 and a._nnz() == 4
    assert a.sparse_dim() == 2 and a.dense_dim() == 0 and a.dtype == torch.float32
    assert not a.is_coalesced()
    np.testing.assert_array_equal(a.to_dense().numpy(), DENSE)
    inferred = torch.sparse_coo_tensor([[0], [1]], [2])  # size from the indices, dtype from the values
    assert inferred.shape == (1, 2) and inferred.dtype == torch.int64


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_coalesce_sums_duplicates(dtype):
    a, _ = _a(dtype=dtype)
    c = a.coalesce()
    assert c.is_coalesced() and c.coalesce() is c
    np.testing.assert_array_equal(c.indices().numpy(), [[0, 1, 1], [2, 0, 2]])
    np.testing.assert_array_equal(c.values().numpy(), [4.0, 4.0, 5.0])
    assert c.values().dtype == dtype and c.indices().dtype == torch.int64
    with pytest.raises(RuntimeError, match="uncoalesced"):
        a.indices()
    with pytest.raises(RuntimeError, match="uncoalesced"):
        a.values()
    np.testing.assert_array_equal(a._indices().numpy(), I)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("product", ["sparse.mm", "spmm", "mm", "matmul", "@"])
def test_products_and_gradients_match_dense(product, dtype):
    a, v = _a(True, dtype)
    b = torch.arange(6, dtype=dtype).reshape(3, 2).requires_grad_()
    fn = {"sparse.mm": torch.sparse.mm, "spmm": torch.spmm, "mm": torch.mm, "matmul": torch.matmul,
          "@": lambda p, q: p @ q}[product]
    out = fn(a, b)
    assert out.layout == torch.strided and out.dtype == dtype
    np.testing.assert_allclose(out.detach().numpy(), DENSE @ b.detach().numpy())
    (out * torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=dtype)).sum().backward()
    w = np.array([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(b.grad.numpy(), DENSE.T @ w)
    rows, cols = np.array(I)
    np.testing.assert_allclose(v.grad.numpy(), (w[rows] * b.detach().numpy()[cols]).sum(1))


def test_dense_at_sparse_vectors_and_csr():
    a, v = _a(True)
    x = torch.tensor([[1.0, 2.0], [0.5, -1.0]], requires_grad=True)
    out = x @ a
    np.testing.assert_allclose(out.detach().numpy(), x.detach().numpy() @ DENSE)
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.ones((2, 3)) @ DENSE.T)
    np.testing.assert_allclose((a @ torch.ones(3)).detach().numpy(), DENSE.sum(1))
    csr = torch.tensor(DENSE, dtype=torch.float32).to_sparse_csr()
    assert csr.layout == torch.sparse_csr and csr.is_sparse_csr and not csr.is_sparse
    np.testing.assert_array_equal(csr.crow_indices().numpy(), [0, 1, 3])
    np.testing.assert_array_equal(csr.col_indices().numpy(), [2, 0, 2])
    np.testing.assert_array_equal(csr.values().numpy(), [4.0, 4.0, 5.0])
    np.testing.assert_allclose(torch.mm(csr, torch.ones(3, 2)).numpy(), DENSE @ np.ones((3, 2)))
    np.testing.assert_allclose((torch.ones(4, 2) @ csr).numpy(), np.ones((4, 2)) @ DENSE)
    made = torch.sparse_csr_tensor(torch.tensor([0, 2, 3]), torch.tensor([0, 2, 1]), torch.tensor([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(made.to_dense().numpy(), [[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]])
    with pytest.raises(RuntimeError, match="sparse row compressed"):
        a.crow_indices()
    with pytest.raises(NotImplementedError, match="sparse_csc"):
        csr.t()


def test_sparse_leaf_gets_a_sparse_grad():
    leaf = torch.sparse_coo_tensor(torch.tensor(I), torch.tensor(V), (2, 3), requires_grad=True)
    assert leaf.is_leaf and leaf.requires_grad and leaf.grad is None
    b = torch.ones(3, 2)
    torch.sparse.mm(leaf, b).sum().backward()
    assert leaf.grad.is_sparse
    np.testing.assert_array_equal(leaf.grad._values().numpy(), [2.0, 2.0, 2.0, 2.0])
    non_leaf, v = _a(True)
    assert not non_leaf.is_leaf and non_leaf.grad_fn is not None


def test_to_sparse_of_dense_is_coalesced_and_differentiable():
    d = torch.tensor([[0.0, 1.0], [2.0, 0.0]], requires_grad=True)
    s = d.to_sparse()
    assert s.is_coalesced()
    np.testing.assert_array_equal(s.indices().numpy(), [[0, 1], [1, 0]])
    (s @ torch.tensor([1.0, 10.0])).sum().backward()
    np.testing.assert_array_equal(d.grad.numpy(), [[0.0, 10.0], [1.0, 0.0]])  # stored entries only
    assert d.to_dense() is d


def test_sparse_sum_and_softmax_match_pytorch():
    a, v = _a(True)
    total = torch.sparse.sum(a)
    assert total.layout == torch.strided and float(total) == 13.0
    by_row = torch.sparse.sum(a, dim=1)
    assert by_row.is_sparse and by_row.shape == (2,)
    np.testing.assert_array_equal(by_row.to_dense().detach().numpy(), [4.0, 9.0])
    sm = torch.sparse.softmax(a, 1)
    assert sm.is_sparse
    np.testing.assert_allclose(sm.to_dense().detach().numpy(), [[0.0, 0.0, 1.0], [0.2689414, 0.0, 0.7310586]],
                               rtol=1e-6)
    np.testing.assert_allclose(torch.sparse.log_softmax(a, 1).coalesce().values().detach().numpy(),
                               [0.0, np.log(0.2689414), np.log(0.7310586)], rtol=1e-5)
    s = torch.tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse()
    np.testing.assert_array_equal(torch.sparse.softmax(s, 0).to_dense().numpy(), [[0.0, 1.0], [1.0, 0.0]])
    # the softmax's gradient against the dense computation with -inf at unstored entries
    (sm.to_dense() * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
    p = np.array([0.2689414, 0.7310586])
    g_row1 = p * (np.array([4.0, 6.0]) - (p * np.array([4.0, 6.0])).sum())
    # entries of row 1: v[1] at (1, 0) and v[2] at (1, 2); row 0's single entry has zero gradient
    np.testing.assert_allclose(v.grad.numpy(), [0.0, g_row1[0], g_row1[1], 0.0], atol=1e-6)


def test_empty_and_scalar_arithmetic():
    e = torch.sparse_coo_tensor(torch.zeros(2, 0, dtype=torch.long), torch.zeros(0), (2, 2))
    assert e._nnz() == 0 and e.coalesce()._nnz() == 0
    np.testing.assert_array_equal(e.to_dense().numpy(), np.zeros((2, 2)))
    np.testing.assert_array_equal(torch.sparse.mm(e, torch.ones(2, 3)).numpy(), np.zeros((2, 3)))
    assert float(torch.sparse.sum(e)) == 0.0
    a, _ = _a()
    np.testing.assert_array_equal((a * 2).to_dense().numpy(), 2 * DENSE)
    np.testing.assert_array_equal((a / 2).to_dense().numpy(), DENSE / 2)
    np.testing.assert_array_equal(a.t().to_dense().numpy(), DENSE.T)
    assert a.to(torch.float64).dtype == torch.float64


def test_unsupported_and_invalid_raise_pytorchs_classes():
    a, _ = _a()
    for op in (lambda: a + 1, lambda: a.exp(), lambda: a.view(-1), lambda: torch.relu(a)):
        with pytest.raises(NotImplementedError, match="SparseCPU"):
            op()
    with pytest.raises(RuntimeError, match="size is inconsistent with indices: for dim 1, size is 2 but found index 5"):
        torch.sparse_coo_tensor([[0], [5]], [2.0], (2, 2))
    with pytest.raises(RuntimeError, match="negative index"):
        torch.sparse_coo_tensor([[0], [-1]], [2.0], (2, 2))
    with pytest.raises(RuntimeError, match="Expected dim 0 size 3, got 4"):
        torch.sparse.mm(a, torch.randn(4, 2))
    with pytest.raises(RuntimeError, match="dtype"):
        torch.sparse.mm(a, torch.ones(3, 2, dtype=torch.float64))
    with pytest.raises(NotImplementedError, match="two sparse"):
        torch.sparse.mm(a, a.t())
    with pytest.raises(RuntimeError, match="Strided"):
        torch.ones(2).indices()
    with pytest.raises(RuntimeError, match="same number of elements"):
        torch.sparse_coo_tensor([[0, 1], [1, 0]], [1.0], (2, 2))
    with pytest.raises(NotImplementedError, match="dense dimensions"):
        torch.sparse_coo_tensor([[0, 1]], torch.ones(2, 3), (2, 3))


@pytest.mark.parametrize("device", ["cpu", "standin"])
def test_every_path_stays_on_the_device(device):
    """The stand-in refuses implicit conversion to numpy, as cupy does: no path hard-codes numpy."""
    d = torch.tensor(DENSE, dtype=torch.float32, device=device, requires_grad=True)
    s = d.to_sparse()
    x = torch.ones(3, 2, device=device, requires_grad=True)
    out = torch.sparse.mm(s, x) + (torch.ones(2, device=device) @ s).sum()
    out.sum().backward()
    assert out.device == d.grad.device == x.grad.device == s.device
    np.testing.assert_allclose(torch.sparse.softmax(s.t(), 1).to_dense().detach().cpu().numpy().sum(1), [1.0, 0.0, 1.0],
                               rtol=1e-6)
    csr = d.detach().to_sparse_csr()
    assert csr.crow_indices().device == csr.device
    np.testing.assert_array_equal(torch.sparse.sum(s, 0).to_dense().detach().cpu().numpy(), DENSE.sum(0))


def test_sum_clone_and_a_graph_convolution_trains():
    a, v = _a(True)
    assert float(a.sum()) == 13.0 and a.sum(1).is_sparse
    c = a.clone()
    assert c.is_sparse and c._values() is not a._values()
    torch.manual_seed(0)
    n = 12
    src, dst = torch.randint(0, n, (40,)), torch.randint(0, n, (40,))
    idx = torch.cat([torch.stack([src, dst]), torch.arange(n).repeat(2, 1)], 1)
    deg = torch.zeros(n).index_add_(0, idx[0], torch.ones(idx.shape[1]))
    adj = torch.sparse_coo_tensor(idx, deg[idx[0]].rsqrt() * deg[idx[1]].rsqrt(), (n, n)).coalesce()
    x, y = torch.randn(n, 4), torch.randint(0, 3, (n,))
    lin1, lin2 = torch.nn.Linear(4, 16), torch.nn.Linear(16, 3)
    opt = torch.optim.Adam([*lin1.parameters(), *lin2.parameters()], lr=0.05)
    losses = []
    for _ in range(30):
        opt.zero_grad()
        h = torch.relu(lin1(torch.sparse.mm(adj, x)))
        loss = torch.nn.functional.cross_entropy(lin2(torch.sparse.mm(adj, h)), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.6 * losses[0]
