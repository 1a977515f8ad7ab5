"""Operators and methods of Array (and of the functional tracers, which inherit them).

funcgrad.core cannot import funcgrad.numpy, so Array's arithmetic is attached
here, once, at import.  Operators bind primitives directly (no wrapper frame):
they are the hot path of user code.
"""

from __future__ import annotations

import numpy as np

from ..core import _TRACER_TYPES, Array, Tracer, bind
from ..primitives import elementwise as _ew
from ..primitives.creation import full_like
from ..primitives.index import IndexUpdateHelper, getitem
from . import _elementwise, _products, _reductions, _shape

_OTHER_OK = (Array, Tracer, int, float, complex, bool, np.ndarray, np.generic, list, tuple)
_FAST = frozenset((Array, float, int))


def _binop(prim_bind, reflected=False):
    """An operator binding the primitive directly; NotImplemented for foreign types."""
    prim = prim_bind.args[0]
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


def _unop(prim_bind):
    prim = prim_bind.args[0]
    return lambda self: bind(prim, self)


def _matmul(self, other):
    if not isinstance(other, _OTHER_OK):
        return NotImplemented
    return _products.matmul(self, other)


def _rmatmul(self, other):
    if not isinstance(other, _OTHER_OK):
        return NotImplemented
    return _products.matmul(other, self)


def _shape_args(args):
    if len(args) == 1 and (args[0] is None or isinstance(args[0], (tuple, list))):
        return args[0]
    return args


def _reshape(self, *shape, order="C"):
    return _shape.reshape(self, _shape_args(shape), order=order)


def _transpose(self, *axes):
    axes = _shape_args(axes)
    return _shape.transpose(self, None if axes in ((), None) else axes)


def _mT(self):
    if self.ndim < 2:
        raise ValueError(f"matrix transpose needs at least 2 dimensions, got shape {self.shape}")
    return _shape.swapaxes(self, -1, -2)


_METHODS = {
    "__add__": _binop(_ew.add), "__radd__": _binop(_ew.add, True),
    "__sub__": _binop(_ew.subtract), "__rsub__": _binop(_ew.subtract, True),
    "__mul__": _binop(_ew.multiply), "__rmul__": _binop(_ew.multiply, True),
    "__truediv__": _binop(_ew.divide), "__rtruediv__": _binop(_ew.divide, True),
    "__pow__": _binop(_ew.power), "__rpow__": _binop(_ew.power, True),
    "__lt__": _binop(_ew.less), "__le__": _binop(_ew.less_equal),
    "__gt__": _binop(_ew.greater), "__ge__": _binop(_ew.greater_equal),
    "__eq__": _compare_with_none(_ew.equal, False), "__ne__": _compare_with_none(_ew.not_equal, True),
    "__and__": _binop(_ew.bitwise_and), "__rand__": _binop(_ew.bitwise_and, True),
    "__or__": _binop(_ew.bitwise_or), "__ror__": _binop(_ew.bitwise_or, True),
    "__xor__": _binop(_ew.bitwise_xor), "__rxor__": _binop(_ew.bitwise_xor, True),
    "__matmul__": _matmul, "__rmatmul__": _rmatmul,
    "__neg__": _unop(_ew.negative), "__pos__": lambda self: self, "__abs__": _unop(_ew.absolute),
    "__invert__": _unop(_ew.invert),
    "__getitem__": getitem,
    "at": property(IndexUpdateHelper, doc="Functional updates: x.at[idx].set(v) returns a new array."),
    "T": property(lambda self: _shape.transpose(self)),
    "mT": property(_mT),
    "astype": lambda self, dtype, copy=True: _elementwise.astype(self, dtype),
    "reshape": _reshape,
    "transpose": _transpose,
    "ravel": lambda self, order="C": _shape.ravel(self, order),
    "flatten": lambda self, order="C": _shape.ravel(self, order),
    "squeeze": lambda self, axis=None: _shape.squeeze(self, axis),
    "swapaxes": lambda self, axis1, axis2: _shape.swapaxes(self, axis1, axis2),
    "sum": lambda self, axis=None, dtype=None, out=None, keepdims=False, **kw: _reductions.sum(self, axis, dtype, out, keepdims, **kw),
    "mean": lambda self, axis=None, dtype=None, out=None, keepdims=False, **kw: _reductions.mean(self, axis, dtype, out, keepdims, **kw),
    "max": lambda self, axis=None, out=None, keepdims=False, **kw: _reductions.max(self, axis, out, keepdims, **kw),
    "min": lambda self, axis=None, out=None, keepdims=False, **kw: _reductions.min(self, axis, out, keepdims, **kw),
    "argmax": lambda self, axis=None, out=None, *, keepdims=False: _reductions.argmax(self, axis, out, keepdims=keepdims),
    "argmin": lambda self, axis=None, out=None, *, keepdims=False: _reductions.argmin(self, axis, out, keepdims=keepdims),
    "dot": lambda self, b: _products.dot(self, b),
    "copy": lambda self: self,
}


def attach(cls=Array, methods=None):
    """Install the methods on ``cls`` (families added later call this with theirs)."""
    for name, fn in (methods or _METHODS).items():
        setattr(cls, name, fn)


attach()
