"""Learning-rate schedules: functions ``step -> lr`` (step counts from 0).

Pass one as an optimizer's ``lr``: the optimizer evaluates it at its step count.
Formulas follow torch.optim.lr_scheduler (evaluated in closed form).
"""

from __future__ import annotations

import bisect
import math

__all__ = ["constant", "step", "multistep", "exponential", "cosine", "warmup_cosine", "linear", "linear_warmup",
           "join", "polynomial", "cosine_warm_restarts", "cyclic"]


def constant(value):
    return lambda count: value


def step(init_value, step_size, gamma=0.1):
    """StepLR: init * gamma ** (count // step_size)."""
    return lambda count: init_value * gamma ** (int(count) // step_size)


def multistep(init_value, milestones, gamma=0.1):
    """MultiStepLR: multiply by gamma at each milestone."""
    ms = sorted(milestones)
    return lambda count: init_value * gamma ** bisect.bisect_right(ms, int(count))


def exponential(init_value, gamma):
    """ExponentialLR: init * gamma ** count (a fractional count interpolates, as PyTorch's step(epoch))."""
    return lambda count: init_value * gamma ** count


def cosine(init_value, total_steps, eta_min=0.0):
    """CosineAnnealingLR: eta_min + (init - eta_min) (1 + cos(pi t / T)) / 2, constant after T."""
    def f(count):
        t = min(int(count), total_steps)
        return eta_min + (init_value - eta_min) * (1 + math.cos(math.pi * t / total_steps)) / 2
    return f


def linear(init_value, end_value, total_steps):
    """Linear interpolation from init to end over total_steps, then constant."""
    def f(count):
        t = min(int(count), total_steps) / total_steps if total_steps else 1.0
        return init_value + (end_value - init_value) * t
    return f


def linear_warmup(peak_value, warmup_steps, start_factor=0.0):
    """LinearLR-style warmup from start_factor * peak to peak over warmup_steps."""
    return linear(peak_value * start_factor, peak_value, warmup_steps)


def join(schedules, boundaries):
    """Schedule i runs from boundaries[i-1] on, with its count restarted at 0 there."""
    if len(boundaries) != len(schedules) - 1:
        raise ValueError(f"join: {len(schedules)} schedules need {len(schedules) - 1} boundaries, got {len(boundaries)}")

    def f(count):
        count = int(count)
        i = bisect.bisect_right(boundaries, count)
        start = boundaries[i - 1] if i else 0
        return schedules[i](count - start)
    return f


def warmup_cosine(peak_value, warmup_steps, total_steps, eta_min=0.0, start_factor=0.0):
    """Linear warmup to peak, then cosine decay to eta_min at total_steps."""
    return join([linear_warmup(peak_value, warmup_steps, start_factor),
                 cosine(peak_value, total_steps - warmup_steps, eta_min)], [warmup_steps])


def polynomial(init_value, total_steps, power=1.0):
    """PolynomialLR: init * (1 - min(count, T) / T) ** power (0 from T on)."""
    return lambda count: init_value * (1.0 - min(total_steps, count) / total_steps) ** power


def warm_restart_position(epoch, T_0, T_mult=1):
    """CosineAnnealingWarmRestarts' ``(T_cur, T_i)`` at a (possibly fractional) epoch: the position in the
    current cycle and that cycle's length (cycle lengths T_0, T_0 T_mult, T_0 T_mult**2, ...)."""
    if epoch < T_0:
        return epoch, T_0
    if T_mult == 1:
        return epoch % T_0, T_0
    n = int(math.log((epoch / T_0 * (T_mult - 1) + 1), T_mult))
    return epoch - T_0 * (T_mult ** n - 1) / (T_mult - 1), T_0 * T_mult ** n


def cosine_in_cycle(init_value, eta_min, t_cur, t_i):
    """eta_min + (init - eta_min) (1 + cos(pi t_cur / t_i)) / 2."""
    return eta_min + (init_value - eta_min) * (1 + math.cos(math.pi * t_cur / t_i)) / 2


def cosine_warm_restarts(init_value, T_0, T_mult=1, eta_min=0.0):
    """SGDR (CosineAnnealingWarmRestarts): cosine from init to eta_min over each cycle, then restart."""
    def f(count):
        t_cur, t_i = warm_restart_position(count, T_0, T_mult)
        return cosine_in_cycle(init_value, eta_min, t_cur, t_i)
    return f


_CYCLIC_SCALES = {"triangular": (lambda gamma, x: 1.0, "cycle"),
                  "triangular2": (lambda gamma, x: 1 / (2.0 ** (x - 1)), "cycle"),
                  "exp_range": (lambda gamma, x: gamma ** x, "iterations")}


def cyclic_factors(count, step_size_up, step_size_down=None, mode="triangular", gamma=1.0, scale_fn=None,
                   scale_mode="cycle"):
    """CyclicLR's ``(height, scale)`` at ``count``: the position in the triangle (0 at the base, 1 at the
    peak) and the amplitude scale; lr = base + (max - base) * height * scale."""
    up = float(step_size_up)
    total = up + (float(step_size_down) if step_size_down is not None else up)
    ratio = up / total
    cycle = math.floor(1 + count / total)
    x = 1.0 + count / total - cycle
    height = x / ratio if x <= ratio else (x - 1) / (ratio - 1)
    if scale_fn is None:
        if mode not in _CYCLIC_SCALES:
            raise ValueError("mode is invalid and scale_fn is None")
        fn, scale_mode = _CYCLIC_SCALES[mode]
        scale_fn = lambda x: fn(gamma, x)  # noqa: E731
    return height, scale_fn(cycle if scale_mode == "cycle" else count)


def cyclic(base_lr, max_lr, step_size_up=2000, step_size_down=None, mode="triangular", gamma=1.0, scale_fn=None,
           scale_mode="cycle"):
    """CyclicLR: a triangle wave between base_lr and max_lr (``mode`` triangular, triangular2: halved
    amplitude each cycle, exp_range: amplitude gamma**count; or a custom ``scale_fn`` of the cycle number
    or the count, per ``scale_mode``)."""
    cyclic_factors(0, step_size_up, step_size_down, mode, gamma, scale_fn, scale_mode)  # validates mode

    def f(count):
        height, s = cyclic_factors(count, step_size_up, step_size_down, mode, gamma, scale_fn, scale_mode)
        return base_lr + (max_lr - base_lr) * height * s
    return f
