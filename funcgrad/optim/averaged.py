"""Averaged SGD as an ``(init, update)`` pair, with torch.optim.ASGD's update rule."""

from __future__ import annotations

from typing import Any, NamedTuple

from .optimizers import GradientTransformation, _l2_and_sign, _lr, _map, _zeros

__all__ = ["asgd"]


class AsgdState(NamedTuple):
    count: Any
    eta: Any  # a Python float: the step size of the next update
    mu: Any  # a Python float: the averaging coefficient of the next update
    ax: Any  # the running average of the parameters


def asgd(lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0, maximize=False):
    """torch.optim.ASGD: p = p (1 - lambd eta) - eta g; ax += mu (p - ax) (ax = p while mu == 1); then
    eta = lr / (1 + lambd lr t) ** alpha and mu = 1 / max(1, t - t0).  ``eta`` starts at lr; a scheduled
    ``lr`` enters eta one step later, as in PyTorch.  The averaged parameters are ``state.ax``."""
    if lr is None or (not callable(lr) and lr < 0):
        raise ValueError(f"asgd: invalid learning rate {lr}")

    def init(params):
        return AsgdState(0, float(_lr(lr, 0)), 1.0, _zeros(params))

    def update(grads, state, params=None):
        t = int(state.count) + 1
        eta, mu = float(state.eta), float(state.mu)
        grads = _l2_and_sign(grads, params, weight_decay, maximize, "asgd")
        if params is None:
            raise ValueError("asgd: update(grads, state, params) needs params (the decay and the average read them)")
        new_p = _map(lambda p, g: p * (1 - lambd * eta) - eta * g, params, grads)
        if mu != 1:
            ax = _map(lambda a, p: a + (p - a) * mu, state.ax, new_p)
        else:
            ax = new_p
        lr_t = _lr(lr, t - 1)
        new_state = AsgdState(t, lr_t / ((1 + lambd * lr_t * t) ** alpha), 1 / max(1, t - t0), ax)
        return _map(lambda q, p: q - p, new_p, params), new_state

    return GradientTransformation(init, update)
