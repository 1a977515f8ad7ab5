"""Optimizer trajectories on a fixed quadratic equal PyTorch's documented update formulas."""

import math

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import optim

A = np.array([1.0, 3.0, 0.5])
B = np.array([0.5, -1.0, 2.0])
P0 = np.array([1.0, -2.0, 0.3])
STEPS = 20


def grad_np(p):
    return A * p + B


def loss(p):
    return 0.5 * fnp.sum(A * p * p) + fnp.sum(B * p)


def run(opt, dtype=np.float64):
    p = {"w": fnp.asarray(P0.astype(dtype))}
    state = opt.init(p)
    out = []
    for _ in range(STEPS):
        g = fg.grad(lambda q: loss(q["w"]))(p)
        upd, state = opt.update(g, state, p)
        p = optim.apply_updates(p, upd)
        out.append(np.asarray(p["w"]))
    return np.array(out)


def ref_sgd(lr, mu=0.0, damp=0.0, wd=0.0, nesterov=False):
    p, buf, out = P0.copy(), None, []
    for t in range(STEPS):
        g = grad_np(p) + wd * p
        if mu:
            buf = g.copy() if t == 0 else mu * buf + (1 - damp) * g
            g = g + mu * buf if nesterov else buf
        p = p - lr * g
        out.append(p)
    return np.array(out)


def ref_adam(lr, b1, b2, eps, wd, amsgrad, decoupled):
    p, m, v, vmax, out = P0.copy(), 0 * P0, 0 * P0, 0 * P0, []
    for t in range(1, STEPS + 1):
        g = grad_np(p)
        if decoupled:
            p = p * (1 - lr * wd)
        else:
            g = g + wd * p
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        bc1, bc2 = 1 - b1**t, 1 - b2**t
        if amsgrad:
            vmax = np.maximum(vmax, v)
            denom = np.sqrt(vmax) / math.sqrt(bc2) + eps
        else:
            denom = np.sqrt(v) / math.sqrt(bc2) + eps
        p = p - lr / bc1 * m / denom
        out.append(p)
    return np.array(out)


def ref_rmsprop(lr, alpha, eps, wd, mu, centered):
    p, v, ga, buf, out = P0.copy(), 0 * P0, 0 * P0, 0 * P0, []
    for _ in range(STEPS):
        g = grad_np(p) + wd * p
        v = alpha * v + (1 - alpha) * g * g
        if centered:
            ga = alpha * ga + (1 - alpha) * g
            avg = np.sqrt(v - ga * ga) + eps
        else:
            avg = np.sqrt(v) + eps
        if mu > 0:
            buf = mu * buf + g / avg
            p = p - lr * buf
        else:
            p = p - lr * g / avg
        out.append(p)
    return np.array(out)


def ref_adagrad(lr, lr_decay, wd, init_acc, eps):
    p, s, out = P0.copy(), np.full(3, init_acc), []
    for t in range(1, STEPS + 1):
        g = grad_np(p) + wd * p
        clr = lr / (1 + (t - 1) * lr_decay)
        s = s + g * g
        p = p - clr * g / (np.sqrt(s) + eps)
        out.append(p)
    return np.array(out)


def ref_adadelta(lr, rho, eps, wd):
    p, v, u, out = P0.copy(), np.zeros(3), np.zeros(3), []
    for _ in range(STEPS):
        g = grad_np(p) + wd * p
        v = rho * v + (1 - rho) * g * g
        d = np.sqrt(u + eps) / np.sqrt(v + eps) * g
        u = rho * u + (1 - rho) * d * d
        p = p - lr * d
        out.append(p)
    return np.array(out)


CASES = [
    ("sgd", optim.sgd(0.1), ref_sgd(0.1)),
    ("sgd_momentum", optim.sgd(0.05, momentum=0.9, dampening=0.1, weight_decay=0.01),
     ref_sgd(0.05, 0.9, 0.1, 0.01)),
    ("sgd_nesterov", optim.sgd(0.05, momentum=0.9, nesterov=True, weight_decay=0.1),
     ref_sgd(0.05, 0.9, 0.0, 0.1, True)),
    ("adam", optim.adam(0.1), ref_adam(0.1, 0.9, 0.999, 1e-8, 0.0, False, False)),
    ("adam_l2_amsgrad", optim.adam(0.05, b1=0.8, b2=0.9, weight_decay=0.1, amsgrad=True),
     ref_adam(0.05, 0.8, 0.9, 1e-8, 0.1, True, False)),
    ("adamw", optim.adamw(0.1, weight_decay=0.1), ref_adam(0.1, 0.9, 0.999, 1e-8, 0.1, False, True)),
    ("rmsprop", optim.rmsprop(0.01), ref_rmsprop(0.01, 0.99, 1e-8, 0.0, 0.0, False)),
    ("rmsprop_centered_momentum", optim.rmsprop(0.01, alpha=0.9, weight_decay=0.1, momentum=0.5, centered=True),
     ref_rmsprop(0.01, 0.9, 1e-8, 0.1, 0.5, True)),
    ("adagrad", optim.adagrad(0.1, lr_decay=0.01, weight_decay=0.05, initial_accumulator_value=0.1),
     ref_adagrad(0.1, 0.01, 0.05, 0.1, 1e-10)),
    ("adadelta", optim.adadelta(1.0, rho=0.8, eps=1e-4, weight_decay=0.05), ref_adadelta(1.0, 0.8, 1e-4, 0.05)),
]


@pytest.mark.parametrize("name,opt,ref", CASES, ids=[c[0] for c in CASES])
def test_trajectory_matches_pytorch_formula(name, opt, ref):
    np.testing.assert_allclose(run(opt), ref, rtol=1e-12, atol=1e-12)


def _torch_run(torch, name):
    p = torch.tensor(P0, requires_grad=True)
    make = {
        "sgd": lambda: torch.optim.SGD([p], lr=0.1),
        "sgd_momentum": lambda: torch.optim.SGD([p], lr=0.05, momentum=0.9, dampening=0.1, weight_decay=0.01),
        "sgd_nesterov": lambda: torch.optim.SGD([p], lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.1),
        "adam": lambda: torch.optim.Adam([p], lr=0.1),
        "adam_l2_amsgrad": lambda: torch.optim.Adam([p], lr=0.05, betas=(0.8, 0.9), weight_decay=0.1, amsgrad=True),
        "adamw": lambda: torch.optim.AdamW([p], lr=0.1, weight_decay=0.1),
        "rmsprop": lambda: torch.optim.RMSprop([p], lr=0.01),
        "rmsprop_centered_momentum": lambda: torch.optim.RMSprop([p], lr=0.01, alpha=0.9, weight_decay=0.1,
                                                                momentum=0.5, centered=True),
        "adagrad": lambda: torch.optim.Adagrad([p], lr=0.1, lr_decay=0.01, weight_decay=0.05,
                                               initial_accumulator_value=0.1),
        "adadelta": lambda: torch.optim.Adadelta([p], lr=1.0, rho=0.8, eps=1e-4, weight_decay=0.05),
    }[name]
    opt = make()
    a, b = torch.tensor(A), torch.tensor(B)
    out = []
    for _ in range(STEPS):
        opt.zero_grad()
        (0.5 * (a * p * p).sum() + (b * p).sum()).backward()
        opt.step()
        out.append(p.detach().numpy().copy())
    return np.array(out)


@pytest.mark.parametrize("name,opt,ref", CASES, ids=[c[0] for c in CASES])
def test_trajectory_matches_torch_if_installed(name, opt, ref):
    torch = pytest.importorskip("torch")
    np.testing.assert_allclose(run(opt), _torch_run(torch, name), rtol=1e-10, atol=1e-12)


def test_float32_params_keep_float32_state_and_updates():
    opt = optim.adam(0.1)
    p = {"w": fnp.asarray(P0.astype(np.float32))}
    st = opt.init(p)
    assert st.exp_avg["w"].dtype == np.float32
    g = fg.grad(lambda q: loss(q["w"].astype(np.float32)))(p)
    upd, st = opt.update(g, st, p)
    assert upd["w"].dtype == np.float32 and st.exp_avg_sq["w"].dtype == np.float32
    assert optim.apply_updates(p, upd)["w"].dtype == np.float32
    traj = run(optim.sgd(0.1, momentum=0.9), np.float32)
    assert traj.dtype == np.float32


def test_chain_clip_and_schedules():
    g = {"a": fnp.asarray([3.0, 4.0]), "b": None}
    opt = optim.chain(optim.clip_by_global_norm(1.0), optim.sgd(1.0))
    st = opt.init({"a": fnp.zeros(2), "b": None})
    upd, st = opt.update(g, st)
    np.testing.assert_allclose(np.asarray(upd["a"]), [-0.6, -0.8], rtol=1e-5)
    assert upd["b"] is None
    s = optim.schedules
    assert s.step(1.0, 3, 0.5)(7) == 0.25
    assert s.exponential(2.0, 0.5)(3) == 0.25
    assert s.cosine(1.0, 10)(5) == pytest.approx(0.5) and s.cosine(1.0, 10, 0.1)(10) == pytest.approx(0.1)
    w = s.warmup_cosine(1.0, 4, 14)
    assert [w(i) for i in (0, 2, 4)] == [0.0, 0.5, 1.0] and w(9) == pytest.approx(0.5)
    assert s.multistep(1.0, [2, 4], 0.1)(4) == pytest.approx(0.01)
    # a schedule as lr: SGD steps use lr(count) with count from 0
    p = {"w": fnp.asarray([1.0])}
    opt = optim.sgd(s.exponential(1.0, 0.5))
    st = opt.init(p)
    for expect in (1.0, 0.5, 0.25):
        upd, st = opt.update({"w": fnp.asarray([1.0])}, st, p)
        assert float(upd["w"][0]) == -expect


def test_optimizer_trains_a_model_and_errors():
    import funcgrad.nn as nn

    model = nn.Linear(2, 1, key=fg.random.key(0))
    x = fg.random.normal(fg.random.key(1), (32, 2))
    y = x @ fnp.asarray([[2.0], [-1.0]]) + 0.5
    opt = optim.adam(0.1)
    st = opt.init(model)
    for _ in range(200):
        g = fg.grad(lambda m: nn.functional.mse_loss(m(x), y))(model)
        upd, st = opt.update(g, st, model)
        model = optim.apply_updates(model, upd)
    assert float(nn.functional.mse_loss(model(x), y)) < 1e-3
    with pytest.raises(ValueError, match="Nesterov"):
        optim.sgd(0.1, nesterov=True)
    with pytest.raises(ValueError, match="beta"):
        optim.adam(b1=1.0)
    with pytest.raises(ValueError, match="params"):
        o = optim.sgd(0.1, weight_decay=0.1)
        o.update({"w": fnp.ones(1)}, o.init({"w": fnp.ones(1)}))
