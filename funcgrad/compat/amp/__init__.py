"""torch.amp: automatic mixed precision (``autocast`` regions, ``GradScaler``); docs/compat.md, "Mixed precision"."""

from __future__ import annotations

from .autocast_mode import (  # noqa: F401
    autocast, clear_autocast_cache, get_autocast_cpu_dtype, get_autocast_dtype, get_autocast_gpu_dtype,
    is_autocast_available, is_autocast_cache_enabled, is_autocast_cpu_enabled, is_autocast_enabled,
    set_autocast_cache_enabled, set_autocast_dtype,
)
from .custom import custom_bwd, custom_fwd  # noqa: F401
from .grad_scaler import GradScaler  # noqa: F401
from . import legacy as _legacy

cuda_amp = _legacy.cuda_amp  # torch.cuda.amp
cpu_amp = _legacy.cpu_amp  # torch.cpu.amp

__all__ = ["autocast", "GradScaler", "is_autocast_available", "custom_fwd", "custom_bwd"]
