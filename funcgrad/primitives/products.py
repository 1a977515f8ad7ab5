"""einsum as a primitive whose derivative rules are einsums.

Subscripts are normalised by funcgrad.numpy.einsum: every operand's
subscripts are explicit letters (no ellipsis), the output is explicit, and
operands already have equal sizes for equal letters (size-1 broadcasting is
done with views before binding).  Letters may repeat inside an operand (a
diagonal) and may appear in one operand only (a sum).

The cotangent of operand i is one einsum of the output cotangent with the
other operands, writing operand i's letters.  Two cases need a helper
operand: a letter that appears nowhere else (the operand was summed over it:
the cotangent is constant along it, so a vector of ones supplies it), and a
letter repeated in operand i (only its diagonal was read: the cotangent is
placed on the diagonal by an identity matrix).  So the rule stays one einsum,
and its derivatives are einsums again.
"""

from __future__ import annotations

import string

import numpy as np

from ..backend import XP_OF_TYPE, computes_in_float32
from ..core import Primitive, ShapedArray, Zero
from .creation import full_like
from .index import getitem
from .shape import pad, reshape


def _xp(*xs):
    get = XP_OF_TYPE.get
    return next((get(type(x)) for x in xs if get(type(x)) is not None), np)


def _einsum_impl(*ops, in_subs, out_sub):
    expr = ",".join(in_subs) + "->" + out_sub
    # optimize: contractions of two or more operands go to BLAS (tensordot), as numpy would
    return _xp(*ops).einsum(expr, *ops, optimize=len(ops) > 1)


def letter_sizes(shapes, in_subs):
    """{letter: size}; a ValueError naming the operands whose sizes disagree."""
    sizes = {}
    for k, (shape, sub) in enumerate(zip(shapes, in_subs)):
        if len(sub) != len(shape):
            raise ValueError(
                f"einsum: operand {k} has {len(shape)} dimension(s) (shape {tuple(shape)}) but "
                f"subscripts '{sub}' name {len(sub)}"
            )
        for c, d in zip(sub, shape):
            if sizes.setdefault(c, d) != d:
                raise ValueError(
                    f"einsum: size of label '{c}' for operand {k} ({d}) does not match previous "
                    f"terms ({sizes[c]}); operand shapes {[tuple(s) for s in shapes]}"
                )
    return sizes


def _einsum_abstract(*ops, in_subs, out_sub):
    sizes = letter_sizes([o.shape for o in ops], in_subs)
    return ShapedArray(tuple(sizes[c] for c in out_sub), np.result_type(*(o.dtype for o in ops)))


def _eye(like, n):
    """An n x n identity on ``like``'s device: ones (n, 1) padded to (n, n + 1), read row-major."""
    ones = full_like(like, 1, shape=(n, 1))
    flat = reshape(pad(ones, ((0, 0), (0, n)), 0), (n * (n + 1),))
    return reshape(getitem(flat, slice(0, n * n)), (n, n))


def _cotangent(g, ops, i, in_subs, out_sub):
    """d <g, einsum(ops)> / d ops[i], as one einsum."""
    target = in_subs[i]
    used = set(out_sub).union(*(set(s) for j, s in enumerate(in_subs) if j != i))
    fresh = iter(c for c in string.ascii_letters if c not in set("".join(in_subs)) | set(out_sub))
    sizes = dict(zip(target, ops[i].shape))
    operands = [g] + [op for j, op in enumerate(ops) if j != i]
    subs = [out_sub] + [s for j, s in enumerate(in_subs) if j != i]
    written, seen = [], set()
    for c in target:
        if c in seen:  # repeated letter: write a fresh one, tied to c by an identity
            f = next(fresh)
            operands.append(_eye(g, sizes[c]))
            subs.append(c + f)
            written.append(f)
            continue
        seen.add(c)
        written.append(c)
        if c not in used:  # summed away in this operand only: constant along c
            operands.append(full_like(g, 1, shape=(sizes[c],)))
            subs.append(c)
    return einsum(operands, tuple(subs), "".join(written))


def _einsum_vjp(g, ans, *ops, in_subs, out_sub):
    return tuple(_cotangent(g, ops, i, in_subs, out_sub) for i in range(len(ops)))


def _einsum_jvp(ts, ans, *ops, in_subs, out_sub):
    out = None
    for i, t in enumerate(ts):
        if type(t) is Zero:
            continue
        term = einsum(ops[:i] + (t,) + ops[i + 1:], in_subs, out_sub)
        out = term if out is None else out + term
    return out


einsum_p = Primitive("einsum", computes_in_float32(_einsum_impl), _einsum_abstract)
einsum_p.defvjp_joint(_einsum_vjp, saves_out=False)
einsum_p.defjvp_joint(_einsum_jvp)


def einsum(ops, in_subs, out_sub):
    """Bind einsum on normalised subscripts (see the module docstring)."""
    return einsum_p.bind(*ops, in_subs=tuple(in_subs), out_sub=str(out_sub))
