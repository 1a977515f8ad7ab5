"""nn.Parameter: a leaf Tensor that a Module registers as a learnable parameter."""

from __future__ import annotations

from ..creation import empty
from ..tensor import Tensor

__all__ = ["Parameter", "Buffer"]


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



class _BufferMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.__dict__.get("_is_buffer", False)


class Buffer(metaclass=_BufferMeta):
    """``nn.Buffer(data, *, persistent=True)``: marks a tensor so that assigning it to a Module attribute
    registers it as a buffer (``persistent=False`` keeps it out of the state_dict). Returns a plain Tensor
    sharing ``data``'s storage, as PyTorch."""

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Buffer(): data must be a Tensor, got {type(data).__name__}")
        t = data.detach().requires_grad_(data.requires_grad)
        t._is_buffer, t.persistent = True, persistent
        return t
