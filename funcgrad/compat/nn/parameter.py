"""nn.Parameter: a leaf Tensor that a Module registers as a learnable parameter."""

from __future__ import annotations

from ..creation import empty
from ..tensor import Tensor

__all__ = ["Parameter"]


def _rebuild_parameter(data, requires_grad):
    return Parameter(data, requires_grad)


class Parameter(Tensor):
    """``nn.Parameter(data, requires_grad=True)``: shares ``data``'s storage and version counter."""

    _is_param = True

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter(): data must be a Tensor, got {type(data).__name__}")
        r = object.__new__(cls)
        r._value = data._value
        if data._vc is None:
            data._vc = [0]
        r._vc = data._vc
        if requires_grad:
            r.requires_grad_(True)
        return r

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        return (_rebuild_parameter, (self.detach(), self._req))

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        r = Parameter(Tensor.__deepcopy__(self.detach(), {}), self._req)
        if self._grad is not None:
            r._grad = self._grad.clone()
        memo[id(self)] = r
        return r

