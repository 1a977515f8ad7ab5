"""Array's methods that are funcgrad.numpy functions with numpy's signatures (``x.sum(axis,
dtype, keepdims)``, ``x.reshape(...)``, ``x.argsort()``, ``x.var(ddof=1)`` ...), attached to
Array once, at import.

Array's operators and its other attributes (``+``, ``@``, ``[]``, ``.at``, ``.T``, ``.astype``,
...) are defined over the primitives, below this layer (funcgrad/primitives/array_operators.py).
numpy's in-place methods (``sort``, ``put``, ``partition``, ``resize``) cannot exist on an
immutable array: they raise a TypeError naming the functional spelling.
"""

from __future__ import annotations

from ..primitives.array_operators import attach
from . import _complex as _c
from . import _indexing, _products, _rearranging, _reductions, _shape, _sorting
from . import _math as _m
from . import _statistics as _s


def _shape_args(args):
    if len(args) == 1 and (args[0] is None or isinstance(args[0], (tuple, list))):
        return args[0]
    return args


def _reshape(self, *shape, order="C"):
    return _shape.reshape(self, _shape_args(shape), order=order)


def _transpose(self, *axes):
    axes = _shape_args(axes)
    return _shape.transpose(self, None if axes in ((), None) else axes)


def _in_place(name, fix):
    def method(self, *args, **kwargs):
        raise TypeError(
            f"Array.{name}() would modify the array in place, and funcgrad Arrays are immutable; "
            f"use {fix}, which returns a new array"
        )

    method.__name__ = name
    return method


def _cumulative(fn):
    return lambda self, axis=None, dtype=None, out=None: fn(self, axis, dtype, out)


_SHAPE_METHODS = {
    "reshape": _reshape,
    "transpose": _transpose,
    "ravel": lambda self, order="C": _shape.ravel(self, order),
    "flatten": lambda self, order="C": _shape.ravel(self, order),
    "squeeze": lambda self, axis=None: _shape.squeeze(self, axis),
    "swapaxes": lambda self, axis1, axis2: _shape.swapaxes(self, axis1, axis2),
    "repeat": lambda self, repeats, axis=None: _rearranging.repeat(self, repeats, axis),
    "copy": lambda self: self,
}

_REDUCTION_METHODS = {
    "sum": lambda self, axis=None, dtype=None, out=None, keepdims=False, **kw: _reductions.sum(self, axis, dtype, out, keepdims, **kw),
    "mean": lambda self, axis=None, dtype=None, out=None, keepdims=False, **kw: _reductions.mean(self, axis, dtype, out, keepdims, **kw),
    "prod": lambda self, axis=None, dtype=None, out=None, keepdims=False, **kw: _reductions.prod(self, axis, dtype, out, keepdims, **kw),
    "max": lambda self, axis=None, out=None, keepdims=False, **kw: _reductions.max(self, axis, out, keepdims, **kw),
    "min": lambda self, axis=None, out=None, keepdims=False, **kw: _reductions.min(self, axis, out, keepdims, **kw),
    "argmax": lambda self, axis=None, out=None, *, keepdims=False: _reductions.argmax(self, axis, out, keepdims=keepdims),
    "argmin": lambda self, axis=None, out=None, *, keepdims=False: _reductions.argmin(self, axis, out, keepdims=keepdims),
    "all": lambda self, axis=None, out=None, keepdims=False, **kw: _reductions.all(self, axis, out, keepdims, **kw),
    "any": lambda self, axis=None, out=None, keepdims=False, **kw: _reductions.any(self, axis, out, keepdims, **kw),
    "cumsum": _cumulative(_reductions.cumsum),
    "cumprod": _cumulative(_reductions.cumprod),
    "var": lambda self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw: _s.var(self, axis, dtype, out, ddof, keepdims, **kw),
    "std": lambda self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw: _s.std(self, axis, dtype, out, ddof, keepdims, **kw),
}

_OTHER_METHODS = {
    "dot": lambda self, b: _products.dot(self, b),
    "vdot": lambda self, b: _products.vdot(self, b),
    "clip": lambda self, min=None, max=None, out=None, **kw: _m.clip(self, min, max, out, **kw),
    "round": lambda self, decimals=0, out=None: _m.round(self, decimals, out),
    "conj": lambda self: _c.conj(self),
    "conjugate": lambda self: _c.conj(self),
    "real": property(lambda self: _c.real(self)),
    "imag": property(lambda self: _c.imag(self)),
    "argsort": lambda self, axis=-1, kind=None, order=None, *, stable=None, descending=False:
        _sorting.argsort(self, axis, kind, order, stable=stable, descending=descending),
    "searchsorted": lambda self, v, side="left", sorter=None: _sorting.searchsorted(self, v, side, sorter),
    "take": lambda self, indices, axis=None, out=None, mode="raise": _indexing.take(self, indices, axis, out, mode),
    "diagonal": lambda self, offset=0, axis1=0, axis2=1: _indexing.diagonal(self, offset, axis1, axis2),
    "trace": lambda self, offset=0, axis1=0, axis2=1, dtype=None, out=None:
        _indexing.trace(self, offset, axis1, axis2, dtype, out),
    "nonzero": lambda self: _indexing.nonzero(self),
    "choose": lambda self, choices, out=None, mode="raise": _indexing.choose(self, choices, out, mode),
    "sort": _in_place("sort", "funcgrad.numpy.sort(x, axis)"),
    "partition": _in_place("partition", "funcgrad.numpy.sort(x, axis)"),
    "put": _in_place("put", "x.at[indices].set(values)"),
    "resize": _in_place("resize", "funcgrad.numpy.resize(x, new_shape)"),
}

for _methods in (_SHAPE_METHODS, _REDUCTION_METHODS, _OTHER_METHODS):
    attach(_methods)
