"""Containers: Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict."""

from __future__ import annotations

import operator
from collections import OrderedDict
from itertools import islice

from .module import Module
from .parameter import Parameter

__all__ = ["Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]


def _param_str(p):
    return f"Parameter containing: [{p.dtype} of size {'x'.join(map(str, p.shape))}]"


def _index(idx, n, cls):
    idx = operator.index(idx)
    if not -n <= idx < n:
        raise IndexError(f"index {idx} is out of range")
    return idx % n


class _ListOps:
    """Positional interface of Sequential / ModuleList over ``_modules`` (renumbered "0", "1", ...)."""

    def _renumber(self, modules):
        self._modules.clear()
        for i, m in enumerate(modules):
            self._modules[str(i)] = m

    def __delitem__(self, idx):
        items = list(self._modules.values())
        del items[idx if isinstance(idx, slice) else _index(idx, len(items), type(self))]
        self._renumber(items)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for m in modules:
            self.append(m)
        return self

    def insert(self, index, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        items = list(self._modules.values())
        items.insert(index, module)
        self._renumber(items)
        return self


class Sequential(_ListOps, Module):
    """Modules applied in order: ``Sequential(m1, m2)``, ``Sequential(OrderedDict(name=m))`` or ``add_module``."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        if isinstance(idx, str):
            return self._modules[idx]
        i = _index(idx, len(self), type(self))
        return next(islice(self._modules.values(), i, None))

    def __setitem__(self, idx, module):
        key = list(self._modules)[_index(idx, len(self), type(self))]
        setattr(self, key, module)

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(f"add operator supports only objects of Sequential class, but {type(other)} is given.")
        return Sequential(*self, *other)

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input


class ModuleList(_ListOps, Module):
    """A list of Modules, registered as children (not callable: iterate and call each)."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(_index(idx, len(self), type(self)))]

    def __setitem__(self, idx, module):
        self.add_module(str(_index(idx, len(self), type(self))), module)

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):
        return ModuleList(list(self) + list(other))

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function '
                                  "(a ModuleList is not callable: iterate over it and call each module)")


class _DictOps:
    """The dict interface of ModuleDict / ParameterDict over the registry named by ``_store``."""

    _store = "_modules"

    def _d(self):
        return self.__dict__[self._store]

    def __getitem__(self, key):
        return self._d()[key]

    def __delitem__(self, key):
        del self._d()[key]

    def __len__(self):
        return len(self._d())

    def __iter__(self):
        return iter(self._d())

    def __contains__(self, key):
        return key in self._d()

    def keys(self):
        return self._d().keys()

    def items(self):
        return self._d().items()

    def values(self):
        return self._d().values()

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def clear(self):
        self._d().clear()

    def update(self, values):
        for k, v in (values.items() if hasattr(values, "items") else values):
            self[k] = v


class ModuleDict(_DictOps, Module):
    """An ordered dict of Modules, registered as children."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __setitem__(self, key, module):
        self.add_module(key, module)


class ParameterList(Module):
    """A list of Parameters (plain tensors are wrapped in Parameter), registered on the module."""

    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self.extend(values)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ParameterList([self[i] for i in range(len(self))[idx]])
        return getattr(self, str(_index(idx, len(self), type(self))))

    def __setitem__(self, idx, param):
        idx = _index(idx, len(self), type(self))
        self.register_parameter(str(idx), param if isinstance(param, Parameter) else Parameter(param))

    def __len__(self):
        return self._size

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __iadd__(self, params):
        return self.extend(params)

    def append(self, value):
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values):
        for v in values:
            self.append(v)
        return self

    def extra_repr(self):
        return "\n".join(f"  ({i}): {_param_str(p)}" for i, p in enumerate(self))


class ParameterDict(_DictOps, Module):
    """An ordered dict of Parameters (plain tensors are wrapped in Parameter)."""

    _store = "_parameters"

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __setitem__(self, key, value):
        self.register_parameter(key, value if isinstance(value, Parameter) else Parameter(value))

    def extra_repr(self):
        return "\n".join(f"  ({k}): {_param_str(p)}" for k, p in self.items())
