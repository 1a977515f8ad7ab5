"""NAdam, RAdam, Adamax as ``(init, update)`` pairs, with torch.optim's (2.x) update rules.

Same conventions as :mod:`funcgrad.optim.optimizers`: pytrees of float arrays
(None leaves skipped), ``lr`` a number or a schedule of the step count,
``maximize`` negates the gradient first, L2 ``weight_decay`` is added to the
gradient unless ``decoupled_weight_decay`` (then ``p *= 1 - lr * wd``, as AdamW).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .. import numpy as fnp
from .optimizers import GradientTransformation, _check_betas_eps, _check_params, _l2_and_sign, _lr, _map, _zeros

__all__ = ["nadam", "radam", "adamax"]


def _decay(grads, params, weight_decay, decoupled, maximize, fname):
    """Gradient preprocessing; returns (grads, decoupled decay factor or 0)."""
    grads = _l2_and_sign(grads, params, 0.0 if decoupled else weight_decay, maximize, fname)
    if weight_decay and decoupled:
        _check_params(params, fname)
        return grads, weight_decay
    return grads, 0.0


def _with_decay(upd, params, lr_t, wd):
    """Add the decoupled decay ``-lr * wd * p`` (PyTorch applies it to p before the step)."""
    return _map(lambda u, p: u - (lr_t * wd) * p, upd, params) if wd else upd


def _moments(state_m, state_v, grads, b1, b2):
    m = _map(lambda m, g: b1 * m + (1 - b1) * g, state_m, grads)
    v = _map(lambda v, g: b2 * v + (1 - b2) * (g * g), state_v, grads)
    return m, v


class NadamState(NamedTuple):
    count: Any
    mu_product: Any  # a Python float: the product of the momentum schedule mu_1 ... mu_t
    exp_avg: Any
    exp_avg_sq: Any


def nadam(lr=2e-3, b1=0.9, b2=0.999, eps=1e-8, weight_decay=0.0, momentum_decay=4e-3,
          decoupled_weight_decay=False, maximize=False):
    """torch.optim.NAdam: mu_t = b1 (1 - 0.96 ** (t psi) / 2) (psi = momentum_decay);
    p -= lr (1 - mu_t) / (1 - prod mu_1..t) g / d + lr mu_{t+1} / (1 - prod mu_1..t+1) m / d,
    with d = sqrt(v / (1 - b2 ** t)) + eps."""
    _check_betas_eps(b1, b2, eps, "nadam")
    if momentum_decay < 0:
        raise ValueError(f"nadam: invalid momentum_decay {momentum_decay}")

    def init(params):
        return NadamState(0, 1.0, _zeros(params), _zeros(params))

    def update(grads, state, params=None):
        t = int(state.count) + 1
        lr_t = _lr(lr, t - 1)
        grads, wd = _decay(grads, params, weight_decay, decoupled_weight_decay, maximize, "nadam")
        mu = b1 * (1.0 - 0.5 * 0.96 ** (t * momentum_decay))
        mu_next = b1 * (1.0 - 0.5 * 0.96 ** ((t + 1) * momentum_decay))
        mu_product = float(state.mu_product) * mu
        m, v = _moments(state.exp_avg, state.exp_avg_sq, grads, b1, b2)
        bc2 = 1 - b2 ** t
        c_g = lr_t * (1.0 - mu) / (1.0 - mu_product)
        c_m = lr_t * mu_next / (1.0 - mu_product * mu_next)
        def step(g, m, v):
            d = fnp.sqrt(v / bc2) + eps
            return -c_g * g / d - c_m * m / d
        upd = _map(step, grads, m, v)
        return _with_decay(upd, params, lr_t, wd), NadamState(t, mu_product, m, v)

    return GradientTransformation(init, update)


class RadamState(NamedTuple):
    count: Any
    exp_avg: Any
    exp_avg_sq: Any


def radam(lr=1e-3, b1=0.9, b2=0.999, eps=1e-8, weight_decay=0.0, decoupled_weight_decay=False, maximize=False):
    """torch.optim.RAdam: rho_inf = 2 / (1 - b2) - 1, rho_t = rho_inf - 2 t b2**t / (1 - b2**t);
    p -= lr m / (1 - b1**t) * r_t sqrt(1 - b2**t) / (sqrt(v) + eps) when rho_t > 5, else
    p -= lr m / (1 - b1**t), with r_t = sqrt((rho_t-4)(rho_t-2) rho_inf / ((rho_inf-4)(rho_inf-2) rho_t))."""
    _check_betas_eps(b1, b2, eps, "radam")

    def init(params):
        return RadamState(0, _zeros(params), _zeros(params))

    def update(grads, state, params=None):
        t = int(state.count) + 1
        lr_t = _lr(lr, t - 1)
        grads, wd = _decay(grads, params, weight_decay, decoupled_weight_decay, maximize, "radam")
        m, v = _moments(state.exp_avg, state.exp_avg_sq, grads, b1, b2)
        bc1, bc2 = 1 - b1 ** t, 1 - b2 ** t
        rho_inf = 2 / (1 - b2) - 1
        rho_t = rho_inf - 2 * t * (b2 ** t) / bc2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            c = lr_t * rect * bc2 ** 0.5
            upd = _map(lambda m, v: -(m / bc1) * c / (fnp.sqrt(v) + eps), m, v)
        else:
            upd = _map(lambda m: -(m / bc1) * lr_t, m)
        return _with_decay(upd, params, lr_t, wd), RadamState(t, m, v)

    return GradientTransformation(init, update)


class AdamaxState(NamedTuple):
    count: Any
    exp_avg: Any
    exp_inf: Any


def adamax(lr=2e-3, b1=0.9, b2=0.999, eps=1e-8, weight_decay=0.0, maximize=False):
    """torch.optim.Adamax: m = b1 m + (1 - b1) g; u = max(b2 u, |g| + eps); p -= lr / (1 - b1**t) m / u."""
    _check_betas_eps(b1, b2, eps, "adamax")

    def init(params):
        return AdamaxState(0, _zeros(params), _zeros(params))

    def update(grads, state, params=None):
        t = int(state.count) + 1
        lr_t = _lr(lr, t - 1)
        grads = _l2_and_sign(grads, params, weight_decay, maximize, "adamax")
        m = _map(lambda m, g: b1 * m + (1 - b1) * g, state.exp_avg, grads)
        u = _map(lambda u, g: fnp.maximum(b2 * u, fnp.abs(g) + eps), state.exp_inf, grads)
        clr = lr_t / (1 - b1 ** t)
        return _map(lambda m, u: -clr * m / u, m, u), AdamaxState(t, m, u)

    return GradientTransformation(init, update)
