"""``cond`` and ``switch``: apply one of several traced branches, as one differentiable primitive.

Operands of ``cond_p``: an integer scalar ``index`` (clamped to the branches, as in JAX), then
the operands every branch takes (the values any branch closes over first, then the user's
operands).  Every branch is traced once, and all must return the same tree of the same shapes
and dtypes.  Rules:

- jvp / vjp: a ``cond`` of the branches' jvps / vjps (only the taken branch is differentiated);
- batching: with an unbatched index, a ``cond`` of the vmapped branches; with a batched index,
  every branch runs on the whole batch and ``where`` selects each example's result.
"""

from __future__ import annotations

import numpy as np

from .. import tree
from ..core import Primitive, Zero
from ..numpy import clip
from ..primitives._batching import moveaxis
from ..primitives.creation import zeros_like
from ..transforms.api import jvp, vjp
from ..transforms.batching import vmap
from ..transforms.jit import jit_p
from ._body import (
    aval_of, check_same_types, derive, describe, devices_of, is_float, name_of, operand, select_lanes, trace_flat,
)

__all__ = ["cond", "switch", "cond_p"]


def _cond_impl(index, *ops, branches):
    i = min(max(int(index), 0), len(branches) - 1)
    return tuple(branches[i].replay(*ops))


def _cond_abstract(index, *avals, branches):
    if tuple(index.shape) != () or np.dtype(index.dtype).kind not in "iu":
        raise TypeError(f"cond: the branch index must be an integer scalar, got {describe(index)}")
    return tuple(branches[0].out_avals)


cond_p = Primitive("cond", _cond_impl, _cond_abstract, multiple_results=True)


def _cond_jvp(ts, ans, index, *ops, branches):
    mask = [is_float(t) for t in ts[1:]]
    m_out = [is_float(a) for a in branches[0].out_avals]
    n = len(ops)

    def build(fun):
        def jvp_branch(*vals):
            primals, dts = list(vals[:n]), vals[n:]

            def on_diff(*d):
                it = iter(d)
                return fun(*[next(it) if m else p for m, p in zip(mask, primals)])

            out, t_out = jvp(on_diff, tuple(p for p, m in zip(primals, mask) if m), tuple(dts))
            return list(out) + [t for t, m in zip(t_out, m_out) if m]
        return jvp_branch

    operands = list(ops) + [t for t, m in zip(ts[1:], mask) if m]
    devices = devices_of(operands)
    avals = [aval_of(o) for o in operands]
    jb = tuple(derive(b, ("jvp", tuple(mask)), build, devices, avals) for b in branches)
    outs = cond_p.bind(index, *operands, branches=jb)
    it = iter(outs[len(m_out):])
    return tuple(next(it) if m else Zero(o) for m, o in zip(m_out, ans))


def _cond_vjp(gs, ans, index, *ops, branches):
    mask = [is_float(o) for o in ops]
    m_out = [is_float(a) for a in branches[0].out_avals]
    n = len(ops)

    def build(fun):
        def vjp_branch(*vals):
            primals, cts = list(vals[:n]), list(vals[n:])

            def on_diff(*d):
                it = iter(d)
                out = fun(*[next(it) if m else p for m, p in zip(mask, primals)])
                return [o for o, m in zip(out, m_out) if m]

            _, pullback = vjp(on_diff, *[p for p, m in zip(primals, mask) if m])
            return list(pullback(cts))
        return vjp_branch

    cts = [zeros_like(g.like) if type(g) is Zero else g for g, m in zip(gs, m_out) if m]
    operands = list(ops) + cts
    devices = devices_of(operands)
    avals = [aval_of(o) for o in operands]
    vb = tuple(derive(b, ("vjp", tuple(mask)), build, devices, avals) for b in branches)
    outs = iter(cond_p.bind(index, *operands, branches=vb))
    return (Zero(index),) + tuple(next(outs) if m else Zero(o) for m, o in zip(mask, ops))


def _vmapped(branch, dims, size, devices, avals):
    def build(fun):
        def batched(*vals):
            return vmap(lambda *v: list(fun(*v)), in_axes=dims, out_axes=0, axis_size=size)(*vals)
        return batched
    return derive(branch, ("vmap", dims, size), build, devices, avals)


def _cond_batch(args, dims, branches):
    index, ops = args[0], list(args[1:])
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    op_dims = tuple(dims[1:])
    ops = [o if d is None else moveaxis(o, d, 0) for o, d in zip(ops, op_dims)]
    op_dims = tuple(None if d is None else 0 for d in op_dims)
    devices = devices_of(ops)
    avals = [aval_of(o) for o in ops]
    vb = tuple(_vmapped(b, op_dims, size, devices, avals) for b in branches)
    n_out = len(branches[0].out_avals)
    if dims[0] is None:
        return cond_p.bind(index, *ops, branches=vb), (0,) * n_out
    idx = clip(moveaxis(index, dims[0], 0), 0, len(branches) - 1)
    results = [jit_p.bind(*ops, jitted=b) for b in vb]
    outs = list(results[0])
    for k in range(1, len(branches)):
        outs = [select_lanes(idx == k, new, o) for o, new in zip(outs, results[k])]
    return tuple(outs), (0,) * n_out


cond_p.defjvp_joint(_cond_jvp)
cond_p.defvjp_joint(_cond_vjp, saves_out=False)
cond_p.batch = _cond_batch


# --- the user functions --------------------------------------------------------------------------

def _trace_branches(what, branches, operands, labels):
    """Trace every branch on the operands; -> (uniform bodies over all consts + operands, consts, out tree)."""
    leaves, in_tree = tree.tree_flatten(operands)
    leaves = [operand(x, f"{what} operands") for x in leaves]
    avals = [aval_of(x) for x in leaves]
    devices = devices_of(leaves)
    traced = []
    for b, label in zip(branches, labels):
        if not callable(b):
            raise TypeError(f"{what}: {label} must be callable, got {type(b).__name__}")
        info = []

        def flat(*vals, b=b, info=info):
            out_leaves, out_tree = tree.tree_flatten(b(*tree.tree_unflatten(in_tree, list(vals))))
            info.append(out_tree)
            return [operand(x, f"{what} branch output") for x in out_leaves]

        body, lifted = trace_flat(flat, avals, devices, name_of(b), [f"operand_{i}" for i in range(len(avals))])
        traced.append((body, lifted, info[0], label))
    first = traced[0]
    for body, _, out_tree, label in traced[1:]:
        check_same_types(f"{what}: the branches return different types", f"{first[3]} ({name_of(branches[0])})",
                         (first[2], first[0].out_avals), label, (out_tree, body.out_avals))
    consts = [x for _, lifted, _, _ in traced for x in lifted]
    if not consts:
        return tuple(b for b, _, _, _ in traced), [], first[2], leaves
    c_avals, c_devices = [aval_of(c) for c in consts], devices_of(consts)
    uniform, start = [], 0
    for body, lifted, _, _ in traced:
        lo, hi = start, start + len(lifted)
        start = hi

        def padded(fun, lo=lo, hi=hi):
            return lambda *vals: fun(*vals[lo:hi], *vals[len(consts):])

        uniform.append(derive(body, ("pad", lo, hi, len(consts)), padded, c_devices + devices, c_avals + avals))
    return tuple(uniform), consts, first[2], leaves


def switch(index, branches, *operands):
    """``jax.lax.switch``: ``branches[clamp(index, 0, len(branches) - 1)](*operands)``, all branches traced."""
    branches = list(branches)
    if not branches:
        raise ValueError("switch: branches must be a non-empty sequence of functions")
    index = operand(index, "switch index")
    if tuple(index.shape) != () or np.dtype(index.dtype).kind not in "iu":
        raise TypeError(f"switch: the index must be an integer scalar, got {describe(aval_of(index))}")
    labels = [f"branch {i}" for i in range(len(branches))]
    bodies, consts, out_tree, leaves = _trace_branches("switch", branches, operands, labels)
    index = clip(index, 0, len(branches) - 1).astype(np.int32)
    outs = cond_p.bind(index, *consts, *leaves, branches=bodies)
    return tree.tree_unflatten(out_tree, list(outs))


def cond(pred, true_fun, false_fun, *operands):
    """``jax.lax.cond``: ``true_fun(*operands) if pred else false_fun(*operands)``, both branches traced.

    ``pred`` is a boolean (or integer: nonzero is true) scalar; under ``vmap`` it may be batched.
    """
    pred = operand(pred, "cond pred")
    kind = np.dtype(pred.dtype).kind
    if tuple(pred.shape) != ():
        raise TypeError(f"cond: pred must be a scalar, got {describe(aval_of(pred))}")
    if kind not in "biu":
        raise TypeError(f"cond: pred must be a boolean or integer scalar, got {describe(aval_of(pred))}")
    if kind != "b":
        pred = pred != 0
    bodies, consts, out_tree, leaves = _trace_branches(
        "cond", [false_fun, true_fun], operands, ["false_fun", "true_fun"])
    outs = cond_p.bind(pred.astype(np.int32), *consts, *leaves, branches=bodies)
    return tree.tree_unflatten(out_tree, list(outs))
