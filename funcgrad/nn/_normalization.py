"""Normalization layers (functional): batch_norm, instance_norm, layer_norm, group_norm."""

from __future__ import annotations

from .. import numpy as fnp
from ..primitives.stop_gradient import stop_gradient

__all__ = ["batch_norm", "instance_norm", "layer_norm", "group_norm"]


def _moments(x, axes):
    mean = fnp.mean(x, axis=axes, keepdims=True)
    d = x - mean
    return mean, d, fnp.mean(d * d, axis=axes, keepdims=True)


def _updated(running, batch_stat, momentum):
    """A running statistic moved towards this batch's, as PyTorch: (1 - m) old + m new (no gradient)."""
    return (1 - momentum) * running + momentum * stop_gradient(batch_stat)


def _normalize_with(x, running_mean, running_var, shape, eps, fname, mode):
    if running_mean is None or running_var is None:
        raise ValueError(f"{fname}: {mode} needs running_mean and running_var")
    return (x - fnp.reshape(running_mean, shape)) / fnp.sqrt(fnp.reshape(running_var, shape) + eps)


def _affine(y, weight, bias, shape):
    if weight is not None:
        y = y * fnp.reshape(weight, shape)
    if bias is not None:
        y = y + fnp.reshape(bias, shape)
    return y


def batch_norm(x, running_mean=None, running_var=None, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-5):
    """Batch normalization over every axis but 1 (channels) -> ``(y, new_mean, new_var)``.

    Training: normalises with the batch's mean and biased variance, and returns
    running statistics updated as PyTorch does
    (``new = (1 - momentum) * old + momentum * batch``, with the *unbiased*
    batch variance); ``momentum=None`` is left to the caller (cumulative
    averages need a step count).  Evaluation: normalises with the running
    statistics, which are returned unchanged.  Running statistics never carry
    gradients.
    """
    if x.ndim < 2:
        raise ValueError(f"batch_norm: expected an input with at least 2 axes (N, C, ...), got {tuple(x.shape)}")
    c = x.shape[1]
    shape = (1, c) + (1,) * (x.ndim - 2)
    axes = (0,) + tuple(range(2, x.ndim))
    for name, v in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                    ("bias", bias)):
        if v is not None and tuple(v.shape) != (c,):
            raise ValueError(f"batch_norm: {name} must have shape ({c},) for input {tuple(x.shape)}, "
                             f"got {tuple(v.shape)}")
    if training:
        n = x.size // c
        if n <= 1:
            raise ValueError(f"batch_norm: expected more than 1 value per channel when training, "
                             f"got input size {tuple(x.shape)}")
        mean, d, var = _moments(x, axes)
        y = d / fnp.sqrt(var + eps)
        if running_mean is not None and momentum is not None:
            running_mean = _updated(running_mean, fnp.reshape(mean, (c,)), momentum)
            running_var = _updated(running_var, fnp.reshape(var, (c,)) * (n / (n - 1)), momentum)
    else:
        y = _normalize_with(x, running_mean, running_var, shape, eps, "batch_norm",
                            "evaluation mode (training=False)")
    return _affine(y, weight, bias, shape), running_mean, running_var


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalise over the trailing ``normalized_shape`` axes (biased variance), then scale/shift."""
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(normalized_shape)
    k = len(normalized_shape)
    if tuple(x.shape[x.ndim - k:]) != normalized_shape or k > x.ndim:
        raise ValueError(f"layer_norm: input {tuple(x.shape)} does not end with normalized_shape {normalized_shape}")
    axes = tuple(range(x.ndim - k, x.ndim))
    _, d, var = _moments(x, axes)
    return _affine(d / fnp.sqrt(var + eps), weight, bias, normalized_shape)


def group_norm(x, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalise (N, C, ...) over groups of C/num_groups channels and all spatial axes."""
    n, c = x.shape[:2]
    if c % num_groups:
        raise ValueError(f"group_norm: {c} channels are not divisible by num_groups={num_groups}")
    g = fnp.reshape(x, (n, num_groups, -1))
    _, d, var = _moments(g, (2,))
    y = fnp.reshape(d / fnp.sqrt(var + eps), x.shape)
    return _affine(y, weight, bias, (1, c) + (1,) * (x.ndim - 2))


def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """Instance normalization: each (sample, channel) over its spatial axes -> ``(y, new_mean, new_var)``.

    With ``use_input_stats`` (PyTorch's training mode, or no running statistics) each
    instance is normalised with its own mean and biased variance, and running statistics
    (if given) are updated as PyTorch does: ``(1 - momentum) * old + momentum * average over
    the batch of each instance's mean / unbiased variance``. Otherwise the running
    statistics normalise. They never carry gradients.
    """
    if x.ndim < 3:
        raise ValueError(f"instance_norm: expected an input with at least 3 axes (N, C, ...), got {tuple(x.shape)}")
    c = x.shape[1]
    shape = (1, c) + (1,) * (x.ndim - 2)
    axes = tuple(range(2, x.ndim))
    for name, v in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                    ("bias", bias)):
        if v is not None and tuple(v.shape) != (c,):
            raise ValueError(f"instance_norm: {name} must have shape ({c},) for input {tuple(x.shape)}, "
                             f"got {tuple(v.shape)}")
    new_mean, new_var = running_mean, running_var
    if use_input_stats:
        n = 1
        for a in axes:
            n *= x.shape[a]
        if n <= 1:
            raise ValueError(f"instance_norm: expected more than 1 spatial element per channel, got input size {tuple(x.shape)}")
        mean, d, var = _moments(x, axes)
        y = d / fnp.sqrt(var + eps)
        if running_mean is not None:
            new_mean = _updated(running_mean, fnp.mean(fnp.reshape(mean, x.shape[:2]), axis=0), momentum)
            new_var = _updated(running_var, fnp.mean(fnp.reshape(var, x.shape[:2]), axis=0) * (n / (n - 1)),
                               momentum)
    else:
        y = _normalize_with(x, running_mean, running_var, shape, eps, "instance_norm", "use_input_stats=False")
    return _affine(y, weight, bias, shape), new_mean, new_var
