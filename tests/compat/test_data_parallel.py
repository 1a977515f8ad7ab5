"""nn.DataParallel: scatter / replicate / gather on several devices (the CPU and the stand-in device play
the GPUs), compared with the module run on the whole batch."""

import copy
from collections import namedtuple

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import nn, optim
from funcgrad.compat.nn import parallel

CPU, STANDIN = torch.device("cpu"), torch.device("standin", 0)


@pytest.fixture
def gpus(monkeypatch):
    """``n`` visible 'GPUs': even ids are the CPU, odd ids the stand-in device."""

    def make(n):
        monkeypatch.setattr(parallel, "_visible_device_ids", lambda: list(range(n)))
        monkeypatch.setattr(parallel, "_device_of_id", lambda i: CPU if i % 2 == 0 else STANDIN)

    return make


class Recorder(nn.Module):
    """Linear -> tanh -> Linear that records the device and batch size of every call (shared by replicas)."""

    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(3, 5), nn.Linear(5, 2)
        self.calls = []

    def forward(self, x):
        self.calls.append((x.device, x.shape[0]))
        return self.fc2(self.fc1(x).tanh())


def _model(seed=0, cls=Recorder):
    torch.manual_seed(seed)
    return cls().double()


def _grads(m):
    return [p.grad.numpy().copy() for p in m.parameters()]


@pytest.mark.parametrize("batch,devices,expected", [
    (8, 4, [2, 2, 2, 2]), (7, 4, [2, 2, 2, 1]), (5, 4, [2, 2, 1]), (2, 4, [1, 1]), (1, 3, [1]), (9, 2, [5, 4])])
def test_outputs_and_gradients_equal_the_single_module(gpus, batch, devices, expected):
    gpus(devices)
    single, m = _model(), _model()
    dp = nn.DataParallel(m)
    assert dp.device_ids == list(range(devices)) and dp.output_device == 0
    x = torch.randn(batch, 3, dtype=torch.float64)
    y = torch.randn(batch, 2, dtype=torch.float64)
    out = dp(x)
    assert out.device == CPU and out.shape == (batch, 2)
    # the batch is split as Tensor.chunk splits it: fewer replicas run when it is small
    assert [n for _, n in m.calls] == expected
    assert [d for d, _ in m.calls] == [CPU if i % 2 == 0 else STANDIN for i in range(len(expected))]
    ref = single(x)
    np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), rtol=1e-14, atol=1e-15)
    nn.MSELoss()(out, y).backward()
    nn.MSELoss()(ref, y).backward()
    for g, r in zip(_grads(m), _grads(single)):
        np.testing.assert_allclose(g, r, rtol=1e-12, atol=1e-15)
    assert all(p.is_leaf and p.device == CPU for p in m.parameters())


def test_training_matches_the_single_module(gpus):
    gpus(3)
    single, m = _model(1), _model(1)
    dp = nn.DataParallel(m)
    opts = [optim.SGD(single.parameters(), lr=0.1, momentum=0.9), optim.SGD(dp.parameters(), lr=0.1, momentum=0.9)]
    x, y = torch.randn(10, 3, dtype=torch.float64), torch.randn(10, 2, dtype=torch.float64)
    for _ in range(4):
        for net, opt in zip((single, dp), opts):
            opt.zero_grad()
            nn.MSELoss()(net(x), y).backward()
            opt.step()
    for p, q in zip(m.parameters(), single.parameters()):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-12)


Pair = namedtuple("Pair", "a b")


class Mixed(nn.Module):
    """Nested inputs, keyword tensors, non-tensor options and a dict of outputs."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, pair, extra, scale=None, shift=0.0, tag="t"):
        assert tag == "t" and isinstance(pair, Pair)
        h = self.fc(pair.a * scale + shift) + extra["e"] * pair.b
        return {"y": h, "parts": (h.sum(1), None), "lst": [h[:, :1]]}


@pytest.mark.parametrize("batch", [6, 5, 2])
def test_kwargs_nested_inputs_and_dict_outputs(gpus, batch):
    gpus(4)
    torch.manual_seed(0)
    single = Mixed().double()
    m = copy.deepcopy(single)
    dp = nn.DataParallel(m)
    a, b = torch.randn(batch, 3, dtype=torch.float64), torch.randn(batch, 1, dtype=torch.float64)
    e = torch.randn(batch, 2, dtype=torch.float64, requires_grad=True)
    scale = torch.randn(batch, 1, dtype=torch.float64)
    args = (Pair(a, b), {"e": e})
    out = dp(*args, scale=scale, shift=0.5, tag="t")
    ref = single(Pair(a, b), {"e": e}, scale=scale, shift=0.5)
    assert set(out) == {"y", "parts", "lst"} and out["parts"][1] is None and isinstance(out["lst"], list)
    for got, want in ((out["y"], ref["y"]), (out["parts"][0], ref["parts"][0]), (out["lst"][0], ref["lst"][0])):
        np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-14)
    (out["y"].pow(2).sum() + out["parts"][0].sum()).backward()
    ge = e.grad.numpy().copy()
    e.grad = None
    (ref["y"].pow(2).sum() + ref["parts"][0].sum()).backward()
    np.testing.assert_allclose(ge, e.grad.numpy(), rtol=1e-13)  # gradients reach scattered inputs
    for g, r in zip(_grads(m), _grads(single)):
        np.testing.assert_allclose(g, r, rtol=1e-13)


def test_scatter_and_gather_functions():
    devs = [CPU, STANDIN, CPU]
    x = torch.arange(10.0).view(5, 2)
    chunks = parallel.scatter((x, "s", [x[:, 0]]), devs)
    assert len(chunks) == 3 and [c[0].shape[0] for c in chunks] == [2, 2, 1] and chunks[1][0].device == STANDIN
    assert [c[1] for c in chunks] == ["s"] * 3 and isinstance(chunks[0][2], list)
    assert parallel.scatter({"k": 3}, devs) == [{"k": 3}] * 3
    ins, kws = parallel.scatter_kwargs((x[:2],), {"opt": 1}, devs)
    assert len(ins) == len(kws) == 3 and kws[2] == {"opt": 1}  # the non-tensor kwargs reach every device
    ins, kws = parallel.scatter_kwargs((), {"t": x}, devs)
    assert ins == ((), (), ()) and [k["t"].shape[0] for k in kws] == [2, 2, 1]
    x = torch.arange(6.0).view(2, 3)
    parts = parallel.scatter(x, devs[:2], dim=1)
    assert [p.shape for p in parts] == [(2, 2), (2, 1)]
    assert torch.equal(parallel.gather(parts, "cpu", dim=-1), x)
    assert parallel.gather([x, x.to("standin")], STANDIN).device == STANDIN
    with pytest.warns(UserWarning, match="all input tensors were scalars"):
        v = parallel.gather([torch.tensor(1.0), torch.tensor(2.0).to("standin")], -1)
    assert v.tolist() == [1.0, 2.0]
    with pytest.raises(ValueError, match="same number of keys"):
        parallel.gather([{"a": x}, {"a": x, "b": x}], "cpu")
    with pytest.raises(TypeError, match="outputs of type str"):
        parallel.gather(["a", "b"], "cpu")


def test_replicas_share_buffers_on_the_first_device_only():
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)).double()
    ref = copy.deepcopy(m)
    dp = nn.DataParallel(m, device_ids=["cpu", "standin"])
    x = torch.randn(8, 3, dtype=torch.float64)
    dp(x)
    ref(x[:4])  # in-place updates of the first replica (on the module's device) are kept; the others are lost
    np.testing.assert_allclose(m[1].running_mean.numpy(), ref[1].running_mean.numpy(), rtol=1e-14)
    assert m[1].num_batches_tracked.item() == 1
    reps = parallel.replicate(m, ["cpu", "standin"])
    assert reps[0][1].running_mean is m[1].running_mean and reps[1][1].running_mean.device == STANDIN
    assert list(reps[0].parameters()) == [] and reps[1][0].weight.grad_fn is not None
    with torch.no_grad():
        assert not dp(x).requires_grad  # replicas are detached under no_grad
    assert not parallel.replicate(m, ["cpu", "standin"], detach=True)[1][0].weight.requires_grad


def test_device_rules(gpus):
    m = _model()
    dp = nn.DataParallel(m)  # no GPU: PyTorch runs the module itself
    assert dp.device_ids == [] and torch.equal(dp(torch.ones(2, 3, dtype=torch.float64)),
                                               m(torch.ones(2, 3, dtype=torch.float64)))
    assert nn.DataParallel(m, device_ids=[0, 1]).device_ids == []  # integer ids are ignored without a GPU
    assert list(dp.state_dict()) == ["module." + k for k in m.state_dict()]
    # the module must be on device_ids[0]
    dp = nn.DataParallel(m, device_ids=["standin", "cpu"])
    assert dp.device_ids == [STANDIN, CPU] and dp.output_device == STANDIN
    with pytest.raises(RuntimeError, match=r"on device standin:0 \(device_ids\[0\]\) but found one of them on "
                                           r"device: cpu"):
        dp(torch.ones(2, 3, dtype=torch.float64))
    # one device: the module is moved there, inputs follow
    one = nn.DataParallel(_model(), device_ids=["standin"])
    assert all(p.device == STANDIN for p in one.parameters())
    assert one(torch.ones(2, 3, dtype=torch.float64)).device == STANDIN
    gpus(2)
    dp = nn.DataParallel(_model(), output_device=1)
    assert dp.device_ids == [0, 1] and dp(torch.ones(4, 3, dtype=torch.float64)).device == STANDIN
    dp = nn.DataParallel(_model(), output_device=-1)
    assert dp(torch.ones(4, 3, dtype=torch.float64)).device == CPU


def test_state_dict_round_trip_and_errors_name_the_replica(gpus):
    gpus(2)
    m = _model()
    dp = nn.DataParallel(m)
    other = nn.DataParallel(_model(5))
    other.load_state_dict(dp.state_dict())
    x = torch.randn(4, 3, dtype=torch.float64)
    assert torch.equal(dp(x), other(x))
    with pytest.raises(RuntimeError, match=r"Caught OpError in replica 0 on device cpu: linear: input \(2, 7\)"):
        dp(torch.randn(4, 7, dtype=torch.float64))


def test_functional_form_and_overridable_steps(gpus):
    gpus(3)
    single, m = _model(), _model()
    x = torch.randn(7, 3, dtype=torch.float64)
    out = torch.nn.parallel.data_parallel(m, x, output_device=1)
    assert out.device == STANDIN and [n for _, n in m.calls] == [3, 3, 1]
    out.sum().backward()
    single(x).sum().backward()
    for g, r in zip(_grads(m), _grads(single)):
        np.testing.assert_allclose(g, r, rtol=1e-13)
    assert torch.equal(torch.nn.parallel.data_parallel(m, (x,), device_ids=["cpu"]), m(x))
    with pytest.raises(RuntimeError, match=r"device_ids\[0\]"):
        torch.nn.parallel.data_parallel(m, x, device_ids=["standin", "cpu"])

    class Summed(nn.DataParallel):
        def gather(self, outputs, output_device):
            seen.append((len(outputs), output_device))
            return sum(o.sum().to("cpu") for o in outputs)

    seen = []
    total = Summed(_model())(x)
    assert seen == [(3, 0)] and total.item() == pytest.approx(_model()(x).sum().item(), rel=1e-13)
