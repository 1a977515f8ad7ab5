"""``torch.autocast`` / ``torch.amp.autocast``: regions where ops run in mixed precision (see policy.py)."""

from __future__ import annotations

import functools
import warnings

import numpy as np

from .. import dtypes
from . import policy

__all__ = ["autocast", "is_autocast_available", "is_autocast_enabled", "get_autocast_dtype", "set_autocast_dtype",
           "get_autocast_gpu_dtype", "get_autocast_cpu_dtype", "is_autocast_cpu_enabled", "clear_autocast_cache",
           "is_autocast_cache_enabled", "set_autocast_cache_enabled"]

DEVICE_TYPES = ("cpu", "cuda")
_DEFAULT = {"cpu": dtypes.bfloat16, "cuda": dtypes.float16}
_SUPPORTED = {"cpu": "torch.bfloat16, torch.float16", "cuda": "torch.float16, torch.bfloat16"}


def _state():
    """This thread's autocast state: {device type: [enabled, dtype]}."""
    st = getattr(policy.LOCAL, "state", None)
    if st is None:
        st = policy.LOCAL.state = {d: [False, _DEFAULT[d]] for d in DEVICE_TYPES}
        policy.LOCAL.cache_enabled = True
    return st


def _check_device_type(device_type):
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if device_type not in DEVICE_TYPES:
        raise RuntimeError(f"User specified an unsupported autocast device_type '{device_type}'")


def is_autocast_available(device_type):
    return device_type in DEVICE_TYPES


def is_autocast_enabled(device_type=None):
    """``torch.is_autocast_enabled()``: CUDA's state; ``torch.is_autocast_enabled('cpu')``: that device's."""
    if device_type is None:
        device_type = "cuda"
    _check_device_type(device_type)
    return _state()[device_type][0]


def is_autocast_cpu_enabled():
    return is_autocast_enabled("cpu")


def get_autocast_dtype(device_type):
    _check_device_type(device_type)
    return _state()[device_type][1]


def set_autocast_dtype(device_type, dtype):
    _check_device_type(device_type)
    _state()[device_type][1] = dtype


def get_autocast_gpu_dtype():
    return get_autocast_dtype("cuda")


def get_autocast_cpu_dtype():
    return get_autocast_dtype("cpu")


def clear_autocast_cache():
    policy.LOCAL.cache = {} if getattr(policy.LOCAL, "cache", None) is not None else None


def is_autocast_cache_enabled():
    _state()
    return policy.LOCAL.cache_enabled


def set_autocast_cache_enabled(enabled):
    _state()
    policy.LOCAL.cache_enabled = bool(enabled)


def _active():
    """{device type: numpy dtype} of the enabled regions (what the policy wrappers read), or None."""
    act = {d: np.dtype(dt.dtype) for d, (on, dt) in _state().items() if on}
    return act or None


class autocast:
    """``autocast(device_type, dtype=None, enabled=True, cache_enabled=None)``: a context manager and
    a decorator.  Inside, the ops of the policy table (policy.py) on tensors of ``device_type`` run
    in ``dtype`` (lower-precision ops: matmul, linear, conv, ...) or in float32 (softmax, losses,
    norms, exp, log, sum, ...); gradients flow back through the casts to the float32 weights."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        _check_device_type(device_type)
        self.device = device_type
        self.fast_dtype = _DEFAULT[device_type] if dtype is None else dtype
        self._enabled = bool(enabled)
        self._cache_enabled = cache_enabled
        if not self._enabled:
            return
        if device_type == "cuda":
            from ... import backend  # noqa: PLC0415

            if not backend.cuda_available():
                warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", stacklevel=2)
                self._enabled = False
                return
        if self.fast_dtype is dtypes.bfloat16 and device_type == "cuda":  # cupy has no bfloat16 dtype
            raise RuntimeError(
                "autocast(device_type='cuda') to torch.bfloat16 is not supported by funcgrad.compat: cupy has "
                "no bfloat16 dtype; pass dtype=torch.float16 (or autocast on the cpu)")
        if self.fast_dtype is not dtypes.float16 and self.fast_dtype is not dtypes.bfloat16:
            name = "CPU" if device_type == "cpu" else "CUDA"
            warnings.warn(f"In {name} autocast, but the target dtype is not supported. Disabling autocast.\n"
                          f"{name} Autocast only supports dtypes of {_SUPPORTED[device_type]} currently.",
                          stacklevel=2)
            self._enabled = False

    def __enter__(self):
        st = _state()
        loc = policy.LOCAL
        self._prev = (list(st[self.device]), loc.cache_enabled, getattr(loc, "active", None))
        st[self.device] = [self._enabled, self.fast_dtype]
        if self._cache_enabled is not None:
            loc.cache_enabled = bool(self._cache_enabled)
        depth = getattr(loc, "depth", 0)  # nesting of regions (enabled or not) in this thread
        loc.depth = depth + 1
        if depth == 0:
            loc.cache = {} if loc.cache_enabled else None
        loc.active = _active()
        if self._enabled:
            policy.install()
        return self

    def __exit__(self, *exc):
        st = _state()
        loc = policy.LOCAL
        if self._enabled:
            policy.uninstall()
        st[self.device], loc.cache_enabled, loc.active = self._prev
        loc.depth -= 1
        if loc.depth == 0:
            loc.cache = None  # PyTorch clears the cast cache when the outermost region exits
        return False

    def __call__(self, func):
        """As a decorator: each call of ``func`` runs in a fresh region with these settings."""
        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self._clone():
                return func(*args, **kwargs)

        return decorate_autocast

    def _clone(self):
        c = object.__new__(type(self))
        c.__dict__.update({k: v for k, v in self.__dict__.items() if k != "_prev"})
        return c
