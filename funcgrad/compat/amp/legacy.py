"""``torch.cuda.amp`` and ``torch.cpu.amp``: PyTorch's deprecated spellings, which warn and forward
to ``torch.amp`` (with ``device_type`` 'cuda' / 'cpu'); and ``torch.cpu``, whose ``amp`` this is."""

from __future__ import annotations

import types
import warnings

from .. import dtypes
from . import autocast_mode, custom, grad_scaler


def _deprecated(old, device):
    warnings.warn(f"`torch.{device}.amp.{old}(args...)` is deprecated. Please use "
                  f"`torch.amp.{old}('{device}', args...)` instead.", FutureWarning, stacklevel=3)


class _CudaAutocast(autocast_mode.autocast):
    """``torch.cuda.amp.autocast(enabled=True, dtype=torch.float16, cache_enabled=True)`` (deprecated)."""

    def __init__(self, enabled=True, dtype=dtypes.float16, cache_enabled=True):
        _deprecated("autocast", "cuda")
        super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


class _CpuAutocast(autocast_mode.autocast):
    """``torch.cpu.amp.autocast(enabled=True, dtype=torch.bfloat16, cache_enabled=True)`` (deprecated)."""

    def __init__(self, enabled=True, dtype=dtypes.bfloat16, cache_enabled=True):
        _deprecated("autocast", "cpu")
        super().__init__("cpu", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


class _CudaGradScaler(grad_scaler.GradScaler):
    """``torch.cuda.amp.GradScaler(init_scale=2.**16, ...)`` (deprecated)."""

    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 enabled=True):
        _deprecated("GradScaler", "cuda")
        super().__init__("cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled)


class _CpuGradScaler(grad_scaler.GradScaler):
    """``torch.cpu.amp.GradScaler(init_scale=2.**16, ...)`` (deprecated)."""

    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 enabled=True):
        _deprecated("GradScaler", "cpu")
        super().__init__("cpu", init_scale, growth_factor, backoff_factor, growth_interval, enabled)


def _cuda_custom_fwd(fwd=None, *, cast_inputs=None):
    """``torch.cuda.amp.custom_fwd`` (deprecated): ``torch.amp.custom_fwd(device_type='cuda')``."""
    warnings.warn("`torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use "
                  "`torch.amp.custom_fwd(args..., device_type='cuda')` instead.", FutureWarning, stacklevel=2)
    return custom.custom_fwd(fwd, device_type="cuda", cast_inputs=cast_inputs)


def _cuda_custom_bwd(bwd):
    """``torch.cuda.amp.custom_bwd`` (deprecated): ``torch.amp.custom_bwd(device_type='cuda')``."""
    warnings.warn("`torch.cuda.amp.custom_bwd(args...)` is deprecated. Please use "
                  "`torch.amp.custom_bwd(args..., device_type='cuda')` instead.", FutureWarning, stacklevel=2)
    return custom.custom_bwd(bwd, device_type="cuda")


_cuda_custom_fwd.__name__ = "custom_fwd"
_cuda_custom_bwd.__name__ = "custom_bwd"

for _cls, _name in ((_CudaAutocast, "autocast"), (_CpuAutocast, "autocast"), (_CudaGradScaler, "GradScaler"),
                    (_CpuGradScaler, "GradScaler")):
    _cls.__name__ = _cls.__qualname__ = _name


def _module(name, doc, **attrs):
    m = types.ModuleType(name, doc)
    m.__dict__.update(attrs)
    m.__path__ = []  # a package, so that ``import torch.cuda.amp.autocast_mode``-style lookups reach the finder
    return m


cuda_amp = _module("torch.cuda.amp", "torch.cuda.amp (deprecated: torch.amp with device_type 'cuda').",
                   autocast=_CudaAutocast, GradScaler=_CudaGradScaler, custom_fwd=_cuda_custom_fwd,
                   custom_bwd=_cuda_custom_bwd)
cpu_amp = _module("torch.cpu.amp", "torch.cpu.amp (deprecated: torch.amp with device_type 'cpu').",
                  autocast=_CpuAutocast, GradScaler=_CpuGradScaler)
cpu = _module("torch.cpu", "torch.cpu: the host device.", amp=cpu_amp, is_available=lambda: True,
              device_count=lambda: 1, current_device=lambda: "cpu", synchronize=lambda device=None: None)
