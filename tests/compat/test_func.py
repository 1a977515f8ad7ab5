"""torch.func on compat: grad/grad_and_value/vjp/jvp/jacrev/jacfwd/hessian/vmap/functional_call vs known derivatives."""

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import func

X0 = np.array([0.5, -1.0, 2.0])


def _np(t):
    return t.detach().numpy()


def test_grad_argnums_and_aux():
    x = torch.tensor(X0)
    np.testing.assert_allclose(_np(func.grad(lambda t: (torch.sin(t) * t).sum())(x)), np.cos(X0) * X0 + np.sin(X0))
    y = torch.tensor([1.0, 2.0, 3.0])
    gx, gy = func.grad(lambda a, b: (a * b * b).sum(), argnums=(0, 1))(x, y)
    np.testing.assert_allclose(_np(gx), [1, 4, 9])
    np.testing.assert_allclose(_np(gy), 2 * X0 * [1, 2, 3])
    np.testing.assert_allclose(_np(func.grad(lambda a, b: (a * b).sum(), argnums=-1)(x, y)), X0)
    g, aux = func.grad(lambda t: ((t ** 3).sum(), t * 2), has_aux=True)(x)
    np.testing.assert_allclose(_np(g), 3 * X0 ** 2)
    np.testing.assert_allclose(_np(aux), 2 * X0)
    g, (v, aux) = func.grad_and_value(lambda t: ((t ** 2).sum(), "tag"), has_aux=True)(x)
    assert aux == "tag" and float(v) == pytest.approx((X0 ** 2).sum())
    assert not g.requires_grad and g.grad_fn is None
    tree = func.grad(lambda d: (d["a"] * d["b"]).sum())({"a": x, "b": y})
    np.testing.assert_allclose(_np(tree["a"]), [1, 2, 3])
    np.testing.assert_allclose(_np(tree["b"]), X0)


def test_grad_errors():
    with pytest.raises(RuntimeError, match="scalar"):
        func.grad(lambda t: t * 2)(torch.ones(2))
    with pytest.raises(RuntimeError, match="floating point"):
        func.grad(lambda t: t.sum())(torch.tensor([1, 2]))
    with pytest.raises(RuntimeError, match="argnums"):
        func.grad(lambda t: t.sum(), argnums=3)(torch.ones(2))
    with pytest.raises(RuntimeError, match="tuple"):
        func.grad(lambda t: t.sum(), has_aux=True)(torch.ones(2))


def test_higher_order_and_no_perturbation_confusion():
    assert float(func.grad(func.grad(lambda t: t ** 3))(torch.tensor(2.0))) == pytest.approx(12.0)
    assert float(func.grad(func.grad(func.grad(lambda t: t ** 4)))(torch.tensor(2.0))) == pytest.approx(48.0)
    # d/dx [d/dy (x*y)](y=x) = d/dx x = 1, not 2
    r = func.grad(lambda x: func.grad(lambda y: (x * y).sum())(x).sum())(torch.tensor(X0))
    np.testing.assert_allclose(_np(r), np.ones(3))


def test_closed_over_parameter_keeps_graph():
    w = torch.tensor([1.0, 3.0], requires_grad=True)
    g = func.grad(lambda x: (x * x * w).sum())(torch.tensor([1.0, 2.0]))
    np.testing.assert_allclose(_np(g), [2.0, 12.0])
    g.sum().backward()
    np.testing.assert_allclose(_np(w.grad), [2.0, 4.0])


def test_vjp_and_jvp():
    x = torch.tensor(X0)
    out, fn = func.vjp(lambda t: torch.sin(t) * 2, x)
    np.testing.assert_allclose(_np(out), 2 * np.sin(X0))
    (g,) = fn(torch.tensor([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(_np(g), 2 * np.cos(X0) * [1, 2, 3])
    (g2,) = fn(torch.ones(3))  # callable again
    np.testing.assert_allclose(_np(g2), 2 * np.cos(X0))
    with pytest.raises(RuntimeError, match="shape"):
        fn(torch.ones(2))
    out, fn, aux = func.vjp(lambda a, b: (a * b, a.sum()), x, torch.ones(3), has_aux=True)
    assert float(aux) == pytest.approx(X0.sum())
    ga, gb = fn(torch.ones(3))
    np.testing.assert_allclose(_np(ga), np.ones(3))
    np.testing.assert_allclose(_np(gb), X0)
    out, jv = func.jvp(lambda t: torch.sin(t) * t, (x,), (torch.tensor([1.0, 0.0, 2.0]),))
    np.testing.assert_allclose(_np(out), np.sin(X0) * X0)
    np.testing.assert_allclose(_np(jv), (np.cos(X0) * X0 + np.sin(X0)) * [1, 0, 2])
    _, jv = func.jvp(lambda a, b: a * b, (x, torch.ones(3)), (torch.ones(3), torch.ones(3)))
    np.testing.assert_allclose(_np(jv), 1 + X0)


def test_jacobians_and_hessian():
    x = torch.tensor(X0)
    j = func.jacrev(lambda t: torch.sin(t) * t.sum())(x)
    ref = np.diag(np.cos(X0) * X0.sum()) + np.sin(X0)[:, None]
    np.testing.assert_allclose(_np(j), ref)
    np.testing.assert_allclose(_np(func.jacfwd(lambda t: torch.sin(t) * t.sum())(x)), ref)
    ja, jb = func.jacrev(lambda a, b: a[:, None] * b, argnums=(0, 1))(x, torch.tensor([1.0, 2.0]))
    assert ja.shape == (3, 2, 3) and jb.shape == (3, 2, 2)
    np.testing.assert_allclose(_np(ja)[:, 1, :], 2 * np.eye(3))
    np.testing.assert_allclose(_np(jb)[:, :, 0], np.stack([X0, np.zeros(3)], 1))
    h = func.hessian(lambda t: (t ** 3).sum() + t[0] * t[1])(x)
    ref_h = np.diag(6 * X0)
    ref_h[0, 1] = ref_h[1, 0] = 1
    np.testing.assert_allclose(_np(h), ref_h)
    assert func.jacrev(lambda t: t.sum())(torch.ones(2, 2)).shape == (2, 2)
    assert func.jacrev(lambda t: t * 2)(torch.tensor(3.0)).item() == 2.0


def test_vmap():
    a = torch.tensor([[1.0, 2], [3, 4], [5, 6]])
    np.testing.assert_allclose(_np(func.vmap(lambda t: (t * t).sum())(a)), [5, 25, 61])
    r = func.vmap(lambda t, y: t * y, in_dims=(1, None))(a, torch.tensor([1.0, 2, 3]))
    np.testing.assert_allclose(_np(r), _np(a).T * [1, 2, 3])
    np.testing.assert_allclose(_np(func.vmap(lambda t: t * 2, out_dims=1)(a)), 2 * _np(a).T)
    np.testing.assert_allclose(_np(func.vmap(func.grad(lambda t: (t ** 2).sum()))(a)), 2 * _np(a))
    t1, t2 = func.vmap(lambda t: (t, t.sum()))(a)
    assert t1.shape == (3, 2) and t2.shape == (3,)
    per_example = func.vmap(func.grad(lambda w, x: (w * x).sum() ** 2), in_dims=(None, 0))(torch.ones(2), a)
    np.testing.assert_allclose(_np(per_example), 2 * _np(a).sum(1, keepdims=True) * _np(a))
    with pytest.raises(ValueError, match="same size"):
        func.vmap(lambda p, q: p + q)(torch.ones(2), torch.ones(3))
    with pytest.raises(RuntimeError, match="randomness"):
        func.vmap(lambda t: t * torch.rand(1))(torch.ones(3, 1))
    same = func.vmap(lambda t: t * torch.rand(1), randomness="same")(torch.ones(3, 1))
    assert np.unique(_np(same)).size == 1
    diff = func.vmap(lambda t: t * torch.rand(1), randomness="different")(torch.ones(3, 1))
    assert np.unique(_np(diff)).size == 3
    # gradients flow through vmap
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    func.vmap(lambda t: (t * w).sum())(a).sum().backward()
    np.testing.assert_allclose(_np(w.grad), _np(a).sum(0))


def test_functional_call():
    torch.manual_seed(0)
    lin = torch.nn.Linear(3, 2)
    before = _np(lin.weight).copy()
    params = {k: v.detach() for k, v in lin.named_parameters()}
    params["weight"] = torch.ones(2, 3)
    x = torch.tensor([[1.0, 2, 3]])
    out = func.functional_call(lin, params, (x,))
    np.testing.assert_allclose(_np(out), 6 + _np(params["bias"])[None])
    np.testing.assert_array_equal(_np(lin.weight), before)  # restored
    assert isinstance(lin.weight, torch.nn.Parameter)
    g = func.grad(lambda p, xx: func.functional_call(lin, p, (xx,)).sum())(params, x)
    np.testing.assert_allclose(_np(g["weight"]), [[1, 2, 3], [1, 2, 3]])
    np.testing.assert_allclose(_np(g["bias"]), [1, 1])
    out = func.functional_call(lin, ({"weight": torch.zeros(2, 3)}, {"bias": torch.ones(2)}), x)
    np.testing.assert_allclose(_np(out), [[1, 1]])
    with pytest.raises(RuntimeError, match="Missing key"):
        func.functional_call(lin, {"weight": torch.zeros(2, 3)}, (x,), strict=True)
    bn = torch.nn.BatchNorm1d(2).eval()
    out = func.functional_call(bn, {"running_mean": torch.ones(2)}, (torch.zeros(4, 2),))
    np.testing.assert_allclose(_np(out), -np.ones((4, 2)) / np.sqrt(1 + 1e-5), rtol=1e-5)
    assert _np(bn.running_mean).tolist() == [0.0, 0.0]


def test_functional_call_tied_weights():
    class Tied(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = torch.nn.Linear(2, 2, bias=False)
            self.b = torch.nn.Linear(2, 2, bias=False)
            self.b.weight = self.a.weight

        def forward(self, x):
            return self.b(self.a(x))

    m = Tied()
    x = torch.tensor([[1.0, 2.0]])
    w = torch.eye(2) * 2
    np.testing.assert_allclose(_np(func.functional_call(m, {"a.weight": w}, (x,))), [[4.0, 8.0]])
    untied = func.functional_call(m, {"a.weight": w}, (x,), tie_weights=False)
    np.testing.assert_allclose(_np(untied), _np(m.b(x * 2)), rtol=1e-6)


def test_per_sample_gradients_idiom():
    """PyTorch's per-sample-gradients tutorial: vmap(grad(loss over functional_call)) == one backward per sample."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
    data = torch.linspace(-2, 2, 20).reshape(5, 4)
    targets = torch.tensor([0, 1, 2, 1, 0])
    params = {k: v.detach() for k, v in model.named_parameters()}
    buffers = {k: v.detach() for k, v in model.named_buffers()}

    def compute_loss(p, b, sample, target):
        pred = func.functional_call(model, (p, b), (sample.unsqueeze(0),))
        return torch.nn.functional.cross_entropy(pred, target.unsqueeze(0))

    per = func.vmap(func.grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
    for i in range(5):
        model.zero_grad()
        torch.nn.functional.cross_entropy(model(data[i:i + 1]), targets[i:i + 1]).backward()
        for k, p in model.named_parameters():
            np.testing.assert_allclose(_np(per[k][i]), _np(p.grad), rtol=1e-5, atol=1e-7)


def test_stack_module_state_ensemble():
    torch.manual_seed(0)
    models = [torch.nn.Linear(3, 2) for _ in range(4)]
    params, buffers = func.stack_module_state(models)
    assert params["weight"].shape == (4, 2, 3) and params["weight"].requires_grad and params["weight"].is_leaf
    x = torch.linspace(-1, 1, 6).reshape(2, 3)
    base = models[0]

    def call(p, b, xx):
        return func.functional_call(base, (p, b), (xx,))

    out = func.vmap(call, in_dims=(0, 0, None))(params, buffers, x)
    for i, m in enumerate(models):
        np.testing.assert_allclose(_np(out[i]), _np(m(x)), rtol=1e-6)
    out.sum().backward()
    np.testing.assert_allclose(_np(params["bias"].grad), np.full((4, 2), 2.0))
    with pytest.raises(RuntimeError, match="same class"):
        func.stack_module_state([torch.nn.Linear(3, 2), torch.nn.Tanh()])
