"""Learning-rate schedules: functions ``step -> lr`` (step counts from 0).

Pass one as an optimizer's ``lr``: the optimizer evaluates it at its step count.
Formulas follow torch.optim.lr_scheduler (evaluated in closed form).
"""

from __future__ import annotations

import bisect
import math

__all__ = ["constant", "step", "multistep", "exponential", "cosine", "warmup_cosine", "linear", "linear_warmup",
           "join"]


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
    """ExponentialLR: init * gamma ** count."""
    return lambda count: init_value * gamma ** int(count)


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
