"""compat NAdam/RAdam/Adamax (same math as funcgrad.optim) and the extra lr schedulers (PyTorch's sequences)."""

import math

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
