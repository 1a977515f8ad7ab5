"""Argument normalizers shared by every funcgrad.numpy function: axis, shape, order, integer
keywords, fill values.  Each raises numpy's exception class for the same mistake (TypeError for
a float, string or bool where an integer is needed, numpy.exceptions.AxisError for an axis out
of range, ValueError for a negative dimension or an unknown order), with a message naming the
function when the caller gives it and the argument.  They are plain function calls (no wrapper
frame), cheap enough for every op: an ``int`` axis costs one type check."""

from __future__ import annotations

import operator

import numpy as np

AxisError = np.exceptions.AxisError

__all__ = ["AxisError", "python_int", "integer", "axis_index", "axes_tuple", "shape_tuple", "order_code", "fill_scalar"]


def _where(fname, argname):
    return f"{fname}(): '{argname}'" if fname else f"'{argname}'"


def integer(value, argname, fname=None, *, allow_bool=True):
    """``operator.index(value)``: a float, string, None or (for axes) bool is a TypeError naming the argument."""
    if type(value) is int:
        return value
    if isinstance(value, (bool, np.bool_)) and not allow_bool:
        raise TypeError(f"{_where(fname, argname)} must be an integer, not a bool ({value!r})")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(
            f"{_where(fname, argname)} must be an integer, got {type(value).__name__} ({value!r}): "
            f"'{type(value).__name__}' object cannot be interpreted as an integer"
        ) from None


def axis_index(axis, ndim, fname=None, argname="axis"):
    """One axis -> its non-negative index; AxisError (naming the function) when out of range."""
    a = axis if type(axis) is int else integer(axis, argname, fname, allow_bool=False)
    if not -ndim <= a < ndim:
        raise AxisError(a, ndim, msg_prefix=fname)
    return a % ndim if ndim else 0


def axes_tuple(axis, ndim, fname=None, argname="axis", *, ufunc_reduce=False, lists=True):
    """None -> all axes; int or tuple/list of ints -> sorted tuple of non-negative axes (no repeats).
    ``ufunc_reduce``: numpy's ufunc reductions take a single axis 0 or -1 on a 0-d array, and
    refuse lists of axes (so do mean/var/std: ``lists=False``)."""
    if axis is None or ufunc_reduce and ndim == 0 and type(axis) is int and axis in (0, -1):
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        if (ufunc_reduce or not lists) and type(axis) is list:  # numpy's ufunc reductions take tuples only
            raise TypeError(f"{_where(fname, argname)} must be an integer or a tuple of integers, got a list "
                            "('list' object cannot be interpreted as an integer)")
        axes = tuple(axis_index(a, ndim, fname, argname) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"{fname + ': ' if fname else ''}duplicate value in '{argname}': {axis!r}")
        return tuple(sorted(axes))
    return (axis_index(axis, ndim, fname, argname),)


def shape_tuple(shape, fname=None, argname="shape", *, allow_unknown=False):
    """An int or a sequence of ints -> a tuple of ints; floats are a TypeError, negative sizes a
    ValueError (``allow_unknown`` lets them through, for reshape, which takes a negative size as
    the unknown one)."""
    if type(shape) is int or isinstance(shape, np.integer) or not hasattr(shape, "__iter__"):
        dims = (integer(shape, argname, fname, allow_bool=False),)
    else:  # any iterable, as numpy (a string's characters are then refused one by one)
        dims = tuple(integer(d, argname, fname) for d in shape)
    if not allow_unknown and any(d < 0 for d in dims):
        raise ValueError(f"{fname + ': ' if fname else ''}negative dimensions are not allowed: {argname}={dims}")
    return dims


def order_code(order, fname=None, allowed="CFAK"):
    """'C', 'F', 'A' or 'K' (any case; None means 'K' as numpy) -> the upper-case letter."""
    if order is None:
        return "K" if "K" in allowed else "C"
    if not isinstance(order, str):
        raise TypeError(f"{fname + ': ' if fname else ''}order must be str, not {type(order).__name__}")
    code = order.upper()
    if code not in tuple(allowed):
        choices = ", ".join(repr(c) for c in allowed[:-1]) + f", or {allowed[-1]!r}" if len(allowed) > 1 else repr(allowed)
        raise ValueError(f"{fname + ': ' if fname else ''}order must be one of {choices} (got {order!r})")
    return code


def fill_scalar(value, fname, argname="fill_value"):
    """A fill value funcgrad can store: None or another object is a TypeError (numpy would make an
    object array, which funcgrad arrays cannot hold)."""
    if value is None or isinstance(value, (str, bytes)) or np.result_type(value).kind in "OSUV":
        raise TypeError(
            f"{fname}(): {argname}={value!r} is not a number: numpy would make an object array, and "
            "funcgrad arrays hold numbers only"
        )
    return value


_INT_RANGE = (-(2 ** 63), 2 ** 64 - 1)  # int64 .. uint64: what a funcgrad array can hold


def python_int(value, fname, argname="x"):
    """A Python int operand that fits a fixed-width integer; beyond uint64 or below int64 an
    OverflowError (numpy would fall back to Python objects, which funcgrad arrays cannot hold)."""
    if not _INT_RANGE[0] <= value <= _INT_RANGE[1]:
        raise OverflowError(
            f"{fname}(): Python integer {argname}={value} is out of bounds for int64 and uint64: "
            "funcgrad arrays hold fixed-width numbers (numpy would compute on Python objects here); "
            "pass a float, or a value in range"
        )
    return value
