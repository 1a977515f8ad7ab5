"""numpy's functional-programming helpers: apply_along_axis, apply_over_axes, piecewise,
vectorize.

Each calls the user's function on funcgrad values (slices, gathered elements) and joins
the results with ``stack``/scatters, so the result is differentiable whenever the function
is written with funcgrad operations.  ``vectorize`` is a loop over the elements (or over the
loop dimensions of a ``signature``), as numpy's is, so the function may use Python control
flow on its (concrete) arguments.
"""

from __future__ import annotations

import re

import numpy as np

from ..core import Array, Tracer
from ._creation import asarray, zeros_like
from ._elementwise import astype
from ._indexing import host_values, take
from ._shape import broadcast_to, expand_dims, moveaxis, ravel, reshape, stack
from ._util import normalize_axis
from ._shape import transpose

__all__ = ["apply_along_axis", "apply_over_axes", "piecewise", "vectorize"]


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """numpy.apply_along_axis: func1d on each 1-d slice along ``axis``; results stacked."""
    arr = asarray(arr)
    axis = normalize_axis(axis, arr.ndim)
    moved = moveaxis(arr, axis, -1)
    outer = tuple(moved.shape[:-1])
    if any(d == 0 for d in outer):
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    results = [asarray(func1d(moved[idx], *args, **kwargs)) for idx in np.ndindex(*outer)]
    res = reshape(stack(results), outer + tuple(results[0].shape))
    # numpy puts the result's dimensions where ``axis`` was
    n_res = results[0].ndim
    order = list(range(axis)) + list(range(len(outer), len(outer) + n_res)) + list(range(axis, len(outer)))
    return transpose(res, order) if order != list(range(len(order))) else res


def apply_over_axes(func, a, axes):
    """numpy.apply_over_axes: ``a = func(a, axis)`` for each axis, keeping the dimensions."""
    a = asarray(a)
    N = a.ndim
    for axis in np.atleast_1d(np.asarray(axes)).tolist():
        axis = N + axis if axis < 0 else axis
        res = asarray(func(a, axis))
        if res.ndim != a.ndim:
            res = expand_dims(res, axis)
            if res.ndim != a.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        a = res
    return a


def _single_condition(condlist, x):
    """numpy's test for a condition given alone rather than as a list of conditions."""
    if np.isscalar(condlist) or not isinstance(condlist, (list, tuple, np.ndarray, Array, Tracer)):
        return True
    if isinstance(condlist, (Array, Tracer)) and condlist.ndim == 0:
        return True
    first = condlist[0]
    first_is_array = isinstance(first, (list, np.ndarray)) or (isinstance(first, (Array, Tracer)) and first.ndim > 0)
    return not first_is_array and x.ndim != 0


def piecewise(x, condlist, funclist, *args, **kw):
    """numpy.piecewise: each function is applied to the elements its condition selects
    (a gather), and the results scattered into ``zeros_like(x)``; needs concrete conditions."""
    x = asarray(x)
    n2 = len(funclist)
    if _single_condition(condlist, x):
        condlist = [condlist]
    conds = [host_values(asarray(c), "piecewise").astype(bool) for c in condlist]
    n = len(conds)
    if n == n2 - 1:  # the "otherwise" condition
        conds.append(~np.any(conds, axis=0) if conds else np.ones(tuple(x.shape), bool))
        n += 1
    elif n != n2:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    for c in conds:
        if c.shape != tuple(x.shape):  # numpy indexes x with each condition
            raise IndexError(f"piecewise: boolean index did not match indexed array: condition of shape "
                             f"{c.shape}, x of shape {tuple(x.shape)}")
    flat_x = ravel(x)
    y = ravel(zeros_like(x))
    for cond, func in zip(conds, funclist):
        idx = np.flatnonzero(cond.ravel())
        if not callable(func):
            vals = broadcast_to(astype(asarray(func), y.dtype), (idx.size,))
        elif idx.size > 0:
            vals = broadcast_to(astype(asarray(func(take(flat_x, idx), *args, **kw)), y.dtype), (idx.size,))
        else:
            continue
        y = y.at[idx].set(vals)
    return reshape(y, tuple(x.shape))


_DIMENSION = r"\w+"
_ARGUMENT = rf"\((?:{_DIMENSION}(?:,{_DIMENSION})*)?\)"
_SIGNATURE = rf"^{_ARGUMENT}(?:,{_ARGUMENT})*->{_ARGUMENT}(?:,{_ARGUMENT})*$"


def _parse_signature(signature):
    signature = re.sub(r"\s+", "", signature)
    if not re.match(_SIGNATURE, signature):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    ins, outs = signature.split("->")
    parse = lambda s: [tuple(re.findall(_DIMENSION, arg)) for arg in re.findall(_ARGUMENT, s)]  # noqa: E731
    return parse(ins), parse(outs)


class vectorize:
    """numpy.vectorize: ``pyfunc`` applied elementwise over broadcast inputs (a Python loop,
    as numpy's), or over the loop dimensions of a generalized-ufunc ``signature``."""

    def __init__(self, pyfunc=np._NoValue, otypes=None, doc=None, excluded=None, cache=False,
                 signature=None):
        if pyfunc is np._NoValue:
            raise TypeError("vectorize: pyfunc is required (decorator use: vectorize(otypes=...) is "
                            "not supported)")
        self.pyfunc = pyfunc
        self.otypes = None if otypes is None else [np.dtype(t) for t in
                                                   (list(otypes) if not isinstance(otypes, str) else otypes)]
        self.excluded = set() if excluded is None else set(excluded)
        self.signature = signature
        self._sig = None if signature is None else _parse_signature(signature)
        self.__doc__ = pyfunc.__doc__ if doc is None else doc

    def __call__(self, *args, **kwargs):
        fixed_kw = {k: v for k, v in kwargs.items() if k in self.excluded}
        free_kw = [k for k in kwargs if k not in self.excluded]
        pos = [i for i in range(len(args)) if i not in self.excluded]
        free = [asarray(args[i]) for i in pos] + [asarray(kwargs[k]) for k in free_kw]

        def call(*vals):
            full = list(args)
            for i, v in zip(pos, vals[:len(pos)]):
                full[i] = v
            kw = dict(fixed_kw, **dict(zip(free_kw, vals[len(pos):])))
            return self.pyfunc(*full, **kw)

        if self._sig is None:
            return self._loop(call, free, [()] * len(free), None)
        ins, outs = self._sig
        if len(ins) != len(free):
            raise TypeError(f"wrong number of positional arguments: expected {len(ins)}, got {len(free)}")
        return self._loop(call, free, ins, outs)

    def _loop(self, call, free, core_dims, out_dims):
        sizes = {}
        for a, dims in zip(free, core_dims):
            if a.ndim < len(dims):
                raise ValueError(f"input with shape {tuple(a.shape)} has fewer dimensions than the core "
                                 f"dimensions {dims} of signature {self.signature}")
            for d, n in zip(dims, a.shape[a.ndim - len(dims):]):
                if sizes.setdefault(d, n) != n:
                    raise ValueError(f"inconsistent size for core dimension {d!r}: {n} vs {sizes[d]}")
        loop = np.broadcast_shapes(*(tuple(a.shape[:a.ndim - len(d)]) for a, d in zip(free, core_dims)))
        free = [broadcast_to(a, loop + tuple(a.shape[a.ndim - len(d):])) for a, d in zip(free, core_dims)]
        results = [call(*(a[idx] for a in free)) for idx in np.ndindex(*loop)]
        if not results:
            if self.otypes is None or out_dims is not None and any(out_dims):
                raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
            outs = tuple(Array(np.zeros(loop, dtype=t)) for t in self.otypes)
            return outs[0] if len(outs) == 1 else outs
        multi = isinstance(results[0], tuple)
        columns = list(zip(*results)) if multi else [results]
        outs = []
        for k, col in enumerate(columns):
            col = [asarray(c) for c in col]
            out = reshape(stack(col), loop + tuple(col[0].shape))
            if self.otypes is not None and k < len(self.otypes):
                out = astype(out, self.otypes[k])
            outs.append(out)
        return tuple(outs) if multi else outs[0]
