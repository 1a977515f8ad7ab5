"""Products: matmul, dot, vdot, inner, outer, tensordot, einsum, kron, cross.

Contractions end in one BLAS call as numpy's do: matmul directly, dot /
inner / tensordot as transpose + reshape + matmul (numpy's own tensordot
recipe), einsum through the ``einsum`` primitive (numpy's optimized einsum,
which hands pairwise contractions to BLAS).
"""

from __future__ import annotations

import string

import numpy as np

from ..primitives import products as _pp
from ..primitives.linalg import matmul as _matmul
from ._elementwise import astype, multiply
from ._shape import broadcast_to, moveaxis, ravel, reshape, stack, transpose
from ._util import as_array, no_out, normalize_axis
from ._complex import conj

__all__ = ["matmul", "dot", "vdot", "inner", "outer", "tensordot", "einsum", "einsum_path", "kron", "cross"]


def matmul(x1, x2, /, out=None):
    """numpy.matmul: 1-d operands are promoted and the added dim removed; batches broadcast."""
    no_out(out, "matmul")
    a, b = as_array(x1), as_array(x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(
            f"matmul: Input operand {0 if a.ndim == 0 else 1} does not have enough dimensions "
            "(a 0-d array); use multiply (*) for scalars"
        )
    return _matmul(a, b)


def dot(a, b, out=None):
    """numpy.dot: multiply for scalars, matmul up to 2-d, sum over a's last / b's second-to-last axis."""
    no_out(out, "dot")
    a, b = as_array(a), as_array(b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    if b.ndim <= 2:
        k = b.shape[0] if b.ndim == 1 else b.shape[-2]
        if a.shape[-1] != k:
            raise ValueError(f"shapes {tuple(a.shape)} and {tuple(b.shape)} not aligned: "
                             f"{a.shape[-1]} (dim {a.ndim - 1}) != {k} (dim {max(b.ndim - 2, 0)})")
        return _matmul(a, b)
    return tensordot(a, b, ((a.ndim - 1,), (b.ndim - 2,)))


def vdot(a, b, /):
    """numpy.vdot: the dot product of the flattened arrays, conjugating the first."""
    a, b = ravel(as_array(a)), ravel(as_array(b))
    if a.shape != b.shape:
        raise ValueError(f"vdot: vectors have different lengths: {a.shape[0]} and {b.shape[0]}")
    if np.dtype(a.dtype).kind == "c":
        a = conj(a)
    return _matmul(a, b)


def inner(a, b, /):
    """numpy.inner: sum over the last axes of a and b."""
    a, b = as_array(a), as_array(b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"shapes {tuple(a.shape)} and {tuple(b.shape)} not aligned: {a.shape[-1]} (dim {a.ndim - 1}) "
                         f"!= {b.shape[-1]} (dim {b.ndim - 1})")
    return tensordot(a, b, ((a.ndim - 1,), (b.ndim - 1,)))


def outer(a, b, out=None):
    no_out(out, "outer")
    a, b = ravel(as_array(a)), ravel(as_array(b))
    return multiply(reshape(a, (-1, 1)), reshape(b, (1, -1)))


def _axes_list(ax, ndim, which):
    ax = [ax] if isinstance(ax, (int, np.integer)) else list(ax)
    out = [normalize_axis(i, ndim, which) for i in ax]
    if len(set(out)) != len(out):
        raise ValueError(f"tensordot: repeated axis in {which} {ax}")
    return out


def tensordot(a, b, axes=2):
    """numpy.tensordot: transpose + reshape + one matmul (as numpy does it)."""
    a, b = as_array(a), as_array(b)
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n < 0 or n > a.ndim or n > b.ndim:
            raise ValueError(f"tensordot: axes={n} does not fit shapes {tuple(a.shape)} and {tuple(b.shape)}")
        ax_a, ax_b = list(range(a.ndim - n, a.ndim)), list(range(n))
    else:
        try:
            spec_a, spec_b = axes
        except (TypeError, ValueError):
            raise ValueError("tensordot: axes must be an int or a pair of sequences of axes") from None
        ax_a, ax_b = _axes_list(spec_a, a.ndim, "axes_a"), _axes_list(spec_b, b.ndim, "axes_b")
    if len(ax_a) != len(ax_b) or any(a.shape[i] != b.shape[j] for i, j in zip(ax_a, ax_b)):
        raise ValueError(f"shape-mismatch for sum: shapes {tuple(a.shape)} and {tuple(b.shape)}, "
                         f"axes {tuple(ax_a)} and {tuple(ax_b)}")
    free_a = [i for i in range(a.ndim) if i not in ax_a]
    free_b = [j for j in range(b.ndim) if j not in ax_b]
    k = int(np.prod([a.shape[i] for i in ax_a], dtype=np.int64))
    out_shape = tuple(a.shape[i] for i in free_a) + tuple(b.shape[j] for j in free_b)
    am = reshape(transpose(a, free_a + ax_a), (-1, k) if k else (int(np.prod([a.shape[i] for i in free_a], dtype=np.int64)), 0))
    bm = reshape(transpose(b, ax_b + free_b), (k, -1) if k else (0, int(np.prod([b.shape[j] for j in free_b], dtype=np.int64))))
    return reshape(_matmul(am, bm), out_shape)


def kron(a, b):
    """numpy.kron: an interleaved broadcast product, reshaped."""
    a, b = as_array(a), as_array(b)
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + tuple(a.shape)
    sb = (1,) * (nd - b.ndim) + tuple(b.shape)
    prod = multiply(reshape(a, tuple(v for d in sa for v in (d, 1))), reshape(b, tuple(v for d in sb for v in (1, d))))
    return reshape(prod, tuple(x * y for x, y in zip(sa, sb)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """numpy.cross of 2- or 3-vectors along the given axes (products of components)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = as_array(a), as_array(b)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("cross: both arguments must have at least one dimension")
    a = moveaxis(a, normalize_axis(axisa, a.ndim, "axisa"), -1)
    b = moveaxis(b, normalize_axis(axisb, b.ndim, "axisb"), -1)
    na, nb = a.shape[-1], b.shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    z = a0 * b1 - a1 * b0
    if na == 2 and nb == 2:
        return z
    if na == 3 and nb == 3:
        a2, b2 = a[..., 2], b[..., 2]
        x, y = a1 * b2 - a2 * b1, a2 * b0 - a0 * b2
    elif na == 2:
        b2 = b[..., 2]
        x, y = a1 * b2, -(a0 * b2)
    else:
        a2 = a[..., 2]
        x, y = -(a2 * b1), a2 * b0
    shape = np.broadcast_shapes(tuple(x.shape), tuple(y.shape), tuple(z.shape))
    c = stack([broadcast_to(v, shape) for v in (x, y, z)], axis=-1)
    return moveaxis(c, -1, normalize_axis(axisc, c.ndim, "axisc"))


# --- einsum ---------------------------------------------------------------------------------

def _sublist_term(sub):
    """Interleaved form: a list of ints (and Ellipsis) -> a subscripts string."""
    out = []
    for s in sub:
        if s is Ellipsis:
            out.append("...")
        else:
            s = int(s)
            if not 0 <= s < 52:
                raise ValueError(f"einsum: subscript {s} is not within the valid range [0, 52)")
            out.append(string.ascii_letters[s])
    return "".join(out)


def _parse_interleaved(args):
    args = list(args)
    ops, terms = [], []
    while len(args) >= 2:
        ops.append(args.pop(0))
        terms.append(_sublist_term(args.pop(0)))
    expr = ",".join(terms)
    if args:
        expr += "->" + _sublist_term(args[0])
    return expr, ops


def _parse(expr, shapes):
    """-> (input letter strings, output letter string), ellipses expanded."""
    expr = expr.replace(" ", "")
    inputs, arrow, output = expr.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(f"einsum: the subscripts {expr!r} name {len(terms)} operand(s) but "
                         f"{len(shapes)} were given")
    for t in terms + ([output] if arrow else []):
        bad = set(t.replace("...", "")) - set(string.ascii_letters)
        if bad or t.count("...") > 1 or t.replace("...", "").count(".") > 0:
            raise ValueError(f"einsum: invalid subscript term {t!r} in {expr!r}")
    used = set(inputs)
    spare = [c for c in string.ascii_letters if c not in used and c not in output]
    n_ell = 0
    for t, s in zip(terms, shapes):
        k = len(s) - len(t.replace("...", ""))
        if ("..." in t and k < 0) or ("..." not in t and k != 0):
            raise ValueError(f"einsum: operand of shape {tuple(s)} does not match subscripts {t!r} in {expr!r}")
        n_ell = max(n_ell, k if "..." in t else 0)
    ell = "".join(spare[:n_ell])
    subs = []
    for t, s in zip(terms, shapes):
        k = len(s) - len(t.replace("...", ""))
        subs.append(t.replace("...", ell[n_ell - k:]) if "..." in t else t)
    if arrow:
        if "..." not in output and n_ell:
            raise ValueError("output has more dimensions than subscripts given in einstein sum, but no "
                             "'...' ellipsis provided to broadcast the extra dimensions.")
        out = output.replace("...", ell)
        missing = set(out) - set("".join(subs))
        if missing:
            raise ValueError(f"einsum: output subscript(s) {sorted(missing)} do not appear in the inputs of {expr!r}")
        if len(set(out)) != len(out):
            raise ValueError(f"einsum: output subscript string {output!r} includes a repeated label")
    else:
        counts = {}
        for c in "".join(subs):
            counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, k in counts.items() if k == 1 and c not in ell))
    return subs, out


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """numpy.einsum: subscripts (explicit, implicit, ellipsis, repeated labels) or the
    interleaved form.  One primitive; its derivatives are einsums (any order)."""
    no_out(out, "einsum")
    if not operands:
        raise ValueError("einsum: no subscripts given")
    if isinstance(operands[0], str):
        expr, ops = operands[0], list(operands[1:])
    else:
        expr, ops = _parse_interleaved(operands)
    ops = [as_array(o) for o in ops]
    if not ops:
        raise ValueError("einsum: at least one operand is required")
    subs, out_sub = _parse(expr, [tuple(o.shape) for o in ops])
    # broadcast size-1 dimensions (views) so that equal letters have equal sizes
    sizes = {}
    for sub, o in zip(subs, ops):
        for c, d in zip(sub, o.shape):
            if sizes.get(c, 1) == 1:
                sizes[c] = d
    fixed = []
    for k, (sub, o) in enumerate(zip(subs, ops)):
        want = tuple(sizes[c] for c in sub)
        if want != tuple(o.shape):
            if any(d not in (1, w) for d, w in zip(o.shape, want)):
                _pp.letter_sizes([tuple(x.shape) for x in ops], subs)  # raises, naming the label
            o = broadcast_to(o, want)
        fixed.append(o)
    res = _pp.einsum(fixed, subs, out_sub)
    return res if dtype is None else astype(res, dtype)


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """numpy.einsum_path: numpy's contraction order for these shapes (it reads shapes only)."""
    stand_ins = [op if isinstance(op, str) or np.ndim(op) == 0 and not hasattr(op, "shape")
                 else np.broadcast_to(np.zeros((), dtype=np.dtype(getattr(op, "dtype", np.float64))),
                                      tuple(getattr(op, "shape", np.shape(op))))
                 for op in operands]
    return np.einsum_path(*stand_ins, optimize=optimize, einsum_call=einsum_call)
