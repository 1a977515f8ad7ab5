"""Losses (functional), with PyTorch's formulas, defaults and reduction rules."""

from __future__ import annotations

from ..backend import kind_of
from .. import numpy as fnp
from ..core import Array, Tracer
from ._activations import _softplus0, log_softmax

__all__ = [
    "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "cross_entropy", "nll_loss",
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
]


def _arr(x):
    return x if isinstance(x, (Array, Tracer)) else fnp.asarray(x)


def _reduce(loss, reduction, fname):
    if reduction == "mean":
        return fnp.mean(loss)
    if reduction == "sum":
        return fnp.sum(loss)
    if reduction == "none":
        return loss
    raise ValueError(f"{fname}: {reduction!r} is not a valid value for reduction (use 'none', 'mean' or 'sum')")


def _pair(input, target, fname):
    input, target = _arr(input), _arr(target)
    try:
        fnp.broadcast_shapes(tuple(input.shape), tuple(target.shape))
    except ValueError:
        raise ValueError(f"{fname}: input {tuple(input.shape)} and target {tuple(target.shape)} "
                         "cannot be broadcast together") from None
    return input, target


def mse_loss(input, target, reduction="mean"):
    input, target = _pair(input, target, "mse_loss")
    d = input - target
    return _reduce(d * d, reduction, "mse_loss")


def l1_loss(input, target, reduction="mean"):
    input, target = _pair(input, target, "l1_loss")
    return _reduce(fnp.abs(input - target), reduction, "l1_loss")


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):
    """0.5 d**2 / beta where |d| < beta, |d| - 0.5 beta elsewhere (beta=0: l1_loss)."""
    input, target = _pair(input, target, "smooth_l1_loss")
    if beta < 0:
        raise ValueError(f"smooth_l1_loss: beta must be >= 0, got {beta}")
    ad = fnp.abs(input - target)
    if beta == 0:
        return _reduce(ad, reduction, "smooth_l1_loss")
    return _reduce(fnp.where(ad < beta, (0.5 / beta) * ad * ad, ad - 0.5 * beta), reduction, "smooth_l1_loss")


def huber_loss(input, target, reduction="mean", delta=1.0):
    """beta * smooth_l1 with beta = delta (PyTorch's HuberLoss)."""
    input, target = _pair(input, target, "huber_loss")
    ad = fnp.abs(input - target)
    return _reduce(fnp.where(ad < delta, 0.5 * ad * ad, delta * (ad - 0.5 * delta)), reduction, "huber_loss")


def _class_last(x):
    """(N, C, d1, ...) -> (N*d1*..., C); (N, C) as it is; (C,) -> (1, C)."""
    if x.ndim == 2:
        return x
    if x.ndim == 1:
        return fnp.reshape(x, (1, -1))
    return fnp.reshape(fnp.moveaxis(x, 1, -1), (-1, x.shape[1]))


def _check_targets(target, logp, ignore_index, fname):
    """Validate class-index targets; -> how many are not ignored (None if not concrete)."""
    if target.dtype.kind not in "iu":
        raise TypeError(f"{fname}: class-index targets must be integers, got {target.dtype} "
                        "(pass class probabilities with the input's shape instead)")
    expect = (logp.shape[0],) + tuple(logp.shape[2:]) if logp.ndim > 1 else ()
    if tuple(target.shape) != expect:
        raise ValueError(f"{fname}: expected target of shape {expect} for input {tuple(logp.shape)}, "
                         f"got {tuple(target.shape)}")
    if isinstance(target, Tracer):
        return None
    tb = target._value  # checked on the buffer directly: no graph, no per-op dispatch
    kept = tb[tb != ignore_index]
    n = int(kept.size)
    if n:
        lo, hi = int(kept.min()), int(kept.max())
        c = logp.shape[1] if logp.ndim > 1 else logp.shape[0]
        if lo < 0 or hi >= c:
            raise IndexError(f"{fname}: Target {lo if lo < 0 else hi} is out of bounds for {c} classes")
    return n


def _nll(logp, target, weight, ignore_index, reduction, fname):
    """Weighted negative log-likelihood of class indices, with PyTorch's weighted mean.

    -> (loss, keep, denom): ``keep`` the float mask of non-ignored targets (None when
    all are kept), ``denom`` the mean's denominator (the summed weights of kept targets).
    """
    if reduction not in ("none", "sum", "mean"):
        raise ValueError(f"{fname}: {reduction!r} is not a valid value for reduction (use 'none', 'mean' or 'sum')")
    n_kept = _check_targets(target, logp, ignore_index, fname)
    flat = _class_last(logp)
    m = flat.shape[0]
    t = fnp.reshape(target, (m,))
    keep = None
    if n_kept != m:
        mask = t != ignore_index
        keep = fnp.astype(mask, flat.dtype)
        t = fnp.where(mask, t, 0)
    picked = flat[fnp.arange(m, device=flat.device), t]
    w = keep
    if weight is not None:
        w = weight[t] if keep is None else weight[t] * keep
    loss = -picked if w is None else -(w * picked)
    if reduction == "none":
        return fnp.reshape(loss, tuple(target.shape)), keep, None
    total = fnp.sum(loss)
    if w is None:
        denom = m
    elif weight is None and n_kept is not None:
        denom = n_kept
    else:
        denom = fnp.sum(w)
    return (total if reduction == "sum" else total / denom), keep, denom


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):
    """-input[n, target[n]] * weight[target[n]]; 'mean' divides by the summed weights of kept targets."""
    input, target = _arr(input), _arr(target)
    return _nll(input, target, weight, ignore_index, reduction, "nll_loss")[0]


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """log_softmax over axis 1 (the class axis; axis 0 for a (C,) input) + nll, as PyTorch.

    ``target``: class indices (N, d1, ...) or class probabilities with the input's
    shape.  ``label_smoothing`` mixes the target with the uniform distribution.
    """
    input, target = _arr(input), _arr(target)
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"cross_entropy: label_smoothing must be in [0, 1], got {label_smoothing}")
    if input.ndim == 0:
        raise ValueError("cross_entropy: input must have a class axis, got a 0-d array")
    cax = 1 if input.ndim > 1 else 0
    c = input.shape[cax]
    logp = log_softmax(input, axis=cax)
    wshape = (c,) + (1,) * (input.ndim - cax - 1)
    if kind_of(target.dtype) == "f":  # class probabilities
        if tuple(target.shape) != tuple(input.shape):
            raise ValueError(f"cross_entropy: probability targets must have the input's shape "
                             f"{tuple(input.shape)}, got {tuple(target.shape)}")
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / c
        prod = logp * target if weight is None else logp * target * fnp.reshape(weight, wshape)
        loss = -fnp.sum(prod, axis=cax)
        if reduction == "mean":
            return fnp.sum(loss) / (input.size // c) if input.size else fnp.sum(loss) / 0.0
        return _reduce(loss, reduction, "cross_entropy")
    nll, keep, denom = _nll(logp, target, weight, ignore_index, reduction, "cross_entropy")
    if label_smoothing == 0:
        return nll
    flat = _class_last(logp)
    smooth = -fnp.sum(flat if weight is None else flat * weight, axis=-1)
    if keep is not None:
        smooth = smooth * keep
    if reduction == "none":
        smooth = fnp.reshape(smooth, tuple(target.shape))
    elif reduction == "sum":
        smooth = fnp.sum(smooth)
    else:
        smooth = fnp.sum(smooth) / denom
    return (1 - label_smoothing) * nll + smooth * (label_smoothing / c)


def _clamped_log(p):
    """max(log(p), -100), without evaluating log(0) (no warning, finite gradients)."""
    pos = p > 0
    return fnp.where(pos, fnp.maximum(fnp.log(fnp.where(pos, p, 1.0)), -100.0), -100.0)


def binary_cross_entropy(input, target, weight=None, reduction="mean"):
    """-w [t log(x) + (1 - t) log(1 - x)], each log clamped at -100 (PyTorch)."""
    input, target = _pair(input, target, "binary_cross_entropy")
    if tuple(input.shape) != tuple(target.shape):
        raise ValueError(f"binary_cross_entropy: target {tuple(target.shape)} must have the input's shape "
                         f"{tuple(input.shape)}")
    if not isinstance(input, Tracer) and input.size:
        if float(fnp.min(input)) < 0 or float(fnp.max(input)) > 1:
            raise ValueError("binary_cross_entropy: all elements of input should be between 0 and 1")
    log_x = _clamped_log(input)
    log_1mx = _clamped_log(1 - input)
    loss = -(target * log_x + (1 - target) * log_1mx)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction, "binary_cross_entropy")


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean", pos_weight=None):
    """sigmoid + binary cross entropy in one stable formula; ``pos_weight`` scales positives."""
    input, target = _pair(input, target, "binary_cross_entropy_with_logits")
    if tuple(input.shape) != tuple(target.shape):
        raise ValueError(f"binary_cross_entropy_with_logits: target {tuple(target.shape)} must have the "
                         f"input's shape {tuple(input.shape)}")
    sp = _softplus0(-input)  # -log sigmoid(x)
    if pos_weight is None:
        loss = (1 - target) * input + sp
    else:
        loss = (1 - target) * input + (1 + (pos_weight - 1) * target) * sp
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction, "binary_cross_entropy_with_logits")


def kl_div(input, target, reduction="mean", log_target=False):
    """target * (log(target) - input) pointwise (0 where target == 0); input is log-probabilities.

    ``reduction='batchmean'`` divides the sum by the batch size (the true KL divergence);
    'mean' averages over every element, as PyTorch.
    """
    input, target = _pair(input, target, "kl_div")
    if log_target:
        loss = fnp.exp(target) * (target - input)
    else:
        pos = target > 0
        loss = fnp.where(pos, target * (fnp.log(fnp.where(pos, target, 1.0)) - input), 0)
    if reduction == "batchmean":
        return fnp.sum(loss) / (input.shape[0] if input.ndim else 1)
    return _reduce(loss, reduction, "kl_div")
