"""Specs: sparse (COO) times dense (funcgrad.primitives.sparse.coo_matmul), through funcgrad.sparse."""

import hypothesis.strategies as st
import numpy as np

import funcgrad.numpy as fnp
from funcgrad import sparse
from funcgrad.testing import strategies as fst

from ..spec import Spec, floats_of


@st.composite
def _coo_dense(draw, left):
    m, k = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    nnz = draw(st.integers(0, 5)) if m and k else 0
    rows = draw(fst.host_arrays((nnz,), np.int64, st.integers(0, max(m - 1, 0))))
    cols = draw(fst.host_arrays((nnz,), np.int64, st.integers(0, max(k - 1, 0))))  # repeats: duplicates
    vector = draw(st.booleans())
    n = draw(st.integers(0, 3))
    dense_shape = ((k,) if vector else (k, n)) if left else ((m,) if vector else (n, m))
    data = draw(floats_of((nnz,)))
    return (data, draw(floats_of(dense_shape))), {"idx": np.stack([rows, cols], 1), "shape": (m, k)}


def _sparse_at_dense(data, dense, idx, shape):
    return sparse.BCOO((data, fnp.asarray(idx)), shape=shape) @ dense


def _dense_at_sparse(data, dense, idx, shape):
    return dense @ sparse.BCOO((data, fnp.asarray(idx)), shape=shape)


SPECS = [
    Spec("coo_matmul", ("coo_matmul",), _sparse_at_dense, _coo_dense(True)),
    Spec("coo_matmul_left", ("coo_matmul",), _dense_at_sparse, _coo_dense(False)),
]
