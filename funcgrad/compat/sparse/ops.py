"""Sparse tensor operations: creation, conversion, coalescing, products, sum and softmax.

Index work (which entries share a coordinate, row pointers) is done once on the
index buffers by funcgrad.sparse._index; values are combined with compat's own
differentiable operations (index_add, gathers, exp, division) and products bind
funcgrad's ``coo_matmul`` primitive, so gradients reach the stored values and the
dense operands through the usual engine.
"""

from __future__ import annotations

import numpy as np

from ...primitives.sparse import coo_matmul_p
from ...sparse._index import coalesce_plan, csr_pointers, csr_rows, group_plan
from .._dispatch import FUNCS, apply, as_t, name_grad
from ..creation import tensor
from ..dtypes import int64
from ..tensor import Tensor, wrap
from .tensor import SparseTensor, sparse_coo, sparse_csr

__all__ = ["sparse_coo_tensor", "sparse_csr_tensor", "dense_to_sparse", "to_dense", "to_layout", "coalesce",
           "sparse_dense_mm", "dense_sparse_mm", "sparse_sum", "sparse_softmax"]


def _index_tensor(x, what):
    t = x if isinstance(x, Tensor) else tensor(x, dtype=int64)
    if t._value.dtype.kind not in "iu":
        raise RuntimeError(f"{what} must be an int64 tensor, got {t.dtype}")
    return t.detach().long() if t._value.dtype != np.int64 else t.detach()


def _values_tensor(values, dtype, device, requires_grad):
    v = values if isinstance(values, Tensor) else tensor(values)
    if dtype is not None:
        v = v.to(dtype)
    if device is not None:
        v = v.to(device)
    if v.dim() != 1:
        raise NotImplementedError(f"funcgrad.compat: sparse tensors with dense dimensions (values of shape "
                                  f"{tuple(v.shape)}) are not supported: values must be 1-d")
    if requires_grad:
        if v.requires_grad and not v.is_leaf:
            raise RuntimeError("sparse_coo_tensor: requires_grad=True needs values that are not the result "
                               "of a differentiable operation (call .detach())")
        return v.detach().requires_grad_(True)
    # an alias recorded as an operation, so the sparse tensor is a non-leaf of ``values``' graph
    return name_grad(v.view(v.shape), "SparseCooTensorWithDimsAndTensorsBackward0") if v.requires_grad else v


def _check_bounds(idx, size):
    host = np.asarray(idx.detach().cpu()._value) if idx.numel() else np.zeros((len(size), 0), np.int64)
    for d, n in enumerate(size):
        if host.shape[1] and host[d].min() < 0:
            raise RuntimeError(f"found negative index {int(host[d].min())} for dim {d}")
        if host.shape[1] and host[d].max() >= n:
            raise RuntimeError(f"size is inconsistent with indices: for dim {d}, size is {n} but found index "
                               f"{int(host[d].max())}")


def sparse_coo_tensor(indices, values, size=None, *, dtype=None, device=None, pin_memory=False,
                      requires_grad=False, check_invariants=None, is_coalesced=None):
    """torch.sparse_coo_tensor: entries ``values[e]`` at ``indices[:, e]`` (repeats add up)."""
    idx = _index_tensor(indices, "indices")
    vals = _values_tensor(values, dtype, device, requires_grad)
    if idx.dim() != 2 or idx.shape[1] != vals.shape[0]:
        raise RuntimeError(f"indices and values must have the same number of elements (nnz), but got indices of "
                           f"shape {tuple(idx.shape)} and values of shape {tuple(vals.shape)}")
    if size is None:
        host = np.asarray(idx.cpu()._value)
        size = tuple(int(m) + 1 for m in host.max(axis=1)) if host.shape[1] else (0,) * host.shape[0]
    size = tuple(int(s) for s in size)
    if len(size) != idx.shape[0]:
        raise RuntimeError(f"number of dimensions must be sparse_dim ({idx.shape[0]}) + dense_dim (0), but got "
                           f"{len(size)}")
    _check_bounds(idx, size)
    if vals.device != idx.device:
        idx = idx.to(vals.device)
    return SparseTensor._make(idx, vals, size, sparse_coo, bool(is_coalesced))


def sparse_csr_tensor(crow_indices, col_indices, values, size=None, *, dtype=None, device=None,
                      pin_memory=False, requires_grad=False, check_invariants=None):
    """torch.sparse_csr_tensor: row ``r`` holds entries ``crow[r]:crow[r+1]`` of ``col``/``values``."""
    crow = _index_tensor(crow_indices, "crow_indices")
    col = _index_tensor(col_indices, "col_indices")
    vals = _values_tensor(values, dtype, device, requires_grad)
    if crow.dim() != 1 or col.dim() != 1 or col.shape[0] != vals.shape[0]:
        raise RuntimeError(f"crow_indices and col_indices must be 1-d and col_indices and values of one length, got "
                           f"shapes {tuple(crow.shape)}, {tuple(col.shape)}, {tuple(vals.shape)}")
    ch = np.asarray(crow.cpu()._value)
    if ch.shape[0] == 0 or ch[0] != 0 or ch[-1] != col.shape[0] or (np.diff(ch) < 0).any():
        raise RuntimeError("crow_indices must start at 0, end at nnz and be non-decreasing")
    n_rows = ch.shape[0] - 1
    if size is None:
        cols_h = np.asarray(col.cpu()._value)
        size = (n_rows, int(cols_h.max()) + 1 if cols_h.size else 0)
    size = tuple(int(s) for s in size)
    if len(size) != 2 or size[0] != n_rows:
        raise RuntimeError(f"size {size} does not match crow_indices of length {ch.shape[0]} (a 2-d CSR matrix "
                           f"has size[0] + 1 row pointers)")
    rows = wrap(csr_rows(crow._value, col.shape[0]))
    idx = FUNCS["stack"]([rows, col])
    _check_bounds(idx, size)
    return SparseTensor._make(idx, vals, size, sparse_csr, True, crow)


def dense_to_sparse(self, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
    """Tensor.to_sparse(): the nonzero entries, coalesced (row-major); a gather, so gradients flow."""
    if isinstance(self, SparseTensor):
        return to_layout(self, layout or sparse_coo)
    if sparse_dim is not None and sparse_dim != self.dim():
        raise NotImplementedError("funcgrad.compat: to_sparse(sparse_dim) with dense dimensions is not supported")
    if self.dim() == 0:
        raise RuntimeError("to_sparse: a 0-d tensor has no sparse form in funcgrad.compat")
    idx = FUNCS["nonzero"](self.detach()).t()
    vals = self[tuple(idx[d] for d in range(self.dim()))]
    out = SparseTensor._make(idx.contiguous(), name_grad(vals, "ToSparseBackward0"), self.shape, sparse_coo, True)
    return out if layout in (None, sparse_coo) else to_layout(out, layout)


def to_layout(t, layout):
    if layout == sparse_coo:
        if t.layout == sparse_coo:
            return t
        return SparseTensor._make(t._idx, t._vals, t._size, sparse_coo, True)
    if layout == sparse_csr:
        if t.layout == sparse_csr:
            return t
        if t.dim() != 2:
            raise RuntimeError(f"to_sparse_csr: only 2-d tensors are supported, got {t.dim()}-d")
        c = coalesce(t)  # row-major sorted: the CSR order
        crow = wrap(csr_pointers(c._idx._value[0], c._size[0]))
        return SparseTensor._make(c._idx, c._vals, c._size, sparse_csr, True, crow)
    raise NotImplementedError(f"funcgrad.compat: conversion to layout {layout} is not supported")


def _segment_sum(vals, inverse, n):
    """Per-group sums of ``vals`` (a differentiable index_add)."""
    zeros = FUNCS["zeros"](n, dtype=vals.dtype, device=vals.device)
    return FUNCS["index_add"](zeros, 0, wrap(inverse), vals)


def coalesce(t):
    """Sorted unique coordinates, repeated values summed (gradients flow back through the sum)."""
    if t._coalesced:
        return t
    coords, inverse = coalesce_plan(t._idx._value.T, t._size)
    vals = name_grad(_segment_sum(t._vals, inverse, int(coords.shape[0])), "CoalesceBackward0")
    return SparseTensor._make(wrap(coords.T.copy()), vals, t._size, sparse_coo, True)


def to_dense(t):
    zeros = FUNCS["zeros"](tuple(t._size), dtype=t._vals.dtype, device=t._vals.device)
    idx = tuple(wrap(t._idx._value[d]) for d in range(t.dim()))
    return name_grad(FUNCS["index_put"](zeros, idx, t._vals, accumulate=True), "ToDenseBackward0")


def _check_mm(a, b, name):
    if a.dim() != 2 or b.dim() not in (1, 2):
        raise RuntimeError(f"{name}: expected a 2-d sparse matrix and a 1-d or 2-d dense operand, got {a.dim()}-d "
                           f"and {b.dim()}-d")
    if isinstance(b, SparseTensor):
        raise NotImplementedError(f"funcgrad.compat: {name} of two sparse tensors (a sparse result) is not "
                                  "supported: convert one with .to_dense()")
    if a._size[1] != b.shape[0]:
        raise RuntimeError(f"{name}: Argument #3 (dense): Expected dim 0 size {a._size[1]}, got {b.shape[0]}")
    if a.dtype != b.dtype:
        raise RuntimeError(f"{name}: expected sparse and dense operands of one dtype, but got {a.dtype} and "
                           f"{b.dtype}")


def sparse_dense_mm(a, b, name="mm"):
    """sparse (M, K) @ dense (K, N) or (K,): coo_matmul, differentiable in the values and ``b``."""
    b = as_t(b)
    _check_mm(a, b, name)
    rows, cols = a._idx[0], a._idx[1]
    out = apply(coo_matmul_p, a._vals, rows, cols, b, shape=(a._size[0], a._size[1]))
    return name_grad(out, "SparseAddmmBackward0")


def dense_sparse_mm(x, a):
    """dense (N, M) or (M,) @ sparse (M, K) = (a^T @ x^T)^T."""
    x = as_t(x)
    at = to_layout(a, sparse_coo).t()  # (a CSR matrix's transpose is CSC: its COO form serves)
    if x.dim() == 2:
        return sparse_dense_mm(at, x.t(), "matmul").t()
    return sparse_dense_mm(at, x, "matmul")


def sparse_sum(t, dim=None, dtype=None):
    """torch.sparse.sum: a dense 0-d sum over everything, else a coalesced sparse tensor of the other dims."""
    vals = t._vals if dtype is None else t._vals.to(dtype)
    if dim is None:
        return vals.sum()
    dims = {d % t.dim() for d in ((dim,) if isinstance(dim, int) else dim)}
    keep = [d for d in range(t.dim()) if d not in dims]
    if not keep:
        return vals.sum()
    coords, inverse = group_plan(t._idx._value.T, t._size, keep)
    out = _segment_sum(vals, inverse, int(coords.shape[0]))
    return SparseTensor._make(wrap(coords.T.copy()), name_grad(out, "SparseSumBackward0"),
                              [t._size[d] for d in keep], sparse_coo, True)


def sparse_softmax(t, dim, dtype=None, log=False):
    """torch.sparse.softmax / log_softmax over the stored entries along ``dim`` (unstored ones are -inf)."""
    c = coalesce(t) if t.layout == sparse_coo else t
    vals = c._vals if dtype is None else c._vals.to(dtype)
    d = dim % c.dim()
    others = [k for k in range(c.dim()) if k != d]
    coords, inverse = group_plan(c._idx._value.T, c._size, others)
    n = int(coords.shape[0])
    inv = wrap(inverse)
    host_v = vals.detach()._value
    xp_max = FUNCS["full"]((n,), -np.inf, dtype=vals.dtype, device=vals.device)._value
    xp_max = _scatter_max(xp_max, inverse, host_v)
    shifted = vals - wrap(xp_max[inverse])  # a constant shift: softmax is unchanged by it
    e = shifted.exp()
    s = _segment_sum(e, inverse, n)
    out = shifted - s.log()[inv] if log else e / s[inv]
    name = "SparseLogSoftmaxBackward0" if log else "SparseSoftmaxBackward0"
    return SparseTensor._make(c._idx, name_grad(out, name), c._size, c._layout, c._coalesced, c._crow)


def _scatter_max(out, inverse, vals):
    """Per-group maximum of a buffer (no gradient needed: it only shifts the exponent)."""
    from ...backend import namespace_of  # noqa: PLC0415

    xp = namespace_of(vals)
    order = xp.lexsort(xp.stack([vals, inverse.astype(vals.dtype)])) if vals.shape[0] else inverse
    last = xp.ones(order.shape[0], dtype=bool)
    if order.shape[0] > 1:
        g = inverse[order]
        last[:-1] = g[1:] != g[:-1]
    out[inverse[order][last]] = vals[order][last]
    return out
