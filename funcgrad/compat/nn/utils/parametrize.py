"""torch.nn.utils.parametrize: ``register_parametrization`` makes ``module.<name>`` the result of
modules applied to stored originals (``module.parametrizations.<name>.original``), as PyTorch does
it: the module's class is swapped for a subclass with a property per parametrized tensor."""

from __future__ import annotations

import contextlib

from ...autograd.grad_mode import no_grad
from ...tensor import Tensor
from ..containers import ModuleDict, ModuleList
from ..module import Module
from ..parameter import Parameter

__all__ = ["register_parametrization", "remove_parametrizations", "is_parametrized", "cached",
           "type_before_parametrizations", "ParametrizationList"]

_CACHE = {"enabled": 0, "values": {}}


@contextlib.contextmanager
def cached():
    """Within the context, each parametrized tensor is computed once (on first access)."""
    _CACHE["enabled"] += 1
    try:
        yield
    finally:
        _CACHE["enabled"] -= 1
        if not _CACHE["enabled"]:
            _CACHE["values"] = {}


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, in order, and its original(s) (``original`` or
    ``original0``, ``original1``, ... when the first right_inverse returns a tuple)."""

    def __init__(self, modules, original, unsafe=False):
        super().__init__(modules)
        self.unsafe = unsafe
        new = original
        with no_grad():
            for m in reversed(list(self)):
                if hasattr(m, "right_inverse"):
                    new = m.right_inverse(new)
        req = original.requires_grad if isinstance(original, Tensor) else True
        if isinstance(new, (tuple, list)):
            self.is_tensor = False
            self.ntensors = len(new)
            for i, t in enumerate(new):
                setattr(self, f"original{i}", Parameter(t.detach().clone(), req))
        else:
            self.is_tensor = True
            self.ntensors = 1
            self.original = Parameter(new.detach().clone() if new is not original else original.detach(), req)

    def right_inverse(self, value):
        with no_grad():
            for m in reversed(list(self)):
                if hasattr(m, "right_inverse"):
                    value = m.right_inverse(value)
            if self.is_tensor:
                self.original.copy_(value)
            else:
                for i, t in enumerate(value):
                    getattr(self, f"original{i}").copy_(t)

    def forward(self):
        mods = list(self)
        x = mods[0](self.original) if self.is_tensor else \
            mods[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for m in mods[1:]:
            x = m(x)
        return x


def _property(name):
    def get(self):
        if _CACHE["enabled"]:
            key = (id(self), name)
            if key not in _CACHE["values"]:
                _CACHE["values"][key] = self.parametrizations[name]()
            return _CACHE["values"][key]
        return self.parametrizations[name]()

    def set_(self, value):
        self.parametrizations[name].right_inverse(value)
    return property(get, set_)


def is_parametrized(module, tensor_name=None):
    p = module.__dict__.get("_modules", {}).get("parametrizations")
    if p is None or not isinstance(p, ModuleDict):
        return False
    return True if tensor_name is None else tensor_name in p


def type_before_parametrizations(module):
    return module.__class__.__bases__[0] if is_parametrized(module) else type(module)


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    """``module.<tensor_name>`` becomes ``parametrization(original)`` (chained if registered again)."""
    if not isinstance(parametrization, Module):
        raise TypeError(f"parametrization must be an nn.Module, got {type(parametrization).__name__}")
    if is_parametrized(module, tensor_name):
        module.parametrizations[tensor_name].append(parametrization)
        return module
    if tensor_name not in module._parameters and tensor_name not in module._buffers:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a parametrized element with "
                         f"name '{tensor_name}'")
    original = getattr(module, tensor_name)
    if not is_parametrized(module):
        cls = module.__class__
        module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), {})
        module.parametrizations = ModuleDict()
    plist = ParametrizationList([parametrization], original, unsafe=unsafe)
    delattr(module, tensor_name)
    module.parametrizations[tensor_name] = plist
    setattr(module.__class__, tensor_name, _property(tensor_name))
    return module


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    """Undo register_parametrization: ``tensor_name`` is a plain parameter again, holding the
    parametrized value (or the original, if ``leave_parametrized`` is False)."""
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    plist = module.parametrizations[tensor_name]
    with no_grad():
        if leave_parametrized:
            value = plist()
        elif plist.is_tensor:
            value = plist.original
        else:
            raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is parametrized "
                             "in terms of a sequence of tensors.")
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    module.register_parameter(tensor_name, Parameter(value.detach().clone(), True))
    if not len(module.parametrizations):
        del module.parametrizations
        module.__class__ = module.__class__.__bases__[0]
    return module
