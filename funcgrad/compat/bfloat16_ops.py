"""bfloat16 in composite ops: computed in float32, rounded to bfloat16 once, as PyTorch's kernels do.

A PyTorch CPU kernel on bfloat16 tensors computes in float32 ("opmath") and rounds its result
once.  compat builds softmax, layer_norm, the losses, var/std, gelu... from several primitives,
each of which would round to bfloat16 (7 significant bits): log_softmax would be off by 6%.
So the ops named in :data:`OPMATH`, given a bfloat16 tensor, run on float32 copies of their
bfloat16 tensor arguments and round their float32 results back to bfloat16 (gradients flow
through both casts, so they are bfloat16 too).  Elementwise primitives need none of this:
ml_dtypes' numpy loops compute each element in float32 and round once already, and sums,
matmuls and linalg accumulate in float32 (``backend.in_float32``).

:func:`install` puts the wrappers at the ops' dispatch points (``FUNCS``, ``METHODS``,
``torch.nn.functional``) once, at import, before compat copies them onto ``torch`` and
``Tensor``.  For other dtypes a wrapper costs one scan of the arguments.
"""

from __future__ import annotations

import numpy as np

from ..backend import BFLOAT16
from ._dispatch import cast
from .op_wrappers import install_wrappers
from .tensor import TENSOR_TYPES

__all__ = ["OPMATH", "install"]

_F32 = np.dtype(np.float32)

OPMATH = (
    "softmax", "log_softmax", "softmin", "logsumexp", "layer_norm", "group_norm", "batch_norm", "instance_norm",
    "rms_norm", "local_response_norm", "normalize", "cross_entropy", "nll_loss", "mse_loss", "l1_loss",
    "smooth_l1_loss", "huber_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
    "poisson_nll_loss", "gaussian_nll_loss", "soft_margin_loss", "cosine_similarity", "pairwise_distance",
    "cosine_embedding_loss", "margin_ranking_loss", "triplet_margin_loss", "hinge_embedding_loss",
    "var", "std", "var_mean", "std_mean", "lerp", "gelu", "silu", "mish", "softplus", "logsigmoid", "elu", "selu",
    "celu", "hardswish", "hardsigmoid", "norm", "dist", "cdist", "addmm", "addmv", "baddbmm", "addbmm", "addcmul",
    "addcdiv", "cumprod", "logcumsumexp", "scaled_dot_product_attention",
)


def _is_bf16(a):
    return type(a) in TENSOR_TYPES and a._value.dtype == BFLOAT16


def _widen(a):
    if _is_bf16(a) or (type(a) in TENSOR_TYPES and a._value.dtype == np.float16):
        return cast(a, _F32)
    if type(a) in (list, tuple) and any(_is_bf16(x) for x in a):
        return type(a)(_widen(x) for x in a)
    return a


def _round(out):
    if type(out) in TENSOR_TYPES:
        return cast(out, BFLOAT16) if out._value.dtype == _F32 else out
    if isinstance(out, tuple):
        vals = [_round(o) for o in out]
        return type(out)(*vals) if hasattr(out, "_fields") else type(out)(vals)
    return out


def _other_float(a):
    """A float or complex tensor that is not bfloat16: the result is not bfloat16 then (promotion)."""
    return type(a) in TENSOR_TYPES and a._value.dtype != BFLOAT16 and a._value.dtype.kind in "fc"


# normalizations whose result has the input's dtype whatever the weights' (PyTorch's mixed-dtype norms)
_FOLLOWS_INPUT = frozenset(("layer_norm", "group_norm", "batch_norm", "instance_norm", "rms_norm"))


def opmath(fn, name=None):
    """``fn`` computing in float32 when its float tensor arguments are bfloat16, its result rounded back
    to bfloat16 (unless ``dtype=`` asks for another dtype); with a float32 or float64 tensor among them
    PyTorch's promotion gives that dtype, and ``fn`` runs as it is."""
    def op(*args, **kwargs):
        if args and type(args[0]) in TENSOR_TYPES and args[0]._value.dtype.char in "fd":
            return fn(*args, **kwargs)  # a float32/float64 input: PyTorch's promotion keeps its dtype (the hot case)
        if not (any(map(_is_bf16, args)) or any(map(_is_bf16, kwargs.values()))):
            return fn(*args, **kwargs)
        follows = name in _FOLLOWS_INPUT and args and _is_bf16(args[0])
        if not follows and (any(map(_other_float, args)) or any(map(_other_float, kwargs.values()))):
            return fn(*args, **kwargs)
        out = fn(*map(_widen, args), **{k: _widen(v) for k, v in kwargs.items()})
        return out if kwargs.get("dtype") is not None else _round(out)

    return op


def install():
    """Wrap the OPMATH ops at their dispatch points (once)."""
    install_wrappers(OPMATH, opmath, "bfloat16_opmath")
