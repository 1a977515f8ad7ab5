"""Embedding and EmbeddingBag (and F.embedding_bag)."""

from __future__ import annotations

import numpy as np

from .. import creation as _c
from ..autograd.grad_mode import no_grad
from ..ops_shape import stack as _stack
from . import functional as F
from . import init
from ._construction import _factory
from .module import Module
from .parameter import Parameter

__all__ = ["Embedding", "EmbeddingBag"]
# the torch.nn.functional names defined here
FUNCTIONS = ["embedding_bag"]


class Embedding(Module):
    """A lookup table (num_embeddings, embedding_dim), initialised N(0, 1); the padding row is zero."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None, dtype=None):
        super().__init__()
        if max_norm is not None or sparse:
            raise ValueError("Embedding: max_norm and sparse=True are not supported by funcgrad.compat")
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx %= num_embeddings
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = Parameter(_c.empty((num_embeddings, embedding_dim), **_factory(device, dtype)),
                                    requires_grad=not _freeze)
            init.normal_(self.weight)
            if padding_idx is not None:
                with no_grad():
                    self.weight[padding_idx].fill_(0)
        else:
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None):
        rows, cols = embeddings.shape
        return cls(rows, cols, padding_idx, _weight=embeddings, _freeze=freeze)

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx)

    def extra_repr(self):
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        return s + (f", padding_idx={self.padding_idx}" if self.padding_idx is not None else "")


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """Sum, mean or max of the embeddings of each bag: rows of a 2-d ``input``, or the runs of a 1-d
    ``input`` that start at ``offsets``. Entries equal to ``padding_idx`` are left out (also of the
    count of a mean); an empty bag gives zeros."""
    if max_norm is not None or sparse:
        raise ValueError("embedding_bag: max_norm and sparse=True are not supported by funcgrad.compat")
    if mode not in ("sum", "mean", "max"):
        raise ValueError(f"mode has to be one of sum, mean or max, got {mode!r}")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  f"the Pytorch GitHub.")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             "fixed length sequences.")
        b, m = input.shape
        starts = np.arange(b) * m
        flat = input.reshape(-1)
        psw = None if per_sample_weights is None else per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None or offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor but got None" if offsets is None else
                             f"offsets has to be a 1D Tensor, got {offsets.dim()}D")
        starts = np.asarray(offsets.detach().cpu().numpy(), dtype=np.int64)
        if include_last_offset:
            starts = starts[:-1]
        if starts.size and (starts[0] != 0 or np.any(np.diff(starts) < 0) or starts[-1] > input.shape[0]):
            raise ValueError(f"offsets must start at 0 and be non-decreasing within the input's {input.shape[0]} "
                             f"entries, got {starts.tolist()}")
        flat, psw = input, per_sample_weights
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    ids = np.asarray(flat.detach().cpu().numpy(), dtype=np.int64)
    total, bags = ids.shape[0], starts.shape[0]
    bag_of = np.searchsorted(starts, np.arange(total), side="right") - 1  # which bag each entry is in
    keep = np.ones(total, bool) if padding_idx is None else ids != (padding_idx % weight.shape[0])
    rows = F.embedding(flat, weight)  # (total, D)
    if mode == "max":
        outs = []
        for j in range(bags):
            sel = np.nonzero((bag_of == j) & keep)[0]
            outs.append(rows[_c.tensor(sel, device=rows.device)].amax(0) if sel.size
                        else rows.new_zeros(weight.shape[1]))
        return _stack(outs) if outs else rows.new_zeros(0, weight.shape[1])
    member = np.zeros((bags, total), dtype=np.float64)
    member[bag_of[keep], np.nonzero(keep)[0]] = 1.0
    if mode == "mean":
        member /= np.maximum(member.sum(1, keepdims=True), 1.0)
    mat = _c.tensor(member, dtype=weight.dtype, device=weight.device)
    if psw is not None:
        rows = rows * psw.unsqueeze(-1)
    return mat.matmul(rows)


class EmbeddingBag(Module):
    """Bags of embeddings reduced by ``mode`` (``F.embedding_bag``); weight N(0, 1), padding row zero."""

    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode="mean", sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        if max_norm is not None or sparse:
            raise ValueError("EmbeddingBag: max_norm and sparse=True are not supported by funcgrad.compat")
        self.num_embeddings, self.embedding_dim, self.mode = num_embeddings, embedding_dim, mode
        self.include_last_offset = include_last_offset
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise AssertionError("padding_idx must be within num_embeddings")
            padding_idx %= num_embeddings
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = Parameter(_c.randn(num_embeddings, embedding_dim, **_factory(device, dtype)))
            if padding_idx is not None:
                from ..autograd.grad_mode import no_grad  # noqa: PLC0415

                with no_grad():
                    self.weight[padding_idx].fill_(0.0)
        else:
            self.weight = Parameter(_weight)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                        mode="mean", sparse=False, include_last_offset=False, padding_idx=None):
        bag = cls(*embeddings.shape, mode=mode, _weight=embeddings, include_last_offset=include_last_offset,
                  padding_idx=padding_idx)
        bag.weight.requires_grad = not freeze
        return bag

    def forward(self, input, offsets=None, per_sample_weights=None):
        return embedding_bag(input, self.weight, offsets, mode=self.mode, per_sample_weights=per_sample_weights,
                             include_last_offset=self.include_last_offset, padding_idx=self.padding_idx)

    def extra_repr(self):
        s = f"{self.num_embeddings}, {self.embedding_dim}, mode={self.mode!r}"
        return s + (f", padding_idx={self.padding_idx}" if self.padding_idx is not None else "")
