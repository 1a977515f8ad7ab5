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

import numpy as np

from ..backend import kind_of
from .. import backend, tree
from ..core import Array, ShapedArray, Tracer, Zero
from ..numpy import asarray
from ..transforms.partial_eval import split_known, trace_flat
from ..numpy import reshape, where

__all__ = ["check_unroll", "trace_flat", "derive", "aval_of", "describe", "operand", "is_float", "check_same_types", "name_of",
           "select_lanes", "split_known", "devices_of"]

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
    return where(reshape(lane_mask, (lane_mask.shape[0],) + (1,) * (len(old.shape) - 1)), new, old)


def aval_of(x):
    return ShapedArray(tuple(x.shape), np.dtype(x.dtype))


def describe(aval):
    return f"{np.dtype(aval.dtype).name}{list(aval.shape)}"


def is_float(x):
    return type(x) is not Zero and kind_of(x.dtype) in "fc"


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
