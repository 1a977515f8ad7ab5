"""torch.<name> forms of nn.functional ops, with ATen's signatures.

PyTorch exposes many functional ops at top level with their ATen schema rather than
nn.functional's: a positional ``train`` flag for dropout, an integer ``reduction``
(0 none, 1 mean, 2 sum) for losses, whose
default at top level is 0 (no reduction: ``torch.kl_div(a, b)`` is element-wise, as PyTorch's Python
binding has it, unlike ``F.kl_div``), ``embedding(weight, indices)`` with the weight first,
``batch_norm``/``instance_norm`` with every argument positional and a trailing
``cudnn_enabled`` (ignored: there is no cuDNN).  Each is a thin call of the
nn.functional function (itself calling funcgrad.nn where the numerics live).
"""

from __future__ import annotations

from ._dispatch import FUNCS, METHODS

__all__: list = []

_REDUCTION = {0: "none", 1: "mean", 2: "sum"}


def _F():
    from .nn import functional  # noqa: PLC0415

    return functional


def _red(reduction):
    if isinstance(reduction, str):
        return reduction
    if reduction not in _REDUCTION:
        raise RuntimeError(f"{reduction} is not a valid value for reduction")
    return _REDUCTION[reduction]


def _same(name, fname=None):
    """torch.<name> = F.<fname>, same signature."""
    def f(*args, **kwargs):
        return getattr(_F(), fname or name)(*args, **kwargs)
    f.__name__ = name
    f.__qualname__ = name
    FUNCS.setdefault(name, f)


for _n in ("adaptive_avg_pool1d", "avg_pool1d", "bilinear", "celu", "channel_shuffle", "conv1d", "conv2d", "conv3d",
           "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "cosine_similarity", "hardshrink",
           "max_pool1d", "max_pool2d", "max_pool3d", "pairwise_distance", "pdist", "pixel_shuffle", "pixel_unshuffle",
           "prelu", "rrelu", "selu", "threshold", "celu_", "selu_", "rrelu_", "threshold_"):
    _same(_n)
_same("max_pool1d_with_indices")
_same("native_channel_shuffle", "channel_shuffle")


def adaptive_max_pool1d(input, output_size):
    return _F().adaptive_max_pool1d(input, output_size, return_indices=True)


def _dropout(fname):
    def f(input, p, train):
        return getattr(_F(), fname)(input, p, train)

    def f_(input, p, train):
        return getattr(_F(), fname)(input, p, train, inplace=True)
    return f, f_


def _feature_dropout(input, p, train, inplace=False):
    """Channel dropout of (N, C, *) input: one draw per (sample, channel)."""
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    F = _F()
    if not train or p == 0.0:
        F.dropout(input[:0], p, False)  # checks p
        return input
    from .creation import ones  # noqa: PLC0415

    mask = F.dropout(ones(tuple(input.shape[:2]) + (1,) * (input.dim() - 2), dtype=input.dtype,
                          device=input.device), p)
    return input.mul_(mask) if inplace else input * mask


def feature_dropout(input, p, train):
    return _feature_dropout(input, p, train)


def feature_dropout_(input, p, train):
    return _feature_dropout(input, p, train, inplace=True)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled=True):
    return _F().batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                  cudnn_enabled=True):
    return _F().instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True):
    return _F().layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5, cudnn_enabled=True):
    return _F().group_norm(input, num_groups, weight, bias, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    return _F().rms_norm(input, normalized_shape, weight, eps)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """ATen's embedding: the weight first; padding_idx -1 means none (only the gradient is affected)."""
    return _F().embedding(indices, weight, None if padding_idx == -1 else padding_idx,
                          scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def constant_pad_nd(input, pad, value=0):
    return _F().pad(input, tuple(pad), "constant", value)


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    n = weight.dim() - 2
    if n not in (1, 2, 3):
        raise RuntimeError(f"convolution: expected a 3-D, 4-D or 5-D weight, got {weight.dim()}-D")
    F = _F()
    if transposed:
        return getattr(F, f"conv_transpose{n}d")(input, weight, bias, tuple(stride), tuple(padding),
                                                 tuple(output_padding), groups, tuple(dilation))
    return getattr(F, f"conv{n}d")(input, weight, bias, tuple(stride), tuple(padding), tuple(dilation), groups)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    return _F().binary_cross_entropy_with_logits(input, target, weight, reduction=_red(reduction),
                                                 pos_weight=pos_weight)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return _F().cosine_embedding_loss(input1, input2, target, margin, reduction=_red(reduction))


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    return _F().hinge_embedding_loss(input, target, margin, reduction=_red(reduction))


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    return _F().margin_ranking_loss(input1, input2, target, margin, reduction=_red(reduction))


def kl_div(input, target, reduction=0, *, log_target=False):
    return _F().kl_div(input, target, reduction=_red(reduction), log_target=log_target)


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return _F().poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=_red(reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-6, swap=False, reduction=0):
    return _F().triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction=_red(reduction))


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=0, zero_infinity=False):
    return _F().ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, _red(reduction), zero_infinity)


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    modes = ("bilinear", "nearest", "bicubic")
    pads = ("zeros", "border", "reflection")
    return _F().grid_sample(input, grid, modes[interpolation_mode], pads[padding_mode], align_corners)


def affine_grid_generator(theta, size, align_corners):
    return _F().affine_grid(theta, list(size), align_corners)


_dropout_fn, _dropout_fn_ = _dropout("dropout")
_alpha, _alpha_ = _dropout("alpha_dropout")
_feat_alpha, _feat_alpha_ = _dropout("feature_alpha_dropout")
for _name, _fn in {
    "dropout": _dropout_fn, "dropout_": _dropout_fn_, "alpha_dropout": _alpha, "alpha_dropout_": _alpha_,
    "feature_alpha_dropout": _feat_alpha, "feature_alpha_dropout_": _feat_alpha_,
    "feature_dropout": feature_dropout, "feature_dropout_": feature_dropout_,
    "adaptive_max_pool1d": adaptive_max_pool1d, "batch_norm": batch_norm, "instance_norm": instance_norm,
    "layer_norm": layer_norm, "group_norm": group_norm, "rms_norm": rms_norm, "embedding": embedding,
    "constant_pad_nd": constant_pad_nd, "convolution": convolution,
    "binary_cross_entropy_with_logits": binary_cross_entropy_with_logits,
    "cosine_embedding_loss": cosine_embedding_loss, "hinge_embedding_loss": hinge_embedding_loss,
    "margin_ranking_loss": margin_ranking_loss, "kl_div": kl_div, "poisson_nll_loss": poisson_nll_loss,
    "triplet_margin_loss": triplet_margin_loss, "ctc_loss": ctc_loss, "grid_sampler": grid_sampler,
    "affine_grid_generator": affine_grid_generator,
}.items():
    _fn.__name__ = _name
    FUNCS.setdefault(_name, _fn)

for _n in ("hardshrink", "prelu"):
    METHODS.setdefault(_n, FUNCS[_n])


def embedding_renorm_(weight, indices, max_norm, norm_type):
    """Rescale, in place, the rows of ``weight`` that ``indices`` names whose ``norm_type``-norm
    exceeds ``max_norm`` to norm ``max_norm`` (as nn.Embedding(max_norm=...) does, not recorded)."""
    from .autograd.grad_mode import no_grad  # noqa: PLC0415

    with no_grad():
        rows = indices.reshape(-1).unique()
        sel = weight[rows]
        norms = sel.norm(norm_type, 1, True)
        scale = FUNCS["where"](norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        weight[rows] = sel * scale
    return weight


FUNCS.setdefault("embedding_renorm_", embedding_renorm_)
