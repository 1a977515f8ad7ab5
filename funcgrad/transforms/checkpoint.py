"""checkpoint (alias remat): trade compute for memory in reverse mode.

Under reverse mode, ``checkpoint(f)(*args)`` runs ``f`` one level down (its
intermediate values are not recorded on the tape) and records a single tape
node that keeps only ``f``'s inputs.  The backward pass recomputes ``f`` under
a fresh ``vjp`` and pulls the cotangent back through it, so the memory of f's
body is held only while that node is being processed.  Checkpointing
``k``-layer segments of an ``n``-layer chain keeps ``n/k`` segment inputs plus
one segment's intermediates instead of all ``n`` layers' intermediates.

Forward mode and vmap apply ``f`` with their own transformation inside a new
checkpointed function of the lower-level values, so a reverse mode below
them still checkpoints; nesting ``checkpoint`` works the same way.
"""

from __future__ import annotations

import functools

from .. import tree
from ._calls import dispatch, instantiate, is_inexact, lower_vjp, record_vjp_call
from .batching import BatchTrace, vmap
from .forward import JVPTrace, JVPTracer
from .reverse import VJPTrace
from .api import jvp, vjp

__all__ = ["checkpoint", "remat"]


def checkpoint(fun):
    """``fun`` whose intermediates reverse mode recomputes instead of storing (pytrees in and out)."""
    name = f"checkpoint({getattr(fun, '__name__', 'function')})"

    @functools.wraps(fun)
    def checkpointed(*args, **kwargs):
        leaves, in_tree = tree.tree_flatten(args)
        out_tree = []

        def flat_fun(*xs):
            out = fun(*tree.tree_unflatten(in_tree, list(xs)), **kwargs)
            out_leaves, treedef = tree.tree_flatten(out)
            if not out_tree:
                out_tree.append(treedef)
            return out_leaves

        outs = call_checkpoint(flat_fun, leaves, name)
        return tree.tree_unflatten(out_tree[0], outs)

    return checkpointed


remat = checkpoint


def call_checkpoint(fun, leaves, name):
    handlers = {
        VJPTrace: lambda trace: _vjp_of_checkpoint(trace, fun, leaves, name),
        JVPTrace: lambda trace: _jvp_of_checkpoint(trace, fun, leaves, name),
        BatchTrace: lambda trace: _batch_of_checkpoint(trace, fun, leaves, name),
    }
    return dispatch(handlers, leaves, lambda: list(fun(*leaves)))


def _vjp_of_checkpoint(trace, fun, leaves, name):
    primals, parents = lower_vjp(trace, leaves)
    outs = call_checkpoint(fun, primals, name)  # not recorded here: the body runs one level down

    def recompute_rule(g, ans, *args):
        traced = [i for i, p in enumerate(parents) if p is not None]
        diff_out = [k for k, o in enumerate(ans) if is_inexact(o) and hasattr(o, "shape")]

        def body(*xs):
            full = list(args)
            for i, x in zip(traced, xs):
                full[i] = x
            out = fun(*full)
            return [out[k] for k in diff_out]

        _, pullback = vjp(body, *[args[i] for i in traced])
        cts = pullback([instantiate(g[k], ans[k]) for k in diff_out])
        result = [None] * len(args)
        for i, c in zip(traced, cts):
            result[i] = c
        return tuple(result)

    return record_vjp_call(trace, name, recompute_rule, primals, parents, outs)


def _jvp_of_checkpoint(trace, fun, leaves, name):
    primals, tangents, traced = [], [], []
    for i, x in enumerate(leaves):
        if type(x) is JVPTracer and x._trace is trace:
            primals.append(x.primal)
            tangents.append(x.tangent)
            traced.append(i)
        else:
            primals.append(x)
    n = len(primals)

    def pushforward(*xs):  # (primals..., tangents of the traced ones...) -> (outs..., tangents...)
        ps, ts = list(xs[:n]), list(xs[n:])

        def f_traced(*vs):
            full = list(ps)
            for i, v in zip(traced, vs):
                full[i] = v
            return fun(*full)

        out, t_out = jvp(f_traced, tuple(ps[i] for i in traced), tuple(ts))
        return list(out) + list(t_out)

    both = call_checkpoint(pushforward, primals + tangents, name)
    k = len(both) // 2
    return [trace.new_tracer(p, t) if is_inexact(p) and hasattr(p, "shape") else p
            for p, t in zip(both[:k], both[k:])]


def _batch_of_checkpoint(trace, fun, leaves, name):
    vals, dims = zip(*(trace.lower(x) for x in leaves)) if leaves else ((), ())
    batched = vmap(lambda *xs: list(fun(*xs)), in_axes=tuple(dims), axis_size=trace.axis_size)
    outs = call_checkpoint(batched, list(vals), name)
    return [trace.new_tracer(o, 0) for o in outs]

