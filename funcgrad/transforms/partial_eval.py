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


def split_known(joint, known, bwd_layout, n_primal_out, devices):
    """Partial evaluation of a traced body into a forward part that saves residuals and a backward part.

    ``joint``'s inputs at positions ``known`` are known before the backward pass (the primal inputs)
    and its first ``n_primal_out`` outputs depend on them only.  Returns ``(fwd, bwd, n_residuals)``:

    - ``fwd`` takes the known inputs (in ``known``'s order) and returns those outputs, then the
      residuals: every value computed from known inputs alone that the rest of the graph reads;
    - ``bwd`` takes the inputs ``bwd_layout`` lists (positions of ``joint``'s inputs, and ``"res"``
      where the residuals go) and returns ``joint``'s other outputs.  Known inputs listed there are
      read directly (loop invariants), not saved as residuals.
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
    residuals, seen = [], set()
    for a in [a for e in u_eqns for a in e.inputs] + list(g.outvars[n_primal_out:]):
        if type(a) is Var and id(a) not in unknown and id(a) not in free and id(a) not in seen:
            seen.add(id(a))
            residuals.append(a)
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
