"""Array's Python operators and attributes, over the primitives (attached when funcgrad.primitives
is imported; the functional tracers inherit them).

Arithmetic, comparisons, bitwise operators, ``@``, ``//``, ``%``, ``divmod``, unary ``-``/``+``/
``abs``/``~``, indexing, ``x.at[...]``, ``.T``, ``.mT`` and ``.astype``.  The operators bind
their primitive directly (no wrapper frame): they are the hot path of user code.  The methods
that are numpy functions with numpy's signatures (``x.sum(axis, dtype, keepdims)``,
``x.reshape``, ...) are attached by funcgrad.numpy, which defines those functions.
"""

from __future__ import annotations

import numpy as np

from ..backend import kind_of
from ..core import _TRACER_TYPES, Array, Tracer, asarray, bind
from . import elementwise as _ew
from . import rounding as _rd
from .creation import full_like
from .index import IndexUpdateHelper, getitem
from .linalg import matmul
from .shape import transpose
from .stop_gradient import stop_gradient

__all__ = ["attach", "binary_operator"]

_OTHER_OK = (Array, Tracer, int, float, complex, bool, np.ndarray, np.generic, list, tuple)
_FAST = frozenset((Array, float, int))


def binary_operator(prim_bind, reflected=False):
    """An operator binding the primitive directly; NotImplemented for foreign types."""
    prim = prim_bind.args[0]  # prim.bind is functools.partial(bind, prim)
    if reflected:
        def op(self, other):
            t = type(other)
            if t not in _FAST and t not in _TRACER_TYPES and not isinstance(other, _OTHER_OK):
                return NotImplemented
            return bind(prim, other, self)
    else:
        def op(self, other):
            t = type(other)
            if t not in _FAST and t not in _TRACER_TYPES and not isinstance(other, _OTHER_OK):
                return NotImplemented
            return bind(prim, self, other)
    return op


def _compare_with_none(prim_bind, value_for_none):
    """``x == None`` / ``x != None``: elementwise False / True of x's shape, as numpy."""
    prim = prim_bind.args[0]

    def compare(self, other):
        t = type(other)
        if t not in _FAST and t not in _TRACER_TYPES and not isinstance(other, _OTHER_OK):
            if other is None:
                return full_like(self, value_for_none, dtype=np.bool_)
            return NotImplemented
        return bind(prim, self, other)
    return compare


def _unary_operator(prim_bind):
    prim = prim_bind.args[0]
    return lambda self: bind(prim, self)


def _as_operand(x):
    return x if isinstance(x, (Array, Tracer)) else asarray(x)


def _matmul_operands(a, b):
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(
            f"matmul: Input operand {0 if a.ndim == 0 else 1} does not have enough dimensions "
            "(a 0-d array); use multiply (*) for scalars"
        )
    return matmul(a, b)


def _matmul(self, other):
    if not isinstance(other, _OTHER_OK):
        return NotImplemented
    return _matmul_operands(self, _as_operand(other))


def _rmatmul(self, other):
    if not isinstance(other, _OTHER_OK):
        return NotImplemented
    return _matmul_operands(_as_operand(other), self)


def _transposed(self):
    n = self.ndim
    return self if n < 2 else transpose(self, tuple(range(n - 1, -1, -1)))


def _matrix_transposed(self):
    n = self.ndim
    if n < 2:
        raise ValueError(f"matrix transpose needs at least 2 dimensions, got shape {self.shape}")
    return transpose(self, tuple(range(n - 2)) + (n - 1, n - 2))


def _astype(self, dtype, copy=True):
    """x cast to dtype; casting to an integer or bool dtype cuts the derivative (it is zero)."""
    dtype = np.dtype(dtype)
    if self.dtype == dtype:
        return self
    return _ew.convert(self if kind_of(dtype) in "fc" else stop_gradient(self), dtype)


def _divmod(self, other):
    return _rd.floor_divide(self, other), _rd.remainder(self, other)


def _rdivmod(self, other):
    return _rd.floor_divide(other, self), _rd.remainder(other, self)


OPERATORS = {
    "__add__": binary_operator(_ew.add), "__radd__": binary_operator(_ew.add, True),
    "__sub__": binary_operator(_ew.subtract), "__rsub__": binary_operator(_ew.subtract, True),
    "__mul__": binary_operator(_ew.multiply), "__rmul__": binary_operator(_ew.multiply, True),
    "__truediv__": binary_operator(_ew.divide), "__rtruediv__": binary_operator(_ew.divide, True),
    "__floordiv__": binary_operator(_rd.floor_divide), "__rfloordiv__": binary_operator(_rd.floor_divide, True),
    "__mod__": binary_operator(_rd.remainder), "__rmod__": binary_operator(_rd.remainder, True),
    "__pow__": binary_operator(_ew.power), "__rpow__": binary_operator(_ew.power, True),
    "__divmod__": _divmod, "__rdivmod__": _rdivmod,
    "__lt__": binary_operator(_ew.less), "__le__": binary_operator(_ew.less_equal),
    "__gt__": binary_operator(_ew.greater), "__ge__": binary_operator(_ew.greater_equal),
    "__eq__": _compare_with_none(_ew.equal, False), "__ne__": _compare_with_none(_ew.not_equal, True),
    "__and__": binary_operator(_ew.bitwise_and), "__rand__": binary_operator(_ew.bitwise_and, True),
    "__or__": binary_operator(_ew.bitwise_or), "__ror__": binary_operator(_ew.bitwise_or, True),
    "__xor__": binary_operator(_ew.bitwise_xor), "__rxor__": binary_operator(_ew.bitwise_xor, True),
    "__matmul__": _matmul, "__rmatmul__": _rmatmul,
    "__neg__": _unary_operator(_ew.negative), "__pos__": lambda self: self,
    "__abs__": _unary_operator(_ew.absolute), "__invert__": _unary_operator(_ew.invert),
    "__getitem__": getitem,
    "at": property(IndexUpdateHelper, doc="Functional updates: x.at[idx].set(v) returns a new array."),
    "T": property(_transposed),
    "mT": property(_matrix_transposed),
    "astype": _astype,
}


def attach(methods, cls=Array):
    """Install ``methods`` (name -> function or property) on ``cls``."""
    for name, fn in methods.items():
        setattr(cls, name, fn)


attach(OPERATORS)
