"""``x.op_(...)``: the in-place variant of every element-wise op, through :func:`inplace`."""

from __future__ import annotations

from ._dispatch import FUNCS, METHODS
from .inplace import inplace
from .tensor import Tensor

_NAMES = (
    "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "pow", "neg", "negative",
    "abs", "absolute", "sqrt", "rsqrt", "exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan",
    "tanh", "sinh", "cosh", "sigmoid", "relu", "clamp", "clip", "clamp_min", "clamp_max", "reciprocal",
    "square", "sign", "floor", "ceil", "round", "trunc", "frac", "fmod", "remainder", "lerp", "addcmul",
    "addcdiv", "asin", "acos", "atan", "atan2", "arcsin", "arccos", "arctan", "floor_divide", "exp2",
    "logical_not", "logical_and", "logical_or", "bitwise_and", "bitwise_or", "eq", "ne", "lt", "le", "gt",
    "ge", "maximum", "minimum", "addmm", "addmv", "addr", "baddbmm", "addbmm", "tril", "triu", "masked_fill",
    "where", "hypot", "logaddexp", "nan_to_num", "sgn",
)


def _make(fn, name):
    def f(self, *args, **kwargs):
        return inplace(self, lambda s, *a: fn(s, *a, **kwargs), *args, name=None)
    f.__name__ = name + "_"
    return f


def add_inplace_methods(names):
    """``x.op_()`` for each op in ``names`` that compat has and that has no in-place method yet."""
    for n in names:
        if n in FUNCS and n + "_" not in METHODS:
            METHODS[n + "_"] = _make(FUNCS[n], n)


add_inplace_methods(_NAMES)


def _idiv(self, other):
    if self._value.dtype.kind in "biu":
        raise RuntimeError(f"result type Float can't be cast to the desired output type {self.dtype.legacy_name}")
    return METHODS["div_"](self, other)


METHODS.update({
    "__iadd__": METHODS["add_"], "__isub__": METHODS["sub_"], "__imul__": METHODS["mul_"],
    "__itruediv__": _idiv, "__ipow__": METHODS["pow_"],
    "__iand__": METHODS.get("bitwise_and_"), "__ior__": METHODS.get("bitwise_or_"),
})
_ = Tensor
