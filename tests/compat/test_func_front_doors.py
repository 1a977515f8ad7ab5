"""torch.func over funcgrad.transforms, mixed with fg.grad / fg.vmap / fg.jvp, nested to order 3;
torch.func over compat nn.Modules with buffers and dropout; randomness; chunk_size."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.compat as torch
from funcgrad.compat import func, nn
from funcgrad.compat.nn import functional as F


def _np(x):
    return np.asarray(x.detach().numpy() if isinstance(x, torch.Tensor) else x)


X = np.array([0.3, -1.2, 0.7])


def _f(t):  # f(t) = sum(sin(t) * t); third derivative per element: -3 sin t - t cos t
    return (torch.sin(t) * t).sum()


D1 = np.cos(X) * X + np.sin(X)
D3 = -3 * np.sin(X) - X * np.cos(X)


@pytest.mark.parametrize("combo", ["ttt", "ftf", "tft", "fft", "ttf"])
def test_third_derivative_mixing_front_doors(combo):
    """d3/dx3 of sum(sin x * x), each level torch.func.grad (t) or fg.grad (f), elementwise via vmap."""
    def level(door, g):
        if door == "t":
            return func.grad(lambda u: g(u).sum() if g is not _f else g(u))
        return fg.grad(lambda u: g(u).sum() if g is not _f else g(u))

    g = _f
    for door in combo:
        g = level(door, g)
    got = [float(g(torch.tensor(v))) for v in X]
    np.testing.assert_allclose(got, D3, rtol=1e-6)


def test_vmap_of_jvp_of_grad_orders_mixed():
    rows = torch.tensor(np.stack([X, 2 * X]))
    for vm, jv, gr in [(func.vmap, func.jvp, func.grad), (fg.vmap, func.jvp, fg.grad), (func.vmap, fg.jvp, func.grad)]:
        out = vm(lambda r: jv(gr(_f), (r,), (r * 0.0 + 1.0,))[1])(rows)
        want = np.stack([2 * np.cos(r) - r * np.sin(r) for r in _np(rows)])  # f'' per element
        np.testing.assert_allclose(_np(out), want, rtol=1e-6)


def test_no_perturbation_confusion_torch_func_inside_fg():
    # d/dx [x * d/dy (x y)] = d/dx x^2 = 2x
    assert float(fg.grad(lambda x: x * func.grad(lambda y: (x * y).sum())(torch.tensor(2.0)))(1.5)) == pytest.approx(3.0)
    assert float(func.grad(lambda x: (x * fg.grad(lambda y: (x * y).sum())(2.0)).sum())(torch.tensor(1.5))) == \
        pytest.approx(3.0)
    # the "egg" across doors in forward mode: d/dx [x * (d/dy x y at y=2)] with the inner in forward mode
    r = func.grad(lambda x: x * fg.jvp(lambda y: x * y, (2.0,), (1.0,))[1])(torch.tensor(1.0))
    assert float(r) == pytest.approx(2.0)


def test_fg_transforms_over_torch_func_values():
    data = np.random.default_rng(0).normal(size=(4, 3))
    per = fg.vmap(func.grad(_f))(fg.asarray(data))
    np.testing.assert_allclose(np.asarray(per), np.cos(data) * data + np.sin(data), rtol=1e-12)
    total = fg.grad(lambda a: func.vmap(_f)(a).sum())(fg.asarray(data))
    np.testing.assert_allclose(np.asarray(total), np.cos(data) * data + np.sin(data), rtol=1e-12)


def test_results_are_tensors_and_methods_work_inside():
    def g(t):
        assert isinstance(t, torch.Tensor)
        return t.view(-1).unsqueeze(0).pow(2).sum(dim=1).squeeze().mul(t.size(0))

    out = func.vmap(func.grad(g))(torch.ones(2, 3))
    assert isinstance(out, torch.Tensor) and out.shape == (2, 3)
    np.testing.assert_allclose(_np(out), np.full((2, 3), 6.0))


class _Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(4, 6)
        self.bn = nn.BatchNorm1d(6)
        self.drop = nn.Dropout(0.5)
        self.lin2 = nn.Linear(6, 1)

    def forward(self, x):
        return self.lin2(self.drop(torch.tanh(self.bn(self.lin1(x)))))


def _net():
    torch.manual_seed(0)
    net = _Net().double()
    net.bn.running_mean.copy_(torch.linspace(-0.5, 0.5, 6))
    net.bn.running_var.copy_(torch.linspace(0.5, 1.5, 6))
    return net


def test_functional_call_with_buffers_eval_matches_backward():
    net = _net().eval()
    params = {k: v.detach() for k, v in net.named_parameters()}
    buffers = {k: v.detach() for k, v in net.named_buffers()}
    x = torch.tensor(np.random.default_rng(1).normal(size=(5, 4)))

    def loss(p, b, xx):
        return func.functional_call(net, (p, b), (xx,)).pow(2).sum()

    g = func.grad(loss)(params, buffers, x)
    net.zero_grad()
    loss(dict(net.named_parameters()), buffers, x).backward()
    for k, p in net.named_parameters():
        np.testing.assert_allclose(_np(g[k]), _np(p.grad), rtol=1e-10)
    # per-example Hessian-vector products through the buffers, order 3 with vmap on top
    hv = func.vmap(lambda xx: func.jvp(func.grad(lambda p: loss(p, buffers, xx.unsqueeze(0))), (params,),
                                       ({k: torch.ones_like(v) for k, v in params.items()},))[1])(x)
    assert hv["lin1.weight"].shape == (5, 6, 4)
    one = func.jvp(func.grad(lambda p: loss(p, buffers, x[2:3])), (params,),
                   ({k: torch.ones_like(v) for k, v in params.items()},))[1]
    np.testing.assert_allclose(_np(hv["lin1.weight"][2]), _np(one["lin1.weight"]), rtol=1e-8)


def test_dropout_in_training_randomness():
    net = _net().train()
    net.bn.eval()  # batch statistics of one example are undefined: the buffers are used
    params = {k: v.detach() for k, v in net.named_parameters()}
    x = torch.ones(8, 4, dtype=torch.float64)

    def out(p, row):
        return func.functional_call(net, p, (row.unsqueeze(0),)).sum()

    with pytest.raises(RuntimeError, match="randomness error mode"):
        func.vmap(out, in_dims=(None, 0))(params, x)
    same = func.vmap(out, in_dims=(None, 0), randomness="same")(params, x)
    assert np.unique(_np(same)).size == 1
    diff = func.vmap(out, in_dims=(None, 0), randomness="different")(params, x)
    assert np.unique(_np(diff)).size > 1
    # the gradient sees the mask its own forward drew: grad of a dropout layer is the mask / (1 - p)
    torch.manual_seed(5)
    g = func.vmap(func.grad(lambda r: F.dropout(r, 0.5).sum()), randomness="different")(torch.ones(6, 5))
    assert set(np.unique(_np(g))) <= {0.0, 2.0} and np.unique(_np(g).sum(1)).size > 1


def test_random_factories_under_nested_vmaps():
    r = func.vmap(func.vmap(lambda t: t + torch.rand(()), randomness="different"), randomness="same")(torch.zeros(3, 4))
    v = _np(r)
    assert np.unique(v).size == 4 and all(np.array_equal(v[0], v[i]) for i in range(3))
    r = func.vmap(func.vmap(lambda t: t + torch.randn(2), randomness="different"), randomness="different")(
        torch.zeros(3, 4))
    assert r.shape == (3, 4, 2) and np.unique(_np(r)).size == 24
    with pytest.raises(RuntimeError, match="not this random operation"):
        func.vmap(lambda t: t + torch.zeros(2).uniform_(), randomness="different")(torch.zeros(3, 2))


def test_vmap_chunk_size():
    a = torch.tensor(np.arange(15.0).reshape(5, 3))
    np.testing.assert_allclose(_np(func.vmap(lambda t: (t * t).sum(), chunk_size=2)(a)), (_np(a) ** 2).sum(1))
    r = func.vmap(lambda t: (t, t.sum()), in_dims=1, out_dims=(1, 0), chunk_size=2)(a)
    np.testing.assert_allclose(_np(r[0]), _np(a))
    np.testing.assert_allclose(_np(r[1]), _np(a).sum(0))
    same = func.vmap(lambda t: t + torch.rand(()), randomness="same", chunk_size=2)(torch.zeros(5))
    assert np.unique(_np(same)).size == 1
    with pytest.raises(ValueError, match="chunk_size should be None or greater than 0"):
        func.vmap(lambda t: t, chunk_size=0)
    with pytest.raises(ValueError, match="chunk_size"):
        func.jacrev(lambda t: t, chunk_size=0)


def test_pytorch_errors():
    with pytest.raises(RuntimeError, match="scalar Tensor, got tensor with 1 dims"):
        func.grad(lambda t: t.sum().reshape(1))(torch.ones(2))
    with pytest.raises(ValueError, match="must be Tensor"):
        func.grad(lambda t: t)(3.0)
    with pytest.raises(ValueError, match="must only return Tensors"):
        func.vmap(lambda t: 3.0)(torch.ones(2))
    with pytest.raises(ValueError, match="expected in_dim to satisfy -1 <= in_dim < 1"):
        func.vmap(lambda t: t, in_dims=2)(torch.ones(2))
    with pytest.raises(RuntimeError, match="different size"):
        func.jvp(lambda t: t, (torch.ones(2),), (torch.ones(3),))
    with pytest.raises(RuntimeError, match="item"):
        func.vmap(lambda t: t.sum().item())(torch.ones(2, 2))
    with pytest.raises(RuntimeError, match="Only allowed values for randomness"):
        func.vmap(lambda t: t, randomness="sometimes")


def test_no_grad_and_detach_inside_stop_the_gradient():
    x = torch.tensor([1.0, 2.0])

    def f(t):
        with torch.no_grad():
            y = t * t
        return (y * t).sum()

    np.testing.assert_allclose(_np(func.grad(f)(x)), [1.0, 4.0])
    np.testing.assert_allclose(_np(func.grad(lambda t: (t.detach() * t).sum())(x)), [1.0, 2.0])


def test_closed_over_parameter_under_vmap_of_grad_backward():
    w = torch.tensor([1.0, -2.0], requires_grad=True)
    rows = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    g = func.vmap(func.grad(lambda r: (torch.sin(r * w)).sum()))(rows)  # w cos(r w)
    np.testing.assert_allclose(_np(g), _np(w) * np.cos(_np(rows) * _np(w)), rtol=1e-6)
    g.sum().backward()  # d/dw sum_r w cos(r w) = sum_r cos(r w) - r w sin(r w)
    r, wv = _np(rows), _np(w)
    np.testing.assert_allclose(_np(w.grad), (np.cos(r * wv) - r * wv * np.sin(r * wv)).sum(0), rtol=1e-5)


def test_checkpoint_under_transformations():
    from funcgrad.compat.utils.checkpoint import checkpoint

    f = lambda t: torch.sin(t) * t  # noqa: E731
    x = torch.tensor(X)
    np.testing.assert_allclose(_np(func.grad(lambda t: checkpoint(f, t, use_reentrant=False).sum())(x)), D1,
                               rtol=1e-12)
    np.testing.assert_allclose(np.asarray(fg.grad(lambda t: checkpoint(f, t, use_reentrant=False).sum())(
        fg.asarray(X))), D1, rtol=1e-12)
    d3 = func.grad(func.grad(func.grad(lambda t: checkpoint(lambda u: u ** 4, t, use_reentrant=False))))
    assert float(d3(torch.tensor(2.0))) == pytest.approx(48.0)
    torch.manual_seed(1)
    g = func.grad(lambda t: checkpoint(lambda u: F.dropout(u, 0.5) * u, t, use_reentrant=False).sum())(
        torch.ones(20, dtype=torch.float64))
    assert set(np.unique(_np(g))) <= {0.0, 4.0}  # the recomputation drew the first run's mask: 2 u / (1 - p)


def test_per_example_grads_of_parameters_that_require_grad():
    """vmap(grad) over the module's own parameters (requiring grad): values as one backward per example,
    and the per-example gradients are themselves differentiable by compat's backward()."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3)).double()
    data = torch.linspace(-2, 2, 20, dtype=torch.float64).reshape(5, 4)
    targets = torch.tensor([0, 1, 2, 1, 0])
    params = dict(model.named_parameters())

    def loss(p, sample, target):
        return F.cross_entropy(func.functional_call(model, p, (sample.unsqueeze(0),)), target.unsqueeze(0))

    per = func.vmap(func.grad(loss), in_dims=(None, 0, 0))(params, data, targets)
    assert per["0.weight"].shape == (5, 8, 4) and per["0.weight"].requires_grad
    for i in range(5):
        model.zero_grad()
        F.cross_entropy(model(data[i:i + 1]), targets[i:i + 1]).backward()
        for k, p in model.named_parameters():
            np.testing.assert_allclose(_np(per[k][i]), _np(p.grad), rtol=1e-10, atol=1e-12)
    model.zero_grad()
    (per["2.bias"] ** 2).sum().backward()  # d/dp of sum_i |g_i|^2 through the rules, by compat's engine
    eps, k = 1e-6, (1, 2)
    w = model[2].weight

    def total():
        with torch.no_grad():
            return float(sum(((F.softmax(model(data[i:i + 1]), 1) - F.one_hot(targets[i:i + 1], 3)) ** 2).sum()
                             for i in range(5)))

    with torch.no_grad():
        w[k] += eps
        up = total()
        w[k] -= 2 * eps
        down = total()
        w[k] += eps
    np.testing.assert_allclose(w.grad[k].item(), (up - down) / (2 * eps), rtol=1e-5)


def test_jacfwd_randomness_is_the_basis_vmaps():
    f = lambda t: t.sum() * torch.rand(())  # noqa: E731  every column of the Jacobian is the draw
    same = _np(func.jacfwd(f, randomness="same")(torch.ones(4)))
    assert np.unique(same).size == 1
    diff = _np(func.jacfwd(f, randomness="different")(torch.ones(4)))
    assert np.unique(diff).size == 4 and ((diff > 0) & (diff < 1)).all()
    with pytest.raises(RuntimeError, match="randomness error mode"):
        func.jacfwd(f)(torch.ones(4))
