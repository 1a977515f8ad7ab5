"""``while_loop`` (a primitive), and ``fori_loop`` and ``map`` (built on ``scan`` and ``while_loop``).

Operands of ``while_p``: the values ``cond_fun`` closes over, those ``body_fun`` closes over,
then the carry.  Rules:

- jvp: a while loop of the body's jvp (the carry and its tangent together), stopping where
  the primal loop stops;
- vjp: none; reverse mode raises an error pointing to ``scan`` / ``fori_loop`` with static
  bounds (the trip count is unknown until the loop has run, as in JAX);
- batching: every carry batched; the loop runs while the predicate holds for any example,
  and examples whose predicate is false keep their carry (``where``).

``fori_loop`` with Python-int bounds is a ``scan`` over ``arange(lower, upper)`` (so it is
reverse-differentiable); with traced bounds it is a ``while_loop`` over ``(i, upper, x)``.
"""

from __future__ import annotations

import numpy as np

from .. import tree
from ..core import Array, Primitive, Tracer, Zero
from ..numpy import any as fnp_any
from ..numpy import arange
from ..primitives._batching import at_front, batch_size, moveaxis
from ..primitives.creation import zeros_like
from ..transforms.api import jvp
from ..transforms.batching import vmap
from ._body import (
    aval_of, check_same_types, check_unroll, derive, describe, devices_of, is_float, name_of, operand, select_lanes,
    trace_flat,
)
from .scan import _split, scan

__all__ = ["while_loop", "fori_loop", "map", "while_p"]


def _while_impl(*bufs, cond, body, num_cond, num_body):
    cc, bc, carry = _split(bufs, num_cond, num_body)
    test, step = cond.replay, body.replay
    while test(*cc, *carry)[0]:
        carry = step(*bc, *carry)
    return tuple(carry)


def _while_abstract(*avals, cond, body, num_cond, num_body):
    return tuple(body.out_avals)


while_p = Primitive("while", _while_impl, _while_abstract, multiple_results=True)


def _while_jvp(ts, ans, *args, cond, body, num_cond, num_body):
    cc, bc, carry = _split(args, num_cond, num_body)
    _, tb, tk = _split(ts, num_cond, num_body)
    mb, mk = [is_float(t) for t in tb], [is_float(c) for c in carry]
    nb, nk, n = sum(mb), sum(mk), len(carry)

    def build_body(fun):
        def jvp_body(*vals):
            bs, dbs, ks, dks = _split(vals, num_body, nb, n)
            primals, mask = bs + ks, mb + mk

            def on_diff(*d):
                it = iter(d)
                return fun(*[next(it) if m else p for m, p in zip(mask, primals)])

            out, t_out = jvp(on_diff, tuple(p for p, m in zip(primals, mask) if m), tuple(dbs + dks))
            return list(out) + [t for t, m in zip(t_out, mk) if m]
        return jvp_body

    def build_cond(fun):
        return lambda *vals: fun(*vals[:num_cond + n])

    dk = [zeros_like(c) if type(t) is Zero else t for t, c, m in zip(tk, carry, mk) if m]
    body_ops = bc + [t for t, m in zip(tb, mb) if m]
    operands = cc + body_ops + carry + dk
    devices = devices_of(operands)
    jbody = derive(body, ("jvp", tuple(mb), tuple(mk)), build_body, devices[num_cond:],
                   [aval_of(o) for o in operands[num_cond:]])
    cond_ops = cc + carry + dk
    jcond = derive(cond, ("jvp_cond", num_cond, n, nk), build_cond, devices_of(cond_ops),
                   [aval_of(o) for o in cond_ops])
    outs = while_p.bind(*operands, cond=jcond, body=jbody, num_cond=num_cond, num_body=len(body_ops))
    it = iter(outs[n:])
    return tuple(next(it) if m else Zero(o) for m, o in zip(mk, carry))


def _while_vjp(gs, ans, *args, cond, body, num_cond, num_body):
    raise ValueError(
        f"Reverse-mode differentiation does not work for while_loop (body {body.fname}) or for fori_loop with "
        "traced bounds: the number of iterations is only known once the loop has run. Use scan, or fori_loop "
        "with Python-int lower/upper (it becomes a scan), or forward mode (jvp, jacfwd)")


def _while_batch(args, dims, cond, body, num_cond, num_body):
    size = batch_size(args, dims)
    cc, bc, carry = _split(args, num_cond, num_body)
    dc, db, dk = _split(dims, num_cond, num_body)
    cc = [c if d is None else moveaxis(c, d, 0) for c, d in zip(cc, dc)]
    bc = [c if d is None else moveaxis(c, d, 0) for c, d in zip(bc, db)]
    carry = [at_front(c, d, size) for c, d in zip(carry, dk)]
    ac = tuple(None if d is None else 0 for d in dc)
    ab = tuple(None if d is None else 0 for d in db)
    n = len(carry)
    cond_fun = cond.as_function()

    def lanes(vals):  # the predicate of each example
        return vmap(lambda *v: cond_fun(*v)[0], in_axes=ac + (0,) * n, out_axes=0, axis_size=size)(*vals)

    def build_cond(fun):
        return lambda *vals: [fnp_any(lanes(vals))]

    def build_body(fun):
        def masked(*vals):
            cs, bs, ks = _split(vals, num_cond, num_body)
            alive = lanes(cs + ks)
            new = vmap(lambda *v: list(fun(*v)), in_axes=ab + (0,) * n, out_axes=0, axis_size=size)(*bs, *ks)
            return [select_lanes(alive, x, k) for x, k in zip(new, ks)]
        return masked

    operands = cc + bc + carry
    devices = devices_of(operands)
    bcond = derive(cond, ("vmap_any", ac, size, n), build_cond, devices_of(cc + carry),
                   [aval_of(o) for o in cc + carry])
    bbody = derive(body, ("vmap_masked", ac, ab, size, n, cond), build_body, devices,
                   [aval_of(o) for o in cc + bc + carry])
    outs = while_p.bind(*cc, *cc, *bc, *carry, cond=bcond, body=bbody, num_cond=num_cond,
                        num_body=num_cond + num_body)
    return tuple(outs), (0,) * n


while_p.defjvp_joint(_while_jvp)
while_p.defvjp_joint(_while_vjp, saves_out=False)
while_p.batch = _while_batch


# --- the user functions --------------------------------------------------------------------------

def while_loop(cond_fun, body_fun, init_val):
    """``jax.lax.while_loop``: ``while cond_fun(val): val = body_fun(val)``; returns ``val``.

    ``cond_fun`` returns a boolean scalar; ``body_fun`` returns a value of ``init_val``'s type.
    Forward-mode differentiable and batchable; reverse mode raises (use ``scan``/``fori_loop``).
    """
    for f, what in ((cond_fun, "cond_fun"), (body_fun, "body_fun")):
        if not callable(f):
            raise TypeError(f"while_loop: {what} must be callable, got {type(f).__name__}")
    leaves, in_tree = tree.tree_flatten(init_val)
    leaves = [operand(x, "while_loop init_val") for x in leaves]
    avals, devices = [aval_of(x) for x in leaves], devices_of(leaves)
    names = [f"val_{i}" for i in range(len(leaves))]
    info = []

    def flat_cond(*vals):
        out = cond_fun(tree.tree_unflatten(in_tree, list(vals)))
        out_leaves = tree.tree_leaves(out)
        if len(out_leaves) != 1 or tuple(getattr(out_leaves[0], "shape", ())) != () or np.dtype(
                getattr(out_leaves[0], "dtype", np.result_type(out_leaves[0]))).kind != "b":
            got = [describe(aval_of(operand(x, "cond_fun output"))) for x in out_leaves]
            raise TypeError(f"while_loop: cond_fun {name_of(cond_fun)} must return a boolean scalar, got {got}")
        return [operand(out_leaves[0], "cond_fun output")]

    def flat_body(*vals):
        out_leaves, out_tree = tree.tree_flatten(body_fun(tree.tree_unflatten(in_tree, list(vals))))
        info.append(out_tree)
        return [operand(x, "while_loop body output") for x in out_leaves]

    cond_body, cond_consts = trace_flat(flat_cond, avals, devices, name_of(cond_fun), names)
    body, body_consts = trace_flat(flat_body, avals, devices, name_of(body_fun), names)
    check_same_types(f"while_loop: body_fun {name_of(body_fun)} changes the carry's type", "init_val",
                     (in_tree, avals), "the body's output", (info[0], body.out_avals))
    outs = while_p.bind(*cond_consts, *body_consts, *leaves, cond=cond_body, body=body,
                        num_cond=len(cond_consts), num_body=len(body_consts))
    return tree.tree_unflatten(in_tree, list(outs))


def _static_int(x):
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return True
    return type(x) is Array and not isinstance(x, Tracer) and x.shape == () and np.dtype(x.dtype).kind in "iu"


def fori_loop(lower, upper, body_fun, init_val, *, unroll=None):
    """``jax.lax.fori_loop``: ``for i in range(lower, upper): val = body_fun(i, val)``; returns ``val``.

    With concrete integer bounds it is a ``scan`` (reverse-differentiable); with traced bounds
    (under ``jit`` or ``vmap``) a ``while_loop`` (forward mode only).  ``unroll`` is accepted for
    JAX compatibility.
    """
    check_unroll(unroll, "fori_loop")
    if _static_int(lower) and _static_int(upper):
        lo, hi = int(lower), int(upper)
        carry, _ = scan(lambda c, i: (body_fun(i, c), None), init_val, arange(lo, max(hi, lo)))
        return carry
    lower, upper = operand(lower, "fori_loop lower"), operand(upper, "fori_loop upper")
    for b, what in ((lower, "lower"), (upper, "upper")):
        if tuple(b.shape) != () or np.dtype(b.dtype).kind not in "iu":
            raise TypeError(f"fori_loop: {what} must be an integer scalar, got {describe(aval_of(b))}")
    dtype = np.result_type(lower.dtype, upper.dtype)

    def step(state):
        i, hi, val = state
        return i + 1, hi, body_fun(i, val)

    _, _, val = while_loop(lambda s: s[0] < s[1], step, (lower.astype(dtype), upper.astype(dtype), init_val))
    return val


def map(f, xs):  # noqa: A001 - jax.lax.map
    """``jax.lax.map``: ``stack([f(x) for x in xs])`` over the leading axis of (the leaves of) ``xs``, as a scan."""
    return scan(lambda _, x: ((), f(x)), (), xs)[1]

