"""Shared machinery for function-level transformations (custom_jvp, custom_vjp, checkpoint).

Such a call is not a primitive: it takes a Python function.  It is handed to
the innermost trace among its (flattened) arguments, like ``bind`` does for
a primitive; each kind of trace has a handler that applies the call one level
down (so the traces below see the call again, not its body) and records what
that trace needs.  Traces without a handler (and the eager case) just run the
function.
"""

from __future__ import annotations

import numpy as np

from ..core import Array, Tracer, Zero
from ..primitives.creation import zeros_like
from .reverse import CallRule, Node, VJPTrace, VJPTracer
from ..backend import is_float_dtype

__all__ = ["top_trace", "dispatch", "is_inexact", "zero_tangent", "record_vjp_call", "instantiate"]

_new = object.__new__


def top_trace(leaves):
    """The innermost (highest-level) trace among the leaves' tracers, or None."""
    top = None
    for x in leaves:
        if isinstance(x, Tracer):
            tr = x._trace
            if top is None or tr.level > top.level:
                top = tr
    return top


def dispatch(handlers, leaves, default):
    """Run the handler for the innermost trace among ``leaves``; ``default()`` if none applies."""
    trace = top_trace(leaves)
    handler = handlers.get(type(trace)) if trace is not None else None
    if handler is None:
        return default()
    return handler(trace)


def is_inexact(x):
    """Float or complex: a value derivatives flow through."""
    dt = getattr(x, "dtype", None)
    if dt is None:
        return isinstance(x, (float, complex))
    return is_float_dtype(dt)


def zero_tangent(x):
    """A zero tangent/cotangent for a value (an array for arrays, 0.0 for Python scalars)."""
    if isinstance(x, (Array, Tracer)):
        return zeros_like(x)
    return 0j if isinstance(x, complex) else 0.0


def instantiate(g, like):
    return zeros_like(g.like) if type(g) is Zero else g


def lower_vjp(trace, leaves):
    """-> (primals, parent nodes or None) of a VJP trace's tracers among ``leaves``."""
    primals, parents = [], []
    for x in leaves:
        if type(x) is VJPTracer and x._trace is trace:
            primals.append(x.primal)
            parents.append(x.node)
        else:
            primals.append(x)
            parents.append(None)
    return primals, parents


def record_vjp_call(trace: VJPTrace, name, vjp_all, primals, parents, outs, params=None):
    """Append one tape node for a call with outputs ``outs``; return the outputs as tracers.

    ``vjp_all(g, ans, *primals, **params)`` receives one cotangent per output
    (Zero where none arrived) and returns one cotangent (or None) per input.
    Only floating-point and complex outputs are traced.
    """
    if all(p is None for p in parents):
        return list(outs)
    node = _new(Node)
    node.prim = CallRule(name, vjp_all)
    node.params = params or {}
    node.args = list(primals)
    node.parents = parents
    node.out = list(outs)
    node.shape, node.dtype = (), None
    node.outs = [Node(tuple(getattr(o, "shape", ())), getattr(o, "dtype", np.dtype(float))) for o in outs]
    trace.tape.append(node)
    return [trace.new_tracer(o, slot) if is_inexact(o) and isinstance(o, (Array, Tracer)) else o
            for o, slot in zip(outs, node.outs)]
