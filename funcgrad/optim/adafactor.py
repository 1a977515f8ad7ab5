"""Adafactor as a pure ``(init, update)`` pair, with torch.optim.Adafactor's update rule.

The second moment of a matrix-shaped gradient (ndim >= 2) is kept factored over its last two axes:
a row factor (mean of g**2 over the last axis) and a column factor (over the one before), whose outer
product divided by the row factor's mean estimates it; vectors keep a full second moment. The decay
1 - beta2_t = t ** beta2_decay, the relative step size rho_t = min(lr, 1 / sqrt(t)) times
max(eps2, rms(p)), and the update is clipped to RMS <= d (PyTorch 2.5+'s formulation, no momentum).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import optree

from .. import numpy as fnp
from .optimizers import GradientTransformation, _check_params, _flatten_like, _lr

__all__ = ["adafactor", "AdafactorState"]


class AdafactorState(NamedTuple):
    count: Any
    row_var: Any  # per leaf: (..., R, 1) for ndim >= 2, else None
    col_var: Any  # per leaf: (..., 1, C) for ndim >= 2, else None
    variance: Any  # per leaf: like the parameter for ndim < 2, else None


def _rms(x):
    n = max(int(np.prod(x.shape)), 1)
    return fnp.sqrt(fnp.sum(x * x)) / np.sqrt(n)


def _leaf_update(g, row, col, var, p, t, lr_t, beta2_decay, eps1, eps2, d, weight_decay):
    """(update, row, col, var) of one parameter at step t."""
    eps1 = float(np.finfo(np.dtype(p.dtype)).eps) if eps1 is None else eps1
    one_minus_beta2 = float(t) ** beta2_decay
    rho = min(lr_t, 1.0 / np.sqrt(t))
    alpha = fnp.maximum(eps2, _rms(p)) * rho
    if g.ndim > 1:
        row = row + one_minus_beta2 * (fnp.mean(g * g, axis=-1, keepdims=True) - row)
        col = col + one_minus_beta2 * (fnp.mean(g * g, axis=-2, keepdims=True) - col)
        estimate = (row @ col) / fnp.maximum(fnp.mean(row, axis=-2, keepdims=True), eps1)
    else:
        var = var + one_minus_beta2 * (g * g - var)
        estimate = var
    u = g / fnp.sqrt(fnp.maximum(estimate, eps1 * eps1))
    denom = fnp.maximum(1.0, _rms(u) / d)
    step = -(alpha / denom) * u
    if weight_decay:
        step = step - (lr_t * weight_decay) * p
    return step.astype(p.dtype), row, col, var


def adafactor(lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0, weight_decay=0.0, maximize=False):
    """torch.optim.Adafactor's rule (``eps = (eps1, eps2)``; eps1 None is the dtype's machine epsilon)."""
    eps1, eps2 = eps
    if not beta2_decay <= 0.0:
        raise ValueError(f"adafactor: beta2_decay should be <= 0 but is: {beta2_decay}")
    if not d >= 1.0:
        raise ValueError(f"adafactor: clipping threshold d should be >= 1 but is: {d}")

    def init(params):
        def one(p, k):
            if p.ndim < 2:
                return fnp.zeros_like(p) if k == "var" else None
            if k == "var":
                return None
            shape = tuple(p.shape[:-1]) + (1,) if k == "row" else tuple(p.shape[:-2]) + (1, p.shape[-1])
            return fnp.zeros(shape, dtype=p.dtype)
        treedef, leaves, _ = _flatten_like([params])
        trees = [optree.tree_unflatten(treedef, [None if p is None else one(p, k) for p in leaves])
                 for k in ("row", "col", "var")]
        return AdafactorState(0, *trees)

    def update(grads, state, params=None):
        _check_params(params, "adafactor")
        t = int(state.count) + 1
        lr_t = _lr(lr, t - 1)
        treedef, gs, (rows, cols, vars_, ps) = _flatten_like([grads, state.row_var, state.col_var, state.variance,
                                                              params])
        out = [[], [], [], []]
        for g, row, col, var, p in zip(gs, rows, cols, vars_, ps):
            if g is None:
                res = (None, row, col, var)
            else:
                res = _leaf_update(-g if maximize else g, row, col, var, p, t, lr_t, beta2_decay, eps1, eps2, d,
                                   weight_decay)
            for acc, v in zip(out, res):
                acc.append(v)
        updates, row, col, var = (optree.tree_unflatten(treedef, o) for o in out)
        return updates, AdafactorState(t, row, col, var)

    return GradientTransformation(init, update)
