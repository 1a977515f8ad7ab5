"""torch.optim.swa_utils: averages against the snapshots they average, SWALR's schedule, update_bn."""

import math

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat.optim import swa_utils


def _train(model, steps, *averaged):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    snaps = []
    for i in range(steps):
        x = torch.randn(8, 3)
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
        for a in averaged:
            a.update_parameters(model)
        snaps.append([p.detach().numpy().copy() for p in model.parameters()])
    return snaps


def test_swa_is_the_mean_and_ema_the_exponential_average():
    torch.manual_seed(0)
    m = torch.nn.Linear(3, 2)
    swa = swa_utils.AveragedModel(m)
    ema = swa_utils.AveragedModel(m, multi_avg_fn=swa_utils.get_ema_multi_avg_fn(0.8))
    single = swa_utils.AveragedModel(m, avg_fn=swa_utils.get_ema_avg_fn(0.8))
    snaps = _train(m, 5, swa, ema, single)
    assert int(swa.n_averaged) == 5
    for k, p in enumerate(swa.parameters()):
        np.testing.assert_allclose(p.detach().numpy(), np.mean([s[k] for s in snaps], axis=0), rtol=1e-5, atol=1e-6)
    for k, (p, q) in enumerate(zip(ema.parameters(), single.parameters())):
        want = snaps[0][k]
        for s in snaps[1:]:
            want = 0.8 * want + 0.2 * s[k]
        np.testing.assert_allclose(p.detach().numpy(), want, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(q.detach().numpy(), want, rtol=1e-5, atol=1e-6)
    x = torch.randn(4, 3)
    w, b = (p.detach() for p in swa.parameters())
    np.testing.assert_allclose(swa(x).detach().numpy(), (x @ w.T + b).numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("strategy", ["cos", "linear"])
def test_swalr_anneals_to_swa_lr(strategy):
    p = [torch.zeros(1, requires_grad=True)]
    opt = torch.optim.SGD(p, lr=1.0)
    sch = swa_utils.SWALR(opt, swa_lr=0.1, anneal_epochs=4, anneal_strategy=strategy)
    f = (lambda t: t) if strategy == "linear" else (lambda t: (1 - math.cos(math.pi * t)) / 2)
    lrs = []
    for _ in range(6):
        opt.step()
        sch.step()
        lrs.append(opt.param_groups[0]["lr"])
    want = [0.1 * f(min(1, t / 4)) + 1.0 * (1 - f(min(1, t / 4))) for t in range(1, 7)]
    np.testing.assert_allclose(lrs, want, rtol=1e-12)


def test_update_bn_recomputes_the_statistics():
    model = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.BatchNorm1d(3))
    data = [torch.randn(10, 3) for _ in range(3)]
    model.eval()
    swa_utils.update_bn([(x, 0) for x in data], model)
    assert not model.training and model[1].momentum == 0.1
    feats = np.concatenate([model[0](x).detach().numpy() for x in data])
    np.testing.assert_allclose(model[1].running_mean.numpy(), feats.mean(0), rtol=1e-5, atol=1e-6)


def test_errors():
    m = torch.nn.Linear(2, 2)
    with pytest.raises(AssertionError, match="Only one of avg_fn and multi_avg_fn"):
        swa_utils.AveragedModel(m, avg_fn=swa_utils.get_swa_avg_fn(), multi_avg_fn=swa_utils.get_swa_multi_avg_fn())
    with pytest.raises(ValueError, match="Invalid decay value"):
        swa_utils.get_ema_multi_avg_fn(1.5)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    with pytest.raises(ValueError, match="anneal_strategy must be one of"):
        swa_utils.SWALR(opt, 0.01, anneal_strategy="exp")
    with pytest.raises(ValueError, match="anneal_epochs must be equal or greater than 0"):
        swa_utils.SWALR(opt, 0.01, anneal_epochs=-1)
