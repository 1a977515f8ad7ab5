"""torch.autograd: backward, grad, Function, gradcheck, functional, anomaly detection, Variable."""

from __future__ import annotations

import warnings

from . import grad_mode as _gm
from .anomaly_mode import detect_anomaly, is_anomaly_enabled, set_detect_anomaly  # noqa: F401
from .engine import backward as _backward, grad  # noqa: F401
from .function import Function, FunctionCtx, InplaceFunction, NestedIOFunction, once_differentiable  # noqa: F401
from .grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled  # noqa: F401
from ..tensor import Tensor
from . import functional  # noqa: F401
from .gradcheck import GradcheckError, gradcheck, gradgradcheck  # noqa: F401

__all__ = ["backward", "grad", "Function", "Variable", "gradcheck", "gradgradcheck", "functional",
           "detect_anomaly", "set_detect_anomaly", "no_grad", "enable_grad", "set_grad_enabled"]


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    _backward(tensors, grad_tensors, retain_graph, create_graph, inputs=inputs, grad_variables=grad_variables)


class _VariableMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor)


class Variable(metaclass=_VariableMeta):
    """Legacy ``Variable(tensor, requires_grad=..., volatile=...)``: returns the tensor itself (deprecated)."""

    def __new__(cls, data=None, requires_grad=False, volatile=False):
        warnings.warn("torch.autograd.Variable is deprecated: Variables and Tensors were merged in PyTorch 0.4; "
                      "use the tensor directly (tensor.requires_grad_() to track gradients)",
                      DeprecationWarning, stacklevel=2)
        if data is None:
            from ..creation import empty  # noqa: PLC0415

            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                          UserWarning, stacklevel=2)
            return data.detach()
        if requires_grad:
            if data.grad_fn is not None:
                data = data.detach()
            elif data._req:
                return data
            t = data.detach()
            t.requires_grad_(True)
            return t
        return data


_ = _gm


from . import anomaly_mode  # noqa: E402,F401  (torch.autograd.anomaly_mode)
from . import function, grad_mode  # noqa: E402,F401  (torch.autograd.function, torch.autograd.grad_mode)
from . import variable  # noqa: E402,F401


def is_tensor_like(inp):
    """True for a Tensor or an object whose type defines ``__torch_function__``."""
    return isinstance(inp, Tensor) or hasattr(type(inp), "__torch_function__")
from . import forward_ad  # noqa: E402,F401

_MULTITHREADING = [True]


def is_multithreading_enabled():
    """Whether backward may use one worker thread per device (PyTorch's flag; CPU backward runs on the
    calling thread either way, and compat's engine always does)."""
    return _MULTITHREADING[0]


class set_multithreading_enabled:
    """``set_multithreading_enabled(mode)``: sets the flag now; as a context manager, restores it on exit."""

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(f"set_multithreading_enabled(): argument 'mode' must be bool, not {type(mode).__name__}")
        self.prev, _MULTITHREADING[0] = _MULTITHREADING[0], mode

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        _MULTITHREADING[0] = self.prev

    def clone(self):
        return type(self)(_MULTITHREADING[0])
