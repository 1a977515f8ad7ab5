"""Module: an immutable dataclass that is a pytree (Equinox-style).

    class Affine(nn.Module):
        w: fg.Array
        b: fg.Array
        name: str = nn.static_field(default="affine")   # part of the structure, not a leaf

        def __call__(self, x):
            return x * self.w + self.b

A subclass is turned into a dataclass and registered as a pytree: its fields
are children (arrays, submodules, tuples of them, None) except those declared
with :func:`static_field`, which belong to the tree structure.  Fields are set
once, in ``__init__``; afterwards the module is frozen and "changes" make a
new module (:meth:`Module.replace`, or ``tree_map``).  ``fg.grad`` can
differentiate a module directly when all its leaves are float arrays; for
others, :func:`partition`/:func:`combine` or :func:`filter_grad` split off the
float arrays.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from ..backend import kind_of
from .. import tree
from ..core import Array, Tracer
from ..transforms import value_and_grad

__all__ = ["Module", "static_field", "partition", "combine", "is_inexact_array", "filter_grad",
           "filter_value_and_grad"]


def static_field(**kwargs):
    """A dataclass field that is part of the tree structure (hyperparameters, functions)."""
    md = dict(kwargs.pop("metadata", None) or {})
    md["static"] = True
    return dataclasses.field(metadata=md, **kwargs)


class Module:
    """Base class of funcgrad's layers: immutable, a pytree, callable."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # a hand-written __init__ (here or inherited) wins over the dataclass one
        custom = "__init__" in cls.__dict__ or any(b.__dict__.get("_custom_init", False) for b in cls.__mro__[1:])
        dataclasses.dataclass(cls, init=not custom, repr=False, eq=False)
        cls._custom_init = custom
        init = cls.__init__
        if getattr(init, "_module_wrapped", False):
            tree.register_dataclass(cls)
            return

        @functools.wraps(init)
        def __init__(self, *args, **kw):
            d = self.__dict__
            d["_building"] = d.get("_building", 0) + 1
            try:
                init(self, *args, **kw)
            finally:
                d["_building"] -= 1
                if not d["_building"]:
                    del d["_building"]
            if "_building" not in d:
                missing = []
                for f in dataclasses.fields(self):
                    if f.name in d:
                        continue
                    if f.default is not dataclasses.MISSING:
                        d[f.name] = f.default
                    elif f.default_factory is not dataclasses.MISSING:
                        d[f.name] = f.default_factory()
                    else:
                        missing.append(f.name)
                if missing:
                    raise TypeError(f"{type(self).__name__}.__init__ did not set field(s) {missing}")

        __init__._module_wrapped = True
        cls.__init__ = __init__
        tree.register_dataclass(cls)

    def __setattr__(self, name, value):
        if "_building" in self.__dict__:
            names = {f.name for f in dataclasses.fields(self)}
            if name not in names:
                raise AttributeError(
                    f"{type(self).__name__} has no field {name!r}: declare it in the class body "
                    f"(`{name}: fg.Array`, or `{name}: int = nn.static_field()` for a hyperparameter)"
                )
            object.__setattr__(self, name, value)
            return
        raise dataclasses.FrozenInstanceError(
            f"cannot assign to field {name!r}: {type(self).__name__} is immutable; "
            f"use m = m.replace({name}=value) to get an updated copy"
        )

    def __delattr__(self, name):
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}: {type(self).__name__} is immutable")

    def replace(self, **changes):
        """A copy with some fields changed (no __init__ call, nothing else recomputed)."""
        names = {f.name for f in dataclasses.fields(self)}
        bad = sorted(set(changes) - names)
        if bad:
            raise TypeError(f"{type(self).__name__}.replace: unknown field(s) {bad}; fields are {sorted(names)}")
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def __repr__(self):
        parts = []
        for f in dataclasses.fields(self):
            v = self.__dict__.get(f.name)
            if isinstance(v, (Array, Tracer)):
                s = f"{v.dtype}{list(v.shape)}"
            elif isinstance(v, (tuple, list)) and v and all(isinstance(i, Module) for i in v):
                s = "(" + ", ".join(repr(i) for i in v) + ")"
            else:
                s = getattr(v, "__name__", None) or repr(v)
            parts.append(f"{f.name}={s}")
        return f"{type(self).__name__}({', '.join(parts)})"


def is_inexact_array(x) -> bool:
    """Float (or complex) arrays: the leaves optimizers and gradients act on."""
    return isinstance(x, (Array, Tracer)) and kind_of(x.dtype) in "fc"


def partition(model, filter_spec=is_inexact_array):
    """Split a pytree into ``(selected, rest)``: two trees of the same structure, with None
    where a leaf went to the other one.  ``combine(selected, rest)`` undoes it."""
    leaves, treedef = tree.tree_flatten(model)
    keep = [bool(filter_spec(x)) for x in leaves]
    a = tree.tree_unflatten(treedef, [x if k else None for x, k in zip(leaves, keep)])
    b = tree.tree_unflatten(treedef, [None if k else x for x, k in zip(leaves, keep)])
    return a, b


def _is_none(x):
    return x is None


def combine(*trees):
    """Merge trees from :func:`partition`: each leaf from the first tree where it is not None."""
    flat = [tree.tree_flatten(t, is_leaf=_is_none) for t in trees]
    treedef = flat[0][1]
    for leaves, td in flat[1:]:
        if td != treedef:
            raise ValueError("combine: the trees do not have the same structure (were they made by partition?)")
    merged = [next((x for x in xs if x is not None), None) for xs in zip(*(f[0] for f in flat))]
    return tree.tree_unflatten(treedef, merged)


def filter_value_and_grad(fun, has_aux=False):
    """Like ``fg.value_and_grad`` w.r.t. the first argument, but only its float-array leaves
    are differentiated (ints, bools, functions pass through); the gradient tree has None
    elsewhere (``partition``'s convention)."""
    def wrapped(diff, rest, *args, **kwargs):
        return fun(combine(diff, rest), *args, **kwargs)

    vg = value_and_grad(wrapped, has_aux=has_aux)

    @functools.wraps(fun)
    def f(model, *args, **kwargs):
        diff, rest = partition(model)
        return vg(diff, rest, *args, **kwargs)

    return f


def filter_grad(fun, has_aux=False):
    """The gradient of ``fun`` w.r.t. the float-array leaves of its first argument."""
    vg = filter_value_and_grad(fun, has_aux)

    @functools.wraps(fun)
    def f(*args, **kwargs):
        (val, grads) = vg(*args, **kwargs)
        return (grads, val[1]) if has_aux else grads

    return f
