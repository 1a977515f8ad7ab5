"""Specs: products (funcgrad.primitives.linalg.matmul)."""

import hypothesis.strategies as st

from ..spec import Spec, floats_of


@st.composite
def _matmul_args(draw):
    n, k, m = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    kind = draw(st.sampled_from(["mm", "mv", "vm", "vv", "batched", "bcast"]))
    a_shape, b_shape = {
        "mm": ((n, k), (k, m)), "mv": ((n, k), (k,)), "vm": ((k,), (k, m)), "vv": ((k,), (k,)),
        "batched": ((2, n, k), (2, k, m)), "bcast": ((2, 1, n, k), (3, k, m)),
    }[kind]
    return (draw(floats_of(a_shape)), draw(floats_of(b_shape))), {}


SPECS = [
    Spec("matmul", ("matmul",), lambda a, b: a @ b, _matmul_args()),
]
