"""compat NAdam/RAdam/Adamax (same math as funcgrad.optim) and the extra lr schedulers (PyTorch's sequences)."""

import math
import warnings

import numpy as np
import pytest

import funcgrad.compat as torch
import funcgrad.optim as fopt
from funcgrad.compat import nn, optim
from funcgrad.compat.optim import lr_scheduler as S

from .test_optim import test_ten_steps_match_the_functional_path as _ten_steps

RULES = [
    (optim.NAdam, dict(lr=0.01), lambda: fopt.nadam(0.01)),
    (optim.NAdam, dict(lr=0.01, betas=(0.8, 0.99), weight_decay=0.1, momentum_decay=0.01),
     lambda: fopt.nadam(0.01, 0.8, 0.99, weight_decay=0.1, momentum_decay=0.01)),
    (optim.NAdam, dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, maximize=True),
     lambda: fopt.nadam(0.01, weight_decay=0.1, decoupled_weight_decay=True, maximize=True)),
    (optim.RAdam, dict(lr=0.01, betas=(0.9, 0.9)), lambda: fopt.radam(0.01, b2=0.9)),
    (optim.RAdam, dict(lr=0.01, betas=(0.9, 0.9), weight_decay=0.1, decoupled_weight_decay=True),
     lambda: fopt.radam(0.01, b2=0.9, weight_decay=0.1, decoupled_weight_decay=True)),
    (optim.Adamax, dict(lr=0.01, weight_decay=0.1), lambda: fopt.adamax(0.01, weight_decay=0.1)),
    (optim.ASGD, dict(lr=0.05, lambd=0.01, t0=4, weight_decay=0.1),
     lambda: fopt.asgd(0.05, lambd=0.01, t0=4, weight_decay=0.1)),
    (optim.Adamax, dict(lr=0.01, betas=(0.5, 0.9), foreach=True, maximize=True),
     lambda: fopt.adamax(0.01, 0.5, 0.9, maximize=True)),
]


@pytest.mark.parametrize("cls,kw,functional", RULES)
def test_ten_steps_match_the_functional_path(cls, kw, functional):
    _ten_steps(cls, kw, functional)


def _steps(opt, p, n):
    for _ in range(n):
        opt.zero_grad()
        ((p - 1.0) ** 2).sum().backward()
        opt.step()


@pytest.mark.parametrize("cls,keys", [
    (optim.NAdam, ["exp_avg", "exp_avg_sq", "mu_product", "step"]),
    (optim.RAdam, ["exp_avg", "exp_avg_sq", "step"]),
    (optim.Adamax, ["exp_avg", "exp_inf", "step"]),
    (optim.ASGD, ["ax", "eta", "mu", "step"]),
])
def test_state_keys_and_state_dict_round_trip(cls, keys):
    p1, p2 = nn.Parameter(torch.tensor([0.5, -2.0])), nn.Parameter(torch.tensor([0.5, -2.0]))
    o1 = cls([p1], lr=0.1)
    _steps(o1, p1, 3)
    assert sorted(o1.state[p1]) == keys and o1.state[p1]["step"].item() == 3.0
    if cls is optim.NAdam:
        mus = [0.9 * (1 - 0.5 * 0.96 ** (t * 4e-3)) for t in (1, 2, 3)]
        assert math.isclose(o1.state[p1]["mu_product"].item(), math.prod(mus), rel_tol=1e-15)
    with torch.no_grad():
        p2.copy_(p1)
    o2 = cls([p2], lr=0.5)
    o2.load_state_dict(o1.state_dict())
    assert o2.param_groups[0]["lr"] == 0.1
    for k, v in o1.state[p1].items():  # float32 parameter: moments float32, step and mu_product as saved
        assert o2.state[p2][k].dtype == v.dtype and o2.state[p2][k] is not v
    _steps(o1, p1, 2)
    _steps(o2, p2, 2)
    np.testing.assert_array_equal(p1.detach().numpy(), p2.detach().numpy())


def test_nadam_params_joining_late_get_their_own_momentum_product():
    a, b = nn.Parameter(torch.tensor([1.0])), nn.Parameter(torch.tensor([1.0]))
    opt = optim.NAdam([a], lr=0.1)
    _steps(opt, a, 2)
    opt.add_param_group({"params": [b]})
    ref = nn.Parameter(torch.tensor([1.0]))
    oref = optim.NAdam([ref], lr=0.1)
    for _ in range(2):
        opt.zero_grad()
        oref.zero_grad()
        (((a - 1.0) ** 2).sum() + ((b - 1.0) ** 2).sum() + ((ref - 1.0) ** 2).sum()).backward()
        opt.step()
        oref.step()
    assert b.item() == ref.item() and opt.state[b]["step"].item() == 2.0


def test_first_steps_by_hand():
    # RAdam's first step (rho_1 = 1 <= 5) is lr * m / (1 - b1) = lr * g
    p = nn.Parameter(torch.tensor([3.0], dtype=torch.float64))
    _steps(optim.RAdam([p], lr=0.1), p, 1)
    assert math.isclose(p.item(), 3.0 - 0.1 * 4.0, rel_tol=1e-15)
    # Adamax: lr * g / (|g| + eps)
    p = nn.Parameter(torch.tensor([3.0], dtype=torch.float64))
    _steps(optim.Adamax([p], lr=0.1), p, 1)
    assert math.isclose(p.item(), 3.0 - 0.1 * 4.0 / (4.0 + 1e-8), rel_tol=1e-15)


def test_asgd_average_matches_the_functional_state():
    p = nn.Parameter(torch.tensor([0.5, -2.0], dtype=torch.float64))
    opt = optim.ASGD([p], lr=0.1, t0=2)
    _steps(opt, p, 6)
    tx = fopt.asgd(0.1, t0=2)
    q = np.array([0.5, -2.0])
    st = tx.init(q)
    for _ in range(6):
        upd, st = tx.update(2 * (q - 1.0), st, q)
        q = np.asarray(fopt.apply_updates(q, upd))
    np.testing.assert_allclose(p.detach().numpy(), q, rtol=1e-14)
    np.testing.assert_allclose(opt.state[p]["ax"].numpy(), np.asarray(st.ax), rtol=1e-14)
    assert opt.state[p]["mu"].item() == st.mu == 1 / 4 and opt.state[p]["eta"].item() == st.eta
    with pytest.raises(ValueError, match="Invalid weight_decay"):
        optim.ASGD([p], weight_decay=-1)


@pytest.mark.parametrize("cls", [optim.NAdam, optim.RAdam, optim.Adamax])
def test_argument_errors_and_defaults(cls):
    p = nn.Parameter(torch.ones(2))
    for kw, msg in [(dict(lr=-1.0), "Invalid learning rate"), (dict(eps=-1.0), "Invalid epsilon"),
                    (dict(betas=(1.0, 0.9)), "index 0"), (dict(betas=(0.9, 1.0)), "index 1"),
                    (dict(weight_decay=-1.0), "Invalid weight_decay")]:
        with pytest.raises(ValueError, match=msg):
            cls([p], **kw)
    g = cls([p]).param_groups[0]
    assert g["lr"] == (1e-3 if cls is optim.RAdam else 2e-3) and g["betas"] == (0.9, 0.999)
    assert g["foreach"] is None and g["maximize"] is False and g["differentiable"] is False


def test_nadam_momentum_decay_error():
    with pytest.raises(ValueError, match="Invalid momentum_decay value: -1"):
        optim.NAdam([nn.Parameter(torch.ones(1))], momentum_decay=-1)


# --- schedulers ---------------------------------------------------------------------------------

def _lrs(make, n=12, lr=1.0, opt=None, key=None):
    """The lr (and optionally ``key`` of group 0) before each of n epochs, as a training loop sees it."""
    if opt is None:
        opt = optim.SGD([nn.Parameter(torch.ones(1))], lr=lr, momentum=0.9)
    sched = make(opt)
    out = []
    for _ in range(n):
        g = opt.param_groups[0]
        out.append(g["lr"] if key is None else (g["lr"], key(g)))
        assert sched.get_last_lr() == [g["lr"]]
        opt.step()
        sched.step()
    return out, sched, opt


def test_linear_constant_polynomial_multiplicative():
    got, _, _ = _lrs(lambda o: S.LinearLR(o, 0.25, 0.9, total_iters=6))
    np.testing.assert_allclose(got, [0.25 + 0.65 * min(e, 6) / 6 for e in range(12)], rtol=1e-13)
    got, _, _ = _lrs(lambda o: S.ConstantLR(o, 0.3, total_iters=4))
    np.testing.assert_allclose(got, [0.3] * 4 + [1.0] * 8, rtol=1e-15)
    got, _, _ = _lrs(lambda o: S.PolynomialLR(o, total_iters=8, power=2.5), lr=0.5)
    np.testing.assert_allclose(got, [0.5 * (1 - min(e, 8) / 8) ** 2.5 for e in range(12)], rtol=1e-12, atol=1e-18)
    got, _, _ = _lrs(lambda o: S.MultiplicativeLR(o, lambda e: 0.9 + 0.01 * e))
    np.testing.assert_allclose(got, [math.prod(0.9 + 0.01 * k for k in range(1, e + 1)) for e in range(12)],
                               rtol=1e-14)


def test_chainable_forms_carry_a_manual_change_and_step_epoch_uses_the_closed_form():
    opt = optim.SGD([nn.Parameter(torch.ones(1))], lr=1.0)
    sched = S.ExponentialLR(opt, 0.5)
    opt.step()
    sched.step()
    opt.param_groups[0]["lr"] = 4.0
    sched.step()
    assert opt.param_groups[0]["lr"] == 2.0  # lr * gamma, from the changed value
    with pytest.warns(UserWarning, match="epoch parameter"):
        sched.step(3)
    assert opt.param_groups[0]["lr"] == 0.125  # base * gamma ** 3
    lin = S.LinearLR(optim.SGD([nn.Parameter(torch.ones(1))], lr=2.0), 0.5, total_iters=4)
    with pytest.warns(UserWarning):
        lin.step(2)
    assert lin.get_last_lr() == [2.0 * (0.5 + 0.5 * 2 / 4)]


def test_cosine_annealing_warm_restarts():
    base, lo = 1.0, 0.01

    def cos(t, T):
        return lo + (base - lo) * (1 + math.cos(math.pi * t / T)) / 2

    # cycles of 3, 6, 12 epochs starting at 0, 3, 9
    expected = [cos(e, 3) if e < 3 else cos(e - 3, 6) if e < 9 else cos(e - 9, 12) for e in range(16)]
    got, sched, _ = _lrs(lambda o: S.CosineAnnealingWarmRestarts(o, 3, T_mult=2, eta_min=lo), n=16)
    np.testing.assert_allclose(got, expected, rtol=1e-14)
    # fractional epochs (step(epoch + i / iters)): position within the cycle that epoch falls in
    for epoch, (t, T) in [(1.5, (1.5, 3)), (4.25, (1.25, 6)), (10.5, (1.5, 12)), (0.0, (0.0, 3))]:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # PyTorch's SGDR.step(epoch) does not warn
            sched.step(epoch)
        assert math.isclose(sched.get_last_lr()[0], cos(t, T), rel_tol=1e-14) and sched.last_epoch == int(epoch)
    got, _, _ = _lrs(lambda o: S.CosineAnnealingWarmRestarts(o, 4), n=9)
    np.testing.assert_allclose(got, [0.5 * (1 + math.cos(math.pi * (e % 4) / 4)) for e in range(9)], rtol=1e-14,
                               atol=1e-16)
    with pytest.raises(ValueError, match="positive integer T_0"):
        S.CosineAnnealingWarmRestarts(optim.SGD([nn.Parameter(torch.ones(1))]), 0)
    with pytest.raises(ValueError, match="T_mult >= 1"):
        S.CosineAnnealingWarmRestarts(optim.SGD([nn.Parameter(torch.ones(1))]), 2, T_mult=1.5)
    with pytest.raises(ValueError, match="non-negative epoch"):
        sched.step(-1)


def _triangle(e, up, down):
    """Hand-written triangle wave: 0 at the start of each cycle, 1 after ``up`` steps, 0 again after ``down``."""
    r = e % (up + down)
    return r / up if r <= up else 1 - (r - up) / down


def test_cyclic_lr_modes_and_momentum():
    got, _, _ = _lrs(lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=4, step_size_down=3), n=16,
                     key=lambda g: g["momentum"])
    np.testing.assert_allclose([lr for lr, _ in got], [0.01 + 0.09 * _triangle(e, 4, 3) for e in range(16)],
                               rtol=1e-13)
    np.testing.assert_allclose([m for _, m in got], [0.9 - 0.1 * _triangle(e, 4, 3) for e in range(16)],
                               rtol=1e-13)
    got, _, _ = _lrs(lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=3, mode="triangular2"), n=20)
    np.testing.assert_allclose(got, [0.01 + 0.09 * _triangle(e, 3, 3) / 2 ** (e // 6) for e in range(20)],
                               rtol=1e-13)
    got, _, _ = _lrs(lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode="exp_range", gamma=0.9), n=10)
    np.testing.assert_allclose(got, [0.01 + 0.09 * _triangle(e, 2, 2) * 0.9 ** e for e in range(10)], rtol=1e-13)
    # Adam-like optimizers cycle beta1, keeping beta2
    adam = optim.Adam([nn.Parameter(torch.ones(1))], lr=0.1, betas=(0.5, 0.99))
    got, _, _ = _lrs(lambda o: S.CyclicLR(o, 0.01, 0.1, step_size_up=2, base_momentum=0.7, max_momentum=0.95),
                     n=5, opt=adam, key=lambda g: g["betas"])
    assert [b for _, b in got] == [(0.95, 0.99), (0.825, 0.99), (0.7, 0.99), (0.825, 0.99), (0.95, 0.99)]
    with pytest.raises(ValueError, match="momentum or beta1"):
        S.CyclicLR(optim.Adagrad([nn.Parameter(torch.ones(1))]), 0.01, 0.1)
    S.CyclicLR(optim.Adagrad([nn.Parameter(torch.ones(1))]), 0.01, 0.1, cycle_momentum=False)
    with pytest.raises(ValueError, match="mode is invalid"):
        S.CyclicLR(adam, 0.01, 0.1, mode="sine")
    with pytest.raises(ValueError, match="base_lr must have the same length"):
        S.CyclicLR(adam, [0.01, 0.02], 0.1)


def test_cyclic_lr_per_group_and_custom_scale_fn():
    a, b = nn.Parameter(torch.ones(1)), nn.Parameter(torch.ones(1))
    opt = optim.SGD([{"params": [a]}, {"params": [b]}], lr=1.0, momentum=0.9)
    sched = S.CyclicLR(opt, [0.01, 0.02], [0.1, 0.4], step_size_up=2, scale_fn=lambda x: 1 / (1 + x),
                       scale_mode="iterations", cycle_momentum=False)
    for e in range(6):
        want = [lo + (hi - lo) * _triangle(e, 2, 2) / (1 + e) for lo, hi in ((0.01, 0.1), (0.02, 0.4))]
        np.testing.assert_allclose(sched.get_last_lr(), want, rtol=1e-13)
        opt.step()
        sched.step()


def test_sequential_lr_warmup_then_decay():
    make = lambda o: S.SequentialLR(o, [S.LinearLR(o, 0.1, total_iters=4), S.ExponentialLR(o, 0.5),  # noqa: E731
                                        S.CosineAnnealingLR(o, 4)], milestones=[4, 7])
    got, sched, _ = _lrs(make, n=12)
    warm = [0.1 + 0.9 * e / 4 for e in range(4)]
    decay = [0.5 ** k for k in range(3)]  # ExponentialLR restarts at its epoch 0 (base lr) at the milestone
    cos = [0.5 * (1 + math.cos(math.pi * k / 4)) for k in range(5)]
    np.testing.assert_allclose(got, warm + decay + cos, rtol=1e-13, atol=1e-15)
    sd = sched.state_dict()
    assert sd["last_epoch"] == 12 and len(sd["_schedulers"]) == 3 and "optimizer" not in sd
    opt2 = optim.SGD([nn.Parameter(torch.ones(1))], lr=1.0)
    sched2 = make(opt2)
    sched2.load_state_dict(sd)
    opt2.param_groups[0]["lr"] = sched.optimizer.param_groups[0]["lr"]
    for _ in range(3):
        sched.step()
        sched2.step()
        assert sched.get_last_lr() == sched2.get_last_lr()
    o = optim.SGD([nn.Parameter(torch.ones(1))], lr=1.0)
    with pytest.raises(ValueError, match="one more than the number of milestone"):
        S.SequentialLR(o, [S.ConstantLR(o), S.ConstantLR(o)], milestones=[1, 2])
    other = optim.SGD([nn.Parameter(torch.ones(1))], lr=1.0)
    with pytest.raises(ValueError, match="same optimizer"):
        S.SequentialLR(o, [S.ConstantLR(o), S.ConstantLR(other)], milestones=[1])
    with pytest.raises(ValueError, match="ReduceLROnPlateau"):
        S.SequentialLR(o, [S.ConstantLR(o), S.ReduceLROnPlateau(o)], milestones=[1])
    with pytest.raises(ValueError, match="at least one scheduler"):
        S.SequentialLR(o, [], milestones=[])


def test_chained_scheduler_multiplies():
    make = lambda o: S.ChainedScheduler([S.ConstantLR(o, 0.5, total_iters=3), S.ExponentialLR(o, 0.9),  # noqa
                                         S.StepLR(o, 4, 0.1)])
    got, sched, _ = _lrs(make, n=10)
    np.testing.assert_allclose(got, [(0.5 if e < 3 else 1) * 0.9 ** e * 0.1 ** (e // 4) for e in range(10)],
                               rtol=1e-13)
    sd = sched.state_dict()
    assert [s["last_epoch"] for s in sd["_schedulers"]] == [10, 10, 10]
    with pytest.raises(ValueError, match="at least one scheduler to be chained"):
        S.ChainedScheduler([])


def test_new_scheduler_argument_errors():
    o = optim.SGD([nn.Parameter(torch.ones(1))], lr=1.0)
    with pytest.raises(ValueError, match="Starting multiplicative factor"):
        S.LinearLR(o, start_factor=0)
    with pytest.raises(ValueError, match="Ending multiplicative factor"):
        S.LinearLR(o, end_factor=1.5)
    with pytest.raises(ValueError, match="Constant multiplicative factor"):
        S.ConstantLR(o, factor=2)
    with pytest.raises(ValueError, match="Expected 1 lr_lambdas, but got 2"):
        S.MultiplicativeLR(o, [lambda e: 1, lambda e: 1])
    with pytest.raises(TypeError, match="lr_lambda should be a function"):
        S.MultiplicativeLR(o, 0.5)
    with pytest.raises(TypeError, match="is not an Optimizer"):
        S.PolynomialLR(object())
