"""funcgrad.compat on a non-numpy device: the strict stand-in ('standin', behaves like cupy).

Every check runs the same computation on the cpu and on the stand-in and compares; the
stand-in refuses implicit numpy conversion and host arrays, so any compat path that
hard-codes numpy on tensor data fails here as it would on a GPU.
"""

from __future__ import annotations

import copy
import io
import pickle

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.compat as torch
import funcgrad.compat.nn as nn
import funcgrad.compat.nn.functional as F
from funcgrad.backend.standin import StandinArray

DEV = "standin"


def _host(t):
    return t.detach().cpu().numpy()


def _close(a, b, rtol=1e-5, atol=1e-6):
    assert a.device.type == "cpu" and b.device.type == DEV, (a.device, b.device)
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_allclose(_host(a), _host(b), rtol=rtol, atol=atol)


def _on_standin(t):
    return type(t._value) is StandinArray


# --- the device itself ----------------------------------------------------------------------

def test_to_device_metadata_and_host_conversions():
    x = torch.arange(6.0).reshape(2, 3)
    d = x.to(DEV)
    assert _on_standin(d) and d.device == torch.device("standin", 0) and str(d.device) == "standin:0"
    assert d.to(DEV) is d and d.to("standin:0") is d and d.cpu().device.type == "cpu"
    assert d.tolist() == x.tolist() and d[1, 2].item() == 5.0 and float(d.sum()) == 15.0
    assert repr(d) == "tensor([[0., 1., 2.],\n        [3., 4., 5.]], device='standin:0')"
    with pytest.raises(TypeError, match=r"can't convert standin:0 device type tensor to numpy. Use Tensor.cpu\(\)"):
        d.numpy()
    with pytest.raises(TypeError, match="can't convert standin:0"):
        np.asarray(d)
    assert np.array_equal(d.numpy(force=True), x.numpy())
    assert d.is_cuda is False and x.to(DEV, dtype=torch.float64).dtype == torch.float64


def test_creation_follows_torch_not_funcgrad_default_device():
    prev = fg.set_default_device(DEV)
    try:
        assert torch.zeros(2).device.type == "cpu" and torch.tensor([1, 2]).device.type == "cpu"
        assert torch.randn(2, device=DEV).device.type == DEV
    finally:
        fg.set_default_device(prev)
    torch.set_default_device(DEV)
    try:
        assert torch.get_default_device() == torch.device("standin")
        assert _on_standin(torch.zeros(2))
        assert _on_standin(torch.randn(3)) and _on_standin(torch.arange(3))
    finally:
        torch.set_default_device(None)
    assert torch.zeros(1).device.type == "cpu"
    if not torch.cuda.is_available():  # an unavailable device fails at once and changes nothing
        with pytest.raises(RuntimeError, match="'cuda' is not available"):
            torch.set_default_device("cuda")
        assert torch.get_default_device() == torch.device("cpu")
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda, standin device type"):
        torch.ones(1).to("tpu")
    t = torch.ones(2, 3, device=DEV)
    for made in (torch.zeros_like(t), t.new_zeros(2), t.new_tensor([1.0]), torch.randn_like(t), t.new_full((2,), 3.0),
                 torch.normal(t, 1.0), torch.full_like(t, 2.0)):
        assert _on_standin(made), made


def test_mixing_devices_raises_pytorch_error():
    a, b = torch.ones(3).to(DEV), torch.ones(3)
    msg = "Expected all tensors to be on the same device, but found at least two devices, standin:0 and cpu!"
    for f in (lambda: a + b, lambda: torch.matmul(a, b), lambda: torch.where(a > 0, a, b), lambda: torch.cat([a, b]),
              lambda: torch.equal(a, b), lambda: a.add_(b)):
        with pytest.raises(RuntimeError, match=msg):
            f()
    with pytest.raises(RuntimeError, match="found at least two devices, cpu and standin:0"):
        b * a
    # a 0-d cpu tensor is a scalar, as in PyTorch; its gradient goes back to the cpu
    s = torch.tensor(2.0, requires_grad=True)
    w = torch.ones(3, device=DEV, requires_grad=True)
    y = (w * s).sum()
    assert y.device.type == DEV
    y.backward()
    assert s.grad.device.type == "cpu" and s.grad.item() == 3.0 and w.grad.device.type == DEV
    with pytest.raises(RuntimeError, match="expected device standin:0 but got cpu"):
        (w * 2).backward(torch.ones(3))


def test_funcgrad_constants_follow_the_tensors_device():
    """funcgrad Arrays (and the constants funcgrad functions make on fg's default device) are
    constants in compat ops: they go where the tensors are."""
    t = torch.tensor([1.0, 2.0], dtype=torch.float64, device=DEV, requires_grad=True)
    c = fg.asarray([3.0, 4.0], device="cpu")
    for r in (t * c, c * t, torch.add(t, c), torch.where(t > 1, c, t)):
        assert _on_standin(r), r
    (t * c).sum().backward()
    assert t.grad.tolist() == [3.0, 4.0] and _on_standin(t.grad)
    prev = fg.set_default_device(DEV)
    try:  # compat tensors stay on the cpu; funcgrad's functions still accept them
        x = torch.tensor([0, 2])
        assert F.one_hot(x, 3).tolist() == [[1, 0, 0], [0, 0, 1]] and F.one_hot(x, 3).device.type == "cpu"
        w = torch.tensor([3.0, 4.0], dtype=torch.float64, requires_grad=True)
        h = fg.grad(lambda a: (a * a * w).sum())(fg.asarray([1.0, 2.0]))
        assert h.device.type == "cpu" and h.tolist() == [6.0, 16.0]
    finally:
        fg.set_default_device(prev)
    assert _on_standin(F.one_hot(torch.tensor([0, 2], device=DEV), 3))


# --- training loops equal the cpu run --------------------------------------------------------

def _lenet_losses(device, steps=4):
    torch.manual_seed(0)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 4, 5)
            self.bn = nn.BatchNorm2d(4)
            self.fc1 = nn.Linear(4 * 6 * 6, 16)
            self.drop = nn.Dropout(0.2)
            self.fc2 = nn.Linear(16, 10)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.bn(self.conv1(x))), 2)
            return self.fc2(self.drop(F.relu(self.fc1(torch.flatten(x, 1)))))

    model = Net().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    rng = np.random.default_rng(0)
    x = torch.tensor(rng.standard_normal((8, 1, 16, 16)).astype(np.float32)).to(device)
    y = torch.tensor(rng.integers(0, 10, 8)).to(device)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    model.eval()
    with torch.no_grad():
        out = model(x)
    return np.array(losses), model, opt, out


def test_lenet_batchnorm_adam_training_matches_cpu():
    cpu, m_cpu, _, out_cpu = _lenet_losses("cpu")
    dev, m_dev, o_dev, out_dev = _lenet_losses(DEV)
    np.testing.assert_allclose(cpu, dev, rtol=1e-5, atol=1e-6)
    assert dev[-1] < dev[0]
    _close(out_cpu, out_dev, rtol=1e-4, atol=1e-5)
    for (k, a), (_, b) in zip(m_cpu.state_dict().items(), m_dev.state_dict().items()):
        _close(a, b, rtol=1e-4, atol=1e-5)  # running stats, num_batches_tracked, weights
    st = o_dev.state_dict()["state"][0]
    assert _on_standin(st["exp_avg"]) and _on_standin(st["exp_avg_sq"])


def test_lstm_step_matches_cpu():
    def run(device):
        torch.manual_seed(1)
        lstm = nn.LSTM(3, 5, num_layers=2, batch_first=True).to(device)
        x = torch.randn(2, 4, 3).to(device)
        out, (h, c) = lstm(x)
        (out.sum() + h.pow(2).sum() + c.mean()).backward()
        return out, h, c, [p.grad for p in lstm.parameters()]

    for a, b in zip(run("cpu")[:3], run(DEV)[:3]):
        _close(a, b)
    for a, b in zip(run("cpu")[3], run(DEV)[3]):
        _close(a, b, rtol=1e-4, atol=1e-6)


def test_transformer_encoder_layer_step_matches_cpu():
    def run(device):
        torch.manual_seed(2)
        layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.1, batch_first=True).to(device)
        opt = torch.optim.SGD(layer.parameters(), lr=0.1, momentum=0.9)
        x = torch.randn(2, 5, 8).to(device)
        mask = nn.Transformer.generate_square_subsequent_mask(5).to(device)
        for _ in range(2):
            opt.zero_grad()
            out = layer(x, src_mask=mask)  # dropout masks come from the same generator on both devices
            out.pow(2).mean().backward()
            opt.step()
        return out, layer.linear1.weight

    (a1, w1), (a2, w2) = run("cpu"), run(DEV)
    _close(a1, a2, rtol=1e-4, atol=1e-5)
    _close(w1, w2, rtol=1e-4, atol=1e-5)


# --- in-place ops, views, indexing -----------------------------------------------------------

def _both(make):
    c = make()
    return c, c.clone().to(DEV)


@pytest.mark.parametrize("op", [
    lambda x: x.copy_(torch.arange(6.0).reshape(2, 3).to(x.device) * 2),
    lambda x: x.copy_(torch.arange(3.0)),  # from the cpu, broadcast (copy_ crosses devices)
    lambda x: x.fill_(3.5),
    lambda x: x.fill_(torch.tensor(2.0)),
    lambda x: x.zero_(),
    lambda x: x.add_(torch.ones(3, device=x.device), alpha=2),
    lambda x: x.mul_(torch.tensor(3.0)),
    lambda x: x.index_put_((torch.tensor([0, 1], device=x.device), torch.tensor([2, 0], device=x.device)),
                           torch.tensor([7.0, 8.0], device=x.device)),
    lambda x: x.masked_fill_(x > 2, -1.0),
    lambda x: x.scatter_(1, torch.tensor([[2, 0], [1, 1]], device=x.device), torch.ones(2, 2, device=x.device)),
    lambda x: x.scatter_add_(0, torch.tensor([[1, 0, 1]], device=x.device), torch.ones(1, 3, device=x.device)),
    lambda x: x.index_add_(1, torch.tensor([0, 2], device=x.device), torch.ones(2, 2, device=x.device)),
    lambda x: x.clamp_(1, 4).sigmoid_(),
    lambda x: x.__setitem__((slice(None), 1), torch.tensor([9.0, 9.0], device=x.device)) or x,
    lambda x: x.__setitem__(x > 3, 0.0) or x,
    lambda x: x.__setitem__(([1, 0], [0, 0]), torch.tensor(5.0)) or x,
    lambda x: x.uniform_().zero_().normal_().mul_(0).bernoulli_(1.0),
])
def test_inplace_ops_match_cpu_with_autograd(op):
    for req in (False, True):
        leaf_c, leaf_d = _both(lambda: torch.arange(6.0).reshape(2, 3))
        leaf_c.requires_grad_(req)
        leaf_d.requires_grad_(req)
        yc, yd = leaf_c * 1, leaf_d * 1
        torch.manual_seed(0)
        rc = op(yc)
        torch.manual_seed(0)
        rd = op(yd)
        assert rc is yc and rd is yd and _on_standin(yd)
        _close(yc, yd)
        if req and yd.requires_grad:
            (yc * torch.arange(6.0).reshape(2, 3)).sum().backward()
            (yd * torch.arange(6.0).reshape(2, 3).to(DEV)).sum().backward()
            _close(leaf_c.grad, leaf_d.grad)


def test_views_share_storage_and_write_through():
    x = torch.arange(12.0).reshape(3, 4).to(DEV)
    v, t, row, u, dg = x.view(4, 3), x.t(), x[1], x.unfold(1, 2, 2), x.diagonal()
    assert all(_on_standin(a) for a in (v, t, row, u))
    assert t.stride() == (1, 4) and row.storage_offset() == 4 and not t.is_contiguous()
    assert x.t().contiguous().is_contiguous() and _on_standin(x.t().contiguous())
    row[0] = 100.0
    t[3, 2] = -1.0
    u[0, 1, 1] = 55.0
    assert x[1, 0].item() == 100.0 and v[1, 1].item() == 100.0 and x[2, 3].item() == -1.0 and x[0, 3].item() == 55.0
    assert x._version == row._version == 3
    assert dg.tolist() == [0.0, 5.0, 10.0]
    # autograd through a write into a view of a non-leaf (CopySlices)
    w = torch.ones(4, device=DEV, requires_grad=True)
    base = torch.zeros(3, 4, device=DEV, requires_grad=True)
    y = base * 1
    y[1] = w * 2
    y.sum().backward()
    assert w.grad.tolist() == [2.0] * 4 and base.grad[1].tolist() == [0.0] * 4 and base.grad[0].tolist() == [1.0] * 4
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        torch.zeros(1, device=DEV).expand(3).add_(1)


def test_indexing_with_masks_and_index_tensors():
    c = torch.arange(24.0).reshape(4, 6).requires_grad_()
    d = c.detach().to(DEV).requires_grad_()
    idx_c, idx_d = torch.tensor([3, 0, 3]), torch.tensor([3, 0, 3]).to(DEV)
    cases = [
        (lambda x, i: x[x > 10], None),
        (lambda x, i: x[i], None),
        (lambda x, i: x[i, 1:4], None),
        (lambda x, i: x[:, i], None),
        (lambda x, i: x[[0, 2], [1, 1]], None),
        (lambda x, i: x[np.array([1, 1])], None),
        (lambda x, i: x[(x.sum(1) > 30)], None),
        (lambda x, i: x[torch.tensor([True, False, True, False], device=x.device)], None),
        (lambda x, i: x.gather(1, i.reshape(3, 1).expand(3, 2) % 6), None),
        (lambda x, i: x.index_select(0, i), None),
        (lambda x, i: x.masked_select(x < 5), None),
        (lambda x, i: x.take(i), None),
        (lambda x, i: torch.where(x > 5, x, torch.zeros_like(x)), None),
        (lambda x, i: x.flip(0).roll(2, 1).tril(1), None),
        (lambda x, i: torch.diag(x[0]), None),
    ]
    for f, _ in cases:
        a, b = f(c, idx_c), f(d, idx_d)
        _close(a, b)
        a.sum().backward()
        b.sum().backward()
        _close(c.grad, d.grad)
        c.grad = d.grad = None
    assert _on_standin(d.detach()[idx_c])  # a cpu index tensor indexes a tensor of any device
    with pytest.raises(RuntimeError, match="indices should be either on cpu or on the same device"):
        c[idx_d]
    nz = (d > 20).nonzero()
    assert _on_standin(nz) and nz.tolist() == [[3, 3], [3, 4], [3, 5]]
    assert [t.tolist() for t in torch.nonzero(d > 21, as_tuple=True)] == [[3, 3], [4, 5]]


def test_reductions_with_indices():
    c = torch.tensor([[3.0, 1.0, 4.0, 1.0], [5.0, 9.0, 2.0, 6.0], [5.0, 3.0, 5.0, 8.0]], requires_grad=True)
    d = c.detach().to(DEV).requires_grad_()
    for f in (lambda x: x.max(1), lambda x: x.min(0, keepdim=True), lambda x: x.sort(1, descending=True),
              lambda x: x.topk(2, dim=1), lambda x: x.kthvalue(2, 1), lambda x: x.median(1), lambda x: x.mode(1),
              lambda x: torch.sort(x.reshape(-1))):
        (va, ia), (vb, ib) = f(c), f(d)
        _close(va, vb)
        _close(ia, ib)
        va.sum().backward()
        vb.sum().backward()
        _close(c.grad, d.grad)
        c.grad = d.grad = None
    for f in (lambda x: x.argmax(), lambda x: x.argmax(1, keepdim=True), lambda x: x.argmin(0),
              lambda x: x.argsort(1), lambda x: (x > 4).any(1), lambda x: (x > 0).all(),
              lambda x: torch.count_nonzero(x > 4, dim=0), lambda x: torch.logsumexp(x, 1), lambda x: x.median(),
              lambda x: torch.unique(x), lambda x: x.max(), lambda x: x.std(1), lambda x: x.isnan() | x.isinf(),
              lambda x: ~(x > 3), lambda x: torch.isclose(x, x * 1.0000001), lambda x: x.cumsum(1)):
        _close(f(c), f(d))
    assert torch.equal(d, d.clone()) and torch.allclose(d, d + 1e-9)
    assert torch.unique(d.detach(), return_counts=True)[1].tolist() == [2, 1, 2, 1, 3, 1, 1, 1]


def test_autograd_engine_paths_on_device():
    x = torch.tensor([1.0, 2.0, 3.0], device=DEV, requires_grad=True)
    y = (x ** 3).sum()
    g, = torch.autograd.grad(y, x, create_graph=True)
    assert _on_standin(g) and g.tolist() == [3.0, 12.0, 27.0]
    g.sum().backward()
    assert x.grad.tolist() == [6.0, 12.0, 18.0] and _on_standin(x.grad)
    h = x.detach().requires_grad_()
    h.register_hook(lambda gr: gr * 2)
    (h * h).sum().backward()
    assert h.grad.tolist() == [4.0, 8.0, 12.0]
    (h * 1).sum().backward()  # accumulation in place, on the device
    assert h.grad.tolist() == [6.0, 10.0, 14.0] and _on_standin(h.grad)
    u = torch.ones(3, device=DEV, requires_grad=True)
    gu, = torch.autograd.grad((u * 2).sum(), [u, torch.ones(1, device=DEV, requires_grad=True)][0:1])
    assert _on_standin(gu)
    a, b = torch.ones(2, device=DEV, requires_grad=True), torch.ones(2, device=DEV, requires_grad=True)
    assert torch.autograd.grad((a * 2).sum(), [a, b], allow_unused=True, materialize_grads=True)[1].tolist() == [0, 0]
    jac = torch.autograd.functional.jacobian(lambda t: t * t, torch.tensor([1.0, 2.0], device=DEV))
    assert _on_standin(jac) and jac.tolist() == [[2.0, 0.0], [0.0, 4.0]]

    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            ctx.save_for_backward(t)
            return t ** 3

        @staticmethod
        def backward(ctx, go):
            t, = ctx.saved_tensors
            return 3 * t * t * go

    z = torch.tensor([2.0], device=DEV, requires_grad=True)
    Cube.apply(z).sum().backward()
    assert z.grad.tolist() == [12.0] and _on_standin(z.grad)
    with pytest.warns(UserWarning, match="Anomaly"), torch.autograd.detect_anomaly():
        (z * 2).sum().backward()
        with pytest.raises(RuntimeError, match="returned nan values"), np.errstate(invalid="ignore"):
            torch.sqrt(z - 5).sum().backward()


def test_layers_built_on_device_and_init_functions():
    torch.manual_seed(0)
    layers = [nn.Linear(3, 4, device=DEV), nn.Conv2d(2, 3, 3, device=DEV), nn.BatchNorm1d(4, device=DEV),
              nn.LSTM(3, 4, device=DEV), nn.Embedding(5, 3, device=DEV), nn.LayerNorm(4, device=DEV),
              nn.MultiheadAttention(4, 2, device=DEV), nn.GRUCell(3, 2, device=DEV)]
    for m in layers:
        for name, t in list(m.named_parameters()) + list(m.named_buffers()):
            assert _on_standin(t), (type(m).__name__, name)
    w = torch.empty(4, 6, device=DEV)
    for init in (nn.init.orthogonal_, nn.init.trunc_normal_, nn.init.eye_, nn.init.xavier_normal_,
                 nn.init.kaiming_uniform_, lambda t: nn.init.constant_(t, 0.5), nn.init.zeros_):
        torch.manual_seed(4)
        r = init(w)
        torch.manual_seed(4)
        c = init(torch.empty(4, 6))
        assert _on_standin(w) and r is w
        _close(c, w)
    k = torch.empty(2, 2, 3, 3, device=DEV)
    nn.init.dirac_(k)
    assert _on_standin(k) and k.sum().item() == 2.0
    emb = layers[4]
    assert _on_standin(emb(torch.tensor([[0, 4]], device=DEV)))


# --- save/load, pickling, data loading --------------------------------------------------------

def test_save_device_state_dict_then_load_on_cpu():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)).to(DEV)
    model(torch.randn(5, 3, device=DEV))
    sd = model.state_dict()
    assert all(_on_standin(v) for v in sd.values())
    buf = io.BytesIO()
    torch.save(sd, buf)
    buf.seek(0)
    on_cpu = torch.load(buf, map_location="cpu")
    for k, v in sd.items():
        assert on_cpu[k].device.type == "cpu" and on_cpu[k].tolist() == v.tolist()
    buf.seek(0)
    again = torch.load(buf)
    assert all(_on_standin(v) for v in again.values())
    fresh = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
    fresh.load_state_dict(on_cpu)
    assert fresh[0].weight.tolist() == model[0].weight.tolist()
    t = torch.arange(3.0, device=DEV).requires_grad_()
    for r in (pickle.loads(pickle.dumps(t)), copy.deepcopy(t)):
        assert _on_standin(r) and r.tolist() == [0.0, 1.0, 2.0] and r.requires_grad


def test_saved_device_views_stay_views_after_load():
    x = torch.arange(12.0).reshape(3, 4).to(DEV)
    buf = io.BytesIO()
    torch.save({"x": x, "row": x[1], "t": x.t(), "u": x.unfold(1, 2, 2)}, buf)
    for loc in (None, "cpu"):
        buf.seek(0)
        got = torch.load(buf, map_location=loc)
        assert got["t"].stride() == (1, 4) and got["row"].storage_offset() == 4 and got["u"][1, 1].tolist() == [6.0, 7.0]
        got["x"][1, 2] = -1.0
        assert got["row"][2].item() == -1.0 and got["t"][2, 1].item() == -1.0 and got["u"][1, 1, 0].item() == -1.0
        assert _on_standin(got["x"]) == (loc is None)


def test_gradcheck_linalg_sampling_on_device():
    x = torch.tensor([[2.0, 1.0], [1.0, 3.0]], dtype=torch.float64, device=DEV, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a: torch.linalg.inv(a) @ a.sin(), (x,))
    assert torch.autograd.gradgradcheck(lambda a: (a * a).sum(1), (x,))
    with pytest.raises(torch.linalg.LinAlgError):
        torch.linalg.inv(torch.ones(2, 2, device=DEV))
    e = torch.einsum("ij,jk->ik", x.detach(), x.detach())
    assert _on_standin(e) and e.tolist() == [[5.0, 5.0], [5.0, 10.0]]
    draws = torch.multinomial(torch.tensor([0.0, 1.0, 0.0], device=DEV), 3, replacement=True)
    assert _on_standin(draws) and draws.tolist() == [1, 1, 1]
    with pytest.warns(UserWarning, match="clone"):
        assert _on_standin(torch.tensor(x))
    assert _on_standin(torch.as_tensor(x, dtype=torch.float32))


def test_dataloader_pin_memory_batches_move_to_device():
    from funcgrad.compat.utils.data import DataLoader, TensorDataset

    xs, ys = torch.arange(20.0).reshape(10, 2), torch.arange(10)
    loader = DataLoader(TensorDataset(xs, ys), batch_size=4, pin_memory=True)
    model = nn.Linear(2, 1).to(DEV)
    seen = []
    for xb, yb in loader:
        assert xb.device.type == "cpu" and not xb.is_pinned() and xb.pin_memory() is xb
        xb, yb = xb.to(DEV, non_blocking=True), yb.to(DEV, non_blocking=True)
        assert _on_standin(xb) and _on_standin(model(xb))
        seen += yb.tolist()
    assert seen == list(range(10))


# --- optimizers, schedulers, clipping ---------------------------------------------------------

def _opt_step(device, make, steps=2):
    torch.manual_seed(3)
    model = nn.Linear(4, 3).to(device)
    opt = make(model.parameters())
    x = torch.randn(6, 4).to(device)
    for _ in range(steps):
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
    return model, opt


@pytest.mark.parametrize("make", [
    lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01),
    lambda p: torch.optim.Adam(p, lr=0.01, amsgrad=True),
    lambda p: torch.optim.AdamW(p, lr=0.01),
    lambda p: torch.optim.RMSprop(p, lr=0.01, momentum=0.5, centered=True),
    lambda p: torch.optim.Adagrad(p, lr=0.1),
    lambda p: torch.optim.Adadelta(p),
])
def test_every_optimizer_steps_on_device(make):
    (mc, oc), (md, od) = _opt_step("cpu", make), _opt_step(DEV, make)
    for a, b in zip(mc.parameters(), md.parameters()):
        assert _on_standin(b)
        _close(a, b, rtol=1e-5, atol=1e-6)
    for st in od.state.values():
        for k, v in st.items():
            if isinstance(v, torch.Tensor) and k != "step":
                assert _on_standin(v), k
    od.load_state_dict(oc.state_dict())  # cpu state -> the parameters' device
    assert all(_on_standin(v) for st in od.state.values() for k, v in st.items()
               if isinstance(v, torch.Tensor) and k != "step")


def test_schedulers_and_clip_grad_norm_on_device():
    model, opt = _opt_step(DEV, lambda p: torch.optim.SGD(p, lr=0.1), steps=1)
    model(torch.randn(2, 4, device=DEV)).sum().backward()
    grads_before = [p.grad.clone() for p in model.parameters()]
    total = nn.utils.clip_grad_norm_(model.parameters(), 0.01)
    assert _on_standin(total)
    expect = np.sqrt(sum(float((g * g).sum()) for g in grads_before))
    assert abs(total.item() - expect) < 1e-4 * max(expect, 1)
    after = np.sqrt(sum(float((p.grad * p.grad).sum()) for p in model.parameters()))
    assert after == pytest.approx(0.01, rel=1e-3) and all(_on_standin(p.grad) for p in model.parameters())
    nn.utils.clip_grad_value_(model.parameters(), 1e-3)
    assert max(float(p.grad.abs().max()) for p in model.parameters()) <= 1e-3 + 1e-9
    lrs = []
    for make in (lambda o: torch.optim.lr_scheduler.StepLR(o, 1, 0.5),
                 lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, 4),
                 lambda o: torch.optim.lr_scheduler.OneCycleLR(o, 1.0, total_steps=5),
                 lambda o: torch.optim.lr_scheduler.ExponentialLR(o, 0.9),
                 lambda o: torch.optim.lr_scheduler.MultiStepLR(o, [1, 2]),
                 lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda e: 1 / (e + 1))):
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        sched = make(opt)
        for _ in range(2):
            opt.step()
            sched.step()
        lrs.append(opt.param_groups[0]["lr"])
    assert lrs[0] == pytest.approx(0.025)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0, factor=0.5)
    for loss in (1.0, 2.0, 3.0):
        plateau.step(torch.tensor(loss, device=DEV))
    assert opt.param_groups[0]["lr"] == pytest.approx(0.025)
