"""grad / value_and_grad with BCOO arguments (JAX's ``jax.experimental.sparse.grad``).

``fg.grad`` refuses a BCOO argument, whose integer indices have no derivative; these
differentiate with respect to the stored values of every BCOO among ``argnums`` (and the
other leaves as usual), and return each BCOO's gradient as a BCOO of the same pattern.
"""

from __future__ import annotations

import functools

from .. import transforms, tree
from . import BCOO

__all__ = ["grad", "value_and_grad"]


def _is_bcoo(x):
    return isinstance(x, BCOO)


def _values_of(x):
    """The pytree ``x`` with every BCOO replaced by its ``data``."""
    return tree.tree_map(lambda v: v.data if _is_bcoo(v) else v, x, is_leaf=_is_bcoo)


def _with_values(template, values):
    """``template``'s BCOOs with ``values`` (a tree of ``_values_of(template)``'s structure) as data."""
    leaves, treedef = tree.tree_flatten(template, is_leaf=_is_bcoo)
    new = treedef.flatten_up_to(values) if hasattr(treedef, "flatten_up_to") else tree.tree_leaves(values)
    return tree.tree_unflatten(treedef, [BCOO((v, t.indices), shape=t.shape) if _is_bcoo(t) else v
                                         for t, v in zip(leaves, new)])


def value_and_grad(fun, argnums=0, has_aux=False):
    """``fg.value_and_grad`` where arguments in ``argnums`` may hold BCOOs (see the module docstring)."""
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)

    @functools.wraps(fun)
    def run(*args, **kwargs):
        def on_values(*vals):
            full = list(vals)
            for n in nums:
                full[n] = _with_values(args[n], vals[n])
            return fun(*full, **kwargs)

        plain = [(_values_of(a) if i in nums else a) for i, a in enumerate(args)]
        value, grads = transforms.value_and_grad(on_values, argnums=argnums, has_aux=has_aux)(*plain)
        if isinstance(argnums, int):
            return value, _with_values(args[argnums], grads)
        return value, tuple(_with_values(args[n], g) for n, g in zip(nums, grads))

    return run


def grad(fun, argnums=0, has_aux=False):
    """``fg.grad`` where arguments in ``argnums`` may hold BCOOs: BCOO gradients of the same pattern."""
    vg = value_and_grad(fun, argnums, has_aux)

    @functools.wraps(fun)
    def run(*args, **kwargs):
        value, g = vg(*args, **kwargs)
        return (g, value[1]) if has_aux else g

    return run
