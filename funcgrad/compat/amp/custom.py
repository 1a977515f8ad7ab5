"""``torch.amp.custom_fwd`` / ``custom_bwd``: autocast for ``autograd.Function`` forward/backward methods."""

from __future__ import annotations

import functools

import numpy as np

from . import policy
from .autocast_mode import autocast, get_autocast_dtype, is_autocast_enabled

__all__ = ["custom_fwd", "custom_bwd"]


def _cast(value, device_type, dtype):
    """Floating tensors of ``device_type`` (not float64) in ``value`` (nested lists/tuples/dicts) -> ``dtype``."""
    if isinstance(value, dict):
        return {k: _cast(v, device_type, dtype) for k, v in value.items()}
    return policy._cast_arg(value, "lower", {device_type: np.dtype(dtype.dtype)})


def custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    """Decorate ``forward``: without ``cast_inputs`` it runs in the caller's autocast state (recorded for
    :func:`custom_bwd`); with it, inside an enabled region, floating inputs are cast to ``cast_inputs``
    and ``forward`` runs with autocast off."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        args[0]._dtype = get_autocast_dtype(device_type)
        if cast_inputs is None:
            args[0]._fwd_used_autocast = is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        autocast_context = is_autocast_enabled(device_type)
        args[0]._fwd_used_autocast = False
        if autocast_context:
            with autocast(device_type=device_type, enabled=False):
                return fwd(*_cast(args, device_type, cast_inputs), **_cast(kwargs, device_type, cast_inputs))
        return fwd(*args, **kwargs)

    return decorate_fwd


def custom_bwd(bwd=None, *, device_type):
    """Decorate ``backward``: it runs in the autocast state its ``forward`` ran in."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        with autocast(device_type=device_type, enabled=args[0]._fwd_used_autocast, dtype=args[0]._dtype):
            return bwd(*args, **kwargs)

    return decorate_bwd
