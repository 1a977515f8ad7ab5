"""compat optim: same math as the functional path (fg.grad + funcgrad.optim), param_groups, state_dict,
lr schedulers."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.compat as torch
import funcgrad.nn.functional as FF
import funcgrad.numpy as fnp
import funcgrad.optim as fopt
from funcgrad.compat import nn, optim

RULES = [
    (optim.SGD, dict(lr=0.1), lambda: fopt.sgd(0.1)),
    (optim.SGD, dict(lr=0.1, momentum=0.9, weight_decay=0.01, nesterov=True),
     lambda: fopt.sgd(0.1, 0.9, 0.0, 0.01, True)),
    (optim.SGD, dict(lr=0.05, momentum=0.8, dampening=0.1), lambda: fopt.sgd(0.05, 0.8, 0.1)),
    (optim.Adam, dict(lr=0.01, weight_decay=0.1), lambda: fopt.adam(0.01, weight_decay=0.1)),
    (optim.Adam, dict(lr=0.01, amsgrad=True), lambda: fopt.adam(0.01, amsgrad=True)),
    (optim.AdamW, dict(lr=0.01), lambda: fopt.adamw(0.01)),
    (optim.RMSprop, dict(lr=0.01, momentum=0.5, centered=True), lambda: fopt.rmsprop(0.01, momentum=0.5,
                                                                                         centered=True)),
    (optim.Adagrad, dict(lr=0.1, lr_decay=0.01), lambda: fopt.adagrad(0.1, lr_decay=0.01)),
    (optim.Adadelta, dict(lr=1.0, weight_decay=0.01), lambda: fopt.adadelta(1.0, weight_decay=0.01)),
]


def _data():
    rng = np.random.default_rng(0)
    return (rng.standard_normal((8, 3)).astype(np.float32), rng.integers(0, 2, 8),
            {"w1": rng.standard_normal((4, 3)).astype(np.float32) * 0.5, "b1": np.zeros(4, np.float32),
             "w2": rng.standard_normal((2, 4)).astype(np.float32) * 0.5, "b2": np.zeros(2, np.float32)})


@pytest.mark.parametrize("cls,kw,functional", RULES)
def test_ten_steps_match_the_functional_path(cls, kw, functional):
    x, y, p0 = _data()

    def loss_fn(p, x, y):
        h = FF.relu(FF.linear(x, p["w1"], p["b1"]))
        return FF.cross_entropy(FF.linear(h, p["w2"], p["b2"]), y)

    params = {k: fnp.asarray(v) for k, v in p0.items()}
    tx = functional()
    state = tx.init(params)
    for _ in range(10):
        g = fg.grad(loss_fn)(params, fnp.asarray(x), fnp.asarray(y))
        upd, state = tx.update(g, state, params)
        params = fopt.apply_updates(params, upd)

    model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    with torch.no_grad():
        for (name, p), key in zip(model.named_parameters(), ["w1", "b1", "w2", "b2"]):
            p.copy_(torch.from_numpy(p0[key]))
    opt = cls(model.parameters(), **kw)
    crit = nn.CrossEntropyLoss()
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    for _ in range(10):
        opt.zero_grad()
        crit(model(xt), yt).backward()
        opt.step()
    for p, key in zip(model.parameters(), ["w1", "b1", "w2", "b2"]):
        np.testing.assert_allclose(p.detach().numpy(), np.asarray(params[key]), rtol=1e-5, atol=1e-6)
        assert p.dtype == torch.float32


def test_sgd_skips_params_without_grad_and_first_momentum_is_the_gradient():
    a = nn.Parameter(torch.tensor([1.0, 2.0]))
    b = nn.Parameter(torch.tensor([3.0]))
    opt = optim.SGD([a, b], lr=0.1, momentum=0.9, weight_decay=1.0)
    (a * a).sum().backward()
    opt.step()
    # g = 2a + wd*a = 3a; buffer = g (no dampening on the first step)
    np.testing.assert_allclose(a.detach().numpy(), [1 - 0.3, 2 - 0.6], rtol=1e-6)
    assert b.item() == 3.0 and len(opt.state[b]) == 0
    np.testing.assert_allclose(opt.state[a]["momentum_buffer"].numpy(), [3.0, 6.0])


def test_zero_grad_sets_none_and_param_groups_have_their_own_options():
    m = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
    opt = optim.SGD([{"params": m[0].parameters()}, {"params": m[1].parameters(), "lr": 1e-2}], lr=1e-5,
                    momentum=0.9)
    assert [g["lr"] for g in opt.param_groups] == [1e-5, 1e-2]
    assert opt.param_groups[1]["momentum"] == 0.9
    m(torch.ones(1, 2)).sum().backward()
    before = [p.detach().clone() for p in m.parameters()]
    for g in opt.param_groups:
        g["lr"] *= 0.1
    opt.step()
    after = list(m.parameters())
    grads = [p.grad for p in m.parameters()]
    for b, a, g, lr in zip(before, after, grads, [1e-6, 1e-6, 1e-3, 1e-3]):
        np.testing.assert_allclose(a.detach().numpy(), (b - lr * g).numpy(), rtol=1e-6, atol=1e-9)
    opt.zero_grad()
    assert all(p.grad is None for p in m.parameters())


def test_optimizer_argument_errors():
    p = nn.Parameter(torch.ones(2))
    with pytest.raises(TypeError, match="iterable of Tensors"):
        optim.SGD(p, lr=0.1)
    with pytest.raises(ValueError, match="empty parameter list"):
        optim.SGD([], lr=0.1)
    with pytest.raises(ValueError, match="Invalid learning rate"):
        optim.Adam([p], lr=-1)
    with pytest.raises(ValueError, match="more than one parameter group"):
        optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1)
    with pytest.raises(ValueError, match="non-leaf"):
        optim.SGD([p * 2], lr=0.1)
    with pytest.raises(TypeError, match="ordered collections"):
        optim.SGD([{"params": {p}}], lr=0.1)


def test_add_param_group_and_closure():
    a, b = nn.Parameter(torch.ones(1)), nn.Parameter(torch.ones(1))
    opt = optim.SGD([a], lr=0.5)
    opt.add_param_group({"params": b, "lr": 0.25})
    assert opt.param_groups[1]["lr"] == 0.25 and opt.param_groups[1]["momentum"] == 0

    def closure():
        opt.zero_grad()
        loss = (a * 2 + b * 4).sum()
        loss.backward()
        return loss

    assert opt.step(closure).item() == 6.0
    assert a.item() == 0.0 and b.item() == 0.0


def test_state_dict_round_trip_continues_identically():
    torch.manual_seed(0)
    m1 = nn.Linear(3, 2)
    m2 = nn.Linear(3, 2)
    m2.load_state_dict(m1.state_dict())
    x = torch.randn(4, 3)
    o1 = optim.Adam(m1.parameters(), lr=0.1)
    for _ in range(3):
        o1.zero_grad()
        m1(x).pow(2).sum().backward()
        o1.step()
    sd = o1.state_dict()
    assert sorted(sd["state"][0]) == ["exp_avg", "exp_avg_sq", "step"] and sd["state"][0]["step"].item() == 3
    assert sd["param_groups"][0]["params"] == [0, 1] and sd["param_groups"][0]["betas"] == (0.9, 0.999)
    m2.load_state_dict(m1.state_dict())
    o2 = optim.Adam(m2.parameters(), lr=0.5)
    o2.load_state_dict(sd)
    assert o2.param_groups[0]["lr"] == 0.1
    for o, m in ((o1, m1), (o2, m2)):
        o.zero_grad()
        m(x).pow(2).sum().backward()
        o.step()
    np.testing.assert_allclose(m1.weight.detach().numpy(), m2.weight.detach().numpy())
    with pytest.raises(ValueError, match="different number of parameter groups"):
        o2.load_state_dict({"state": {}, "param_groups": []})


@pytest.mark.parametrize("make,expected", [
    (lambda o: optim.lr_scheduler.StepLR(o, 2, 0.5), [1, 1, 0.5, 0.5, 0.25]),
    (lambda o: optim.lr_scheduler.MultiStepLR(o, [1, 3], 0.1), [1, 0.1, 0.1, 0.01, 0.01]),
    (lambda o: optim.lr_scheduler.ExponentialLR(o, 0.5), [1, 0.5, 0.25, 0.125, 0.0625]),
    (lambda o: optim.lr_scheduler.CosineAnnealingLR(o, 2), [1, 0.5, 0.0, 0.5, 1.0]),
    (lambda o: optim.lr_scheduler.LambdaLR(o, lambda e: 1 / (e + 1)), [1, 1 / 2, 1 / 3, 1 / 4, 1 / 5]),
])
def test_lr_schedulers(make, expected):
    p = nn.Parameter(torch.ones(1))
    opt = optim.SGD([p], lr=1.0)
    sched = make(opt)
    got = []
    for _ in range(5):
        got.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    np.testing.assert_allclose(got, expected, atol=1e-12)
    assert sched.get_last_lr() == [opt.param_groups[0]["lr"]]
    assert sched.state_dict()["last_epoch"] == 5


def test_reduce_lr_on_plateau():
    p = nn.Parameter(torch.ones(1))
    opt = optim.SGD([p], lr=1.0)
    sched = optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1, factor=0.5, cooldown=1, min_lr=0.2)
    lrs = []
    for metric in [1.0, 0.5, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6]:
        sched.step(metric)
        lrs.append(opt.param_groups[0]["lr"])
    assert lrs == [1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.2]
    with pytest.raises(ValueError, match="Factor"):
        optim.lr_scheduler.ReduceLROnPlateau(opt, factor=2)


def test_one_cycle_lr_linear_and_momentum():
    p = nn.Parameter(torch.ones(1))
    opt = optim.SGD([p], lr=0.5, momentum=0.9)
    sched = optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=10, pct_start=0.3, anneal_strategy="linear",
                                          div_factor=10, final_div_factor=100)
    lrs, moms = [], []
    for _ in range(10):
        lrs.append(opt.param_groups[0]["lr"])
        moms.append(opt.param_groups[0]["momentum"])
        opt.step()
        sched.step()
    expected = [0.1, 0.55, 1.0] + [1 + (0.001 - 1) * (k - 2) / 7 for k in range(3, 10)]
    np.testing.assert_allclose(lrs, expected, rtol=1e-12)
    np.testing.assert_allclose(moms[:3], [0.95, 0.9, 0.85])
    np.testing.assert_allclose(moms[-1], 0.95)
    with pytest.raises(ValueError, match="Tried to step 11 times"):
        sched.step()
    adam = optim.Adam([p], lr=0.1)
    optim.lr_scheduler.OneCycleLR(adam, max_lr=0.1, epochs=2, steps_per_epoch=5)
    assert adam.param_groups[0]["betas"] == (0.95, 0.999)
    with pytest.raises(ValueError, match="momentum or beta1"):
        optim.lr_scheduler.OneCycleLR(optim.Adagrad([p]), max_lr=0.1, total_steps=5)


def test_lbfgs_solves_a_quadratic_and_keeps_state():
    a = np.array([[3.0, 1.0, 0.0], [1.0, 2.0, 0.5], [0.0, 0.5, 1.0]])
    b = np.array([1.0, -2.0, 0.5])
    x = nn.Parameter(torch.zeros(3, dtype=torch.float64))
    at, bt = torch.from_numpy(a), torch.from_numpy(b)
    opt = optim.LBFGS([x], lr=1, max_iter=50, history_size=10)

    def closure():
        opt.zero_grad()
        loss = 0.5 * x.dot(at.mv(x)) - bt.dot(x)
        loss.backward()
        return loss

    first = opt.step(closure)
    assert first.item() == 0.0
    np.testing.assert_allclose(x.detach().numpy(), np.linalg.solve(a, b), rtol=1e-5)
    st = opt.state[x]
    assert 1 < st["n_iter"] < 50 and st["n_iter"] <= st["func_evals"] <= st["n_iter"] + 1
    assert len(st["old_dirs"]) <= 10
    with pytest.raises(ValueError, match="line_search_fn='backtracking'.*only 'strong_wolfe'"):
        optim.LBFGS([x], line_search_fn="backtracking")
    with pytest.raises(ValueError, match="parameter groups"):
        optim.LBFGS([{"params": [x]}, {"params": [nn.Parameter(torch.ones(1))]}])


def test_named_parameters_are_accepted():
    m = nn.Linear(2, 1)
    opt = optim.SGD(m.named_parameters(), lr=0.1)
    assert opt.param_groups[0]["param_names"] == ["weight", "bias"]
    assert opt.param_groups[0]["params"][0] is m.weight
    assert opt.state_dict()["param_groups"][0]["param_names"] == ["weight", "bias"]


@pytest.mark.parametrize("cls,kw,keys", [
    (optim.SGD, dict(lr=0.1), []),
    (optim.SGD, dict(lr=0.1, momentum=0.9), ["momentum_buffer"]),
    (optim.Adam, dict(), ["exp_avg", "exp_avg_sq", "step"]),
    (optim.Adam, dict(amsgrad=True), ["exp_avg", "exp_avg_sq", "max_exp_avg_sq", "step"]),
    (optim.RMSprop, dict(), ["square_avg", "step"]),
    (optim.RMSprop, dict(momentum=0.5, centered=True), ["grad_avg", "momentum_buffer", "square_avg", "step"]),
    (optim.Adagrad, dict(), ["step", "sum"]),
    (optim.Adadelta, dict(), ["acc_delta", "square_avg", "step"]),
])
def test_state_keys_are_pytorchs(cls, kw, keys):
    p = nn.Parameter(torch.ones(2))
    opt = cls([p], **kw)
    for _ in range(2):
        opt.zero_grad()
        (p * p).sum().backward()
        opt.step()
    assert sorted(opt.state[p]) == keys
    if "step" in keys:
        assert opt.state[p]["step"].item() == 2.0 and opt.state[p]["step"].dtype == torch.float32
