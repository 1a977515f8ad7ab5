"""Helpers the layer constructors share: n-tuples of sizes, PyTorch's fan-in uniform initialisation,
factory keywords."""

from __future__ import annotations

import math

from . import init

__all__ = []


def _ntuple(v, n):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


def _fan_in_uniform_(tensor, fan_in):
    bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
    return init.uniform_(tensor, -bound, bound)


def _factory(device, dtype):
    return {"device": device, "dtype": dtype}
