"""Sparse (COO) matrix times dense: the primitive behind funcgrad.sparse's products.

``coo_matmul(data, rows, cols, dense, shape=(M, K))`` is ``A @ dense`` for the
M x K matrix ``A`` whose stored entries are ``data[e]`` at ``(rows[e], cols[e])``
(repeated coordinates add up, as in scipy.sparse and JAX's BCOO); ``dense`` is
``(K,)`` or ``(K, N)``.  The impl builds the backend's COO matrix around the
buffers (``scipy.sparse`` on the cpu, ``cupyx.scipy.sparse`` on cuda, the
stand-in's mirror of cupyx on the stand-in) and multiplies: O(nnz * N) work.

Rules (indices are integer arguments and carry no derivative):

- data:  ``data_bar[e] = <g[rows[e]], dense[cols[e]]>`` (gathers of both rows and an einsum of them);
  ``data_dot`` contributes ``coo_matmul(data_dot, rows, cols, dense)``;
- dense: ``dense_bar = A^T g = coo_matmul(data, cols, rows, g, shape=(K, M))``; ``dense_dot``
  contributes ``coo_matmul(data, rows, cols, dense_dot)``;

so every rule is this primitive or a gather, and derivatives of any order follow.
Batching (vmap): a batch of dense operands only becomes the columns of one
``(K, B * N)`` operand; a batch of matrices (data and/or indices batched) becomes
one block matrix of ``B`` stacked ``M x K`` blocks (block-diagonal when ``dense``
is batched too), so a vmapped product is still one sparse product.
"""

from __future__ import annotations

import numpy as np

from ..backend import kind_of, namespace_of
from ..core import Primitive, ShapedArray, Zero
from ._batching import _iota, at_front, batch_size, moveaxis
from .elementwise import add, multiply
from .index import getitem
from .products import einsum
from .shape import reshape
from .special import scipy_namespace

__all__ = ["coo_matmul", "coo_matmul_p"]


def _sparse_ns(xp):
    ns = scipy_namespace(xp, "sparse")
    if ns is None:
        if xp is np:
            raise ImportError("funcgrad.sparse on the cpu computes with scipy.sparse, which is not installed: "
                              "pip install scipy (or funcgrad[sparse])")
        raise ImportError("funcgrad.sparse on cuda computes with cupyx.scipy.sparse, which this cupy lacks")
    return ns


def _coo_matmul_impl(data, rows, cols, dense, *, shape):
    xp = namespace_of(data, dense)
    dt = np.result_type(data.dtype, dense.dtype)
    # cupyx's sparse matrices hold only bool/float/complex values: integers compute in float64 there
    work = dt if xp is np or kind_of(dt) in "fc" else np.dtype(np.float64)
    m, k = shape
    if dense.shape[0] != k:
        raise ValueError(f"coo_matmul: a sparse matrix of shape {tuple(shape)} cannot multiply a dense "
                         f"operand of shape {tuple(dense.shape)}")
    if data.shape[0] == 0 or m == 0 or k == 0 or (dense.ndim == 2 and dense.shape[1] == 0):
        return xp.zeros((m,) + tuple(dense.shape[1:]), dtype=dt)
    a = _sparse_ns(xp).coo_matrix((data.astype(work, copy=False), (rows, cols)), shape=(m, k))
    out = a @ dense.astype(work, copy=False)
    return xp.asarray(out).astype(dt, copy=False)


def _coo_matmul_abstract(data, rows, cols, dense, *, shape):
    m, k = shape
    problems = []
    if len(data.shape) != 1 or tuple(rows.shape) != tuple(data.shape) or tuple(cols.shape) != tuple(data.shape):
        problems.append(f"data, rows and cols must be 1-d of one length (got shapes {tuple(data.shape)}, "
                        f"{tuple(rows.shape)}, {tuple(cols.shape)})")
    if np.dtype(rows.dtype).kind not in "iu" or np.dtype(cols.dtype).kind not in "iu":
        problems.append(f"rows and cols must be integer arrays (got {rows.dtype}, {cols.dtype})")
    if len(dense.shape) not in (1, 2) or dense.shape[0] != k:
        problems.append(f"a sparse matrix of shape {(m, k)} cannot multiply a dense operand of shape "
                        f"{tuple(dense.shape)} (it must be ({k},) or ({k}, N))")
    if problems:
        raise ValueError("coo_matmul: " + "; ".join(problems))
    return ShapedArray((m,) + tuple(dense.shape[1:]), np.result_type(data.dtype, dense.dtype))


def _data_cotangent(g, rows, cols, dense):
    """``<g[rows[e]], dense[cols[e]]>`` for every stored entry e."""
    gr, dc = getitem(g, rows), getitem(dense, cols)
    if len(gr.shape) == 1:
        return multiply(gr, dc)
    return einsum((gr, dc), ("en", "en"), "e")  # row-wise dots, without the (nnz, N) product in memory


def _coo_matmul_vjp(g, ans, data, rows, cols, dense, *, shape):
    m, k = shape
    return (_data_cotangent(g, rows, cols, dense), None, None,
            coo_matmul_p.bind(data, cols, rows, g, shape=(k, m)))


def _coo_matmul_jvp(ts, ans, data, rows, cols, dense, *, shape):
    t_data, _, _, t_dense = ts
    out = None
    if type(t_data) is not Zero:
        out = coo_matmul_p.bind(t_data, rows, cols, dense, shape=shape)
    if type(t_dense) is not Zero:
        term = coo_matmul_p.bind(data, rows, cols, t_dense, shape=shape)
        out = term if out is None else add(out, term)
    return out


def _coo_matmul_batch(args, dims, *, shape):
    data, rows, cols, dense = args
    d_data, d_rows, d_cols, d_dense = dims
    m, k = shape
    n = batch_size(args, dims)
    if d_data is None and d_rows is None and d_cols is None:
        # one matrix, a batch of dense operands: the batch becomes columns of one (K, B*N) operand
        x = moveaxis(dense, d_dense, 1)  # (K, B, *rest)
        rest = tuple(x.shape[2:])
        cols_n = n * (rest[0] if rest else 1)
        out = coo_matmul_p.bind(data, rows, cols, reshape(x, (k, cols_n)), shape=shape)
        return reshape(out, (m, n) + rest), 1
    nnz = data.shape[1 - d_data] if d_data is not None else data.shape[0]  # entries per example
    offsets = _iota(n, data if d_data is not None else (rows if d_rows is not None else cols), 1)
    data_b = reshape(at_front(data, d_data, n), (n * nnz,))
    rows_b = reshape(add(at_front(rows, d_rows, n), multiply(offsets, m)), (n * nnz,))
    cols_b = at_front(cols, d_cols, n)
    if d_dense is None:  # B stacked M x K blocks times one dense operand
        rest = tuple(dense.shape[1:])
        cols_b = reshape(cols_b, (n * nnz,))
        out = coo_matmul_p.bind(data_b, rows_b, cols_b, dense, shape=(n * m, k))
    else:  # block-diagonal: block b multiplies dense b
        x = moveaxis(dense, d_dense, 0)
        rest = tuple(x.shape[2:])
        cols_b = reshape(add(cols_b, multiply(offsets, k)), (n * nnz,))
        out = coo_matmul_p.bind(data_b, rows_b, cols_b, reshape(x, (n * k,) + rest), shape=(n * m, n * k))
    return reshape(out, (n, m) + rest), 0


coo_matmul_p = Primitive("coo_matmul", _coo_matmul_impl, _coo_matmul_abstract)
coo_matmul_p.defvjp_joint(_coo_matmul_vjp, unsaved_args=(), saves_out=False)
coo_matmul_p.defjvp_joint(_coo_matmul_jvp)
coo_matmul_p.batch = _coo_matmul_batch


def coo_matmul(data, rows, cols, dense, shape):
    """``A @ dense`` for the COO matrix ``A`` (see the module docstring)."""
    return coo_matmul_p.bind(data, rows, cols, dense, shape=(int(shape[0]), int(shape[1])))
