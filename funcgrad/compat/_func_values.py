"""torch.func's values: between the Tensors PyTorch code sees and the tracers funcgrad's transformations see.

A tracer goes to the function as a TracedTensor (graph.py: a Tensor whose value is the tracer, so
Tensor methods work and each operation binds on the tracer); the function's results go back to the
transformation unwrapped.  Plain Tensors pass as they are: they are compat's level-0 tracers.
"""

from __future__ import annotations

import weakref

from .. import tree
from ..array import Array, Tracer
from .autograd.graph import TracedTensor, _traced
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


# the traces whose tracers torch.func hands out as TracedTensors (their values reach PyTorch code); a
# tracer of another trace (fg.grad/fg.vmap's, reaching torch.func through a closure or an argument)
# goes back as it came: the fg code around expects its own tracers
_TORCH_TRACES = weakref.WeakSet()


def _to_torch(x):
    """A value the function (or the caller) gets: a Tensor (a TracedTensor for a tracer of torch.func's)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, Tracer):
        return _traced(x) if x._trace in _TORCH_TRACES else x
    if isinstance(x, Array):
        return _traced(x)
    return x


def _handed_out(t):
    """The arguments a transformation gives the function: its tracers (of the innermost trace among them:
    the one the transformation just opened) become TracedTensors, and so do the values computed from them."""
    traces = [x._trace for x in tree.tree_leaves(t) if isinstance(x, Tracer) and not isinstance(x, Tensor)]
    if traces:
        _TORCH_TRACES.add(max(traces, key=lambda tr: tr.level))
    return _tree_to_torch(t)


def _tree_to_fg(t):
    return tree.tree_map(_to_fg, t)


def _tree_to_torch(t):
    return tree.tree_map(_to_torch, t)


def _torch_fn(func):
    """``func`` as a function of the transformations' values (Tensors in, values out)."""
    def fn(*args, **kwargs):
        return _tree_to_fg(func(*_handed_out(args), **kwargs))
    fn.__name__ = getattr(func, "__name__", "function")
    return fn


