"""Tensor metadata methods and the small structural ones: ``is_cpu``, ``is_signed``, ``is_conj``,
``is_neg``, ``itemsize``, ``nbytes``, ``get_device``, ``dim_order``, ``output_nr``, ``adjoint``,
``sum_to_size``, ``split_with_sizes``, ``unsafe_split``/``unsafe_chunk``, ``narrow_copy``,
``new_empty_strided``, ``resize``/``resize_as``, ``put_``/``put``, ``fill_diagonal_``,
``masked_scatter_``, and their torch.* forms.

compat tensors are never lazily conjugated or negated (``conj()`` computes), so ``is_conj`` and
``is_neg`` are False, as PyTorch's are after ``resolve_conj()`` / ``resolve_neg()``.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..backend import kind_of
from ._dispatch import FUNCS, METHODS, ints, method, op
from .tensor import Tensor, _dim

__all__: list = []

METHODS["is_cpu"] = property(lambda self: self.device.type == "cpu")
METHODS["itemsize"] = property(lambda self: int(self._value.dtype.itemsize))
METHODS["nbytes"] = property(lambda self: int(self._value.dtype.itemsize) * int(self._value.size))
METHODS["output_nr"] = property(lambda self: int(self._output_nr))
METHODS["is_sparse_csr"] = False


@op("is_signed")
def is_signed(input):
    return kind_of(input._value.dtype) in "ifc"


@op("is_conj")
def is_conj(input):
    return False


@op("is_neg")
def is_neg(input):
    return False


@op("is_distributed")
def is_distributed(input):
    return False


@op("is_same_size")
def is_same_size(input, other):
    return tuple(input.shape) == tuple(other.shape)


@op("get_device")
def get_device(input):
    """-1 for a CPU tensor, else the device index (as PyTorch)."""
    d = input.device
    return -1 if d.type == "cpu" else int(d.index or 0)


@method("dense_dim")
def dense_dim(self):
    return self._value.ndim


@method("sparse_dim")
def sparse_dim(self):
    return 0


@method("const_data_ptr")
def const_data_ptr(self):
    return self.data_ptr()


@method("dim_order")
def dim_order(self, *, ambiguity_check=False):
    """The dimensions from outermost to innermost in memory (stable: ties keep their order)."""
    st = self.stride()
    order = sorted(range(len(st)), key=lambda d: -st[d])
    if ambiguity_check and len(set(st)) != len(st):
        raise RuntimeError("The tensor does not have unique dim order, or cannot map to exact one of the given "
                           "memory formats.")
    return tuple(order)


@op("adjoint")
def adjoint(input):
    """The conjugate transpose of the last two dimensions (a view for real tensors)."""
    if input.dim() < 2:
        raise RuntimeError("tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor."
                           if input.dim() == 1 else "tensor.adjoint() is only supported on matrices or batches of "
                           "matrices. Got 0-D tensor.")
    t = input.transpose(-2, -1)
    return t.conj() if input.is_complex() else t


@method("sum_to_size")
def sum_to_size(self, *size):
    """Sum to ``size`` (which self must be expandable to), keeping dims."""
    shape = ints(size)
    if len(shape) > self.dim() or any(s not in (1, n) for s, n in zip(shape[::-1], tuple(self.shape)[::-1])):
        raise RuntimeError(f"size {{{list(shape)}}} is not expandable to size {{{list(self.shape)}}}.")
    lead = self.dim() - len(shape)
    out = self.sum(tuple(range(lead))) if lead else self
    dims = tuple(i for i, s in enumerate(shape) if s == 1 and out.shape[i] != 1)
    return out.sum(dims, keepdim=True) if dims else out


@op("split_with_sizes")
def split_with_sizes(input, split_sizes, dim=0):
    sizes = [int(s) for s in split_sizes]
    n = input.shape[_dim(dim, input.dim())]
    if sum(sizes) != n:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at "
                           f"dimension {dim}), but got split_sizes={sizes}")
    return FUNCS["split"](input, sizes, dim)


for _src, _dst in (("split", "unsafe_split"), ("chunk", "unsafe_chunk"), ("split_with_sizes", "unsafe_split_with_sizes")):
    FUNCS.setdefault(_dst, FUNCS[_src])
    METHODS.setdefault(_dst, FUNCS[_src])


@op("narrow_copy")
def narrow_copy(input, dim, start, length):
    return FUNCS["narrow"](input, dim, start, length).clone()


@method("new_empty_strided")
def new_empty_strided(self, size, stride, *, dtype=None, device=None, requires_grad=False, **kw):
    """A new contiguous tensor of ``size`` (compat tensors are numpy arrays: ``stride`` must be
    the contiguous one, else this says so)."""
    shape = tuple(int(s) for s in size)
    want = tuple(int(np.prod(shape[i + 1:], dtype=np.int64)) for i in range(len(shape)))
    if tuple(int(s) for s in stride) != want and 0 not in shape:
        raise NotImplementedError(f"new_empty_strided: only the contiguous strides {want} of size {shape} are "
                                  f"supported by funcgrad.compat, got {tuple(stride)}")
    return METHODS["new_empty"](self, shape, dtype=dtype, device=device, requires_grad=requires_grad)


@method("resize")
def resize(self, *sizes):
    warnings.warn("non-inplace resize is deprecated", UserWarning, stacklevel=2)
    return self.clone().resize_(*sizes)


@method("resize_as")
def resize_as(self, tensor):
    warnings.warn("non-inplace resize_as is deprecated", UserWarning, stacklevel=2)
    return self.clone().resize_(*tuple(tensor.shape))


def _flat_index(input, index):
    idx = index.long().reshape(-1)
    n = input.numel()
    if idx.numel() and (int(idx.max()) >= n or int(idx.min()) < -n):
        raise IndexError(f"out of range: tried to access index {int(idx.max()) if int(idx.max()) >= n else int(idx.min())}"
                         f" on a tensor of {n} elements.")
    return FUNCS["where"](idx < 0, idx + n, idx)


@op("put")
def put(input, index, source, accumulate=False):
    """Out of place: input viewed as 1-D, ``source`` written (or added) at ``index``."""
    flat = input.reshape(-1)
    idx = _flat_index(input, index)
    src = source.reshape(-1).to(input.dtype)
    out = flat.index_add(0, idx, src) if accumulate else flat.index_copy(0, idx, src)
    return out.reshape(tuple(input.shape))


@method("put_")
def put_(self, index, source, accumulate=False):
    return self.copy_(put(self, index, source, accumulate))


@method("fill_diagonal_")
def fill_diagonal_(self, fill_value, wrap=False):
    """Fill the main diagonal (all dims equal for ndim > 2; a tall matrix wraps every N+1 rows if ``wrap``)."""
    nd = self.dim()
    if nd < 2:
        raise RuntimeError("dimensions must larger than 1")
    if nd > 2 and len(set(self.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    shape = tuple(self.shape)
    step = sum(int(np.prod(shape[i + 1:], dtype=np.int64)) for i in range(nd))
    numel = int(np.prod(shape, dtype=np.int64))
    limit = numel if (wrap and nd == 2) else min(numel, min(shape) * step)
    flat = np.arange(0, limit, step, dtype=np.int64)
    from .creation import tensor  # noqa: PLC0415

    idx = tuple(tensor(i, device=self.device) for i in np.unravel_index(flat, shape))
    self[idx] = fill_value
    return self


@method("masked_scatter_")
def masked_scatter_(self, mask, source):
    return self.copy_(FUNCS["masked_scatter"](self, mask, source))


METHODS.setdefault("hardshrink", lambda self, lambd=0.5: _functional().hardshrink(self, lambd))
METHODS.setdefault("prelu", lambda self, weight: _functional().prelu(self, weight))


def _functional():
    from .nn import functional  # noqa: PLC0415

    return functional


_ = Tensor


FUNCS.setdefault("detach", lambda input: input.detach())
FUNCS.setdefault("detach_", lambda input: input.detach_())


@op("nonzero_static")
def nonzero_static(input, *, size, fill_value=-1):
    """``nonzero()`` padded with ``fill_value`` rows (or truncated) to exactly ``size`` rows."""
    nz = input.nonzero()
    n = int(size)
    if n < 0:
        raise RuntimeError(f"nonzero_static: 'size' must be an non-negative integer, got {n}")
    if nz.shape[0] >= n:
        return nz[:n].clone()
    from .creation import full  # noqa: PLC0415

    pad = full((n - nz.shape[0], input.dim()), fill_value, dtype=nz.dtype, device=input.device)
    return FUNCS["cat"]([nz, pad], 0)
