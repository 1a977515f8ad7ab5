"""torch.optim.Adafactor: a stateful shell over funcgrad.optim.adafactor."""

from __future__ import annotations

from ...optim.adafactor import AdafactorState, adafactor
from .optimizer import Optimizer, _arr
from .rules import _check

__all__ = ["Adafactor"]


class Adafactor(Optimizer):
    """Factored second moments for matrices (``state['row_var']``/``['col_var']``), full for vectors
    (``state['variance']``); PyTorch's arguments and checks."""

    _fields = (("count", "step"), ("row_var", "row_var"), ("col_var", "col_var"), ("variance", "variance"))
    _state_cls = AdafactorState

    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0, weight_decay=0.0, *,
                 foreach=None, maximize=False):
        if hasattr(lr, "numel") and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        _check(0.0 <= lr, f"Learning rate should be >= 0 but is: {lr}")
        _check(0.0 >= beta2_decay, f"beta2_decay should be <= 0 but is: {beta2_decay}")
        _check(eps[0] is None or 0.0 <= eps[0], f"epsilon1 should be >= 0 but is: {eps[0]}")
        _check(0.0 <= eps[1], f"epsilon2 should be >= 0 but is: {eps[1]}")
        _check(1.0 <= d, f"Clipping threshold d should be >= 1 but is: {d}")
        _check(0.0 <= weight_decay, f"weight_decay should be >= 0 but is: {weight_decay}")
        super().__init__(params, dict(lr=lr, beta2_decay=beta2_decay, eps=tuple(eps), d=d,
                                      weight_decay=weight_decay, foreach=foreach, maximize=maximize))

    def _pack(self, sts, params):
        # vectors and matrices share a bucket: a field is None for the parameters that do not keep it
        return self._state_cls(self._count(sts[0]), *([None if st.get(k) is None else _arr(st[k]) for st in sts]
                                                      for k in ("row_var", "col_var", "variance")))

    def _rule(self, g):
        return adafactor(float(g["lr"]), g["beta2_decay"], g["eps"], g["d"], g["weight_decay"], g["maximize"])
