"""Specs: the einsum primitive (explicit, implicit, ellipsis, repeated labels, 1-3 operands)
and the products composed from matmul (dot, tensordot, inner, vdot, kron, cross)."""

import hypothesis.strategies as st

import funcgrad.numpy as fnp

from ..spec import Spec, floats_of

# (subscripts, operand letter strings with '.' for an ellipsis dimension)
_EINSUMS = [
    "ij,jk->ik", "ij,jk", "ii->i", "ii", "ij->", "ij->ji", "i,i", "i,j->ij", "...j,jk->...k",
    "bij,bjk->bik", "ij,ij->ij", "iij->ij", "ab,bc,cd->ad", "ij,kj->i", "i->", "ijk->kji", "ii,i->i",
    "...ii->...i", "a...,a->...",
]


@st.composite
def _einsum_args(draw):
    expr = draw(st.sampled_from(_EINSUMS))
    sizes = {c: draw(st.integers(1, 3)) for c in "abcdijk"}
    ell = tuple(draw(st.lists(st.integers(1, 2), max_size=2)))
    terms = expr.split("->")[0].split(",")
    ops = []
    for t in terms:
        pre, dots, post = t.partition("...")
        shape = tuple(sizes[c] for c in pre) + (ell if dots else ()) + tuple(sizes[c] for c in post)
        ops.append(draw(floats_of(shape)))
    return tuple(ops), {"expr": expr}


@st.composite
def _tensordot_args(draw):
    s = [draw(st.integers(1, 3)) for _ in range(4)]
    kind = draw(st.sampled_from(["int0", "int1", "int2", "pairs"]))
    if kind == "pairs":
        a, b = (s[0], s[1], s[2]), (s[2], s[3], s[0])
        return (draw(floats_of(a)), draw(floats_of(b))), {"axes": ([0, 2], [2, 0])}
    n = int(kind[-1])
    a = (s[0],) + tuple(s[1:1 + n])
    b = tuple(s[1:1 + n]) + (s[3],)
    return (draw(floats_of(a)), draw(floats_of(b))), {"axes": n}


@st.composite
def _vec3(draw):
    n = draw(st.integers(1, 3))
    da, db = draw(st.sampled_from([(3, 3), (2, 3), (3, 2), (2, 2)]))
    return (draw(floats_of((n, da))), draw(floats_of((1, db)))), {}


SPECS = [
    Spec("einsum", ("einsum",), lambda *ops, expr: fnp.einsum(expr, *ops), _einsum_args()),
    Spec("tensordot", ("matmul",), lambda a, b, axes: fnp.tensordot(a, b, axes), _tensordot_args()),
    Spec("kron_inner_vdot", ("multiply", "matmul"),
         lambda a, b, axes: [fnp.kron(a, b), fnp.inner(a, a), fnp.vdot(b, b), fnp.dot(a, fnp.ones(a.shape[-1]))],
         _tensordot_args()),
    Spec("cross", ("multiply",), lambda a, b: fnp.cross(a, b), _vec3()),
]
