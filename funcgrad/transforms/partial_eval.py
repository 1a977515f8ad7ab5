"""Partial evaluation of traced graphs: trace a flat function once, split a joint graph in two.

``trace_flat`` traces ``fun(*flat arrays)`` on abstract values into a :class:`Compiled` (jit's
graph and replay).  ``split_known`` splits such a graph, given which of its inputs are known
first, into a forward part that also returns *residuals* (the known intermediate values the
rest reads) and a backward part that starts from them: JAX's partial evaluation, used for the
reverse mode of ``jit`` (forward saves residuals, backward reads them instead of recomputing)
and of ``funcgrad.lax.scan`` (per-step residuals).
"""

from __future__ import annotations

import inspect

import numpy as np

from .. import backend
from ..core import Array
from .graph import Graph, Var
from .jit import Compiled, Jitted

__all__ = ["example_array", "trace_flat", "split_known"]

_POS = inspect.Parameter.POSITIONAL_ONLY


def example_array(aval, device):
    """An Array of ``aval`` that costs no memory (a broadcast zero): jit only reads its shape and dtype."""
    buf = backend.put_buffer(np.zeros((), dtype=aval.dtype), device)
    return Array._from_buffer(backend.namespace_of(buf).broadcast_to(buf, tuple(aval.shape)))


def trace_flat(fun, avals, devices, name, argnames):
    """Trace ``fun(*flat arrays) -> list of arrays`` once on abstract values.

    Returns ``(compiled, lifted)``: the body, whose inputs are ``lifted + avals``, and the
    values of enclosing transformations ``fun`` closes over (to be passed as operands).
    ``argnames`` name the inputs in jit's errors (``derived from argument 'carry_0'``).
    """
    fun.__signature__ = inspect.Signature([inspect.Parameter(n, _POS) for n in argnames])
    fun.__name__ = name
    j = Jitted(fun, (), (), ())
    args = tuple(example_array(a, d) for a, d in zip(avals, devices))
    key, leaves, treedef, arrays, positions, static = j._signature_key(args, {})
    compiled, _, lifted = j._trace(key, leaves, treedef, arrays, positions, static, args)
    return compiled, list(lifted)


# Element-wise and shape primitives whose outputs are recomputed in the backward part instead of
# saved, when they are small: there a replay is bound by per-operation overhead (each saved residual
# is one more output of the forward and input of the backward, and keeps the forward's buffers from
# being reused), while on large arrays saving costs memory only and recomputing costs time.
_REMAT = frozenset({
    "add", "subtract", "multiply", "divide", "negative", "absolute", "square", "maximum", "minimum", "sign",
    "reciprocal", "sqrt", "exp", "expm1", "log", "log1p", "sin", "cos", "tan", "tanh", "sinh", "cosh",
    "arctan", "power", "greater", "greater_equal", "less", "less_equal", "equal", "not_equal",
    "where", "convert_element_type", "reshape", "broadcast_to", "transpose",
})
REMAT_MAX_ELEMENTS = 4096


def _rematerialize(e):
    if e.prim.name not in _REMAT:
        return False
    return all(int(np.prod(v.aval.shape)) <= REMAT_MAX_ELEMENTS for v in e.outputs)


def split_known(joint, known, bwd_layout, n_primal_out, devices, remat=False):
    """Partial evaluation of a traced body into a forward part that saves residuals and a backward part.

    ``joint``'s inputs at positions ``known`` are known before the backward pass (the primal inputs)
    and its first ``n_primal_out`` outputs depend on them only.  Returns ``(fwd, bwd, n_residuals)``:

    - ``fwd`` takes the known inputs (in ``known``'s order) and returns those outputs, then the
      residuals: every value computed from known inputs alone that the rest of the graph reads;
    - ``bwd`` takes the inputs ``bwd_layout`` lists (positions of ``joint``'s inputs, and ``"res"``
      where the residuals go) and returns ``joint``'s other outputs.  Known inputs listed there are
      read directly (loop invariants), not saved as residuals.

    With ``remat``, small element-wise and shape results (``_REMAT``, at most ``REMAT_MAX_ELEMENTS`` elements) are
    not saved: the equations computing them are copied into the backward part, which recomputes
    them from what is saved (JAX leaves this to XLA's fusion; here it is the partial evaluation's).
    """
    g = joint.graph
    invars = list(g.invars)
    unknown = {id(v) for i, v in enumerate(invars) if i not in set(known)}
    k_eqns, u_eqns = [], []
    for e in g.eqns:
        if any(type(a) is Var and id(a) in unknown for a in e.inputs):
            u_eqns.append(e)
            unknown.update(id(v) for v in e.outputs)
        else:
            k_eqns.append(e)
    free = {id(v) for v in g.constvars} | {id(invars[i]) for i in bwd_layout if i != "res"}
    producer = {id(v): e for e in k_eqns for v in e.outputs}
    residuals, seen, copied = [], set(), set()
    todo = [a for e in u_eqns for a in e.inputs] + list(g.outvars[n_primal_out:])
    while todo:
        a = todo.pop(0)
        if type(a) is not Var or id(a) in unknown or id(a) in free or id(a) in seen:
            continue
        seen.add(id(a))
        e = producer.get(id(a))
        if remat and e is not None and _rematerialize(e):  # cheaper to recompute in the backward part than to save
            if id(e) not in copied:
                copied.add(id(e))
                todo.extend(e.inputs)
        else:
            residuals.append(a)
    u_eqns = [e for e in k_eqns if id(e) in copied] + u_eqns  # (k_eqns is in topological order)
    types = [backend.get_backend(d).array_type for d in devices]
    fwd = Compiled(Graph([invars[i] for i in known], g.constvars, g.consts, k_eqns,
                         list(g.outvars[:n_primal_out]) + residuals, None, None),
                   f"forward of {joint.fname}", [types[i] for i in known], [False] * len(known))
    res_type = [types[known[0]] if known else types[0]] * len(residuals)  # where the primal inputs live
    bwd_in, bwd_types = [], []
    for i in bwd_layout:
        bwd_in += residuals if i == "res" else [invars[i]]
        bwd_types += res_type if i == "res" else [types[i]]
    bwd = Compiled(Graph(bwd_in, g.constvars, g.consts, u_eqns, list(g.outvars[n_primal_out:]), None, None),
                   f"backward of {joint.fname}", bwd_types, [False] * len(bwd_in))
    return fwd, bwd, len(residuals)
