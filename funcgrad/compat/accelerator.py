"""torch.accelerator: the device-agnostic accelerator API, over funcgrad's CUDA backend (cupy).

Without a GPU (or without cupy) there is no accelerator: ``is_available()`` is False,
``current_accelerator()`` None, ``device_count()`` 0, and the rest raise PyTorch's RuntimeError.
"""

from __future__ import annotations

import contextlib

from .. import backend

__all__ = ["is_available", "current_accelerator", "device_count", "current_device_index", "current_device_idx",
           "set_device_index", "set_device_idx", "device_index", "synchronize", "empty_cache", "empty_host_cache",
           "memory_allocated", "memory_reserved", "memory_stats", "get_memory_info", "get_device_capability"]

_NONE = "Cannot access accelerator device when none is available."


def _xp():
    if not backend.cuda_available():
        raise RuntimeError(_NONE)
    return backend._cupy().xp


def is_available():
    return backend.cuda_available() and device_count() > 0


def current_accelerator(check_available=False):
    """``device('cuda')`` when a GPU is usable, else None."""
    from .device import device  # noqa: PLC0415

    return device("cuda") if is_available() else None


def device_count():
    return len(backend.devices("cuda")) if backend.cuda_available() else 0


def current_device_index():
    return int(_xp().cuda.runtime.getDevice())


def set_device_index(device):
    from .device import device as _device  # noqa: PLC0415

    idx = device if isinstance(device, int) else (_device(device).index or 0)
    _xp().cuda.runtime.setDevice(int(idx))


current_device_idx = current_device_index
set_device_idx = set_device_index


@contextlib.contextmanager
def device_index(device):
    """Within the context, ``device`` (an index; None: no change) is the current accelerator."""
    if device is None:
        yield
        return
    prev = current_device_index()
    set_device_index(device)
    try:
        yield
    finally:
        set_device_index(prev)


def synchronize(device=None):
    xp = _xp()
    with device_index(device if isinstance(device, int) or device is None else (device.index or 0)):
        xp.cuda.runtime.deviceSynchronize()


def empty_cache():
    _xp().get_default_memory_pool().free_all_blocks()


def empty_host_cache():
    _xp().get_default_pinned_memory_pool().free_all_blocks()


def memory_allocated(device_index=None):
    return int(_xp().get_default_memory_pool().used_bytes())


def memory_reserved(device_index=None):
    return int(_xp().get_default_memory_pool().total_bytes())


def memory_stats(device_index=None):
    """The current figures cupy's memory pool keeps (it keeps no peaks or counts)."""
    return {"allocated_bytes.all.current": memory_allocated(), "reserved_bytes.all.current": memory_reserved()}


def get_memory_info(device_index=None):
    """(free, total) bytes of the device."""
    free, total = _xp().cuda.runtime.memGetInfo()
    return int(free), int(total)


def get_device_capability(device=None):
    """{'supported_dtypes': the dtypes tensors on the device can hold} (cupy has no bfloat16)."""
    _xp()
    from . import dtypes  # noqa: PLC0415

    names = ("float16", "float32", "float64", "complex64", "complex128", "int8", "int16", "int32", "int64",
             "uint8", "bool")
    return {"supported_dtypes": {getattr(dtypes, n) for n in names}}
