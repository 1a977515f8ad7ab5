"""Mixed precision: torch.autocast regions (cast policy), GradScaler, the deprecated torch.cuda.amp spellings."""

from __future__ import annotations

import pickle
import threading
import types
import warnings

import ml_dtypes
import numpy as np
import pytest

import funcgrad.compat as torch
import funcgrad.compat.nn as nn
import funcgrad.compat.nn.functional as F
from funcgrad import backend
from funcgrad.compat.amp import policy

from .test_launcher import launch

AC = dict(device_type="cpu", dtype=torch.float16)
no_cuda = pytest.mark.skipif(backend.cuda_available(), reason="PyTorch's behaviour without a GPU")


def _mlp(seed=0):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))


def _data():
    torch.manual_seed(1)
    x = torch.randn(32, 4)
    return x, (x[:, 0] > 0).long() + (x[:, 1] > 0).long()


def _train(amp, steps=40):
    model = _mlp()
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 12, enabled=amp)
    x, y = _data()
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        with torch.autocast(enabled=amp, **AC):
            out = model(x)
            loss = F.cross_entropy(out, y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        losses.append(loss.item())
    return model, losses, scaler


def test_amp_training_loop_matches_float32():
    m16, l16, scaler = _train(True)
    m32, l32, _ = _train(False)
    assert l16[-1] < 0.6 * l16[0]
    np.testing.assert_allclose(l16, l32, rtol=2e-2, atol=2e-3)
    for p16, p32 in zip(m16.parameters(), m32.parameters()):
        assert p16.dtype == torch.float32 and p16.grad.dtype == torch.float32  # master weights stay float32
        np.testing.assert_allclose(p16.detach().numpy(), p32.detach().numpy(), rtol=2e-2, atol=2e-3)
    assert scaler.get_scale() == 2.0 ** 12  # no overflow, fewer than growth_interval steps


def test_gradients_flow_through_casts():
    lin = nn.Linear(3, 2)
    x = torch.randn(5, 3)
    with torch.autocast(**AC):
        out = lin(x) + lin(x)  # the weight is used twice: its cached float16 cast accumulates both
    assert out.dtype == torch.float16
    out.float().sum().backward()
    g16 = lin.weight.grad.clone()
    lin.weight.grad = None
    (lin(x) + lin(x)).sum().backward()
    assert g16.dtype == torch.float32
    np.testing.assert_allclose(g16.numpy(), lin.weight.grad.numpy(), rtol=2e-3, atol=2e-3)


def test_policy_dtypes():
    x = torch.randn(4, 3)
    w = torch.randn(5, 3)
    h = x.half()
    with torch.autocast(**AC):
        assert F.linear(x, w, torch.randn(5)).dtype == torch.float16
        assert (x @ w.T).dtype == torch.float16 and torch.mm(x, w.t()).dtype == torch.float16
        assert x.matmul(w.T).dtype == torch.float16
        assert torch.bmm(x[None], w.T[None]).dtype == torch.float16
        assert F.conv2d(torch.randn(1, 1, 4, 4), torch.randn(2, 1, 3, 3)).dtype == torch.float16
        assert torch.softmax(h, -1).dtype == torch.float32 and F.log_softmax(h, dim=1).dtype == torch.float32
        assert h.exp().dtype == torch.float32 and (h ** 2).dtype == torch.float32 and h.sum().dtype == torch.float32
        assert F.layer_norm(h, (3,)).dtype == torch.float32
        assert F.mse_loss(h, h).dtype == torch.float32
        assert (h + 1).dtype == torch.float16 and torch.relu(h).dtype == torch.float16  # not in the table
        assert (h + x).dtype == torch.float32  # others: the widest input type
        d = torch.randn(4, 3, dtype=torch.float64)
        assert (d @ d.T).dtype == torch.float64  # doubles are left alone, as in PyTorch
        i = torch.arange(6).reshape(2, 3)
        assert (i @ i.T).dtype == torch.int64
        bn = nn.BatchNorm1d(3)
        assert bn(h).dtype == torch.float16 and bn.running_mean.dtype == torch.float32
        # statistics in float32 (of the float16 input's values)
        np.testing.assert_allclose(bn.running_mean.numpy(), 0.1 * h.numpy().astype(np.float32).mean(0), rtol=1e-6)
    assert (x @ w.T).dtype == torch.float32


def test_cache_disabled_region_still_differentiates():
    lin = nn.Linear(3, 2)
    with torch.autocast(cache_enabled=False, **AC):
        assert not torch.is_autocast_cache_enabled()
        out = lin(torch.ones(1, 3)) * 2 + lin(torch.ones(1, 3))
    assert torch.is_autocast_cache_enabled()
    out.float().sum().backward()
    np.testing.assert_allclose(lin.weight.grad.numpy(), np.full((2, 3), 3.0))


def test_multihead_attention_projections_run_in_float16():
    mha = nn.MultiheadAttention(8, 2, batch_first=True)
    q = torch.randn(2, 5, 8)
    with torch.autocast(**AC):
        out, _ = mha(q, q, q)
    assert out.dtype == torch.float16
    ref, _ = mha(q, q, q)
    np.testing.assert_allclose(out.float().detach().numpy(), ref.detach().numpy(), atol=1e-2)


def test_nested_disabled_region_and_state():
    x = torch.randn(2, 3)
    assert not torch.is_autocast_enabled("cpu")
    with torch.autocast(**AC):
        assert torch.is_autocast_enabled("cpu") and not torch.is_autocast_enabled()
        assert torch.get_autocast_dtype("cpu") == torch.float16
        with torch.autocast("cpu", enabled=False):
            assert not torch.is_autocast_enabled("cpu")
            assert (x @ x.T).dtype == torch.float32
        assert (x @ x.T).dtype == torch.float16
    assert not torch.is_autocast_enabled("cpu") and not policy.installed()
    assert torch.get_autocast_gpu_dtype() == torch.float16


def test_originals_restored_outside_regions():
    before = (torch.matmul, torch.Tensor.sum, F.linear, torch.Tensor.__pow__)
    with torch.autocast(**AC):
        assert torch.matmul is not before[0]
    assert (torch.matmul, torch.Tensor.sum, F.linear, torch.Tensor.__pow__) == before
    with pytest.raises(ZeroDivisionError):
        with torch.autocast(**AC):
            1 / 0
    assert torch.matmul is before[0] and not torch.is_autocast_enabled("cpu")


def test_decorator_form():
    @torch.autocast(**AC)
    def f(a):
        return a @ a.T

    x = torch.randn(2, 3)
    assert f(x).dtype == torch.float16 and f(x).dtype == torch.float16
    assert (x @ x.T).dtype == torch.float32


def test_autocast_is_thread_local():
    x = torch.randn(2, 3)
    seen = []
    with torch.autocast(**AC):
        t = threading.Thread(target=lambda: seen.append((x @ x.T).dtype))
        t.start()
        t.join()
        assert (x @ x.T).dtype == torch.float16
    assert seen == [torch.float32]


def test_cpu_autocast_defaults_to_bfloat16():
    lin = torch.nn.Linear(4, 3)
    x = torch.randn(2, 4)
    with torch.autocast("cpu"):  # PyTorch's cpu default: bfloat16
        assert torch.get_autocast_dtype("cpu") == torch.bfloat16
        y = lin(x)
        assert y.dtype == torch.bfloat16 and (x @ x.T).dtype == torch.bfloat16
    # the product of the bfloat16-rounded operands, accumulated in float32 and rounded once
    want = (x.numpy().astype(ml_dtypes.bfloat16).astype(np.float64)
            @ lin.weight.detach().numpy().astype(ml_dtypes.bfloat16).astype(np.float64).T)
    want = want.astype(np.float32) + lin.bias.detach().numpy().astype(ml_dtypes.bfloat16).astype(np.float32)
    np.testing.assert_allclose(y.detach().float().numpy(), want.astype(ml_dtypes.bfloat16).astype(np.float32),
                               rtol=2 ** -7)
    y.float().sum().backward()
    assert lin.weight.grad.dtype == torch.float32  # through the cast, to the float32 weight


def test_bad_arguments():
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=False):
        assert not torch.is_autocast_enabled("cpu")
    with pytest.warns(UserWarning, match="target dtype is not supported"):
        a = torch.autocast("cpu", dtype=torch.float64)
    with a:
        assert not torch.is_autocast_enabled("cpu")
    with pytest.raises(RuntimeError, match="unsupported autocast device_type 'tpu'"):
        torch.autocast("tpu")


def test_binary_cross_entropy_is_float32_on_cpu():
    p = torch.sigmoid(torch.randn(4)).half()
    with torch.autocast(**AC):
        assert F.binary_cross_entropy(p, torch.ones(4).half()).dtype == torch.float32


def _scaled_step(scaler, opt, model, x, bad=False):
    opt.zero_grad()
    loss = model(x).sum()
    scaler.scale(loss).backward()
    if bad:
        next(model.parameters()).grad[0, 0] = float("inf")
    return scaler.step(opt)


def test_grad_scaler_skips_inf_step_and_backs_off():
    model = nn.Linear(3, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu", init_scale=1024.0, growth_interval=3)
    x = torch.randn(4, 3)
    w0 = model.weight.detach().clone()
    assert _scaled_step(scaler, opt, model, x, bad=True) is None
    scaler.update()
    assert torch.equal(model.weight, w0) and scaler.get_scale() == 512.0
    assert scaler._get_growth_tracker() == 0
    for k in range(3):
        _scaled_step(scaler, opt, model, x)
        scaler.update()
        assert scaler.get_scale() == (512.0 if k < 2 else 1024.0)
    assert not torch.equal(model.weight, w0)
    assert scaler._get_growth_tracker() == 0


def test_step_returns_optimizer_result_and_unscales():
    model = nn.Linear(3, 1, bias=False)
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    scaler = torch.amp.GradScaler("cpu", init_scale=8.0)
    x = torch.randn(2, 3)
    (scaler.scale(model(x).sum())).backward()
    scaled = model.weight.grad.clone()
    assert scaler.step(opt, None) is None  # SGD.step(closure=None) returns None too
    np.testing.assert_allclose(model.weight.grad.numpy(), scaled.numpy() / 8.0, rtol=1e-6)


def test_unscale_then_clip_grad_norm():
    model = nn.Linear(3, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 10)
    x = torch.randn(4, 3)
    scaler.scale((model(x) * 100).sum()).backward()
    scaler.unscale_(opt)
    norm = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    assert float(norm) < 1e4  # unscaled: the true gradient norm, not 1024x it
    total = sum(float((p.grad ** 2).sum()) for p in model.parameters()) ** 0.5
    assert total == pytest.approx(1.0, rel=1e-4)
    with pytest.raises(RuntimeError, match="unscale_\\(\\) has already been called"):
        scaler.unscale_(opt)
    scaler.step(opt)
    with pytest.raises(RuntimeError, match="unscale_\\(\\) is being called after step"):
        scaler.unscale_(opt)
    with pytest.raises(RuntimeError, match="step\\(\\) has already been called"):
        scaler.step(opt)
    scaler.update()
    with pytest.raises(RuntimeError, match="Closure use is not currently supported"):
        scaler.step(opt, closure=lambda: 0)


def test_grad_scaler_errors_before_scale_and_fp16_grads():
    scaler = torch.amp.GradScaler("cpu")
    model = nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.raises(AssertionError, match="did not use scaler.scale"):
        scaler.step(opt)
    half = nn.Linear(2, 1).half()
    opt16 = torch.optim.SGD(half.parameters(), lr=0.1)
    scaler.scale(half(torch.randn(3, 2).half()).sum()).backward()
    with pytest.raises(ValueError, match="Attempting to unscale FP16 gradients"):
        scaler.unscale_(opt16)
    with pytest.raises(AssertionError, match="growth factor must be > 1.0"):
        torch.amp.GradScaler("cpu", growth_factor=1.0)


def test_scale_nested_outputs():
    scaler = torch.amp.GradScaler("cpu", init_scale=4.0)
    a, b = torch.ones(2), torch.ones(1)
    out = scaler.scale([a, (b, a)])
    assert type(out) is list and type(out[1]) is tuple
    assert out[0].tolist() == [4.0, 4.0] and out[1][0].tolist() == [4.0]
    assert [t.tolist() for t in scaler.scale(iter([b]))] == [[4.0]]
    with pytest.raises(ValueError, match="outputs must be a Tensor"):
        scaler.scale(3.0)


def test_update_new_scale_and_state_dict_round_trip():
    _, _, scaler = _train(True, steps=3)
    scaler.update(100.0)
    assert scaler.get_scale() == 100.0
    sd = scaler.state_dict()
    assert sd == {"scale": 100.0, "growth_factor": 2.0, "backoff_factor": 0.5, "growth_interval": 2000,
                  "_growth_tracker": 3}
    other = torch.amp.GradScaler("cpu", init_scale=7.0, growth_interval=5)
    other.load_state_dict(sd)
    assert other.state_dict() == sd and other.get_growth_interval() == 2000
    other.set_growth_factor(3.0)
    other.set_backoff_factor(0.25)
    assert (other.get_growth_factor(), other.get_backoff_factor()) == (3.0, 0.25)
    assert pickle.loads(pickle.dumps(other)).state_dict() == other.state_dict()
    with pytest.raises(RuntimeError, match="source state dict is empty"):
        other.load_state_dict({})


def test_disabled_scaler_is_a_pass_through():
    scaler = torch.amp.GradScaler("cpu", enabled=False)
    loss = torch.tensor(2.0, requires_grad=True)
    assert scaler.scale(loss) is loss
    model = nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    model(torch.ones(1, 2)).sum().backward()
    w0 = model.weight.detach().clone()
    scaler.unscale_(opt)
    scaler.step(opt)
    scaler.update()
    assert not torch.equal(model.weight, w0)
    assert scaler.get_scale() == 1.0 and not scaler.is_enabled() and scaler.state_dict() == {}
    scaler.load_state_dict({})


@no_cuda
def test_cuda_without_gpu_warns_and_disables():
    with pytest.warns(UserWarning, match="torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                                         "Disabling."):
        scaler = torch.amp.GradScaler()
    assert not scaler.is_enabled()
    with pytest.warns(UserWarning, match="CUDA is not available"):
        region = torch.autocast("cuda")
    with region:
        assert not torch.is_autocast_enabled()


@no_cuda
def test_deprecated_aliases_warn():
    with pytest.warns(FutureWarning, match=r"`torch.cuda.amp.autocast\(args...\)` is deprecated"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            a = torch.cuda.amp.autocast()
    assert isinstance(a, torch.autocast)
    with pytest.warns(FutureWarning, match=r"torch.amp.GradScaler\('cuda', args...\)"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            torch.cuda.amp.GradScaler()
    with pytest.warns(FutureWarning, match=r"`torch.cpu.amp.autocast\(args...\)` is deprecated"):
        c = torch.cpu.amp.autocast(dtype=torch.float16)
    with c:
        assert torch.is_autocast_enabled("cpu")
    with pytest.warns(FutureWarning, match="torch.cpu.amp.GradScaler"):
        assert torch.cpu.amp.GradScaler().is_enabled()


def test_launcher_imports_cuda_amp(tmp_path):
    r = launch(tmp_path, """
        import torch
        from torch.cuda.amp import autocast, GradScaler
        from torch.amp import GradScaler as G2
        import torch.cpu.amp
        model = torch.nn.Linear(3, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        scaler = GradScaler(enabled=torch.cuda.is_available())
        with autocast(enabled=torch.cuda.is_available()):
            loss = model(torch.ones(2, 3)).sum()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        cpu_scaler = G2("cpu")
        with torch.autocast(device_type="cpu", dtype=torch.float16):
            out = model(torch.ones(2, 3))
        cpu_scaler.scale(out.float().sum()).backward()
        cpu_scaler.step(opt)
        cpu_scaler.update()
        print("ok", G2 is torch.amp.GradScaler, torch.cpu.amp.autocast is not None, out.dtype)
    """)
    assert r.returncode == 0, r.stderr
    assert "ok True True torch.float16" in r.stdout


def test_grad_scaler_on_the_standin_device():
    model = nn.Linear(3, 2).to("standin")
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("standin", init_scale=64.0, growth_interval=2)
    x = torch.randn(4, 3).to("standin")
    w0 = model.weight.detach().cpu()
    assert _scaled_step(scaler, opt, model, x, bad=True) is None
    scaler.update()
    assert torch.equal(model.weight.cpu(), w0) and scaler.get_scale() == 32.0
    for _ in range(2):
        _scaled_step(scaler, opt, model, x)
        scaler.update()
    assert scaler.get_scale() == 64.0 and not torch.equal(model.weight.cpu(), w0)
    assert model.weight.grad.device.type == "standin"


def test_cpu_region_leaves_other_devices_alone():
    x = torch.randn(2, 3)
    s = x.to("standin")
    with torch.autocast(**AC):
        assert (s @ s.T).dtype == torch.float32 and (x @ x.T).dtype == torch.float16


_SEEN = []


class _Square(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        _SEEN.append(("forward", torch.is_autocast_enabled("cpu"), x.dtype))
        return x @ w

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        _SEEN.append(("backward", torch.is_autocast_enabled("cpu"), g.dtype))
        return g @ w.T, x.T @ g


def test_custom_fwd_casts_inputs_and_runs_without_autocast():
    x = torch.randn(2, 3).half()
    w = torch.randn(3, 2, requires_grad=True)
    with torch.autocast(**AC):
        out = _Square.apply(x, w)
    assert out.dtype == torch.float32
    out.sum().backward()
    # forward: inputs cast to float32, autocast off; backward: the forward's state (off)
    assert _SEEN[-2:] == [("forward", False, torch.float32), ("backward", False, torch.float32)]
    assert w.grad.dtype == torch.float32
    np.testing.assert_allclose(w.grad.numpy(), (x.float().T @ torch.ones(2, 2)).numpy(), rtol=1e-6)
    outside = _Square.apply(x.float(), w)
    assert outside.dtype == torch.float32
    with pytest.raises(ValueError, match="device_type"):
        torch.amp.custom_fwd(device_type=None)


@no_cuda
def test_cuda_custom_fwd_alias_warns():
    with pytest.warns(FutureWarning, match="torch.cuda.amp.custom_fwd"):
        f = torch.cuda.amp.custom_fwd(lambda ctx, x: x)
    ctx = types.SimpleNamespace()
    assert f(ctx, 1) == 1 and ctx._fwd_used_autocast is False


class _Twice(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu")
    def forward(ctx, x):
        _SEEN.append(("forward", torch.is_autocast_enabled("cpu"), x.dtype))
        return x * 2

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, g):
        _SEEN.append(("backward", torch.is_autocast_enabled("cpu"), g.dtype))
        return g * 2


def test_custom_bwd_runs_in_the_forward_autocast_state():
    x = torch.randn(3, requires_grad=True)
    with torch.autocast(**AC):
        y = _Twice.apply(x)
    y.sum().backward()  # outside the region: backward still runs with autocast on, as its forward did
    assert _SEEN[-2:] == [("forward", True, torch.float32), ("backward", True, torch.float32)]
    assert x.grad.tolist() == [2.0, 2.0, 2.0]
