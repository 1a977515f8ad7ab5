"""torch.nn.utils: gradient clipping, parameter <-> vector conversion; ``rnn`` (pad_sequence)."""

from __future__ import annotations

import math

from ....optim import global_norm
from ...autograd.grad_mode import no_grad
from ...tensor import Tensor

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "vector_to_parameters"]


def _params(parameters):
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scale the gradients in place so their joint norm is at most ``max_norm``; returns the norm before."""
    from ...creation import tensor  # noqa: PLC0415

    grads = [p.grad for p in _params(parameters) if p.grad is not None]
    if not grads:
        return tensor(0.0)
    norm_type = float(norm_type)
    with no_grad():
        if norm_type == 2.0:
            total = global_norm([g.detach() for g in grads])
        elif norm_type == math.inf:
            total = max(g.detach().abs().max() for g in grads)
        else:
            total = sum(g.detach().abs().pow(norm_type).sum() for g in grads) ** (1.0 / norm_type)
        if error_if_nonfinite and not math.isfinite(float(total)):
            raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
                               "so it cannot be clipped. To disable this error and scale the gradients by the "
                               "non-finite norm anyway, set `error_if_nonfinite=False`")
        coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(coef.to(g.dtype))
    return total


def clip_grad_value_(parameters, clip_value, foreach=None):
    with no_grad():
        for p in _params(parameters):
            if p.grad is not None:
                p.grad.clamp_(-clip_value, clip_value)


def parameters_to_vector(parameters):
    from ... import cat  # noqa: PLC0415

    return cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    i = 0
    for p in parameters:
        n = p.numel()
        p.data = vec[i:i + n].view_as(p).data
        i += n


from . import rnn  # noqa: E402, F401  (torch.nn.utils.rnn is an attribute after `import torch.nn`)


from . import clip_grad, convert_parameters, fusion, init, parametrizations, parametrize, stateless  # noqa: E402
from .clip_grad import clip_grad_norm, clip_grads_with_norm_, get_total_norm  # noqa: E402,F401
from .fusion import (  # noqa: E402,F401
    fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval, fuse_linear_bn_weights,
)
from .init import skip_init  # noqa: E402,F401
from .weight_norm import remove_spectral_norm, remove_weight_norm, spectral_norm, weight_norm  # noqa: E402,F401

__all__ += ["clip_grad_norm", "clip_grads_with_norm_", "get_total_norm", "fuse_conv_bn_eval", "fuse_conv_bn_weights",
            "fuse_linear_bn_eval", "fuse_linear_bn_weights", "skip_init", "weight_norm", "remove_weight_norm",
            "spectral_norm", "remove_spectral_norm"]
