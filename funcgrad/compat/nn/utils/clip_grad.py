"""torch.nn.utils.clip_grad: ``clip_grad_norm_`` / ``clip_grad_value_`` (in the package), and
``get_total_norm``, ``clip_grads_with_norm_`` (the two halves of clip_grad_norm_), the deprecated
``clip_grad_norm``."""

from __future__ import annotations

import math
import warnings

from ...autograd.grad_mode import no_grad
from ...tensor import Tensor

__all__ = ["get_total_norm", "clip_grads_with_norm_", "clip_grad_norm"]


def get_total_norm(tensors, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """The ``norm_type``-norm of the norms of ``tensors`` (as if concatenated into one vector)."""
    from ...creation import tensor  # noqa: PLC0415

    ts = [tensors] if isinstance(tensors, Tensor) else [t for t in tensors if t is not None]
    if not ts:
        return tensor(0.0)
    p = float(norm_type)
    with no_grad():
        if p == math.inf:
            total = max(t.detach().abs().max() for t in ts)
        elif p == 2.0:
            total = sum((t.detach().double() ** 2).sum() for t in ts).sqrt().to(ts[0].dtype)
        else:
            total = (sum(t.detach().abs().double().pow(p).sum() for t in ts) ** (1.0 / p)).to(ts[0].dtype)
    if error_if_nonfinite and not math.isfinite(float(total)):
        raise RuntimeError(f"The total norm of order {p} for gradients from `parameters` is non-finite, so it cannot "
                           "be clipped. To disable this error and scale the gradients by the non-finite norm anyway, "
                           "set `error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters, max_norm, total_norm, foreach=None):
    """Scale the gradients in place by ``max_norm / (total_norm + 1e-6)`` (at most 1)."""
    params = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return
    with no_grad():
        coef = (max_norm / (total_norm + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(coef.to(g.dtype))


def clip_grad_norm(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Deprecated alias of clip_grad_norm_ (with PyTorch's warning)."""
    from . import clip_grad_norm_  # noqa: PLC0415

    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)
