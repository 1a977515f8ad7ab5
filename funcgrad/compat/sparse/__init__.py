"""torch.sparse, and the sparse parts of torch and Tensor (docs/sparse.md).

``torch.sparse_coo_tensor``, ``torch.sparse_csr_tensor``, ``Tensor.to_sparse()`` /
``to_sparse_csr()`` make :class:`~funcgrad.compat.sparse.tensor.SparseTensor`\\ s;
``torch.sparse.mm``, ``torch.spmm``, ``torch.mm``, ``torch.matmul`` and ``@`` with a
sparse operand bind funcgrad's ``coo_matmul`` primitive (scipy.sparse on the cpu,
cupyx.scipy.sparse on cuda); ``torch.sparse.sum`` / ``softmax`` / ``log_softmax``
combine the stored values with differentiable operations.  The dense ``mm`` /
``matmul`` / ``spmm`` entry points are wrapped once here (a type check) so that a
sparse argument reaches the sparse product.
"""

from __future__ import annotations

from .._dispatch import FUNCS, METHODS
from .ops import (
    dense_sparse_mm, dense_to_sparse, sparse_coo_tensor, sparse_csr_tensor, sparse_dense_mm,
    sparse_softmax, sparse_sum,
)
from .tensor import SparseTensor, sparse_coo, sparse_csr

__all__ = ["mm", "sum", "softmax", "log_softmax", "addmm", "spmm", "sparse_coo_tensor", "sparse_csr_tensor",
           "sparse_coo", "sparse_csr", "SparseTensor", "check_sparse_tensor_invariants"]


def mm(mat1, mat2, reduce="sum"):
    """torch.sparse.mm: sparse @ dense (or dense @ sparse), a dense result; gradients to both operands."""
    if reduce != "sum":
        raise NotImplementedError(f"torch.sparse.mm: reduce={reduce!r} is not supported (only 'sum')")
    if isinstance(mat1, SparseTensor):
        return sparse_dense_mm(mat1, mat2, "mm")
    if isinstance(mat2, SparseTensor):
        return dense_sparse_mm(mat1, mat2)
    return _DENSE["mm"](mat1, mat2)


def addmm(mat, mat1, mat2, *, beta=1.0, alpha=1.0):
    """torch.sparse.addmm: ``beta * mat + alpha * (mat1 @ mat2)`` with a sparse ``mat1``."""
    return beta * mat + alpha * mm(mat1, mat2)


def sum(input, dim=None, dtype=None):  # noqa: A001  (torch.sparse.sum)
    return sparse_sum(input, dim, dtype)


def softmax(input, dim, *, dtype=None):
    return sparse_softmax(input, dim, dtype)


def log_softmax(input, dim, *, dtype=None):
    return sparse_softmax(input, dim, dtype, log=True)


def spmm(input, mat2):
    """torch.spmm: sparse (or dense) matrix times dense matrix."""
    return mm(input, mat2)


class check_sparse_tensor_invariants:  # noqa: N801  (torch.sparse.check_sparse_tensor_invariants)
    """Accepted for compatibility: funcgrad.compat always checks indices against the size."""

    def __init__(self, enable=True):
        self.enable = enable

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, fn):
        return fn

    @staticmethod
    def is_enabled():
        return True

    @staticmethod
    def enable():
        pass

    @staticmethod
    def disable():
        pass


# --- torch.* and Tensor.* entries ----------------------------------------------------------------

_DENSE = {name: FUNCS[name] for name in ("mm", "matmul")}


def _route(name):
    """FUNCS[name] that sends a sparse operand to the sparse product (one type check otherwise)."""
    dense = _DENSE[name]

    def routed(input, other, *args, **kwargs):
        if type(input) is SparseTensor:
            return sparse_dense_mm(input, other, name)
        if type(other) is SparseTensor:
            return dense_sparse_mm(input, other)
        return dense(input, other, *args, **kwargs)

    routed.__name__ = routed.__qualname__ = name
    routed.__doc__ = dense.__doc__
    return routed


for _name in ("mm", "matmul"):
    FUNCS[_name] = METHODS[_name] = _route(_name)
FUNCS["spmm"] = spmm
FUNCS["sparse_coo_tensor"] = sparse_coo_tensor
FUNCS["sparse_csr_tensor"] = sparse_csr_tensor
METHODS["to_sparse"] = dense_to_sparse
METHODS["to_sparse_coo"] = dense_to_sparse
METHODS["to_sparse_csr"] = lambda self, dense_dim=None: dense_to_sparse(self, layout=sparse_csr)
METHODS["to_dense"] = lambda self, dtype=None, *, masked_grad=None: self if dtype is None else self.to(dtype)
METHODS["coalesce"] = lambda self: _dense_only("coalesce", self)
METHODS["is_coalesced"] = lambda self: _dense_only("is_coalesced", self)
METHODS["indices"] = lambda self: _dense_only("indices", self)
METHODS["values"] = lambda self: _dense_only("values", self)
METHODS["_nnz"] = lambda self: _dense_only("_nnz", self)
METHODS["crow_indices"] = lambda self: _dense_only("crow_indices", self, "sparse row compressed")
METHODS["col_indices"] = lambda self: _dense_only("col_indices", self, "sparse row compressed")


def _dense_only(name, t, kind="sparse coordinate"):
    raise RuntimeError(f"{name} expected {kind} tensor layout but got Strided")


