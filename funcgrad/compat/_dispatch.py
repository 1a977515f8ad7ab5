"""Shared helpers of the ops modules: operands, PyTorch promotion, method registration."""

from __future__ import annotations

import numpy as np

from ..core import Array, Tracer, bind
from ..primitives.elementwise import convert_p
from . import _validate, dtypes
from .tensor import TENSOR_TYPES, Tensor, _dim, wrap
from ._out import write_out  # noqa: F401  (re-exported: the ops modules write out= through it)

__all__ = ["FUNCS", "METHODS", "op", "method", "as_t", "promote", "apply", "cast", "norm_dim", "float_input",
           "name_grad", "ints"]

FUNCS: dict = {}  # torch.<name>
METHODS: dict = {}  # Tensor.<name>


def op(*names, method=True, func=True):
    """Register ``fn(input, ...)`` as torch.<name> and (if ``method``) Tensor.<name>."""
    def deco(fn):
        for n in names:
            if func:
                FUNCS[n] = fn
            if method:
                METHODS[n] = fn
        return fn
    return deco


def method(*names):
    return op(*names, func=False)


# compat operations apply primitives with ``bind``, like every caller: a Tensor is the compat
# trace's tracer, a funcgrad tracer goes to its own (higher) trace
apply = bind


def as_t(x):
    """Tensors, funcgrad Arrays and numbers as they are; other data -> Tensor."""
    if isinstance(x, (Tensor, int, float, bool, complex)):
        return x
    if isinstance(x, Tracer):
        return x
    if isinstance(x, Array):  # a funcgrad constant: stays one (it follows the tensors' device, see graph.py)
        return x
    if x is None or isinstance(x, (str, bytes, dict, set)):  # PyTorch's argument parser: a TypeError
        raise TypeError(f"expected a Tensor or a number as an operand, got {type(x).__name__}")
    from .creation import tensor  # noqa: PLC0415

    return tensor(x) if not isinstance(x, np.ndarray) else wrap(np.array(x))


def tensor_arg(x, fname, name="input", position=1):
    """PyTorch's check of an argument that must be a Tensor (funcgrad values count as one)."""
    if not isinstance(x, (Tensor, Tracer, Array)):
        raise TypeError(f"{fname}(): argument '{name}' (position {position}) must be Tensor, not {type(x).__name__}")
    return x


def cast(x, npd):
    """Tensor x converted to numpy dtype npd (recorded, so gradients flow)."""
    if type(x) in TENSOR_TYPES:
        if x._value.dtype == npd:
            return x
        return apply(convert_p, x, dtype=npd)
    if isinstance(x, (Tracer, Array)):
        return bind(convert_p, x, dtype=npd) if x.dtype != npd else x
    return x


def promote(*xs):
    """Cast tensor operands to PyTorch's result dtype (numbers stay weak)."""
    npd = dtypes.result_np(*xs)
    return [cast(x, npd) for x in xs], npd


def float_input(x):
    """Integer/bool tensors -> default float (PyTorch's unary float ops)."""
    if dtypes.buf_of(x).dtype.kind in "biu":
        return cast(x, dtypes.get_default_dtype().dtype)
    return x


def norm_dim(dim, ndim, fname=None):
    """One dim, or a sorted tuple of distinct dims (checked by _validate.dims)."""
    d = _validate.dims(dim, ndim, fname)
    return tuple(sorted(d)) if type(d) is tuple else d


def name_grad(t, name):
    """Give the result's grad_fn PyTorch's name (ops composed of several primitives)."""
    fn = getattr(t, "grad_fn", None)
    if fn is not None:
        fn.name_ = name
    return t


def ints(args, fname=None, name="size"):
    """``f(2, 3)`` or ``f((2, 3))`` -> (2, 3); a float/bool/None size is a TypeError (_validate.sizes)."""
    return _validate.sizes(args, fname, name)
