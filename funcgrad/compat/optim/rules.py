"""SGD, ASGD, Adam, AdamW, NAdam, RAdam, Adamax, RMSprop, Adagrad, Adadelta: PyTorch's constructors over
funcgrad.optim's update rules.  ``foreach``/``fused``/``capturable``/``differentiable`` are accepted and
kept in the param groups (as PyTorch) but change nothing: there is one (eager) implementation."""

from __future__ import annotations

from ...optim import adam_variants as _variants
from ...optim import averaged as _asgd
from ...optim import optimizers as _rules
from .optimizer import Optimizer

__all__ = ["SGD", "ASGD", "Adam", "AdamW", "NAdam", "RAdam", "Adamax", "RMSprop", "Adagrad", "Adadelta"]


def _check(cond, msg):
    if not cond:
        raise ValueError(msg)


class SGD(Optimizer):
    """Stochastic gradient descent, with momentum/dampening/Nesterov and L2 weight decay."""

    _fields = (("momentum_buffer", "momentum_buffer"),)
    _state_cls = _rules.SgdState

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        _check(lr >= 0.0, f"Invalid learning rate: {lr}")
        _check(momentum >= 0.0, f"Invalid momentum value: {momentum}")
        _check(weight_decay >= 0.0, f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize, foreach=foreach,
                                      differentiable=differentiable, fused=fused))

    def _count(self, st):
        return 0 if st.get("momentum_buffer") is None else 1

    def _init_state(self, rule, p, st):
        pass  # the momentum buffer starts as the first gradient

    def _rule(self, g):
        return _rules.sgd(g["lr"], g["momentum"], g["dampening"], g["weight_decay"], g["nesterov"], g["maximize"])


class ASGD(Optimizer):
    """Averaged SGD; ``state[p]['ax']`` is the running average of the parameter."""

    _fields = (("count", "step"), ("eta", "eta"), ("mu", "mu"), ("ax", "ax"))
    _scalars = ("eta", "mu")
    _state_cls = _asgd.AsgdState

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False):
        _check(lr >= 0.0, f"Invalid learning rate: {lr}")
        _check(weight_decay >= 0.0, f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                                      foreach=foreach, maximize=maximize, differentiable=differentiable,
                                      capturable=capturable))

    def _rule(self, g):
        return _asgd.asgd(g["lr"], g["lambd"], g["alpha"], g["t0"], g["weight_decay"], g["maximize"])


class Adam(Optimizer):
    """Adam (L2 ``weight_decay`` added to the gradient; eps added after the bias-corrected sqrt)."""

    _fields = (("count", "step"), ("exp_avg", "exp_avg"), ("exp_avg_sq", "exp_avg_sq"),
               ("max_exp_avg_sq", "max_exp_avg_sq"))
    _state_cls = _rules.AdamState
    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        _check_adam_like(lr, betas, eps, weight_decay)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize, foreach=foreach, capturable=capturable,
                                      differentiable=differentiable, fused=fused,
                                      decoupled_weight_decay=decoupled_weight_decay or self._decoupled))

    def _rule(self, g):
        make = _rules.adamw if g["decoupled_weight_decay"] else _rules.adam
        return make(g["lr"], g["betas"][0], g["betas"][1], g["eps"], g["weight_decay"], g["amsgrad"], g["maximize"])


class AdamW(Adam):
    """Adam with decoupled weight decay (``p *= 1 - lr * weight_decay``), default 1e-2."""

    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused)


def _check_adam_like(lr, betas, eps, weight_decay):
    _check(lr >= 0.0, f"Invalid learning rate: {lr}")
    _check(eps >= 0.0, f"Invalid epsilon value: {eps}")
    _check(0.0 <= betas[0] < 1.0, f"Invalid beta parameter at index 0: {betas[0]}")
    _check(0.0 <= betas[1] < 1.0, f"Invalid beta parameter at index 1: {betas[1]}")
    _check(weight_decay >= 0.0, f"Invalid weight_decay value: {weight_decay}")


class NAdam(Optimizer):
    """Adam with Nesterov momentum and the momentum schedule mu_t = b1 (1 - 0.96 ** (t momentum_decay) / 2)."""

    _fields = (("count", "step"), ("mu_product", "mu_product"), ("exp_avg", "exp_avg"),
               ("exp_avg_sq", "exp_avg_sq"))
    _scalars = ("mu_product",)
    _state_cls = _variants.NadamState

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_adam_like(lr, betas, eps, weight_decay)
        _check(momentum_decay >= 0.0, f"Invalid momentum_decay value: {momentum_decay}")
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      momentum_decay=momentum_decay, decoupled_weight_decay=decoupled_weight_decay,
                                      maximize=maximize, foreach=foreach, capturable=capturable,
                                      differentiable=differentiable))

    def _rule(self, g):
        return _variants.nadam(g["lr"], g["betas"][0], g["betas"][1], g["eps"], g["weight_decay"],
                               g["momentum_decay"], g["decoupled_weight_decay"], g["maximize"])


class RAdam(Optimizer):
    """Rectified Adam: plain bias-corrected momentum while the variance estimate's length rho_t <= 5."""

    _fields = (("count", "step"), ("exp_avg", "exp_avg"), ("exp_avg_sq", "exp_avg_sq"))
    _state_cls = _variants.RadamState

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False):
        _check_adam_like(lr, betas, eps, weight_decay)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      decoupled_weight_decay=decoupled_weight_decay, maximize=maximize,
                                      foreach=foreach, capturable=capturable, differentiable=differentiable))

    def _rule(self, g):
        return _variants.radam(g["lr"], g["betas"][0], g["betas"][1], g["eps"], g["weight_decay"],
                               g["decoupled_weight_decay"], g["maximize"])


class Adamax(Optimizer):
    """Adam with the infinity norm: u = max(b2 u, |g| + eps); p -= lr / (1 - b1**t) m / u."""

    _fields = (("count", "step"), ("exp_avg", "exp_avg"), ("exp_inf", "exp_inf"))
    _state_cls = _variants.AdamaxState

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        _check_adam_like(lr, betas, eps, weight_decay)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      foreach=foreach, maximize=maximize, differentiable=differentiable,
                                      capturable=capturable))

    def _rule(self, g):
        return _variants.adamax(g["lr"], g["betas"][0], g["betas"][1], g["eps"], g["weight_decay"],
                                g["maximize"])


class RMSprop(Optimizer):
    _fields = (("count", "step"), ("square_avg", "square_avg"), ("grad_avg", "grad_avg"),
               ("momentum_buffer", "momentum_buffer"))
    _state_cls = _rules.RmspropState

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check(lr >= 0.0, f"Invalid learning rate: {lr}")
        _check(eps >= 0.0, f"Invalid epsilon value: {eps}")
        _check(momentum >= 0.0, f"Invalid momentum value: {momentum}")
        _check(weight_decay >= 0.0, f"Invalid weight_decay value: {weight_decay}")
        _check(alpha >= 0.0, f"Invalid alpha value: {alpha}")
        super().__init__(params, dict(lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay, momentum=momentum,
                                      centered=centered, capturable=capturable, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable))

    def _rule(self, g):
        return _rules.rmsprop(g["lr"], g["alpha"], g["eps"], g["weight_decay"], g["momentum"], g["centered"],
                              g["maximize"])


class Adagrad(Optimizer):
    _fields = (("count", "step"), ("sum", "sum"))
    _state_cls = _rules.AdagradState

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check(lr >= 0.0, f"Invalid learning rate: {lr}")
        _check(lr_decay >= 0.0, f"Invalid lr_decay value: {lr_decay}")
        _check(weight_decay >= 0.0, f"Invalid weight_decay value: {weight_decay}")
        _check(initial_accumulator_value >= 0.0, f"Invalid initial_accumulator_value value: "
                                                 f"{initial_accumulator_value}")
        _check(eps >= 0.0, f"Invalid epsilon value: {eps}")
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable, fused=fused))

    def _rule(self, g):
        return _rules.adagrad(g["lr"], g["lr_decay"], g["weight_decay"], g["initial_accumulator_value"], g["eps"],
                              g["maximize"])


class Adadelta(Optimizer):
    _fields = (("count", "step"), ("square_avg", "square_avg"), ("acc_delta", "acc_delta"))
    _state_cls = _rules.AdadeltaState

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        _check(lr >= 0.0, f"Invalid learning rate: {lr}")
        _check(0.0 <= rho <= 1.0, f"Invalid rho value: {rho}")
        _check(eps >= 0.0, f"Invalid epsilon value: {eps}")
        _check(weight_decay >= 0.0, f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, foreach=foreach,
                                      capturable=capturable, maximize=maximize, differentiable=differentiable))

    def _rule(self, g):
        return _rules.adadelta(g["lr"], g["rho"], g["eps"], g["weight_decay"], g["maximize"])
