"""Optimizers as pure ``(init, update)`` pairs, with PyTorch's update rules.

    opt = optim.adam(1e-3)
    state = opt.init(params)
    updates, state = opt.update(grads, state, params)
    params = optim.apply_updates(params, updates)

``params``/``grads`` are any pytrees of float arrays (None leaves, e.g. from
``nn.partition``, are skipped).  States are NamedTuples of pytrees; float32
parameters get float32 state.  ``lr`` may be a number or a schedule (a
function of the step count, see :mod:`funcgrad.optim.schedules`).
Formulas are those of the ``torch.optim`` documentation (including the first
momentum buffer being the raw gradient in SGD, L2 ``weight_decay`` added to
the gradient, and AdamW's decoupled decay ``p *= 1 - lr * wd``).
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

import optree

from .. import numpy as fnp
from .. import tree
from ..core import Array, Tracer

__all__ = [
    "GradientTransformation", "sgd", "momentum", "adam", "adamw", "rmsprop", "adagrad", "adadelta", "chain",
    "clip_by_global_norm", "apply_updates", "global_norm", "scale",
]


class GradientTransformation(NamedTuple):
    init: Callable
    update: Callable


def _is_none(x):
    return x is None


def _flatten_like(trees):
    """Leaves of each tree, None positions included (partitioned trees), in one structure."""
    leaves, treedef = optree.tree_flatten(trees[0], none_is_leaf=True, namespace=tree.NAMESPACE)
    try:
        rest = [treedef.flatten_up_to(t) for t in trees[1:]]
    except (ValueError, TypeError):
        for i, t in enumerate(trees[1:]):  # raises with the key path of the first difference
            tree.check_same_structure(trees[0], t, what=f"optimizer: tree {i + 1}", is_leaf=_is_none)
        raise
    return treedef, leaves, rest


def _map(f, *trees):
    """tree_map that keeps None leaves (partitioned trees) as None."""
    treedef, leaves, rest = _flatten_like(trees)
    out = [None if x is None else f(x, *r) for x, *r in zip(leaves, *rest)]
    return optree.tree_unflatten(treedef, out)


def _zeros(params):
    return _map(fnp.zeros_like, params)


def _count(count):
    """The step count as a Python int, or as the array it is in a jitted step (where it is traced)."""
    return count if isinstance(count, Array) and isinstance(count, Tracer) else int(count)


def _like(v, leaf):
    """A per-step scalar (a Python number, or a 0-d array under jit) in the dtype of the leaf it scales."""
    return v if isinstance(v, (int, float)) else v.astype(leaf.dtype)


def _lr(lr, count):
    return lr(count) if callable(lr) else lr


def _check_params(params, fname):
    if params is None:
        raise ValueError(f"{fname}: update(grads, state, params) needs params (weight decay reads them)")


class SgdState(NamedTuple):
    count: Any
    momentum_buffer: Any


def _l2_and_sign(grads, params, weight_decay, maximize, fname):
    """PyTorch's gradient preprocessing: negate for ``maximize``, then add L2 weight decay."""
    if maximize:
        grads = _map(lambda g: -g, grads)
    if weight_decay:
        _check_params(params, fname)
        grads = _map(lambda g, p: g + weight_decay * p, grads, params)
    return grads


def sgd(lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False, maximize=False):
    """torch.optim.SGD: g += wd p; buf = g (first step) or mu buf + (1 - dampening) g;
    g = g + mu buf (nesterov) or buf; p -= lr g."""
    if nesterov and (momentum <= 0 or dampening != 0):
        raise ValueError("sgd: Nesterov momentum requires a momentum and zero dampening")
    if lr is None or (not callable(lr) and lr < 0):
        raise ValueError(f"sgd: invalid learning rate {lr}")

    def init(params):
        return SgdState(0, _zeros(params) if momentum else None)

    def update(grads, state, params=None):
        count = _count(state.count)
        grads = _l2_and_sign(grads, params, weight_decay, maximize, "sgd")
        buf = state.momentum_buffer
        if momentum:
            if not isinstance(count, int):  # an array count (a jitted step): select without Python control flow
                buf = _map(lambda b, g: fnp.where(count == 0, g, momentum * b + (1 - dampening) * g), buf, grads)
            elif count == 0:
                buf = grads
            else:
                buf = _map(lambda b, g: momentum * b + (1 - dampening) * g, buf, grads)
            grads = _map(lambda g, b: g + momentum * b, grads, buf) if nesterov else buf
        lr_t = _lr(lr, count)
        return _map(lambda g: -lr_t * g, grads), SgdState(count + 1, buf)

    return GradientTransformation(init, update)


def momentum(lr, momentum=0.9, nesterov=False, weight_decay=0.0):
    """SGD with (heavy-ball or Nesterov) momentum."""
    return sgd(lr, momentum=momentum, nesterov=nesterov, weight_decay=weight_decay)


class AdamState(NamedTuple):
    count: Any
    exp_avg: Any
    exp_avg_sq: Any
    max_exp_avg_sq: Any


def _check_betas_eps(b1, b2, eps, fname):
    for name, v in (("beta1", b1), ("beta2", b2)):
        if not 0.0 <= v < 1.0:
            raise ValueError(f"{fname}: invalid {name} parameter {v} (must be in [0, 1))")
    if eps < 0:
        raise ValueError(f"{fname}: invalid epsilon {eps}")


def _adam(lr, b1, b2, eps, weight_decay, amsgrad, decoupled, maximize, fname):
    _check_betas_eps(b1, b2, eps, fname)

    def init(params):
        return AdamState(0, _zeros(params), _zeros(params), _zeros(params) if amsgrad else None)

    def update(grads, state, params=None):
        t = _count(state.count) + 1
        lr_t = _lr(lr, t - 1)
        grads = _l2_and_sign(grads, params, 0.0 if decoupled else weight_decay, maximize, fname)
        m = _map(lambda m, g: b1 * m + (1 - b1) * g, state.exp_avg, grads)
        v = _map(lambda v, g: b2 * v + (1 - b2) * (g * g), state.exp_avg_sq, grads)
        vmax = _map(fnp.maximum, state.max_exp_avg_sq, v) if amsgrad else None
        bc1, bc2_sqrt = 1 - b1 ** t, (1 - b2 ** t) ** 0.5
        step = lr_t / bc1
        upd = _map(lambda m, v: -_like(step, m) * m / (fnp.sqrt(v) / _like(bc2_sqrt, m) + eps),
                   m, vmax if amsgrad else v)
        if weight_decay and decoupled:
            _check_params(params, fname)
            upd = _map(lambda u, p: u - (lr_t * weight_decay) * p, upd, params)
        return upd, AdamState(t, m, v, vmax)

    return GradientTransformation(init, update)


def adam(lr=1e-3, b1=0.9, b2=0.999, eps=1e-8, weight_decay=0.0, amsgrad=False, maximize=False):
    """torch.optim.Adam (bias-corrected moments; L2 weight decay added to the gradient)."""
    return _adam(lr, b1, b2, eps, weight_decay, amsgrad, False, maximize, "adam")


def adamw(lr=1e-3, b1=0.9, b2=0.999, eps=1e-8, weight_decay=1e-2, amsgrad=False, maximize=False):
    """torch.optim.AdamW: Adam with decoupled weight decay p -= lr * wd * p."""
    return _adam(lr, b1, b2, eps, weight_decay, amsgrad, True, maximize, "adamw")


class RmspropState(NamedTuple):
    count: Any
    square_avg: Any
    grad_avg: Any
    momentum_buffer: Any


def rmsprop(lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=False, maximize=False):
    """torch.optim.RMSprop: v = alpha v + (1 - alpha) g**2; denominator sqrt(v [- gavg**2]) + eps."""
    def init(params):
        return RmspropState(0, _zeros(params), _zeros(params) if centered else None,
                            _zeros(params) if momentum else None)

    def update(grads, state, params=None):
        count = int(state.count)
        lr_t = _lr(lr, count)
        grads = _l2_and_sign(grads, params, weight_decay, maximize, "rmsprop")
        v = _map(lambda v, g: alpha * v + (1 - alpha) * (g * g), state.square_avg, grads)
        gavg = _map(lambda a, g: alpha * a + (1 - alpha) * g, state.grad_avg, grads) if centered else None
        if centered:
            denom = _map(lambda v, a: fnp.sqrt(v - a * a) + eps, v, gavg)
        else:
            denom = _map(lambda v: fnp.sqrt(v) + eps, v)
        buf = None
        if momentum:
            buf = _map(lambda b, g, d: momentum * b + g / d, state.momentum_buffer, grads, denom)
            upd = _map(lambda b: -lr_t * b, buf)
        else:
            upd = _map(lambda g, d: -lr_t * g / d, grads, denom)
        return upd, RmspropState(count + 1, v, gavg, buf)

    return GradientTransformation(init, update)


class AdagradState(NamedTuple):
    count: Any
    sum: Any


def adagrad(lr=1e-2, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0, eps=1e-10, maximize=False):
    """torch.optim.Adagrad: clr = lr / (1 + (t - 1) lr_decay); s += g**2; p -= clr g / (sqrt(s) + eps)."""
    def init(params):
        return AdagradState(0, _map(lambda p: fnp.full_like(p, initial_accumulator_value), params))

    def update(grads, state, params=None):
        t = int(state.count) + 1
        grads = _l2_and_sign(grads, params, weight_decay, maximize, "adagrad")
        clr = _lr(lr, t - 1) / (1 + (t - 1) * lr_decay)
        s = _map(lambda s, g: s + g * g, state.sum, grads)
        return _map(lambda g, s: -clr * g / (fnp.sqrt(s) + eps), grads, s), AdagradState(t, s)

    return GradientTransformation(init, update)


class AdadeltaState(NamedTuple):
    count: Any
    square_avg: Any
    acc_delta: Any


def adadelta(lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0, maximize=False):
    """torch.optim.Adadelta: v = rho v + (1-rho) g**2; d = sqrt(u + eps) / sqrt(v + eps) g;
    u = rho u + (1-rho) d**2; p -= lr d (L2 weight decay added to g)."""
    def init(params):
        return AdadeltaState(0, _map(fnp.zeros_like, params), _map(fnp.zeros_like, params))

    def update(grads, state, params=None):
        t = int(state.count) + 1
        grads = _l2_and_sign(grads, params, weight_decay, maximize, "adadelta")
        v = _map(lambda v, g: rho * v + (1 - rho) * g * g, state.square_avg, grads)
        delta = _map(lambda v, u, g: fnp.sqrt(u + eps) / fnp.sqrt(v + eps) * g, v, state.acc_delta, grads)
        u = _map(lambda u, d: rho * u + (1 - rho) * d * d, state.acc_delta, delta)
        step_lr = _lr(lr, t - 1)
        return _map(lambda d: -step_lr * d, delta), AdadeltaState(t, v, u)

    return GradientTransformation(init, update)


# --- combinators and utilities --------------------------------------------------------------

def global_norm(tree_):
    """sqrt of the sum of squares of every leaf."""
    leaves = [x for x in tree.tree_leaves(tree_) if x is not None]
    if not leaves:
        return 0.0
    return fnp.sqrt(sum(fnp.sum(x * x) for x in leaves))


class EmptyState(NamedTuple):
    pass


def clip_by_global_norm(max_norm):
    """Scale all gradients by min(1, max_norm / (norm + 1e-6)) (torch clip_grad_norm_)."""
    def init(params):
        return EmptyState()

    def update(grads, state, params=None):
        norm = float(global_norm(grads))
        coef = min(1.0, max_norm / (norm + 1e-6))
        return (_map(lambda g: g * coef, grads) if coef < 1.0 else grads), state

    return GradientTransformation(init, update)


def scale(factor):
    """Multiply updates by a constant."""
    return GradientTransformation(lambda params: EmptyState(),
                                  lambda grads, state, params=None: (_map(lambda g: g * factor, grads), state))


def chain(*transforms):
    """Apply transformations in order; the state is a tuple of their states."""
    def init(params):
        return tuple(t.init(params) for t in transforms)

    def update(grads, state, params=None):
        new = []
        for t, s in zip(transforms, state):
            grads, s = t.update(grads, s, params)
            new.append(s)
        return grads, tuple(new)

    return GradientTransformation(init, update)


def apply_updates(params, updates):
    """params + updates, leaf by leaf, keeping each parameter's dtype (None updates: unchanged)."""
    def add(p, u):
        if u is None:
            return p
        r = p + u
        return r.astype(p.dtype) if r.dtype != p.dtype else r

    treedef, leaves, (ups,) = _flatten_like((params, updates))
    return optree.tree_unflatten(treedef, [p if p is None else add(p, u) for p, u in zip(leaves, ups)])
