"""Rounding and remainders: floor/ceil/round/trunc/frac, floor_divide, remainder (%), fmod.

All bind the core's primitives (rounding ones have zero derivative almost
everywhere; PyTorch still records them, so results require grad and the
gradient is zero).  Integer division by zero raises, as PyTorch does.
"""

from __future__ import annotations


from ..core import REGISTRY
from . import dtypes
from ._dispatch import FUNCS, METHODS, apply, as_t, name_grad, op, promote
from .tensor import Tensor, wrap


def _rounding(name, prim_name):
    prim = REGISTRY[prim_name]

    def f(input, *, decimals=0, out=None):
        x = as_t(input)
        if x._value.dtype.kind in "biu":
            return wrap(x._value.copy())
        if decimals:
            return name_grad(apply(REGISTRY["round"], x, decimals=int(decimals)), "RoundBackward1")
        return name_grad(apply(prim, x), name.title() + "Backward0")
    f.__name__ = name
    op(name)(f)
    return f


floor = _rounding("floor", "floor")
ceil = _rounding("ceil", "ceil")
round = _rounding("round", "rint")  # noqa: A001  (half to even, as PyTorch)
trunc = _rounding("trunc", "trunc")
op("fix")(trunc)


@op("frac")
def frac(input):
    return name_grad(FUNCS["sub"](input, trunc(input)), "FracBackward0")


def _int_zero_check(npd, b):
    if npd.kind in "iub":
        if bool((b._value == 0).any()) if isinstance(b, Tensor) else b == 0:
            raise RuntimeError("ZeroDivisionError")


def _division(name, prim_name, grad_name):
    prim = REGISTRY[prim_name]

    def f(input, other, *, out=None):
        (a, b), npd = promote(as_t(input), as_t(other))
        _int_zero_check(npd, b)
        r = apply(prim, a, b)
        if r._value.dtype != npd:
            from ._dispatch import cast  # noqa: PLC0415

            r = cast(r, npd)
        return name_grad(r, grad_name)
    f.__name__ = name
    return op(name)(f)


floor_divide = _division("floor_divide", "floor_divide", "FloorDivideBackward0")
remainder = _division("remainder", "remainder", "RemainderBackward0")  # the divisor's sign
fmod = _division("fmod", "fmod", "FmodBackward0")  # the dividend's sign
METHODS["__mod__"] = remainder
METHODS["__rmod__"] = lambda self, other: remainder(as_t(other), self)
METHODS["__floordiv__"] = floor_divide
METHODS["__rfloordiv__"] = lambda self, other: floor_divide(as_t(other), self)
_ = dtypes
