"""torch.optim.Rprop: a stateful shell over funcgrad.optim.rprop."""

from __future__ import annotations

from ...optim import sign_based as _sb
from .optimizer import Optimizer
from .rules import _check

__all__ = ["Rprop"]


class Rprop(Optimizer):
    _fields = (("count", "step"), ("prev", "prev"), ("step_size", "step_size"))
    _state_cls = _sb.RpropState

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False, foreach=None,
                 maximize=False, differentiable=False):
        _check(lr >= 0.0, f"Invalid learning rate: {lr}")
        _check(0.0 < etas[0] < 1.0 < etas[1], f"Invalid eta values: {etas[0]}, {etas[1]}")
        super().__init__(params, dict(lr=lr, etas=tuple(etas), step_sizes=tuple(step_sizes), foreach=foreach,
                                      maximize=maximize, differentiable=differentiable, capturable=capturable))

    def _rule(self, g):
        return _sb.rprop(g["lr"], g["etas"], g["step_sizes"], g["maximize"])
