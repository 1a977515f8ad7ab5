"""Conv3d, MaxPool3d, AvgPool3d, AdaptiveAvgPool3d, BatchNorm3d, AdaptiveMaxPool1d/2d, Unfold/Fold,
CosineSimilarity, PairwiseDistance, ChannelShuffle, EmbeddingBag; with their functional forms."""

from __future__ import annotations

import numpy as np

from ...nn import functional as _F
from ...primitives.conv import fold as _fold_p, unfold as _unfold_p
from .. import creation as _c
from ..ops_shape import cat as _cat, stack as _stack
from . import functional as F
from .layers import AdaptiveAvgPool1d, _AvgPoolNd, _BatchNorm, _ConvNd, _factory, _MaxPoolNd, _ntuple
from .module import Module
from .parameter import Parameter

__all__ = ["Conv3d", "MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d", "BatchNorm3d", "AdaptiveMaxPool1d",
           "AdaptiveMaxPool2d", "Unfold", "Fold", "CosineSimilarity", "PairwiseDistance", "ChannelShuffle",
           "EmbeddingBag"]

FUNCTIONS = ["max_pool3d", "avg_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool1d", "adaptive_max_pool2d",
             "unfold", "fold", "channel_shuffle", "embedding_bag"]


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return F._max_pool(_F.max_pool3d, 3, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return _F.avg_pool3d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def adaptive_avg_pool3d(input, output_size):
    return _F.adaptive_avg_pool3d(input, output_size)


def _adaptive_max(input, output_size, nd, return_indices, fname):
    if return_indices:
        raise ValueError(f"{fname}: return_indices=True is not supported by funcgrad.compat")
    if input.dim() not in (nd + 1, nd + 2):
        raise ValueError(f"{fname}: expected a {nd + 1}-d or {nd + 2}-d input, got {tuple(input.shape)}")
    sizes = (output_size,) * nd if isinstance(output_size, int) or output_size is None else tuple(output_size)
    x = input
    for i, o in enumerate(sizes):  # max is separable: one axis at a time, one slice per output position
        d = input.dim() - nd + i
        s = x.shape[d]
        o = s if o is None else int(o)
        if o < 1 or s < 1:
            raise ValueError(f"{fname}: output_size {output_size} and input {tuple(input.shape)} must be positive")
        parts = [x.narrow(d, (j * s) // o, -(-((j + 1) * s) // o) - (j * s) // o).amax(dim=d, keepdim=True)
                 for j in range(o)]
        x = _cat(parts, d) if len(parts) > 1 else parts[0]
    return x


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """Max over PyTorch's adaptive windows [floor(i L / o), ceil((i + 1) L / o))."""
    return _adaptive_max(input, output_size, 1, return_indices, "adaptive_max_pool1d")


def adaptive_max_pool2d(input, output_size, return_indices=False):
    return _adaptive_max(input, output_size, 2, return_indices, "adaptive_max_pool2d")


def _fold_geometry(kernel_size, dilation, padding, stride):
    k, d, p, s = (_ntuple(v, 2) for v in (kernel_size, dilation, padding, stride))
    return k, d, tuple((q, q) for q in p), s


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C, H, W) -> (N, C kh kw, L): each column one sliding window (im2col), PyTorch's order."""
    if input.dim() not in (3, 4):
        raise NotImplementedError(f"Input Error: Only 3D or 4D input Tensors are supported (got {input.dim()}D)")
    batched = input.dim() == 4
    x = input if batched else input.unsqueeze(0)
    k, d, p, s = _fold_geometry(kernel_size, dilation, padding, stride)
    cols = _unfold_p(x, k, s, p, d)  # (N, C, oh, ow, kh, kw)
    n, c, oh, ow = cols.shape[:4]
    out = cols.permute(0, 1, 4, 5, 2, 3).reshape(n, c * k[0] * k[1], oh * ow)
    return out if batched else out.squeeze(0)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C kh kw, L) -> (N, C, H, W): sums the columns back into place (col2im; ``unfold``'s adjoint)."""
    if input.dim() not in (2, 3):
        raise NotImplementedError(f"Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported "
                                  f"(got {input.dim()}D)")
    batched = input.dim() == 3
    x = input if batched else input.unsqueeze(0)
    k, d, p, s = _fold_geometry(kernel_size, dilation, padding, stride)
    size = _ntuple(output_size, 2)
    blocks = [(sz + 2 * pp[0] - dd * (kk - 1) - 1) // ss + 1 for sz, pp, dd, kk, ss in zip(size, p, d, k, s)]
    n, ckk, L = x.shape
    if ckk % (k[0] * k[1]) or L != blocks[0] * blocks[1]:
        raise RuntimeError(f"fold: expected input of size (N, C * {k[0] * k[1]}, {blocks[0] * blocks[1]}) for "
                           f"output_size={size}, kernel_size={k}, got {tuple(input.shape)}")
    c = ckk // (k[0] * k[1])
    cols = x.reshape(n, c, k[0], k[1], blocks[0], blocks[1]).permute(0, 1, 4, 5, 2, 3)
    out = _fold_p(cols.contiguous(), size, k, s, p, d)
    return out if batched else out.squeeze(0)


def channel_shuffle(input, groups):
    """(N, g k, *) -> channels reordered as k groups of g (ShuffleNet)."""
    n, c = input.shape[:2]
    if c % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups.")
    rest = tuple(input.shape[2:])
    return input.reshape(n, groups, c // groups, *rest).transpose(1, 2).reshape(n, c, *rest)


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


class Conv3d(_ConvNd):
    """3-d convolution over (N, C, D, H, W) input."""

    _nd = 3

    def forward(self, input):
        return F.conv3d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class MaxPool3d(_MaxPoolNd):
    _nd = 3

    def forward(self, input):
        return max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                          self.return_indices)


class AvgPool3d(_AvgPoolNd):
    _nd = 3

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
        self.kernel_size, self.stride = kernel_size, stride if stride is not None else kernel_size
        self.padding = padding

    def forward(self, input):
        return avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                          self.count_include_pad, self.divisor_override)


class AdaptiveAvgPool3d(AdaptiveAvgPool1d):
    def forward(self, input):
        return adaptive_avg_pool3d(input, self.output_size)


class BatchNorm3d(_BatchNorm):
    """Batch normalization over (N, C, D, H, W) input."""

    _dims = (5,)


class AdaptiveMaxPool1d(Module):
    _fn = staticmethod(adaptive_max_pool1d)

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def forward(self, input):
        return type(self)._fn(input, self.output_size, self.return_indices)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveMaxPool2d(AdaptiveMaxPool1d):
    _fn = staticmethod(adaptive_max_pool2d)


class Unfold(Module):
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input):
        return unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")


class Fold(Unfold):
    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(kernel_size, dilation, padding, stride)
        self.output_size = output_size

    def forward(self, input):
        return fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return f"output_size={self.output_size}, " + super().extra_repr()


class CosineSimilarity(Module):
    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class ChannelShuffle(Module):
    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return channel_shuffle(input, self.groups)

    def extra_repr(self):
        return f"groups={self.groups}"


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
                from ..grad_mode import no_grad  # noqa: PLC0415

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

