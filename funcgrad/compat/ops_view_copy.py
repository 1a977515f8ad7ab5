"""The ``*_copy`` forms of the view ops (``torch.permute_copy``, ``torch.select_copy``, ...: the view's
values in fresh storage), and ``diagonal_scatter`` / ``as_strided_scatter`` (input with the
diagonal / strided window replaced by ``src``, out of place, differentiable in both).
"""

from __future__ import annotations

from ._dispatch import FUNCS, METHODS, op
from .tensor import Tensor

__all__: list = []


def _copy_of(view_name):
    def f(input, *args, **kwargs):
        fn = FUNCS.get(view_name) or getattr(Tensor, view_name)
        out = fn(input, *args, **kwargs)
        return tuple(o.clone() for o in out) if isinstance(out, (tuple, list)) else out.clone()
    f.__name__ = view_name + "_copy"
    f.__doc__ = f"``{view_name}(...)``'s values in new storage."
    return f


for _n in ("as_strided", "detach", "diagonal", "expand", "permute", "select", "split", "split_with_sizes", "squeeze",
           "t", "transpose", "unbind", "unfold", "unsqueeze", "view", "view_as_real", "view_as_complex", "values",
           "indices", "crow_indices", "col_indices"):
    FUNCS.setdefault(_n + "_copy", _copy_of(_n))


@op("alias_copy", method=False)
def alias_copy(input):
    return input.clone()


@op("slice_copy", method=False)
def slice_copy(input, dim=0, start=None, end=None, step=1):
    idx = [slice(None)] * input.dim()
    idx[dim] = slice(start, end, step)
    return input[tuple(idx)].clone()


@op("diagonal_scatter")
def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    want = tuple(input.diagonal(offset, dim1, dim2).shape)
    if want != tuple(src.shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(want)}")
    out = input.clone()
    view = out.movedim((dim1, dim2), (-2, -1))  # a view: writes reach out
    n = want[-1]
    from .creation import arange  # noqa: PLC0415

    rows, cols = arange(n) + max(-offset, 0), arange(n) + max(offset, 0)
    view[..., rows, cols] = src.to(input.dtype)
    return out


@op("as_strided_scatter")
def as_strided_scatter(input, src, size, stride, storage_offset=None):
    out = input.contiguous().clone()
    view = out.as_strided(size, stride, storage_offset)
    if tuple(view.shape) != tuple(src.shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(view.shape)}")
    view.copy_(src)
    return out


_ = METHODS


@op("row_stack", method=False)
def row_stack(tensors, *, out=None):
    """Alias of vstack."""
    return FUNCS["vstack"](tensors)
