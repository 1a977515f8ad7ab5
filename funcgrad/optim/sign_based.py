"""Rprop as a pure ``(init, update)`` pair, with torch.optim.Rprop's update rule."""

from __future__ import annotations

from typing import Any, NamedTuple

from .. import numpy as fnp
from .optimizers import GradientTransformation, _map

__all__ = ["rprop", "RpropState"]


class RpropState(NamedTuple):
    count: Any
    prev: Any
    step_size: Any


def rprop(lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50.0), maximize=False):
    """Per element: the step size grows by etas[1] while the gradient keeps its sign and shrinks by
    etas[0] when it flips (that step is skipped, as PyTorch's), clipped to ``step_sizes``; the
    parameter moves by -sign(g) * step size."""
    etaminus, etaplus = etas
    lo, hi = step_sizes

    def init(params):
        return RpropState(0, _map(fnp.zeros_like, params), _map(lambda p: fnp.full_like(p, lr), params))

    def update(grads, state, params=None):
        grads = _map(lambda g: -g, grads) if maximize else grads
        sign = _map(lambda g, p: fnp.sign(g * p), grads, state.prev)
        factor = _map(lambda s: fnp.where(s > 0, etaplus, fnp.where(s < 0, etaminus, 1.0)).astype(s.dtype), sign)
        step = _map(lambda st, f: fnp.clip(st * f, lo, hi), state.step_size, factor)
        kept = _map(lambda g, s: fnp.where(s < 0, fnp.zeros_like(g), g), grads, sign)
        updates = _map(lambda g, st: -fnp.sign(g) * st, kept, step)
        return updates, RpropState(int(state.count) + 1, kept, step)

    return GradientTransformation(init, update)
