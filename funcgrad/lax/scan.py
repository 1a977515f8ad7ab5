"""``scan``: a loop over the leading axis of ``xs`` carrying a value, as one differentiable primitive.

Operands of ``scan_p``: ``consts`` (values the body closes over), the initial ``carry``, and
``xs`` (stacked along axis 0); results: the final carry and the stacked ``ys``.  The body is
traced once (:mod:`funcgrad.lax._body`); the eager impl is a Python loop over its replay.
Rules:

- jvp: a scan of the body's jvp (carry and tangents of the carry together);
- vjp: the body's vjp is traced once and split by partial evaluation
  (:func:`funcgrad.lax._body.split_known`) into a forward body, which computes the carry and
  the residuals the backward part reads (per step: what the body's vjp rules save, e.g. a
  ``tanh`` output and a matmul input), and a backward body; a forward scan stacks the
  residuals (memory O(length x residuals of one step)), then a reverse scan runs the backward
  body per step, carrying the carry's cotangent and the sum of the consts' cotangents (the
  consts themselves are read directly, not saved per step);
- batching: a scan of the vmapped body, every carry batched, ``xs`` batched along axis 1.
"""

from __future__ import annotations

import numpy as np

from .. import backend, tree
from ..core import Primitive, ShapedArray, Zero
from ..primitives._batching import at_front, batch_size, moveaxis
from ..primitives.creation import zeros_like
from ..transforms.api import jvp, vjp
from ..transforms.batching import vmap
from ._body import (
    aval_of, check_same_types, check_unroll, derive, describe, devices_of, is_float, name_of, operand, split_known,
    trace_flat,
)

__all__ = ["scan", "scan_p"]


def _split(seq, *sizes):
    out, k = [], 0
    for n in sizes:
        out.append(list(seq[k:k + n]))
        k += n
    out.append(list(seq[k:]))
    return out


# --- the primitive --------------------------------------------------------------------------

def _scan_impl(*bufs, body, num_consts, num_carry, length, reverse):
    consts, carry, xs = _split(bufs, num_consts, num_carry)
    run = body.replay
    ys = []
    # the slices of every x, made once (iterating a numpy array yields its rows as views)
    rows = list(zip(*[list(x) if type(x) is np.ndarray else [x[i] for i in range(length)] for x in xs])) \
        if xs else [()] * length
    for row in (reversed(rows) if reverse else rows):
        out = run(*consts, *carry, *row)
        carry = out[:num_carry]
        ys.append(out[num_carry:])
    if reverse:
        ys.reverse()
    y_avals = body.out_avals[num_carry:]
    if ys:
        xp = backend.namespace_of(*[y for y in ys[0] if hasattr(y, "shape")]) if ys[0] else None
        stacked = [xp.stack([step[k] for step in ys]) for k in range(len(y_avals))]
    else:
        xp = backend.namespace_of(*bufs) if bufs else backend.get_backend(backend.default_device()).xp
        stacked = [xp.zeros((0,) + tuple(a.shape), dtype=a.dtype) for a in y_avals]
    return tuple(carry) + tuple(stacked)


def _scan_abstract(*avals, body, num_consts, num_carry, length, reverse):
    expected = [v.aval for v in body.graph.invars]
    consts, carry, xs = _split(avals, num_consts, num_carry)
    got = consts + carry + [ShapedArray(tuple(x.shape)[1:], x.dtype) for x in xs]
    for i, (a, b) in enumerate(zip(got, expected)):
        if tuple(a.shape) != tuple(b.shape) or a.dtype != b.dtype:
            raise TypeError(f"scan: operand {i} is {describe(a)} but the body {body.fname} was traced for "
                            f"{describe(b)}")
    outs = body.out_avals
    return tuple(outs[:num_carry]) + tuple(ShapedArray((length,) + tuple(a.shape), a.dtype)
                                           for a in outs[num_carry:])


scan_p = Primitive("scan", _scan_impl, _scan_abstract, multiple_results=True)


def _merge(mask, diff, fixed):
    """Interleave: position i takes the next of ``diff`` where mask[i], else fixed[i]."""
    it = iter(diff)
    return [next(it) if m else f for m, f in zip(mask, fixed)]


def _scan_jvp(ts, ans, *args, body, num_consts, num_carry, length, reverse):
    consts, carry, xs = _split(args, num_consts, num_carry)
    tc, tcarry, tx = _split(ts, num_consts, num_carry)
    mc = [is_float(t) for t in tc]
    mk = [is_float(c) for c in carry]  # every float carry gets a tangent (zeros if it has none)
    mx = [is_float(t) for t in tx]
    n_out = len(body.out_avals)
    m_out = [is_float(a) for a in body.out_avals]

    def build(fun):
        def jvp_body(*vals):
            cs, dcs, ks, dks, xv, dxs = _split(vals, num_consts, sum(mc), num_carry, sum(mk), len(xs))
            primals = cs + ks + xv
            mask = mc + mk + mx

            def on_diff(*d):
                return fun(*_merge(mask, d, primals))

            out, t_out = jvp(on_diff, tuple(p for p, m in zip(primals, mask) if m), tuple(dcs + dks + dxs))
            t_out = [t for t, m in zip(t_out, m_out) if m]
            nk = sum(m_out[:num_carry])
            return out[:num_carry] + t_out[:nk] + out[num_carry:] + t_out[nk:]
        return jvp_body

    dk = [zeros_like(c) if type(t) is Zero else t for t, c, m in zip(tcarry, carry, mk) if m]
    operands = consts + [t for t, m in zip(tc, mc) if m] + carry + dk + xs + [t for t, m in zip(tx, mx) if m]
    n_lead = num_consts + sum(mc) + num_carry + sum(mk)
    jbody = derive(body, ("jvp", tuple(mc), tuple(mk), tuple(mx)), build, devices_of(operands),
                   _xs_avals(operands, n_lead))
    outs = scan_p.bind(*operands, body=jbody, num_consts=num_consts + sum(mc), num_carry=num_carry + sum(mk),
                       length=length, reverse=reverse)
    _, dk_out, _, dy_out = _split(outs, num_carry, sum(mk), n_out - num_carry)
    return _tangents_of(m_out, ans, dk_out[:sum(mk)] + dy_out)


def _tangents_of(mask, ans, nonzero):
    it = iter(nonzero)
    return tuple(next(it) if m else Zero(o) for m, o in zip(mask, ans))


def _xs_avals(vals, n_lead):
    """Avals of body inputs: the first n_lead as they are, the rest (stacked xs) without axis 0."""
    return [aval_of(v) for v in vals[:n_lead]] + [ShapedArray(tuple(v.shape)[1:], v.dtype) for v in vals[n_lead:]]


def _scan_vjp(gs, ans, *args, body, num_consts, num_carry, length, reverse):
    consts, carry, xs = _split(args, num_consts, num_carry)
    mc, mk, mx = [is_float(c) for c in consts], [is_float(c) for c in carry], [is_float(x) for x in xs]
    m_out = [is_float(a) for a in body.out_avals]
    if not (any(mc) or any(mk) or any(mx)):
        return tuple(Zero(a) for a in args)
    g = [zeros_like(c.like) if type(c) is Zero else c for c in gs]
    ct_carry = [c for c, m in zip(g[:num_carry], mk) if m]
    ct_ys = [c for c, m in zip(g[num_carry:], m_out[num_carry:]) if m]
    acc = [zeros_like(c) for c, m in zip(consts, mc) if m]
    nk, na = len(ct_carry), len(acc)
    joint_ops = consts + ct_carry + acc + carry + xs + ct_ys
    devices = devices_of(joint_ops)
    fwd, bwd = _split_vjp(body, mc, mk, mx, m_out, num_consts, num_carry, len(xs), devices, joint_ops)
    outs = scan_p.bind(*consts, *carry, *xs, body=fwd, num_consts=num_consts, num_carry=num_carry,
                       length=length, reverse=reverse)
    residuals = list(outs[num_carry:])
    outs = scan_p.bind(*consts, *ct_carry, *acc, *residuals, *ct_ys, body=bwd, num_consts=num_consts,
                       num_carry=nk + na, length=length, reverse=not reverse)
    d_init, d_consts, d_xs = _split(outs, nk, na)
    return _tangents_of(mc, consts, d_consts) + _tangents_of(mk, carry, d_init) + _tangents_of(mx, xs, d_xs)


def _split_vjp(body, mc, mk, mx, m_out, num_consts, num_carry, n_xs, devices, joint_ops):
    """The body's vjp per step, split into a forward body (carry out + residuals) and a backward body
    (cotangents from residuals), traced once per body (cached)."""
    key = ("split", tuple(str(d) for d in devices))
    hit = body.derived.get(key)
    if hit is not None:
        return hit
    nk, na = sum(mk), sum(mc)

    def build(fun):
        def joint_body(*vals):
            cs, ck, cacc, ks, xv, cy = _split(vals, num_consts, nk, na, num_carry, n_xs)
            primals, mask = cs + ks + xv, mc + mk + mx

            def on_diff(*d):
                out = fun(*_merge(mask, d, primals))
                return [o for o, m in zip(out, m_out) if m], [o for o, m in zip(out, m_out) if not m]

            out, pullback, aux = vjp(on_diff, *[p for p, m in zip(primals, mask) if m], has_aux=True)
            fl, it = iter(out), iter(aux)
            carry_out = [next(fl) if m else next(it) for m in m_out][:num_carry]
            d_cs, d_ks, d_xs = _split(list(pullback(ck + cy)), na, nk)
            return carry_out + d_ks + [a + d for a, d in zip(cacc, d_cs)] + d_xs
        return joint_body

    n_lead = num_consts + nk + na + num_carry
    joint = derive(body, ("vjp", "joint"), build, devices, _xs_avals(joint_ops, n_lead))
    pos = list(range(len(joint_ops)))
    cs, ck, cacc, ks, xv, cy = _split(pos, num_consts, nk, na, num_carry, n_xs)
    fwd, bwd, _ = split_known(joint, cs + ks + xv, cs + ck + cacc + ["res"] + cy, num_carry, devices)
    body.derived[key] = (fwd, bwd)
    return fwd, bwd


def _scan_batch(args, dims, body, num_consts, num_carry, length, reverse):
    size = batch_size(args, dims)
    consts, carry, xs = _split(args, num_consts, num_carry)
    dc, _, dx = _split(dims, num_consts, num_carry)
    consts = [c if d is None else moveaxis(c, d, 0) for c, d in zip(consts, dc)]
    carry = [at_front(c, d, size) for c, d in zip(carry, dims[num_consts:num_consts + num_carry])]
    xs = [x if d is None else moveaxis(x, d, 1) for x, d in zip(xs, dx)]
    axes = tuple(None if d is None else 0 for d in dc) + (0,) * num_carry + tuple(
        None if d is None else 0 for d in dx)

    def build(fun):
        def batched(*vals):
            return vmap(lambda *v: list(fun(*v)), in_axes=axes, out_axes=0, axis_size=size)(*vals)
        return batched

    operands = consts + carry + xs
    avals = [aval_of(c) for c in consts + carry] + [ShapedArray(tuple(x.shape)[1:], x.dtype) for x in xs]
    bbody = derive(body, ("vmap", axes, size), build, devices_of(operands), avals)
    outs = scan_p.bind(*operands, body=bbody, num_consts=num_consts, num_carry=num_carry, length=length,
                       reverse=reverse)
    return tuple(outs), (0,) * num_carry + (1,) * (len(outs) - num_carry)


scan_p.defjvp_joint(_scan_jvp)
scan_p.defvjp_joint(_scan_vjp, saves_out=False)  # the rule reads the inputs only
scan_p.batch = _scan_batch


# --- the user function -------------------------------------------------------------------------

def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """``jax.lax.scan``: ``carry, y = f(carry, x)`` for each ``x`` along axis 0 of ``xs``; returns
    ``(final carry, stacked ys)``.  ``unroll`` is accepted for JAX compatibility (the loop is not unrolled).

    Equivalent to::

        ys = []
        for x in (reversed(xs) if reverse else xs):
            carry, y = f(carry, x)
            ys.append(y)
        return carry, stack(ys[::-1] if reverse else ys)
    """
    if not callable(f):
        raise TypeError(f"scan: f must be callable, got {type(f).__name__}")
    check_unroll(unroll, "scan")
    init_leaves, init_tree = tree.tree_flatten(init)
    init_leaves = [operand(x, "scan init") for x in init_leaves]
    xs_leaves, xs_tree = tree.tree_flatten(xs)
    xs_leaves = [operand(x, "scan xs") for x in xs_leaves]
    length = _scan_length(xs_leaves, xs_tree, length)
    nc = len(init_leaves)
    carry_avals = [aval_of(x) for x in init_leaves]
    out_info = []

    def flat(*vals):
        out = f(tree.tree_unflatten(init_tree, list(vals[:nc])), tree.tree_unflatten(xs_tree, list(vals[nc:])))
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError(f"scan: the body {name_of(f)} must return a pair (carry, y), got {type(out).__name__}")
        c_leaves, c_tree = tree.tree_flatten(out[0])
        y_leaves, y_tree = tree.tree_flatten(out[1])
        out_info[:] = [c_tree, y_tree]
        return [operand(x, "scan body output") for x in c_leaves + y_leaves]

    x_avals = [ShapedArray(tuple(x.shape)[1:], x.dtype) for x in xs_leaves]
    names = [f"carry_{i}" for i in range(nc)] + [f"x_{i}" for i in range(len(xs_leaves))]
    body, lifted = trace_flat(flat, carry_avals + x_avals, devices_of(init_leaves + xs_leaves),
                              name_of(f), names)
    c_tree, y_tree = out_info
    check_same_types(f"scan: the body {name_of(f)} changes the carry's type", "the carry input (init)",
                     (init_tree, carry_avals), "the carry output", (c_tree, body.out_avals[:c_tree.num_leaves]))
    outs = scan_p.bind(*lifted, *init_leaves, *xs_leaves, body=body, num_consts=len(lifted), num_carry=nc,
                       length=length, reverse=bool(reverse))
    return tree.tree_unflatten(init_tree, list(outs[:nc])), tree.tree_unflatten(y_tree, list(outs[nc:]))


def _scan_length(xs_leaves, xs_tree, length):
    lengths = []
    for x in xs_leaves:
        if not x.shape:
            raise ValueError(f"scan: every leaf of xs needs a leading axis to scan over; got a scalar "
                             f"{describe(aval_of(x))} in xs of structure {xs_tree}")
        lengths.append(int(x.shape[0]))
    if len(set(lengths)) > 1:
        raise ValueError(f"scan: the leaves of xs have different leading-axis lengths {lengths} "
                         f"(shapes {[tuple(x.shape) for x in xs_leaves]})")
    if length is not None:
        length = int(length)
        if lengths and lengths[0] != length:
            raise ValueError(f"scan: length={length} but the leaves of xs have leading-axis length {lengths[0]}")
        return length
    if not lengths:
        raise ValueError("scan: xs is None (or has no leaves), so length must be given")
    return lengths[0]
