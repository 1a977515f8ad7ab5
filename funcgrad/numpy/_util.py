"""Argument handling shared by the funcgrad.numpy functions."""

from __future__ import annotations

import numpy as np

from ..core import Array, Tracer, asarray as _core_asarray

from ._validate import AxisError, axes_tuple, axis_index  # noqa: F401  (AxisError re-exported)


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


def normalize_axis(axis, ndim, argname="axis", fname=None):
    """One axis -> its non-negative index (see _validate.axis_index)."""
    return axis_index(axis, ndim, fname, argname)


def normalize_axes(axis, ndim, fname=None, *, ufunc_reduce=False, lists=True):
    """None -> all axes; int or tuple -> sorted tuple of non-negative axes (see _validate.axes_tuple)."""
    return axes_tuple(axis, ndim, fname, ufunc_reduce=ufunc_reduce, lists=lists)


def no_out(out, fname):
    if out is not None:
        raise TypeError(
            f"{fname}: the 'out' argument is not supported: funcgrad arrays are immutable "
            "(use the returned array, or x.at[...].set(...) for updates)"
        )


def dtype_of(x):
    return np.result_type(x) if isinstance(x, (int, float, complex, bool)) else np.dtype(x.dtype)
