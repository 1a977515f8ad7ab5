"""Elementwise functions (numpy names, broadcasting and dtype promotion)."""

from __future__ import annotations

import numpy as np

from ..primitives import elementwise as _ew
from ..primitives.stop_gradient import stop_gradient
from ..backend import kind_of
from ._util import dtype_of, no_out, operand
from ._validate import python_int
from ._indexing import nonzero

__all__ = [
    "add", "subtract", "multiply", "divide", "true_divide", "negative", "positive", "power",
    "pow", "sqrt", "abs", "absolute", "exp", "log", "sin", "cos", "tanh", "maximum",
    "minimum", "less", "less_equal", "greater", "greater_equal", "equal", "not_equal",
    "where", "sign", "square", "astype", "logical_not", "logical_and", "logical_or",
    "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "invert", "bitwise_not",
    "log1p", "expm1", "logaddexp", "isnan", "isinf", "isfinite",
]


def _unary(prim_fn, name):
    def f(x, /, out=None):
        if out is not None:
            no_out(out, name)
        if type(x) is int:
            python_int(x, name)
        return prim_fn(x)  # bind itself turns lists and other array-likes into arrays

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"numpy.{name}, differentiable (forward and reverse mode, any order)."
    return f


def _binary(prim_fn, name):
    def f(x1, x2, /, out=None):
        if out is not None:
            no_out(out, name)
        if type(x1) is int and type(x2) is int:  # one array operand: numpy's own OverflowError
            python_int(x1, name, "x1")
            python_int(x2, name, "x2")
        return prim_fn(x1, x2)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"numpy.{name} with broadcasting, differentiable (any order)."
    return f


add = _binary(_ew.add, "add")
subtract = _binary(_ew.subtract, "subtract")
multiply = _binary(_ew.multiply, "multiply")
divide = true_divide = _binary(_ew.divide, "divide")
power = pow = _binary(_ew.power, "power")
maximum = _binary(_ew.maximum, "maximum")
minimum = _binary(_ew.minimum, "minimum")
less = _binary(_ew.less, "less")
less_equal = _binary(_ew.less_equal, "less_equal")
greater = _binary(_ew.greater, "greater")
greater_equal = _binary(_ew.greater_equal, "greater_equal")
equal = _binary(_ew.equal, "equal")
not_equal = _binary(_ew.not_equal, "not_equal")
logical_and = _binary(_ew.logical_and, "logical_and")
logaddexp = _binary(_ew.logaddexp, "logaddexp")
logical_or = _binary(_ew.logical_or, "logical_or")
logical_xor = _binary(_ew.logical_xor, "logical_xor")
bitwise_and = _binary(_ew.bitwise_and, "bitwise_and")
bitwise_or = _binary(_ew.bitwise_or, "bitwise_or")
bitwise_xor = _binary(_ew.bitwise_xor, "bitwise_xor")
invert = bitwise_not = _unary(_ew.invert, "invert")

negative = _unary(_ew.negative, "negative")
sqrt = _unary(_ew.sqrt, "sqrt")
abs = absolute = _unary(_ew.absolute, "absolute")
exp = _unary(_ew.exp, "exp")
log = _unary(_ew.log, "log")
sin = _unary(_ew.sin, "sin")
cos = _unary(_ew.cos, "cos")
tanh = _unary(_ew.tanh, "tanh")
sign = _unary(_ew.sign, "sign")
square = _unary(_ew.square, "square")
logical_not = _unary(_ew.logical_not, "logical_not")
log1p = _unary(_ew.log1p, "log1p")
expm1 = _unary(_ew.expm1, "expm1")
isnan = _unary(_ew.isnan, "isnan")
isinf = _unary(_ew.isinf, "isinf")
isfinite = _unary(_ew.isfinite, "isfinite")


def positive(x, /):
    return operand(x)


def where(condition, x=None, y=None, /):
    """numpy.where(condition, x, y); the one-argument form is nonzero(condition)."""
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    c = operand(condition)
    if dtype_of(c) != np.bool_:
        c = _ew.not_equal(c, 0)
    return _ew.where(c, operand(x), operand(y))


def astype(x, dtype, /, *, copy=True):
    """x cast to dtype; casting to an integer or bool dtype cuts the derivative (it is zero)."""
    x = operand(x)
    dtype = np.dtype(dtype)
    if dtype_of(x) == dtype:
        return x
    if kind_of(dtype) not in "fc":
        x = stop_gradient(x)
    return _ew.convert(x, dtype)
