"""funcgrad.sparse: sparse arrays in COO form, after JAX's ``jax.experimental.sparse.BCOO``.

A :class:`BCOO` holds ``data`` (nse,) and ``indices`` (nse, ndim) (integers) for
an array of static ``shape``: entry e is ``data[e]`` at ``indices[e]``;
repeated coordinates add up.  It is a pytree whose leaves are ``data`` and
``indices`` (the shape is structure), so it passes through ``grad``, ``vjp``,
``jvp`` and ``vmap`` like any pytree.  Products with dense arrays bind the
``coo_matmul`` primitive (funcgrad.primitives.sparse: scipy.sparse on the
cpu, cupyx.scipy.sparse on cuda), differentiable with respect to the stored
values and the dense operand; conversions and reductions are gathers and
scatters of the core, differentiable and batchable the same way.
See docs/sparse.md.
"""

from __future__ import annotations

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..array import Array
from ..primitives.sparse import coo_matmul
from ._index import buffer_of, coalesce_plan

__all__ = ["BCOO", "bcoo_fromdense", "bcoo_todense", "bcoo_dot_general", "bcoo_sum_duplicates",
           "bcoo_reduce_sum", "bcoo_transpose", "bcoo_multiply_dense", "fromdense", "todense", "is_sparse", "sparsify", "grad", "value_and_grad"]


class BCOO:
    """A sparse array: ``BCOO((data, indices), shape=shape)`` (JAX's constructor and layout).

    ``data`` is ``(*batch, nse)`` and ``indices`` ``(*batch, nse, n_sparse)``; ``shape`` is
    ``batch + sparse shape``.  Leading batch dimensions (JAX's ``n_batch``) are what a vmap
    over a BCOO strips: the pytree's static part is the sparse shape only, so inside
    ``vmap`` every example is an unbatched BCOO.  Operations on a batched BCOO are mapped
    over its batch dimensions with ``vmap``.
    """

    __slots__ = ("data", "indices", "sparse_shape")
    __array_priority__ = 2000  # numpy defers ``ndarray @ BCOO`` to __rmatmul__

    def __init__(self, args, *, shape):
        data, indices = args
        shape = tuple(int(s) for s in shape)
        d_shape, i_shape = tuple(data.shape), tuple(indices.shape)
        n_batch = len(d_shape) - 1
        ok = len(d_shape) >= 1 and len(i_shape) == n_batch + 2 and i_shape[:-1] == d_shape and \
            d_shape[:-1] == shape[:n_batch] and i_shape[-1] == len(shape) - n_batch
        if not ok:
            raise ValueError(f"BCOO: data must be (*batch, nse) and indices (*batch, nse, n_sparse) with "
                             f"batch + n_sparse dims making shape {shape}; got data {d_shape} and indices {i_shape}")
        if np.dtype(indices.dtype).kind not in "iu":
            raise TypeError(f"BCOO: indices must be integers, got {indices.dtype}")
        self.data, self.indices, self.sparse_shape = data, indices, shape[n_batch:]

    @property
    def shape(self):
        return tuple(self.data.shape[:-1]) + self.sparse_shape

    @property
    def n_batch(self):
        return len(self.data.shape) - 1

    # --- metadata ---------------------------------------------------------------------------
    @property
    def dtype(self):
        return self.data.dtype

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def nse(self):
        return int(self.data.shape[-1])

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    def __repr__(self):
        return f"BCOO({self.dtype}{list(self.shape)}, nse={self.nse})"

    # --- conversions ------------------------------------------------------------------------
    @classmethod
    def fromdense(cls, mat, *, nse=None, index_dtype=np.int32):
        return bcoo_fromdense(mat, nse=nse, index_dtype=index_dtype)

    def todense(self):
        return bcoo_todense(self)

    def sum_duplicates(self):
        return bcoo_sum_duplicates(self)

    def transpose(self, axes=None):
        return bcoo_transpose(self, axes)

    @property
    def T(self):
        return bcoo_transpose(self)

    def sum(self, axis=None):
        return bcoo_reduce_sum(self, axis)

    def astype(self, dtype):
        return BCOO((fnp.asarray(self.data).astype(dtype), self.indices), shape=self.shape)

    # --- arithmetic -------------------------------------------------------------------------
    def __matmul__(self, other):
        return _matmul(self, other)

    def __rmatmul__(self, other):
        return _matmul(other, self)

    def __mul__(self, other):
        if isinstance(other, BCOO):
            raise NotImplementedError("BCOO * BCOO is not supported: multiply by a scalar or a dense array")
        if np.ndim(other) == 0 if not hasattr(other, "shape") else len(other.shape) == 0:
            return BCOO((self.data * other, self.indices), shape=self.shape)
        return bcoo_multiply_dense(self, other)

    __rmul__ = __mul__

    def __neg__(self):
        return BCOO((-self.data, self.indices), shape=self.shape)

    def __truediv__(self, other):
        if hasattr(other, "shape") and len(other.shape) != 0:
            raise NotImplementedError("BCOO / array: only division by a scalar keeps the sparsity")
        return BCOO((self.data / other, self.indices), shape=self.shape)


tree.register_pytree_node(BCOO, lambda m: ((m.data, m.indices), m.sparse_shape),
                          lambda sparse_shape, ch: _unflatten(ch, sparse_shape))


def _unflatten(children, sparse_shape):
    m = object.__new__(BCOO)
    m.data, m.indices = children
    m.sparse_shape = sparse_shape
    return m


def _per_batch(fn):
    """``fn(mat, *rest)`` for an unbatched BCOO, mapped with vmap over a batched one's batch dims."""
    def run(mat, *rest, **kwargs):
        if mat.n_batch == 0:
            return fn(mat, *rest, **kwargs)
        return vmap(lambda m: run(m, *rest, **kwargs))(mat)

    run.__name__, run.__doc__ = fn.__name__, fn.__doc__
    return run


def is_sparse(x):
    return isinstance(x, BCOO)


def _unbatched(mat, what):
    if mat.n_batch:
        raise NotImplementedError(f"{what} of a BCOO with batch dimensions (shape {mat.shape}, n_batch="
                                  f"{mat.n_batch}) is not supported: apply it inside vmap over the batch")


def _columns(indices):
    """The index tuple (indices[:, 0], ..., indices[:, ndim-1])."""
    return tuple(indices[:, d] for d in range(indices.shape[1]))


# --- conversions ------------------------------------------------------------------------------

def bcoo_fromdense(mat, *, nse=None, index_dtype=np.int32):
    """The nonzero entries of ``mat`` (concrete values: the pattern is read from them); ``nse``
    pads with explicit zeros (at coordinate 0) to a fixed count, as JAX does.  The stored values
    are a gather of ``mat``, so gradients reach it."""
    mat = fnp.asarray(mat)
    if mat.ndim == 0:
        raise ValueError("bcoo_fromdense: a 0-d array has no sparse form (it needs at least 1 dimension)")
    idx = fnp.argwhere(mat != 0).astype(index_dtype)
    found = int(idx.shape[0])
    if nse is not None:
        if nse < found:
            raise ValueError(f"bcoo_fromdense: nse={nse} is smaller than the {found} nonzero entries")
        idx = fnp.concatenate([idx, fnp.zeros((nse - found, mat.ndim), dtype=index_dtype)], axis=0)
    data = mat[_columns(idx)]
    return BCOO((data, idx), shape=mat.shape)


@_per_batch
def bcoo_todense(mat):
    """The dense array (repeated coordinates summed): a scatter-add, differentiable in ``data``."""
    if mat.ndim == 0:
        return fnp.sum(mat.data)
    zeros = fnp.zeros_like(mat.data, shape=mat.shape)
    return zeros.at[_columns(mat.indices)].add(mat.data)


def bcoo_sum_duplicates(mat):
    """Each coordinate stored once, sorted row-major, repeated values summed (concrete indices)."""
    _unbatched(mat, "bcoo_sum_duplicates")
    coords, inverse = coalesce_plan(buffer_of(mat.indices), mat.shape)
    inv = Array._from_buffer(inverse)
    data = fnp.zeros_like(mat.data, shape=(int(coords.shape[0]),)).at[inv].add(mat.data)
    return BCOO((data, Array._from_buffer(coords.astype(np.dtype(mat.indices.dtype), copy=False))),
                shape=mat.shape)


def bcoo_transpose(mat, axes=None):
    _unbatched(mat, "bcoo_transpose")
    axes = tuple(reversed(range(mat.ndim))) if axes is None else tuple(a % mat.ndim for a in axes)
    if sorted(axes) != list(range(mat.ndim)):
        raise ValueError(f"bcoo_transpose: axes {axes} are not a permutation of {mat.ndim} dimensions")
    idx = mat.indices[:, list(axes)] if mat.ndim else mat.indices
    return BCOO((mat.data, idx), shape=tuple(mat.shape[a] for a in axes))


def bcoo_reduce_sum(mat, axes=None):
    """The sum over ``axes`` (None: all), a BCOO of the remaining dimensions (JAX's
    bcoo_reduce_sum: entries keep their other coordinates, so some may repeat)."""
    _unbatched(mat, "bcoo_reduce_sum")
    if axes is None:
        axes = tuple(range(mat.ndim))
    axes = {a % mat.ndim for a in ((axes,) if isinstance(axes, int) else axes)}
    keep = [d for d in range(mat.ndim) if d not in axes]
    return BCOO((mat.data, mat.indices[:, keep]), shape=tuple(mat.shape[d] for d in keep))


def bcoo_multiply_dense(mat, dense):
    """Elementwise ``mat * dense`` (dense broadcast to mat's shape): sparse, with the same pattern."""
    _unbatched(mat, "bcoo_multiply_dense")
    dense = fnp.broadcast_to(fnp.asarray(dense), mat.shape)
    return BCOO((mat.data * dense[_columns(mat.indices)], mat.indices), shape=mat.shape)


# --- products ---------------------------------------------------------------------------------

def _matmul(a, b):
    if isinstance(a, BCOO) and isinstance(b, BCOO):
        raise NotImplementedError("BCOO @ BCOO (a sparse result) is not supported: convert one operand with "
                                  ".todense()")
    if isinstance(a, BCOO):
        return _matmul_batched(a, fnp.asarray(b), transpose=False)
    return _matmul_batched(b, fnp.asarray(a), transpose=True)


def _matmul_batched(mat, dense, transpose):
    """numpy's matmul semantics: a batched BCOO's batch axes pair with the dense operand's leading
    axes (an operand of rank <= 2 is shared by every batch element); an n-d dense operand is a
    stack of matrices in its leading axes."""
    if mat.n_batch:
        if dense.ndim > 2:
            if dense.shape[0] != mat.shape[0]:
                raise ValueError(f"matmul: the batch axes of a sparse operand of shape {mat.shape} and a dense "
                                 f"operand of shape {dense.shape} do not match")
            return vmap(lambda m, x: _matmul_batched(m, x, transpose))(mat, dense)
        return vmap(lambda m: _matmul_batched(m, dense, transpose))(mat)
    if transpose or dense.ndim <= 2:
        return _sparse_dense(mat, dense, transpose)
    # (..., K, N): K to the front, one product over the columns of every matrix, the rows back to -2
    out = _sparse_dense(mat, fnp.moveaxis(dense, -2, 0), transpose=False)
    return fnp.moveaxis(out, 0, -2)


def _sparse_dense(mat, dense, transpose):
    """``mat @ dense`` contracting dense's FIRST axis (transpose=False; its other axes follow, as
    dot_general orders them), or ``dense @ mat`` contracting its last (transpose=True); mat 2-d."""
    if mat.ndim != 2:
        raise ValueError(f"sparse @ dense needs a 2-d sparse matrix, got shape {mat.shape}")
    if dense.ndim == 0:
        raise ValueError("matmul: a 0-d operand cannot be multiplied (use *)")
    rows, cols = mat.indices[:, 0], mat.indices[:, 1]
    m, k = mat.shape
    if transpose:  # x @ A = (A^T @ x^T)^T over x's last axis
        if dense.shape[-1] != m:
            raise ValueError(f"matmul: dense operand of shape {dense.shape} cannot multiply a sparse matrix of "
                             f"shape {mat.shape} (its last axis must be {m})")
        lead = dense.shape[:-1]
        flat = fnp.reshape(dense, (_prod(lead), m)).T if dense.ndim > 1 else dense
        out = coo_matmul(mat.data, cols, rows, flat, (k, m))
        return fnp.reshape(out.T, lead + (k,)) if dense.ndim > 1 else out
    if dense.shape[0] != k:
        raise ValueError(f"matmul: sparse matrix of shape {mat.shape} cannot multiply a dense operand of shape "
                         f"{dense.shape} (its first axis must be {k})")
    rest = dense.shape[1:]
    flat = fnp.reshape(dense, (k, _prod(rest))) if dense.ndim > 2 else dense
    out = coo_matmul(mat.data, rows, cols, flat, (m, k))
    return fnp.reshape(out, (m,) + rest) if dense.ndim > 2 else out


def _prod(dims):
    return int(np.prod(dims, dtype=np.int64))


def bcoo_dot_general(lhs, rhs, *, dimension_numbers):
    """JAX's ``bcoo_dot_general`` for a 2-d sparse operand and a dense one: one contracting
    dimension each, no batch dimensions (vmap supplies batching)."""
    (lc, rc), (lb, rb) = dimension_numbers
    if tuple(lb) or tuple(rb) or len(tuple(lc)) != 1 or len(tuple(rc)) != 1:
        raise NotImplementedError(f"bcoo_dot_general: only one contracting dimension and no batch dimensions "
                                  f"are supported (got {dimension_numbers}); use vmap for batches")
    (lc,), (rc,) = lc, rc
    if isinstance(lhs, BCOO):
        a = lhs if lc % 2 == 1 else lhs.T
        x = fnp.moveaxis(fnp.asarray(rhs), rc, 0)
        return _sparse_dense(a, x, transpose=False)
    a = rhs if rc % 2 == 0 else rhs.T
    x = fnp.moveaxis(fnp.asarray(lhs), lc, -1)
    return _sparse_dense(a, x, transpose=True)


fromdense = bcoo_fromdense
todense = bcoo_todense

from ._grad import grad, value_and_grad  # noqa: E402
from .sparsify import sparsify  # noqa: E402  (uses the functions above)
from ..transforms import vmap
