"""Argument handling shared by the funcgrad.numpy functions."""

from __future__ import annotations

import numpy as np

from ..core import Array, Tracer, asarray as _core_asarray

AxisError = np.exceptions.AxisError


def as_array(x):
    """Array-like -> Array (tracers and Arrays pass through untouched)."""
    if isinstance(x, (Array, Tracer)):
        return x
    return _core_asarray(x)


def operand(x):
    """An operand for a primitive: arrays and Python scalars as they are, other data as Arrays."""
    if isinstance(x, (Array, Tracer, int, float, complex)):
        return x
    return _core_asarray(x)


def normalize_axis(axis, ndim, argname="axis"):
    try:
        a = int(axis)
    except TypeError:
        raise TypeError(f"{argname} must be an integer, got {type(axis).__name__}") from None
    if not -ndim <= a < ndim:
        raise AxisError(a, ndim)
    return a % ndim if ndim else 0


def normalize_axes(axis, ndim):
    """None -> all axes; int or tuple -> sorted tuple of non-negative axes (no repeats)."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(a, ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"duplicate value in 'axis': {axis!r}")
        return tuple(sorted(axes))
    return (normalize_axis(axis, ndim),)


def no_out(out, fname):
    if out is not None:
        raise TypeError(
            f"{fname}: the 'out' argument is not supported: funcgrad arrays are immutable "
            "(use the returned array, or x.at[...].set(...) for updates)"
        )


def dtype_of(x):
    return np.result_type(x) if isinstance(x, (int, float, complex, bool)) else np.dtype(x.dtype)
