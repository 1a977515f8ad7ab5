"""funcgrad's transformations over code written with funcgrad.compat (one dispatch path):
fg.grad / fg.vmap / fg.jvp see through compat ops and nn.Modules, nested without
perturbation confusion, and compat autograd differentiates through fg's results."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.compat as torch
import funcgrad.numpy as fnp
from funcgrad.compat import nn
from funcgrad.compat.nn import functional as F


def _np(x):
    return np.asarray(x.detach().numpy() if isinstance(x, torch.Tensor) else x)


def _mix(x):
    return torch.sum(torch.tanh(x) * x + torch.exp(x * 0.5) / (x * x + 1.0) - torch.sin(x) ** 2)


X = np.array([0.3, -1.2, 0.7, 2.0])


def test_grad_of_compat_ops_equals_compat_backward():
    x = torch.tensor(X, requires_grad=True)
    _mix(x).backward()
    g = fg.grad(_mix)(fg.asarray(X))
    np.testing.assert_allclose(_np(g), _np(x.grad), rtol=1e-12)
    g_t = fg.grad(_mix)(torch.tensor(X))  # a Tensor input: the gradient is computed the same
    np.testing.assert_allclose(_np(g_t), _np(x.grad), rtol=1e-12)


def _model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 5), nn.Tanh(), nn.Linear(5, 3), nn.ReLU(), nn.Linear(3, 1)).double()


def test_grad_through_module_equals_compat_backward():
    model = _model()
    data = np.random.default_rng(0).normal(size=(6, 4))
    target = torch.tensor(np.linspace(-1, 1, 6).reshape(6, 1))

    def loss(x):
        return F.mse_loss(model(x), target)

    g = fg.grad(loss)(fg.asarray(data))
    assert all(p.grad is None for p in model.parameters())  # fg.grad leaves compat's .grad alone
    x = torch.tensor(data, requires_grad=True)
    loss(x).backward()
    np.testing.assert_allclose(_np(g), _np(x.grad), rtol=1e-10)


def test_vmap_over_compat_module_equals_per_example():
    model = _model()
    data = np.random.default_rng(1).normal(size=(5, 4))
    out = fg.vmap(lambda row: model(row))(fg.asarray(data))
    with torch.no_grad():
        ref = np.stack([_np(model(torch.tensor(r))) for r in data])
    np.testing.assert_allclose(_np(out), ref, rtol=1e-12)


def test_vmap_of_grad_over_compat_ops():
    rows = np.random.default_rng(2).normal(size=(3, 4))
    got = fg.vmap(fg.grad(_mix))(fg.asarray(rows))
    for r, g in zip(rows, np.asarray(got)):
        x = torch.tensor(r, requires_grad=True)
        _mix(x).backward()
        np.testing.assert_allclose(g, _np(x.grad), rtol=1e-12)


def test_jvp_over_compat_ops_equals_directional_derivative():
    v = np.array([1.0, -2.0, 0.5, 0.25])
    y, t = fg.jvp(_mix, (fg.asarray(X),), (fg.asarray(v),))
    x = torch.tensor(X, requires_grad=True)
    out = _mix(x)
    out.backward()
    np.testing.assert_allclose(float(y), out.item(), rtol=1e-12)
    np.testing.assert_allclose(float(t), float(_np(x.grad) @ v), rtol=1e-12)


def test_third_order_over_compat_ops():
    f = lambda x: torch.sin(x) * x  # noqa: E731  d3/dx3 (x sin x) = -3 sin x - x cos x
    for d3 in (fg.grad(fg.grad(fg.grad(f))), fg.grad(lambda x: fg.jvp(fg.grad(f), (x,), (1.0,))[1])):
        np.testing.assert_allclose(float(d3(0.7)), -3 * np.sin(0.7) - 0.7 * np.cos(0.7), rtol=1e-12)


def test_no_perturbation_confusion_across_front_doors():
    def outer(x):
        return x * fg.grad(lambda y: torch.mul(x, y))(2.0)  # d/dy (x y) = x, so outer = x ** 2

    np.testing.assert_allclose(float(fg.grad(outer)(1.5)), 3.0)
    x = torch.tensor(1.5, requires_grad=True)  # compat autograd below fg: a Tensor input
    outer(x).backward()
    np.testing.assert_allclose(x.grad.item(), 3.0)


def test_compat_backward_through_fg_grad_of_compat_code():
    x = torch.tensor(X, requires_grad=True)
    g = fg.grad(_mix)(x)  # recorded by compat's autograd (x requires grad)
    assert isinstance(g, torch.Tensor) and g.requires_grad
    g.sum().backward()
    h = fg.hessian(_mix)(fg.asarray(X))
    np.testing.assert_allclose(_np(x.grad), np.asarray(h).sum(0), rtol=1e-10)


def test_tracer_operands_errors_stay_pytorch_errors():
    with pytest.raises(RuntimeError, match="mat1 and mat2 shapes cannot be multiplied"):
        fg.grad(lambda x: torch.mm(x, torch.ones(3, 5, dtype=torch.float64)).sum())(fg.asarray(np.ones((2, 4))))


torch.manual_seed(3)
_LN, _BN, _CONV = nn.LayerNorm(6).double(), nn.BatchNorm1d(6).double().eval(), nn.Conv1d(4, 2, 3).double()
_TGT = torch.tensor([0, 2, 1, 5])
OPS = {
    "relu": lambda v: F.relu(v).sum(), "softmax": lambda v: (F.softmax(v, dim=1) * torch.arange(6.0)).sum(),
    "log_softmax": lambda v: F.log_softmax(v, dim=1)[:, 2].sum(), "cross_entropy": lambda v: F.cross_entropy(v, _TGT),
    "sigmoid": lambda v: torch.sigmoid(v).sum(), "mean": lambda v: torch.mean(v * v),
    "reshape": lambda v: (torch.reshape(v, (24,)) * torch.arange(24.0)).sum(),
    "transpose": lambda v: torch.transpose(v, 0, 1)[1].sum(), "cat": lambda v: torch.cat([v, v * v], 0).sum(),
    "stack": lambda v: (torch.stack([v, torch.exp(v)]) ** 2).sum(), "clamp": lambda v: torch.clamp(v, -0.5, 0.5).sum(),
    "where": lambda v: torch.where(v > 0, v * v, 0.0).sum(), "max": lambda v: torch.max(v * v),
    "amax": lambda v: torch.amax(v, dim=1).sum(), "layer_norm": lambda v: (_LN(v) ** 2).sum(),
    "batch_norm_eval": lambda v: (_BN(v) ** 2).sum(), "conv1d": lambda v: (_CONV(v) ** 2).sum(),
    "gelu": lambda v: F.gelu(v).sum(), "norm": lambda v: torch.norm(v), "getitem": lambda v: v[1:3].sum(),
    "matmul": lambda v: torch.matmul(v, v.T).sum(), "flatten": lambda v: (torch.flatten(v) ** 3).sum(),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_grad_of_compat_op_equals_compat_backward(name):
    data = np.random.default_rng(4).normal(size=(4, 6))
    x = torch.tensor(data, requires_grad=True)
    OPS[name](x).backward()
    np.testing.assert_allclose(_np(fg.grad(OPS[name])(fg.asarray(data))), _np(x.grad), rtol=1e-10, atol=1e-12)
