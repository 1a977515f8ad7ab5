"""Bodies of control-flow primitives: user functions traced once, on abstract values, by ``fg.jit``.

A body is a :class:`~funcgrad.transforms.jit.Compiled`: jit's graph of a function of flat
arrays, with its replay over raw buffers (what the eager impls call in their loops), its
output avals (what the shape rules return) and ``as_function()`` (the graph applied with
``bind``, which the derivative and batching rules transform).  Values of enclosing
transformations that a user function closes over are *lifted* by jit's trace into extra
inputs; the control-flow functions pass them as leading operands ("consts") of their
primitive, so the enclosing transformations see them.

Derived bodies (the jvp, vjp or vmap of a body) are traced once per body and key and
cached in the body's ``derived`` dict.
"""

from __future__ import annotations

import inspect

import numpy as np

from .. import backend, tree
from ..core import Array, ShapedArray, Tracer, Zero
from ..numpy import asarray
from ..transforms.jit import Jitted

__all__ = ["check_unroll", "trace_flat", "derive", "aval_of", "describe", "operand", "is_float", "check_same_types", "name_of",
           "select_lanes", "split_known", "devices_of"]

_POS = inspect.Parameter.POSITIONAL_ONLY


def operand(x, what):
    """A pytree leaf as a primitive operand: Arrays and tracers as they are, numbers as Arrays."""
    if isinstance(x, (Array, Tracer)):
        return x
    try:
        return asarray(x)
    except Exception as e:  # noqa: BLE001 - re-raised with the argument's name
        raise TypeError(f"{what}: leaves must be arrays or numbers, got {type(x).__name__} {x!r:.60}") from e


def check_unroll(unroll, fname):
    """JAX's rule for ``unroll`` (a bool or a positive int); the value only hints at performance: funcgrad
    never unrolls, which gives the same results."""
    if unroll is None or type(unroll) is bool or (isinstance(unroll, (int, np.integer)) and unroll >= 1):
        return
    raise ValueError(f"{fname}: `unroll` must be a `bool` or a positive `int`, got {unroll!r}")


def name_of(f):
    return getattr(f, "__name__", type(f).__name__)


def select_lanes(lane_mask, new, old):
    """Per example of a batch-first value: ``new`` where ``lane_mask`` (shape (batch,)) holds, else ``old``."""
    from ..numpy import reshape, where  # noqa: PLC0415

    return where(reshape(lane_mask, (lane_mask.shape[0],) + (1,) * (len(old.shape) - 1)), new, old)


def aval_of(x):
    return ShapedArray(tuple(x.shape), np.dtype(x.dtype))


def describe(aval):
    return f"{np.dtype(aval.dtype).name}{list(aval.shape)}"


def is_float(x):
    return type(x) is not Zero and np.dtype(x.dtype).kind in "fc"


def _example(aval, device):
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
    args = tuple(_example(a, d) for a, d in zip(avals, devices))
    key, leaves, treedef, arrays, positions, static = j._signature_key(args, {})
    compiled, _, lifted = j._trace(key, leaves, treedef, arrays, positions, static, args)
    return compiled, list(lifted)


def in_avals(body):
    return [v.aval for v in body.graph.invars]


def derive(body, key, build, devices, avals=None):
    """The body ``build(body.as_function())`` traced on ``avals`` (default: the body's inputs), cached."""
    full = ("funcgrad.lax", key, tuple(str(d) for d in devices))
    out = body.derived.get(full)
    if out is None:
        if body.custom_rules and key[0] in ("jvp", "vjp"):
            raise NotImplementedError(
                f"differentiating the control-flow body {body.fname} is not supported when it calls "
                f"{', '.join(sorted(set(body.custom_rules)))}: its traced graph holds their primal bodies, "
                "not their rules. Differentiate inside the body instead.")
        avals = in_avals(body) if avals is None else avals
        fun = build(body.as_function())
        out, lifted = trace_flat(fun, avals, devices, f"{key[0]} of {body.fname}",
                                 [f"in_{i}" for i in range(len(avals))])
        if lifted:  # derived bodies are functions of their inputs only
            raise RuntimeError(f"funcgrad.lax: the {key[0]} of {body.fname} closed over outer values")
        body.derived[full] = out
    return out


def devices_of(xs):
    return [x.device if hasattr(x, "device") else backend.default_device() for x in xs]


def check_same_types(what, left_name, left, right_name, right):
    """Raise TypeError naming both sides where two (treedef, avals) pairs differ."""
    (ltree, lavals), (rtree, ravals) = left, right
    if ltree != rtree:
        raise TypeError(f"{what}: {left_name} has tree structure {ltree} but {right_name} has {rtree}")
    paths = [tree.keystr(p) for p, _ in tree.tree_flatten_with_path(
        tree.tree_unflatten(ltree, list(range(len(lavals)))))[0]]
    for p, a, b in zip(paths, lavals, ravals):
        if tuple(a.shape) != tuple(b.shape) or np.dtype(a.dtype) != np.dtype(b.dtype):
            raise TypeError(f"{what}: {left_name} is {describe(a)} at {p} but {right_name} is {describe(b)} "
                            f"there; they must have equal shapes and dtypes (cast with .astype(...) or "
                            "reshape to match)")



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
    from ..transforms.graph import Graph, Var  # noqa: PLC0415
    from ..transforms.jit import Compiled  # noqa: PLC0415

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
