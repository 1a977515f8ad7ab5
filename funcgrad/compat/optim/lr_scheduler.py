"""torch.optim.lr_scheduler: epoch-based learning-rate schedules (closed forms from funcgrad.optim.schedules)."""

from __future__ import annotations

import math
import warnings

from ...optim import schedules as _s
from .optimizer import Optimizer

__all__ = ["LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR", "LambdaLR",
           "ReduceLROnPlateau"]


class LRScheduler:
    """Sets each group's ``lr`` to ``self._schedule(base_lr, group_index)(last_epoch)`` on every ``step()``."""

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for g in optimizer.param_groups:
                g.setdefault("initial_lr", g["lr"])
        else:
            for i, g in enumerate(optimizer.param_groups):
                if "initial_lr" not in g:
                    raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] when resuming an "
                                   "optimizer")
        self.base_lrs = [g["initial_lr"] for g in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._step_count = 0
        self.step()

    def _schedule(self, base_lr, i):
        raise NotImplementedError(f"{type(self).__name__} must define _schedule")

    def get_lr(self):
        return [self._schedule(b, i)(self.last_epoch) for i, b in enumerate(self.base_lrs)]

    def get_last_lr(self):
        return self._last_lr

    def step(self, epoch=None):
        self._step_count += 1
        if epoch is None:
            self.last_epoch += 1
        else:
            warnings.warn("The epoch parameter in `scheduler.step()` was not necessary and is being deprecated "
                          "where possible. Please use `scheduler.step()` to step the scheduler.",
                          UserWarning, stacklevel=2)
            self.last_epoch = epoch
        for g, lr in zip(self.optimizer.param_groups, self.get_lr()):
            g["lr"] = lr
        self._last_lr = [g["lr"] for g in self.optimizer.param_groups]

    def state_dict(self):
        return {k: v for k, v in self.__dict__.items() if k != "optimizer" and not callable(v)}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)


_LRScheduler = LRScheduler


class StepLR(LRScheduler):
    """lr = base * gamma ** (epoch // step_size)."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def _schedule(self, base_lr, i):
        return _s.step(base_lr, self.step_size, self.gamma)


class MultiStepLR(LRScheduler):
    """lr = base * gamma ** (number of milestones <= epoch)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones, self.gamma = sorted(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def _schedule(self, base_lr, i):
        return _s.multistep(base_lr, self.milestones, self.gamma)


class ExponentialLR(LRScheduler):
    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def _schedule(self, base_lr, i):
        return _s.exponential(base_lr, self.gamma)


class CosineAnnealingLR(LRScheduler):
    """eta_min + (base - eta_min)(1 + cos(pi epoch / T_max)) / 2 (periodic past T_max, as PyTorch)."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def _schedule(self, base_lr, i):
        period = 2 * self.T_max
        cos = _s.cosine(base_lr, self.T_max, self.eta_min)
        return lambda e: cos(e % period if e % period <= self.T_max else period - e % period)


class LambdaLR(LRScheduler):
    """lr = base * lr_lambda(epoch) (one function, or one per group)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        n = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != n:
                raise ValueError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * n
        super().__init__(optimizer, last_epoch)

    def _schedule(self, base_lr, i):
        return lambda e: base_lr * self.lr_lambdas[i](e)

    def state_dict(self):
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}


class ReduceLROnPlateau:
    """Multiply each group's lr by ``factor`` when ``step(metric)`` has not improved for ``patience`` epochs."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4, threshold_mode="rel",
                 cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        if mode not in ("min", "max"):
            raise ValueError(f"mode {mode} is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"threshold mode {threshold_mode} is unknown!")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        n = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != n:
                raise ValueError(f"expected {n} min_lrs, got {len(min_lr)}")
            self.min_lrs = list(min_lr)
        else:
            self.min_lrs = [min_lr] * n
        self.optimizer, self.mode, self.factor, self.patience = optimizer, mode, factor, patience
        self.threshold, self.threshold_mode, self.cooldown, self.eps = threshold, threshold_mode, cooldown, eps
        self.best = math.inf if mode == "min" else -math.inf
        self.num_bad_epochs = self.cooldown_counter = 0
        self.last_epoch = 0
        self._last_lr = [g["lr"] for g in optimizer.param_groups]

    def is_better(self, a, best):
        if self.mode == "min":
            return a < (best * (1 - self.threshold) if self.threshold_mode == "rel" else best - self.threshold)
        return a > (best * (1 + self.threshold) if self.threshold_mode == "rel" else best + self.threshold)

    def step(self, metrics, epoch=None):
        current = float(metrics)
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        if self.is_better(current, self.best):
            self.best, self.num_bad_epochs = current, 0
        else:
            self.num_bad_epochs += 1
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            for g, lo in zip(self.optimizer.param_groups, self.min_lrs):
                new = max(g["lr"] * self.factor, lo)
                if g["lr"] - new > self.eps:
                    g["lr"] = new
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
        self._last_lr = [g["lr"] for g in self.optimizer.param_groups]

    def get_last_lr(self):
        return self._last_lr

    def state_dict(self):
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
