"""NAdam, RAdam, Adamax, ASGD: hand-computed first steps and 20-step trajectories against torch.optim's (2.x)
update formulas written out in numpy."""

import numpy as np
import pytest

import funcgrad.numpy as fnp
from funcgrad import optim

from .test_optimizers import P0, STEPS, grad_np, run

G0 = grad_np(P0)


def first_step(opt):
    return run(opt)[0]


def test_first_steps_by_hand():
    lr, b1, b2, eps = 0.1, 0.9, 0.999, 1e-8
    # RAdam: rho_1 = 1 <= 5, so the step is the bias-corrected momentum, m / (1 - b1) = g
    np.testing.assert_allclose(first_step(optim.radam(lr)), P0 - lr * G0, rtol=1e-14)
    # Adamax: m = (1 - b1) g, u = |g| + eps, bias correction 1 - b1
    np.testing.assert_allclose(first_step(optim.adamax(lr)), P0 - lr * G0 / (np.abs(G0) + eps), rtol=1e-14)
    # NAdam: mu_1 = b1 (1 - 0.96**0.004 / 2); sqrt(v / (1 - b2)) = |g|
    mu1 = b1 * (1 - 0.5 * 0.96 ** 0.004)
    mu2 = b1 * (1 - 0.5 * 0.96 ** 0.008)
    step = lr * G0 + lr * mu2 / (1 - mu1 * mu2) * (1 - b1) * G0
    np.testing.assert_allclose(first_step(optim.nadam(lr)), P0 - step / (np.abs(G0) + eps), rtol=1e-14)


def _decayed(p, lr, wd, decoupled, maximize):
    """PyTorch's order: negate for maximize, then decay p (decoupled) or add wd * p to the gradient."""
    g = grad_np(p) * (-1 if maximize else 1)
    return (p * (1 - lr * wd), g) if decoupled else (p, g + wd * p)


def ref_nadam(lr, b1=0.9, b2=0.999, eps=1e-8, wd=0.0, psi=4e-3, decoupled=False, maximize=False):
    p, m, v, prod, out = P0.copy(), 0 * P0, 0 * P0, 1.0, []
    for t in range(1, STEPS + 1):
        p, g = _decayed(p, lr, wd, decoupled, maximize)
        mu, mu_next = (b1 * (1 - 0.5 * 0.96 ** (k * psi)) for k in (t, t + 1))
        prod *= mu
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        d = np.sqrt(v / (1 - b2 ** t)) + eps
        p = p - lr * (1 - mu) / (1 - prod) * g / d - lr * mu_next / (1 - prod * mu_next) * m / d
        out.append(p)
    return np.array(out)


def ref_radam(lr, b1=0.9, b2=0.999, eps=1e-8, wd=0.0, decoupled=False, maximize=False):
    p, m, v, out = P0.copy(), 0 * P0, 0 * P0, []
    rho_inf = 2 / (1 - b2) - 1
    for t in range(1, STEPS + 1):
        p, g = _decayed(p, lr, wd, decoupled, maximize)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        mhat = m / (1 - b1 ** t)
        rho = rho_inf - 2 * t * b2 ** t / (1 - b2 ** t)
        if rho > 5:
            r = np.sqrt((rho - 4) * (rho - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho))
            p = p - lr * mhat * r * np.sqrt(1 - b2 ** t) / (np.sqrt(v) + eps)
        else:
            p = p - lr * mhat
        out.append(p)
    return np.array(out)


def ref_adamax(lr, b1=0.9, b2=0.999, eps=1e-8, wd=0.0, maximize=False):
    p, m, u, out = P0.copy(), 0 * P0, 0 * P0, []
    for t in range(1, STEPS + 1):
        g = grad_np(p) * (-1 if maximize else 1) + wd * p
        m = b1 * m + (1 - b1) * g
        u = np.maximum(b2 * u, np.abs(g) + eps)
        p = p - lr / (1 - b1 ** t) * m / u
        out.append(p)
    return np.array(out)


CASES = [
    (lambda: optim.nadam(0.05), lambda: ref_nadam(0.05)),
    (lambda: optim.nadam(0.05, 0.8, 0.99, weight_decay=0.1, momentum_decay=0.01),
     lambda: ref_nadam(0.05, 0.8, 0.99, wd=0.1, psi=0.01)),
    (lambda: optim.nadam(0.05, weight_decay=0.2, decoupled_weight_decay=True),
     lambda: ref_nadam(0.05, wd=0.2, decoupled=True)),
    (lambda: optim.radam(0.05), lambda: ref_radam(0.05)),
    # b2 = 0.9: rho_inf = 19, rho_t passes 5 at t = 5, so both branches run
    (lambda: optim.radam(0.05, b2=0.9, weight_decay=0.1), lambda: ref_radam(0.05, b2=0.9, wd=0.1)),
    (lambda: optim.radam(0.05, 0.5, 0.7, weight_decay=0.1, decoupled_weight_decay=True),
     lambda: ref_radam(0.05, 0.5, 0.7, wd=0.1, decoupled=True)),
    (lambda: optim.adamax(0.05), lambda: ref_adamax(0.05)),
    (lambda: optim.adamax(0.05, 0.7, 0.9, eps=1e-3, weight_decay=0.1), lambda: ref_adamax(0.05, 0.7, 0.9, 1e-3, 0.1)),
]


@pytest.mark.parametrize("make,ref", CASES)
def test_trajectories_match_the_formulas(make, ref):
    np.testing.assert_allclose(run(make()), ref(), rtol=1e-12, atol=1e-13)


def test_radam_uses_both_branches_with_small_beta2():
    b2, rho_inf = 0.9, 19.0
    rhos = [rho_inf - 2 * t * b2 ** t / (1 - b2 ** t) for t in range(1, STEPS + 1)]
    assert rhos[0] <= 5 < rhos[-1]


@pytest.mark.parametrize("make,ref", [
    (lambda: optim.nadam(0.01, maximize=True), lambda: ref_nadam(0.01, maximize=True)),
    (lambda: optim.radam(0.01, b2=0.9, maximize=True), lambda: ref_radam(0.01, b2=0.9, maximize=True)),
    (lambda: optim.adamax(0.01, maximize=True), lambda: ref_adamax(0.01, maximize=True)),
])
def test_maximize(make, ref):
    np.testing.assert_allclose(run(make()), ref(), rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("make", [optim.nadam, optim.radam, optim.adamax])
def test_float32_state_and_params(make):
    out = run(make(0.01), dtype=np.float32)
    assert out.dtype == np.float32 and np.isfinite(out).all()
    opt = make(0.01)
    st = opt.init({"w": fnp.zeros(3, dtype=np.float32)})
    assert all(leaf["w"].dtype == np.float32 for leaf in st[1:] if isinstance(leaf, dict))


def test_schedule_as_lr():
    sched = optim.schedules.exponential(0.1, 0.5)
    a, b = run(optim.adamax(sched)), run(optim.adamax(0.1))
    np.testing.assert_allclose(a[0], b[0], rtol=1e-14)
    assert not np.allclose(a[1], b[1])


def test_none_leaves_are_skipped():
    opt = optim.nadam(0.1, weight_decay=0.1)
    params = {"w": fnp.asarray(P0), "frozen": None}
    st = opt.init(params)
    upd, st = opt.update({"w": fnp.asarray(G0), "frozen": None}, st, params)
    assert upd["frozen"] is None and st.exp_avg["frozen"] is None


@pytest.mark.parametrize("make", [optim.nadam, optim.radam, optim.adamax])
def test_argument_errors(make):
    with pytest.raises(ValueError, match="beta1"):
        make(0.1, 1.0)
    with pytest.raises(ValueError, match="beta2"):
        make(0.1, 0.9, -0.1)
    with pytest.raises(ValueError, match="epsilon"):
        make(0.1, eps=-1.0)
    opt = make(0.1, weight_decay=0.1)
    with pytest.raises(ValueError, match="needs params"):
        opt.update([fnp.asarray(G0)], opt.init([fnp.asarray(P0)]))
    with pytest.raises(ValueError, match="momentum_decay"):
        optim.nadam(momentum_decay=-1.0)


def ref_asgd(lr, lambd=1e-4, alpha=0.75, t0=1e6, wd=0.0):
    p, ax, eta, mu, out = P0.copy(), 0 * P0, lr, 1.0, []
    for t in range(1, STEPS + 1):
        g = grad_np(p) + wd * p
        p = p * (1 - lambd * eta) - eta * g
        ax = ax + (p - ax) * mu if mu != 1 else p
        eta = lr / (1 + lambd * lr * t) ** alpha
        mu = 1 / max(1, t - t0)
        out.append(p)
    return np.array(out), ax


@pytest.mark.parametrize("kw", [dict(lr=0.05), dict(lr=0.05, lambd=0.01, alpha=0.6, t0=5, weight_decay=0.1)])
def test_asgd_trajectory_and_average(kw):
    ref, ref_ax = ref_asgd(kw["lr"], kw.get("lambd", 1e-4), kw.get("alpha", 0.75), kw.get("t0", 1e6),
                           kw.get("weight_decay", 0.0))
    np.testing.assert_allclose(run(optim.asgd(**kw)), ref, rtol=1e-12, atol=1e-13)
    opt = optim.asgd(**kw)
    p = fnp.asarray(P0)
    st = opt.init(p)
    for _ in range(STEPS):
        upd, st = opt.update(fnp.asarray(grad_np(np.asarray(p))), st, p)
        p = optim.apply_updates(p, upd)
    np.testing.assert_allclose(np.asarray(st.ax), ref_ax, rtol=1e-12, atol=1e-13)
    assert st.count == STEPS and st.mu == 1 / max(1, STEPS - kw.get("t0", 1e6))


def test_asgd_first_step_by_hand_and_errors():
    # eta_0 = lr: p1 = p0 (1 - lambd lr) - lr g0; the average is p1 itself (mu = 1)
    np.testing.assert_allclose(first_step(optim.asgd(0.1, lambd=0.5)), P0 * (1 - 0.05) - 0.1 * G0, rtol=1e-14)
    with pytest.raises(ValueError, match="invalid learning rate"):
        optim.asgd(-1.0)
    opt = optim.asgd(0.1)
    with pytest.raises(ValueError, match="needs params"):
        opt.update([fnp.asarray(G0)], opt.init([fnp.asarray(P0)]))
