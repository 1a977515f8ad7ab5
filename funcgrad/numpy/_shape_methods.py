"""Array methods of the shape / indexing / sorting families (attached at import).

numpy's in-place methods (``sort``, ``put``, ``partition``, ``resize``) cannot exist on an
immutable array: they raise a TypeError naming the functional spelling.
"""

from __future__ import annotations

from ..core import Array
from . import _indexing, _products, _rearranging, _sorting
from ._array_methods import attach


def _in_place(name, fix):
    def method(self, *args, **kwargs):
        raise TypeError(
            f"Array.{name}() would modify the array in place, and funcgrad Arrays are immutable; "
            f"use {fix}, which returns a new array"
        )

    method.__name__ = name
    return method


_METHODS = {
    "argsort": lambda self, axis=-1, kind=None, order=None, *, stable=None, descending=False:
        _sorting.argsort(self, axis, kind, order, stable=stable, descending=descending),
    "searchsorted": lambda self, v, side="left", sorter=None: _sorting.searchsorted(self, v, side, sorter),
    "take": lambda self, indices, axis=None, out=None, mode="raise": _indexing.take(self, indices, axis, out, mode),
    "repeat": lambda self, repeats, axis=None: _rearranging.repeat(self, repeats, axis),
    "diagonal": lambda self, offset=0, axis1=0, axis2=1: _indexing.diagonal(self, offset, axis1, axis2),
    "trace": lambda self, offset=0, axis1=0, axis2=1, dtype=None, out=None:
        _indexing.trace(self, offset, axis1, axis2, dtype, out),
    "nonzero": lambda self: _indexing.nonzero(self),
    "choose": lambda self, choices, out=None, mode="raise": _indexing.choose(self, choices, out, mode),
    "vdot": lambda self, b: _products.vdot(self, b),
    "sort": _in_place("sort", "funcgrad.numpy.sort(x, axis)"),
    "partition": _in_place("partition", "funcgrad.numpy.sort(x, axis)"),
    "put": _in_place("put", "x.at[indices].set(values)"),
    "resize": _in_place("resize", "funcgrad.numpy.resize(x, new_shape)"),
}

attach(Array, _METHODS)
