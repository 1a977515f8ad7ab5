"""torch.func's values: between the Tensors PyTorch code sees and the tracers funcgrad's transformations see.

A tracer goes to the function as a TracedTensor (graph.py: a Tensor whose value is the tracer, so
Tensor methods work and each operation binds on the tracer); the function's results go back to the
transformation unwrapped.  Plain Tensors pass as they are: they are compat's level-0 tracers.
"""

from __future__ import annotations

from .. import tree
from ..array import Array, Tracer
from .graph import TracedTensor, _traced
from .tensor import TENSOR_TYPES, Tensor

_new = object.__new__

def _to_fg(x):
    """An argument as the transformation takes it: a TracedTensor's tracer; a Tensor that requires grad
    as it is (compat's trace, below the transformation, records what is computed from it); another
    Tensor as an Array on its buffer (a constant: the transformation computes on Arrays, at the core's
    speed); anything else as it is."""
    t = type(x)
    if t is TracedTensor:
        return x._value
    if t in TENSOR_TYPES and not (x._req or x.grad_fn is not None):
        a = _new(Array)
        a._value = x._value
        return a
    return x


def _to_torch(x):
    """A value the function (or the caller) gets: a Tensor (a TracedTensor for a tracer)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (Tracer, Array)):
        return _traced(x)
    return x


def _tree_to_fg(t):
    return tree.tree_map(_to_fg, t)


def _tree_to_torch(t):
    return tree.tree_map(_to_torch, t)


def _torch_fn(func):
    """``func`` as a function of the transformations' values (Tensors in, values out)."""
    def fn(*args, **kwargs):
        return _tree_to_fg(func(*_tree_to_torch(args), **kwargs))
    fn.__name__ = getattr(func, "__name__", "function")
    return fn


