"""torch.nn.functional on compat Tensors: funcgrad.nn.functional's math with PyTorch's signatures.

Compat Tensors are tracers of the level-0 trace, so every function of
funcgrad.nn.functional runs on them directly and records autograd nodes; this
module adds what the stateful API needs: dim-based signatures (``softmax``'s
implicit-dim rule), the compat random generator for dropout, in-place
``batch_norm`` running statistics, legacy ``size_average``/``reduce``
arguments, and PyTorch's warnings.
"""

from __future__ import annotations

import functools
import warnings

from ...nn import functional as _F
from ...nn._activations import check_dropout_p
from ...nn.functional import (  # noqa: F401
    adaptive_avg_pool1d, adaptive_avg_pool2d, gelu, group_norm, layer_norm, log_sigmoid,
    smooth_l1_loss as _smooth_l1, softplus,
)
from .. import _validate
from . import functional_checked as _checked
from .functional_checked import (  # noqa: F401
    avg_pool1d, avg_pool2d, conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, huber_loss, linear, one_hot,
)
from ..autograd.grad_mode import no_grad
from .upsampling import interpolate, upsample  # noqa: F401
from .attention import scaled_dot_product_attention  # noqa: F401
from .padding import pad  # noqa: F401

__all__ = [
    "adaptive_avg_pool1d", "adaptive_avg_pool2d", "avg_pool1d", "avg_pool2d", "conv1d", "conv2d", "conv3d",
    "conv_transpose1d", "conv_transpose2d", "elu", "gelu", "group_norm", "hardtanh", "huber_loss", "layer_norm",
    "leaky_relu", "linear", "log_sigmoid", "relu6", "silu", "softplus", "relu", "sigmoid", "tanh", "softmax",
    "log_softmax", "softmin", "dropout", "embedding", "one_hot", "batch_norm", "max_pool1d", "max_pool2d",
    "mse_loss", "l1_loss", "smooth_l1_loss", "cross_entropy", "nll_loss", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "kl_div", "normalize", "pad", "logsigmoid", "relu_", "pairwise_distance",
    "cosine_similarity", "dropout1d", "dropout2d", "prelu", "instance_norm", "leaky_relu_", "elu_", "hardtanh_",
    "pixel_shuffle", "pixel_unshuffle", "interpolate", "upsample", "scaled_dot_product_attention",
]


def relu(input, inplace=False):
    if inplace:
        return input.relu_()
    return _F.relu(input)


def relu_(input):
    return input.relu_()


def _written(input, out, inplace):
    """``out``, or (``inplace``) ``out`` written into ``input`` (its history rebased, as PyTorch's ``op_``)."""
    return input.copy_(out) if inplace else out


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _written(input, _F.leaky_relu(input, negative_slope), inplace)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, True)


def elu(input, alpha=1.0, inplace=False):
    return _written(input, _F.elu(input, alpha), inplace)


def elu_(input, alpha=1.0):
    return elu(input, alpha, True)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    return _written(input, _F.hardtanh(input, min_val, max_val), inplace)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, True)


def relu6(input, inplace=False):
    return _written(input, _F.relu6(input), inplace)


def silu(input, inplace=False):
    # x * sigmoid(x) keeps x for backward: in place it works on a copy, as PyTorch's silu_ saves the original
    return _written(input, _F.silu(input.clone() if inplace else input), inplace)


def sigmoid(input):
    return _F.sigmoid(input)


def tanh(input):
    return _F.tanh(input)


logsigmoid = log_sigmoid


def _softmax_dim(name, ndim, stacklevel=3):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
                  "dim=X as an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def _with_dtype(x, dtype):
    return x if dtype is None else x.to(dtype)


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """softmax along ``dim``; without ``dim``: 0 for 0/1/3-d input, else 1 (with a warning)."""
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    return _checked.softmax_of(_F.softmax, "softmax", _with_dtype(input, dtype), dim)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmin", input.dim(), _stacklevel)
    return _checked.softmax_of(_F.softmax, "softmin", -_with_dtype(input, dtype), dim)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    return _checked.softmax_of(_F.log_softmax, "log_softmax", _with_dtype(input, dtype), dim)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero elements with probability ``p`` (compat generator: ``torch.manual_seed``), scale by 1/(1-p)."""
    check_dropout_p(p)
    if not training or p == 0.0:
        return input
    from ..creation import rand  # noqa: PLC0415

    if p == 1.0:
        out = input * 0.0
    else:
        keep = rand(tuple(input.shape), dtype=input.dtype, device=input.device) >= p
        out = input * keep * (1.0 / (1.0 - p))
    return _written(input, out, inplace)


def _channel_dropout(input, p, training, inplace, nd, name):
    check_dropout_p(p)  # in eval mode too, as PyTorch's dropout1d/2d/3d
    if input.dim() not in (nd + 1, nd + 2):
        raise ValueError(f"{name}: Expected {nd + 1}D or {nd + 2}D input, but received a {input.dim()}D input")
    if not training or p == 0.0:
        return input
    from ..creation import ones  # noqa: PLC0415

    lead = tuple(input.shape[:input.dim() - nd])
    mask = dropout(ones(lead + (1,) * nd, dtype=input.dtype, device=input.device), p)
    out = input * mask
    return _written(input, out, inplace)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, L) or (C, L) input with probability ``p``; scale the rest by 1/(1-p)."""
    return _channel_dropout(input, p, training, inplace, 1, "dropout1d")


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, H, W) input with probability ``p``; scale the rest by 1/(1-p).

    As PyTorch 2.x: any input of 2 or more dimensions is read as (N, C, *): a 3-D input is
    (N, C, L), not an unbatched (C, H, W) (with PyTorch's warning), and a 2-D (N, C) input
    (mnist_rnn's ``Dropout2d`` after an LSTM) drops single elements, with a deprecation warning
    (stacklevel 3: past the layout wrapper below, at the caller, as PyTorch's).
    """
    nd = input.dim()
    if nd < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if nd not in (3, 4):
        warnings.warn(f"dropout2d: Received a {nd}-D input to dropout2d, which is deprecated and will result in an "
                      "error in a future release. To retain the behavior and silence this warning, please use "
                      "dropout instead. Note that dropout2d exists to provide channel-wise dropout on inputs with "
                      "2 spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D "
                      "inputs).", stacklevel=3)
    if nd == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
                      "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior "
                      "will change in a future release to interpret the input as one without a batch dimension, i.e. "
                      "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using "
                      "dropout1d instead.", stacklevel=3)
    return _channel_dropout(input, p, training, inplace, nd - 2, "dropout2d")


def pixel_shuffle(input, upscale_factor):
    """(*, C r^2, H, W) -> (*, C, H r, W r): sub-pixel convolution's rearrangement (a view and a permute)."""
    r = int(upscale_factor)
    if input.dim() < 3 or input.shape[-3] % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's channel dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={input.shape[-3] if input.dim() >= 3 else None} "
                           f"is not divisible by {r * r}")
    *lead, c, h, w = input.shape
    n = len(lead)
    x = input.reshape(*lead, c // (r * r), r, r, h, w)
    x = x.permute(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return x.reshape(*lead, c // (r * r), h * r, w * r)


def pixel_unshuffle(input, downscale_factor):
    """(*, C, H r, W r) -> (*, C r^2, H, W): the inverse of ``pixel_shuffle``."""
    r = int(downscale_factor)
    if input.dim() < 3 or input.shape[-1] % r or input.shape[-2] % r:
        raise RuntimeError(f"pixel_unshuffle expects height and width to be divisible by downscale_factor {r}, "
                           f"got shape {tuple(input.shape)}")
    *lead, c, h, w = input.shape
    n = len(lead)
    x = input.reshape(*lead, c, h // r, r, w // r, r)
    x = x.permute(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return x.reshape(*lead, c * r * r, h // r, w // r)


def prelu(input, weight):
    """max(0, x) + weight * min(0, x); a weight of C elements applies per channel (dim 1)."""
    if weight.numel() > 1:
        weight = weight.view((-1,) + (1,) * max(input.dim() - 2, 0))
    return relu(input) - weight * relu(-input)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    if max_norm is not None or sparse:
        raise ValueError("embedding: max_norm and sparse=True are not supported by funcgrad.compat")
    _checked.embedding_checks(input, weight)
    return _F.embedding(input, weight, padding_idx)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """Batch normalization; in training the running statistics are updated in place (as PyTorch)."""
    if training and input.numel() // max(input.shape[1], 1) <= 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {input.shape}")
    y, new_mean, new_var = _F.batch_norm(input, running_mean, running_var, weight, bias, training,
                                         momentum if momentum is not None else 0.0, eps)
    if training and running_mean is not None and momentum is not None:
        with no_grad():
            running_mean.copy_(new_mean)
            running_var.copy_(new_var)
    return y


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """Instance normalization; with running statistics and use_input_stats they are updated in place."""
    y, new_mean, new_var = _F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                                            momentum, eps)
    if use_input_stats and running_mean is not None:
        with no_grad():
            running_mean.copy_(new_mean)
            running_var.copy_(new_var)
    return y


def _max_pool(fn, nd, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices):
    """``fn``'s pooled values; with ``return_indices`` also each window's argmax (see unpool.py)."""
    _checked.pool_window(f"max_pool{nd}d", nd, kernel_size, stride, padding, dilation)
    out = fn(input, kernel_size, stride, padding, dilation, ceil_mode)
    if not return_indices:
        return out
    from .unpool import max_pool_indices  # noqa: PLC0415

    return out, max_pool_indices(input, out, kernel_size, stride, padding, dilation, nd)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return _max_pool(_F.max_pool1d, 1, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return _max_pool(_F.max_pool2d, 2, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def legacy_reduction(size_average, reduce, reduction):
    """PyTorch's mapping of the deprecated ``size_average``/``reduce`` flags to ``reduction``."""
    if size_average is None and reduce is None:
        return reduction
    warnings.warn("size_average and reduce args will be deprecated, please use reduction='{}' instead.".format(
        "none" if reduce is False else ("sum" if size_average is False else "mean")), UserWarning, stacklevel=3)
    if reduce is False:
        return "none"
    return "sum" if size_average is False else "mean"


def _check_size(input, target):
    if tuple(target.shape) != tuple(input.shape):
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.", UserWarning, stacklevel=3)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    _check_size(input, target)
    return _F.mse_loss(input, target, legacy_reduction(size_average, reduce, reduction))


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _check_size(input, target)
    return _F.l1_loss(input, target, legacy_reduction(size_average, reduce, reduction))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    _check_size(input, target)
    return _smooth_l1(input, target, legacy_reduction(size_average, reduce, reduction), beta)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    _checked.cross_entropy_checks(input, target, weight, ignore_index)
    return _F.cross_entropy(input, target, weight, ignore_index, legacy_reduction(size_average, reduce, reduction),
                            label_smoothing)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    _checked.nll_loss_checks(input, target, weight, ignore_index)
    return _F.nll_loss(input, target, weight, ignore_index, legacy_reduction(size_average, reduce, reduction))


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size "
                         f"({input.shape}) is deprecated. Please ensure they have the same size.")
    _checked.binary_cross_entropy_checks(input, target)
    return _F.binary_cross_entropy(input, target, weight, legacy_reduction(size_average, reduce, reduction))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    return _F.binary_cross_entropy_with_logits(input, target, weight,
                                               legacy_reduction(size_average, reduce, reduction), pos_weight)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                      UserWarning, stacklevel=2)
    return _F.kl_div(input, target, legacy_reduction(size_average, reduce, reduction), log_target)


def normalize(input, p=2.0, dim=1, eps=1e-12):
    n = input.norm(p, dim, keepdim=True).clamp_min(eps)
    return input / n


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    return (x1 - x2 + eps).norm(p, -1, keepdim=keepdim)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    n = (x1.norm(2, dim) * x2.norm(2, dim)).clamp_min(eps)
    return (x1 * x2).sum(dim) / n


from . import activation as _activation, conv as _conv_layers, distance as _distance, dropout as _dropout  # noqa: E402
from . import linear as _linear, loss as _loss, normalization as _normalization, pooling as _pooling  # noqa: E402
from . import shape_layers as _shape_layers, sparse as _sparse, upsampling as _upsampling  # noqa: E402
from . import grid_sample as _grid_sample, unpool as _unpool  # noqa: E402
from .ctc import ctc_loss  # noqa: E402
from .grid_sample import GRID_SAMPLE_INTERPOLATION_MODES, GRID_SAMPLE_PADDING_MODES  # noqa: E402,F401

# the functional forms the layer modules define next to their layers (each module's FUNCTIONS)
_DEFINED_BESIDE_LAYERS = [(m, n) for m in (_activation, _loss, _linear, _conv_layers, _pooling, _normalization,
                                           _dropout, _sparse, _distance, _shape_layers, _upsampling, _grid_sample,
                                           _unpool)
                          for n in m.FUNCTIONS]
globals().update({n: getattr(m, n) for m, n in _DEFINED_BESIDE_LAYERS})
__all__ += [n for _, n in _DEFINED_BESIDE_LAYERS] + ["ctc_loss"]


# PyTorch's functional ops return freshly laid-out (C-contiguous) tensors; funcgrad's
# composite layers may end in a view of an internal buffer (a transposed matmul result),
# which compat keeps as a view rather than copying every intermediate. One copy at the
# boundary, only when needed, restores PyTorch's layout (so ``out.view(n, -1)`` works).
# The same boundary gives funcgrad's ValueErrors PyTorch's class (OpError: RuntimeError and ValueError).
def _contiguous_result(fn):
    from ..tensor import Tensor  # noqa: PLC0415

    def lay_out(x):
        return x.contiguous() if isinstance(x, Tensor) else x

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            out = fn(*args, **kwargs)
        except ValueError as e:
            if type(e) is not ValueError:
                raise
            raise _validate.op_error(e) from e
        return tuple(lay_out(o) for o in out) if type(out) is tuple else lay_out(out)

    return wrapper


for _name in __all__:
    if not _name.endswith("_"):  # in-place variants return their input
        globals()[_name] = _contiguous_result(globals()[_name])
del _name
