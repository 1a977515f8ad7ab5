"""torch.compile through fg.jit: compiled forward and backward equal eager, one trace per guard set,
recompilation on guard changes, graph breaks (eager fallback or fullgraph errors), decorators."""

import warnings

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import nn
from funcgrad.compat.nn import functional as F


def _mlp():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3)).double()


def _np(t):
    return t.detach().numpy()


def test_compiled_module_forward_backward_and_training_match_eager():
    eager, compiled_src = _mlp(), _mlp()
    compiled = torch.compile(compiled_src)
    assert compiled._orig_mod is compiled_src and isinstance(compiled, nn.Module)
    opt_e = torch.optim.SGD(eager.parameters(), lr=0.1)
    opt_c = torch.optim.SGD(compiled.parameters(), lr=0.1)
    torch.manual_seed(1)
    x, y = torch.randn(16, 4, dtype=torch.float64), torch.randint(0, 3, (16,))
    for _ in range(10):
        for model, opt in ((eager, opt_e), (compiled, opt_c)):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
    for a, b in zip(eager.parameters(), compiled_src.parameters()):
        np.testing.assert_allclose(_np(a), _np(b), rtol=1e-10, atol=1e-12)
    assert compiled._compiler.jitted.trace_count == 1  # one graph, reused while the weights change
    assert list(compiled.state_dict())[0] == "_orig_mod.0.weight"  # as PyTorch's OptimizedModule


def test_guards_retrace_on_shape_training_mode_and_grad_mode():
    model = torch.compile(_mlp())
    jitted = model._compiler.jitted
    x = torch.randn(5, 4, dtype=torch.float64)
    model(x)
    model(x)
    assert jitted.trace_count == 1
    model(torch.randn(7, 4, dtype=torch.float64))
    assert jitted.trace_count == 2
    model.eval()
    model(x)
    assert jitted.trace_count == 3
    with torch.no_grad():
        out = model(x)
    assert jitted.trace_count == 4 and out.grad_fn is None


def test_dropout_in_training_falls_back_to_eager_and_in_eval_compiles():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5), nn.BatchNorm1d(4)).double()
    model = torch.compile(net)
    x = torch.randn(8, 4, dtype=torch.float64)
    with pytest.warns(UserWarning, match="graph break"):
        a = model(x)
    b = model(x)  # eager for this signature from now on: new random masks each call
    assert not np.allclose(_np(a), _np(b))
    model.eval()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = model(x)
    np.testing.assert_allclose(_np(out), _np(net(x)), rtol=1e-12)
    assert model._compiler.jitted.trace_count == 1


def test_fullgraph_names_what_cannot_be_traced():
    def f(x):
        if x.sum().item() > 0:  # data-dependent Python control flow
            return x * 2
        return x

    with pytest.raises(RuntimeError, match="fullgraph=True.*cannot be traced"):
        torch.compile(f, fullgraph=True)(torch.ones(3))
    with pytest.warns(UserWarning, match="graph break"):
        assert torch.compile(f)(torch.ones(3)).tolist() == [2.0, 2.0, 2.0]


def test_compiled_function_gradients_and_decorator_forms():
    @torch.compile
    def f(x, w):
        return torch.tanh(x @ w).sum()

    @torch.compile(mode="max-autotune", fullgraph=True)
    def g(x):
        return torch.sin(x) * 2

    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    w = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
    f(x, w).backward()
    x2, w2 = x.detach().requires_grad_(), w.detach().requires_grad_()
    torch.tanh(x2 @ w2).sum().backward()
    np.testing.assert_allclose(_np(x.grad), _np(x2.grad), rtol=1e-12)
    np.testing.assert_allclose(_np(w.grad), _np(w2.grad), rtol=1e-12)
    np.testing.assert_allclose(_np(g(torch.ones(2))), 2 * np.sin(1.0) * np.ones(2))
    m = nn.Linear(2, 2)
    assert torch.compile(m, disable=True) is m
    with pytest.raises(RuntimeError, match="unknown backend"):
        torch.compile(m, backend="tensorrt")


def test_errors_inside_the_model_are_the_eager_errors():
    lin = nn.Linear(3, 2)
    model = torch.compile(lin)
    x = torch.randn(4, 5)
    with pytest.raises(Exception) as eager:
        lin(x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no graph-break warning for the user's own mistake
        with pytest.raises(type(eager.value), match="do not match"):
            model(x)


class _Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(4 * 3 * 3, 5)

    def forward(self, x):
        x = self.pool(F.relu(self.conv(x)))
        x = x.view(x.size(0), -1).contiguous()  # Tensor methods on traced values
        return F.log_softmax(self.fc(torch.flatten(x, 1)), dim=1)


def test_module_code_with_tensor_methods_compiles_in_one_graph():
    torch.manual_seed(0)
    net = _Net().double()
    compiled = torch.compile(net, fullgraph=True)
    x = torch.randn(2, 3, 8, 8, dtype=torch.float64)
    out = compiled(x)
    np.testing.assert_allclose(_np(out), _np(net(x)), rtol=1e-12)
    out.sum().backward()
    grads = [p.grad.clone() for p in net.parameters()]
    net.zero_grad()
    net(x).sum().backward()
    for g, p in zip(grads, net.parameters()):
        np.testing.assert_allclose(_np(g), _np(p.grad), rtol=1e-10, atol=1e-14)
    assert compiled._compiler.jitted.trace_count == 1


def test_compiled_backward_reads_saved_residuals_and_refuses_double_backward():
    model = _mlp()
    compiled = torch.compile(model)
    x = torch.randn(5, 4, dtype=torch.float64, requires_grad=True)
    out = compiled(x)
    assert out.grad_fn.name() == "CompiledFunctionBackward"  # as AOTAutograd's node
    out.sum().backward(retain_graph=True)
    gx, gw = x.grad.clone(), model[0].weight.grad.clone()
    out.sum().backward()  # retained: a second backward accumulates
    np.testing.assert_allclose(_np(x.grad), 2 * _np(gx), rtol=1e-12)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        out.sum().backward()
    x.grad = None
    model.zero_grad()
    model(x).sum().backward()  # eager
    np.testing.assert_allclose(_np(gx), _np(x.grad), rtol=1e-12)
    np.testing.assert_allclose(_np(gw), _np(model[0].weight.grad), rtol=1e-12)
    (g,) = torch.autograd.grad(compiled(x).sum(), x, create_graph=True)  # first order is fine
    np.testing.assert_allclose(_np(g), _np(gx), rtol=1e-12)
    with pytest.raises(RuntimeError, match="does not currently support double backward"):
        g.sum().backward()  # PyTorch's error: the compiled backward is not differentiable


def test_compiled_backward_with_frozen_parameters_and_integer_inputs():
    torch.manual_seed(0)
    emb, lin = nn.Embedding(10, 4).double(), nn.Linear(4, 2).double()
    lin.weight.requires_grad_(False)
    model = nn.Sequential(emb, lin)
    compiled = torch.compile(model)
    idx = torch.tensor([[1, 2, 2], [9, 0, 1]])
    compiled(idx).pow(2).sum().backward()
    got = emb.weight.grad.clone(), lin.bias.grad.clone()
    assert lin.weight.grad is None
    model.zero_grad()
    model(idx).pow(2).sum().backward()
    np.testing.assert_allclose(_np(got[0]), _np(emb.weight.grad), rtol=1e-12)
    np.testing.assert_allclose(_np(got[1]), _np(lin.bias.grad), rtol=1e-12)
