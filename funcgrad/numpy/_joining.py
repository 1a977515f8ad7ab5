"""Joining and splitting: hstack/vstack/dstack/column_stack, split family, atleast_nd,
broadcast_arrays.  Joins are one concatenate; splits are one ``split`` primitive
(views of the input; the gradient is one concatenate)."""

from __future__ import annotations

import numpy as np

from ..primitives import shape as _sp
from ._shape import broadcast_to, concatenate, reshape
from ._util import as_array, normalize_axis

__all__ = [
    "atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack", "row_stack", "dstack",
    "column_stack", "split", "array_split", "hsplit", "vsplit", "dsplit", "broadcast_arrays", "block",
]


def _atleast(arys, ndim, where):
    out = []
    for a in arys:
        a = as_array(a)
        if a.ndim < ndim:
            a = reshape(a, where(tuple(a.shape)))
        out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


def atleast_1d(*arys):
    return _atleast(arys, 1, lambda s: (1,))


def atleast_2d(*arys):
    return _atleast(arys, 2, lambda s: (1,) * (2 - len(s)) + s)


def atleast_3d(*arys):
    # numpy: () -> (1, 1, 1), (n,) -> (1, n, 1), (m, n) -> (m, n, 1)
    return _atleast(arys, 3, lambda s: {0: (1, 1, 1), 1: (1,) + s + (1,), 2: s + (1,)}[len(s)])


def _seq(tup, fname):
    if not (isinstance(tup, (list, tuple)) or hasattr(tup, "shape")):  # an array: its rows, as numpy
        raise TypeError(f'{fname}: arrays to stack must be passed as a "sequence" type such as list or tuple, '
                        f"got {type(tup).__name__}")
    arrays = list(tup)
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    return arrays


def _as_list(x):
    return [x] if not isinstance(x, tuple) else list(x)


def hstack(tup, *, dtype=None):
    arrs = _as_list(atleast_1d(*_seq(tup, "hstack")))
    return concatenate(arrs, axis=0 if arrs[0].ndim == 1 else 1, dtype=dtype)


def vstack(tup, *, dtype=None):
    return concatenate(_as_list(atleast_2d(*_seq(tup, "vstack"))), axis=0, dtype=dtype)


row_stack = vstack


def dstack(tup):
    return concatenate(_as_list(atleast_3d(*_seq(tup, "dstack"))), axis=2)


def column_stack(tup):
    arrs = []
    for a in _seq(tup, "column_stack"):
        a = as_array(a)
        arrs.append(reshape(a, (a.size, 1)) if a.ndim < 2 else a)
    return concatenate(arrs, axis=1)


# --- splitting ---------------------------------------------------------------------------

def _pieces(a, bounds, axis):
    """numpy's pieces a[b_{k-1}:b_k] (slice semantics); one split primitive when they tile a."""
    n = a.shape[axis]
    norm = [min(max(b + n if b < 0 else b, 0), n) for b in bounds]
    if all(lo <= hi for lo, hi in zip(norm[:-1], norm[1:])):
        return list(_sp.split(a, norm, axis))
    edges = [0] + list(bounds) + [None]
    pre = (slice(None),) * axis
    return [a[pre + (slice(lo, hi),)] for lo, hi in zip(edges[:-1], edges[1:])]


def _split(ary, indices_or_sections, axis, equal):
    a = as_array(ary)
    if a.ndim == 0:
        raise np.exceptions.AxisError(axis, 0, "split")  # an IndexError and a ValueError
    axis = normalize_axis(axis, a.ndim)
    n = a.shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError("number sections must be larger than 0.")
        if equal and n % k:
            raise ValueError("array split does not result in an equal division")
        each, extra = divmod(n, k)
        sizes = [each + 1] * extra + [each] * (k - extra)
        bounds = list(np.cumsum(sizes[:-1])) if k > 1 else []
    else:
        bounds = [int(b) for b in np.asarray(indices_or_sections).ravel()]
    return _pieces(a, [int(b) for b in bounds], axis)


def split(ary, indices_or_sections, axis=0):
    """numpy.split: a list of views of ``ary``; sections must divide the axis exactly."""
    return _split(ary, indices_or_sections, axis, equal=True)


def array_split(ary, indices_or_sections, axis=0):
    """numpy.array_split: like split, the first ``n % k`` pieces one element longer."""
    return _split(ary, indices_or_sections, axis, equal=False)


def hsplit(ary, indices_or_sections):
    a = as_array(ary)
    if a.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(a, indices_or_sections, axis=1 if a.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    a = as_array(ary)
    if a.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(a, indices_or_sections, axis=0)


def dsplit(ary, indices_or_sections):
    a = as_array(ary)
    if a.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(a, indices_or_sections, axis=2)


def broadcast_arrays(*args):
    """The arguments broadcast against each other (views; gradients are summed back)."""
    arrs = [as_array(a) for a in args]
    shape = np.broadcast_shapes(*(tuple(a.shape) for a in arrs))
    return tuple(broadcast_to(a, shape) for a in arrs)


def block(arrays):
    """numpy.block: nested lists of arrays joined innermost along the last axis, the next
    level along the second-to-last, ... (one concatenate per list; differentiable)."""
    depth, max_ndim = _block_depth(arrays, ())
    ndim = max(max_ndim, depth)

    def join(a, level):
        if isinstance(a, list):
            return concatenate([join(x, level + 1) for x in a], axis=level - depth)
        a = as_array(a)
        return reshape(a, (1,) * (ndim - a.ndim) + tuple(a.shape)) if a.ndim < ndim else a

    return join(arrays, 0)


def _block_depth(a, index):
    """(list depth, largest leaf ndim), checking numpy's rules on the nesting."""
    if isinstance(a, tuple):
        raise TypeError(f"arrays{''.join(f'[{i}]' for i in index)} is a tuple. Only lists can be used "
                        "to arrange blocks, and np.block does not allow implicit conversion from tuple to "
                        "ndarray.")
    if not isinstance(a, list):
        return 0, as_array(a).ndim
    if not a:
        raise ValueError(f"List at arrays{''.join(f'[{i}]' for i in index)} cannot be empty")
    first = None
    max_ndim = 0
    for i, x in enumerate(a):
        d, n = _block_depth(x, index + (i,))
        if first is None:
            first = d
        elif d != first:
            raise ValueError(f"List depths are mismatched. First element was at depth {first + len(index) + 1}, "
                             f"but there is an element at depth {d + len(index) + 1} "
                             f"(arrays{''.join(f'[{j}]' for j in index + (i,))})")
        max_ndim = max(max_ndim, n)
    return first + 1, max_ndim
