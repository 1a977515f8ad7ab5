"""Rounding and remainders: floor/ceil/round/trunc/frac, floor_divide, remainder (%), fmod.

Rounding ops have zero derivative almost everywhere: PyTorch still records
them (the result requires grad, its gradient is zero).  They are computed here
as ``x - stop_gradient(x - rounded)``-free compositions: the value comes from
numpy and the recorded node is ``x * 0``-free — see _zero_grad.
"""

from __future__ import annotations

import numpy as np

from ..primitives.elementwise import where_p
from ._dispatch import FUNCS, METHODS, apply, as_t, name_grad, op, promote
from .tensor import Tensor, wrap


def _zero_grad(x, buf, name):
    """``buf`` as a result of x: recorded (requires grad if x does) with a zero gradient."""
    if not (isinstance(x, Tensor) and x.requires_grad):
        return wrap(buf)
    # where(False, x, value): the core's where rule sends x a zero cotangent
    r = apply(where_p, wrap(np.zeros(buf.shape, bool)), x, wrap(buf))
    return name_grad(r, name)


def _rounding(name, fn):
    def f(input, *, out=None, decimals=0):
        x = as_t(input)
        if decimals:
            buf = np.asarray(np.round(x._value, decimals))
        else:
            buf = np.asarray(fn(x._value)) if x._value.dtype.kind == "f" else x._value.copy()
        return _zero_grad(x, buf, name.title() + "Backward0")
    f.__name__ = name
    op(name)(f)
    return f


floor = _rounding("floor", np.floor)
ceil = _rounding("ceil", np.ceil)
round = _rounding("round", np.round)  # noqa: A001  (half to even, as PyTorch)
trunc = _rounding("trunc", np.trunc)
op("fix")(trunc)


@op("frac")
def frac(input):
    return name_grad(FUNCS["sub"](input, trunc(input)), "FracBackward0")


def _int_zero_check(b):
    bv = b._value if isinstance(b, Tensor) else np.asarray(b)
    if np.any(bv == 0):
        raise RuntimeError("ZeroDivisionError")


@op("floor_divide")
def floor_divide(input, other):
    (a, b), npd = promote(as_t(input), as_t(other))
    if npd.kind in "iub":
        _int_zero_check(b)
    av = a._value if isinstance(a, Tensor) else a
    bv = b._value if isinstance(b, Tensor) else b
    with np.errstate(divide="ignore", invalid="ignore"):
        buf = np.asarray(np.floor_divide(av, bv)).astype(npd)
    src = a if isinstance(a, Tensor) and a.requires_grad else b
    return _zero_grad(src, buf, "FloorDivideBackward0") if isinstance(src, Tensor) else wrap(buf)


def _mod(name, sign_of_divisor):
    def f(input, other, *, out=None):
        (a, b), npd = promote(as_t(input), as_t(other))
        if npd.kind in "iub":
            _int_zero_check(b)
            av = a._value if isinstance(a, Tensor) else a
            bv = b._value if isinstance(b, Tensor) else b
            buf = np.asarray(np.mod(av, bv) if sign_of_divisor else np.fmod(av, bv)).astype(npd)
            return wrap(buf)
        # a - b * q with q = floor(a / b) or trunc(a / b) (no gradient through q)
        q = floor_divide(a, b) if sign_of_divisor else trunc(FUNCS["div"](a, b))
        q = wrap(q._value)
        return name_grad(FUNCS["sub"](a, FUNCS["mul"](b, q)), name)
    return f


remainder = op("remainder")(_mod("RemainderBackward0", True))
fmod = op("fmod")(_mod("FmodBackward0", False))
METHODS["__mod__"] = remainder
METHODS["__rmod__"] = lambda self, other: remainder(as_t(other), self)
METHODS["__floordiv__"] = floor_divide
METHODS["__rfloordiv__"] = lambda self, other: floor_divide(as_t(other), self)
