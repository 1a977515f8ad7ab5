"""SparseTensor: PyTorch's sparse COO and CSR tensors over funcgrad's dense Tensors.

A sparse tensor is a 2-d (or n-d, COO) array of ``size`` whose stored entries
are ``_vals[e]`` (a dense 1-d Tensor, which carries the autograd history) at
coordinates ``_idx[:, e]`` (an int64 Tensor (ndim, nnz)); a CSR tensor also
keeps its row pointers and column indices.  It is a :class:`Tensor` subclass
(``isinstance(t, torch.Tensor)`` holds, as in PyTorch), but it has no dense
buffer: any operation without a sparse implementation reaches its ``_value`` and
raises ``NotImplementedError`` (PyTorch's class for "Could not run ... with
arguments from the 'SparseCPU' backend"), saying what is supported.

Gradients: the stored values are a dense Tensor, so products and reductions
that use them (funcgrad.primitives.sparse.coo_matmul, scatters, gathers) send
gradients to them, and from there to the ``values`` given to
``sparse_coo_tensor``; for a sparse leaf (``requires_grad=True``) ``.grad`` is a
sparse tensor of the same pattern.
"""

from __future__ import annotations

import numpy as np

from ..tensor import Size, Tensor

__all__ = ["SparseTensor", "sparse_coo", "sparse_csr", "SUPPORTED"]

from ..layouts import sparse_coo, sparse_csr  # noqa: E402

SUPPORTED = ("to_dense, indices/values (coalesced), _indices/_values, coalesce, is_coalesced, t/transpose, "
             "crow_indices/col_indices (CSR), torch.sparse.mm/torch.spmm/torch.mm/matmul/@ with a dense matrix, "
             "torch.sparse.sum and sum(), torch.sparse.softmax/log_softmax, * and / by a scalar, clone, detach, "
             "to(dtype)")


class SparseTensor(Tensor):
    """A sparse COO (``layout == torch.sparse_coo``) or CSR (``torch.sparse_csr``) tensor."""

    __array_priority__ = 2000

    def __new__(cls, *args, **kwargs):
        raise TypeError("create sparse tensors with torch.sparse_coo_tensor, torch.sparse_csr_tensor or "
                        "dense.to_sparse()")

    @classmethod
    def _make(cls, idx, vals, size, layout=sparse_coo, coalesced=False, crow=None):
        """``idx`` int64 Tensor (ndim, nnz), ``vals`` Tensor (nnz,), ``size`` tuple of ints."""
        t = object.__new__(cls)
        d = t.__dict__
        d["_idx"], d["_vals"], d["_size"] = idx, vals, Size(int(s) for s in size)
        d["_layout"], d["_coalesced"], d["_crow"] = layout, bool(coalesced), crow
        return t

    # --- no dense buffer ----------------------------------------------------------------------
    @property
    def _value(self):
        raise NotImplementedError(
            f"Could not run this operation with arguments from the 'SparseCPU' backend: funcgrad.compat "
            f"implements on sparse tensors ({self._layout}) only {SUPPORTED}; convert with .to_dense() first")

    # --- metadata -----------------------------------------------------------------------------
    @property
    def shape(self):
        return self._size

    def size(self, dim=None):
        return self._size if dim is None else self._size[dim]

    @property
    def dtype(self):
        return self._vals.dtype

    @property
    def device(self):
        return self._vals.device

    @property
    def ndim(self):
        return len(self._size)

    def dim(self):
        return len(self._size)

    def numel(self):
        return int(np.prod(self._size, dtype=np.int64))

    def __len__(self):
        if not self._size:
            raise TypeError("len() of a 0-d tensor")
        return self._size[0]

    @property
    def layout(self):
        return self._layout

    @property
    def is_sparse(self):
        return self._layout == sparse_coo

    @property
    def is_sparse_csr(self):
        return self._layout == sparse_csr

    def is_floating_point(self):
        return self._vals.is_floating_point()

    def is_complex(self):
        return self._vals.is_complex()

    def element_size(self):
        return self._vals.element_size()

    def is_contiguous(self, memory_format=None):
        raise RuntimeError(f"is_contiguous: tensors with layout {self._layout} do not have is_contiguous")

    def sparse_dim(self):
        return len(self._size)

    def dense_dim(self):
        return 0

    def _nnz(self):
        return int(self._vals.shape[0])

    # --- autograd: the stored values carry it ----------------------------------------------------
    @property
    def requires_grad(self):
        return self._vals.requires_grad

    @requires_grad.setter
    def requires_grad(self, flag):
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad=True):
        self._vals.requires_grad_(requires_grad)
        return self

    @property
    def grad_fn(self):
        return self._vals.grad_fn

    @property
    def is_leaf(self):
        return self._vals.is_leaf

    @property
    def grad(self):
        g = self._vals.grad
        if g is None:
            return None
        return SparseTensor._make(self._idx, g, self._size, self._layout, self._coalesced, self._crow)

    @grad.setter
    def grad(self, value):
        if value is not None:
            raise RuntimeError("funcgrad.compat: assigning .grad of a sparse tensor is not supported (only None)")
        self._vals.grad = None

    def detach(self):
        return SparseTensor._make(self._idx, self._vals.detach(), self._size, self._layout, self._coalesced,
                                  self._crow)

    def backward(self, *args, **kwargs):
        raise RuntimeError("backward of a sparse tensor: reduce it to a dense scalar first "
                           "(torch.sparse.sum(t) or t.to_dense().sum())")

    # --- parts -----------------------------------------------------------------------------------
    def _coo_only(self, what):
        if self._layout != sparse_coo:
            raise RuntimeError(f"{what} expected sparse coordinate tensor layout but got {_layout_name(self)}")

    def _indices(self):
        self._coo_only("_indices")
        return self._idx

    def _values(self):
        return self._vals

    def indices(self):
        self._coo_only("indices")
        if not self._coalesced:
            raise RuntimeError("Cannot get indices on an uncoalesced tensor, please call .coalesce() first")
        return self._idx

    def values(self):
        if self._layout == sparse_coo and not self._coalesced:
            raise RuntimeError("Cannot get values on an uncoalesced tensor, please call .coalesce() first")
        return self._vals

    def crow_indices(self):
        if self._layout != sparse_csr:
            raise RuntimeError(f"crow_indices expected sparse row compressed tensor layout but got "
                               f"{_layout_name(self)}")
        return self._crow

    def col_indices(self):
        if self._layout != sparse_csr:
            raise RuntimeError(f"col_indices expected sparse row compressed tensor layout but got "
                               f"{_layout_name(self)}")
        return self._idx[1]

    def is_coalesced(self):
        self._coo_only("is_coalesced")
        return self._coalesced

    def coalesce(self):
        from .ops import coalesce  # noqa: PLC0415

        self._coo_only("coalesce")
        return coalesce(self)

    def to_dense(self, dtype=None, *, masked_grad=None):
        from .ops import to_dense  # noqa: PLC0415

        out = to_dense(self)
        return out if dtype is None else out.to(dtype)

    def to_sparse(self, *args, layout=None, **kwargs):
        from .ops import to_layout  # noqa: PLC0415

        return to_layout(self, layout or sparse_coo)

    def to_sparse_coo(self):
        return self.to_sparse()

    def to_sparse_csr(self, dense_dim=None):
        from .ops import to_layout  # noqa: PLC0415

        return to_layout(self, sparse_csr)

    # --- shape and arithmetic --------------------------------------------------------------------
    def t(self):
        if self.dim() != 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 sparse and 0 dense dimensions, but got "
                               f"{self.dim()} sparse and 0 dense dimensions")
        return self.transpose(0, 1)

    def transpose(self, dim0, dim1):
        if self._layout != sparse_coo:
            raise NotImplementedError("funcgrad.compat: transposing a CSR tensor (a sparse_csc result) is not "
                                      "supported; use .to_sparse_coo().t()")
        perm = list(range(self.dim()))
        d0, d1 = dim0 % self.dim(), dim1 % self.dim()
        perm[d0], perm[d1] = perm[d1], perm[d0]
        return SparseTensor._make(self._idx[perm], self._vals, [self._size[p] for p in perm])

    def _scaled(self, vals):
        return SparseTensor._make(self._idx, vals, self._size, self._layout, self._coalesced, self._crow)

    def __mul__(self, other):
        if isinstance(other, (int, float, bool)) or (isinstance(other, Tensor) and not
                                                     isinstance(other, SparseTensor) and other.dim() == 0):
            return self._scaled(self._vals * other)
        raise NotImplementedError("funcgrad.compat: a sparse tensor multiplies only by a scalar or a 0-d tensor")

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, (int, float)) or (isinstance(other, Tensor) and not isinstance(other, SparseTensor)
                                               and other.dim() == 0):
            return self._scaled(self._vals / other)
        raise NotImplementedError("funcgrad.compat: a sparse tensor divides only by a scalar or a 0-d tensor")

    def sum(self, dim=None, keepdim=False, dtype=None):
        if keepdim:
            raise NotImplementedError("funcgrad.compat: sum(keepdim=True) of a sparse tensor is not supported")
        from .ops import sparse_sum  # noqa: PLC0415

        return sparse_sum(self, dim, dtype)

    def clone(self, *, memory_format=None):
        return self._scaled(self._vals.clone())

    def __neg__(self):
        return self._scaled(-self._vals)

    def to(self, *args, **kwargs):
        return self._scaled(self._vals.to(*args, **kwargs))

    def float(self):
        return self._scaled(self._vals.float())

    def double(self):
        return self._scaled(self._vals.double())

    def cpu(self):
        return self._scaled(self._vals.cpu())

    def mm(self, mat2):
        from .ops import sparse_dense_mm  # noqa: PLC0415

        return sparse_dense_mm(self, mat2, "mm")

    def matmul(self, other):
        from .ops import sparse_dense_mm  # noqa: PLC0415

        return sparse_dense_mm(self, other, "matmul")

    __matmul__ = matmul

    def __rmatmul__(self, other):
        from .ops import dense_sparse_mm  # noqa: PLC0415

        return dense_sparse_mm(other, self)

    def __repr__(self):
        if self._layout == sparse_csr:
            parts = f"crow_indices={self._crow!r},\n       col_indices={self._idx[1]!r},\n       "
        else:
            parts = f"indices={self._idx!r},\n       "
        grad = "" if self.grad_fn is None else f", grad_fn=<{self.grad_fn.name()}>"
        return (f"tensor({parts}values={self._vals.detach()!r},\n       size={tuple(self._size)}, "
                f"nnz={self._nnz()}, layout={self._layout}{grad})")

    __str__ = __repr__


def _layout_name(t):
    return t.layout if isinstance(t, SparseTensor) else "Strided"

