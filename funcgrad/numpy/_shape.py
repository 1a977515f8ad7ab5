"""Shape manipulation: reshape, transpose, swapaxes, moveaxis, expand_dims, squeeze,
broadcast_to, ravel, concatenate, stack, rollaxis."""

from __future__ import annotations

import numpy as np

from ..primitives import shape as _sp
from ._util import as_array, no_out, normalize_axis, normalize_axes
from ._validate import AxisError, axis_index, integer, order_code, shape_tuple

__all__ = [
    "reshape", "transpose", "swapaxes", "moveaxis", "expand_dims", "squeeze", "broadcast_to",
    "ravel", "concatenate", "stack", "broadcast_shapes", "shape", "ndim", "size", "rollaxis",
]


def _resolve_shape(newshape, size, old_shape):
    newshape = list(shape_tuple(newshape, "reshape", allow_unknown=True))
    unknown = [i for i, d in enumerate(newshape) if d < 0]  # numpy: any negative size is the unknown one
    if len(unknown) > 1:
        raise ValueError("can only specify one unknown dimension")
    if unknown:
        known = int(np.prod([d for d in newshape if d >= 0], dtype=np.int64))
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape {tuple(newshape)}")
        newshape[unknown[0]] = size // known
    if int(np.prod(newshape, dtype=np.int64)) != size:
        raise ValueError(f"cannot reshape array of size {size} (shape {tuple(old_shape)}) into shape {tuple(newshape)}")
    return tuple(newshape)


def reshape(a, /, shape=None, order="C", *, newshape=None, copy=None):
    """numpy.reshape.  order='F' reads and writes the elements in Fortran order; 'A' reads in C
    order (funcgrad arrays have no memory layout of their own: every array is C-ordered)."""
    if shape is None:
        shape = newshape
    fortran = order_code(order, "reshape", "CFA") == "F"
    a = as_array(a)
    if shape is None:  # numpy: the same shape
        shape = a.shape
    shape = _resolve_shape(shape, a.size, a.shape)
    if fortran and (a.ndim > 1 or len(shape) > 1):
        return transpose(_sp.reshape(transpose(a), shape[::-1]))
    return a if shape == tuple(a.shape) else _sp.reshape(a, shape)


def transpose(a, axes=None):
    a = as_array(a)
    n = a.ndim
    perm = tuple(range(n - 1, -1, -1)) if axes is None else tuple(normalize_axis(x, n, "axes") for x in axes)
    if sorted(perm) != list(range(n)):
        raise ValueError(f"axes {axes!r} don't match array of dimension {n}")
    return a if perm == tuple(range(n)) else _sp.transpose(a, perm)


def swapaxes(a, axis1, axis2):
    a = as_array(a)
    perm = list(range(a.ndim))
    i, j = normalize_axis(axis1, a.ndim, "axis1"), normalize_axis(axis2, a.ndim, "axis2")
    perm[i], perm[j] = perm[j], perm[i]
    return transpose(a, perm)


def _axis_list(axes, ndim, argname):
    axes = (axes,) if isinstance(axes, (int, np.integer)) else tuple(axes)
    out = tuple(normalize_axis(x, ndim, argname) for x in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in `{argname}` argument")
    return out


def moveaxis(a, source, destination):
    a = as_array(a)
    src = _axis_list(source, a.ndim, "source")
    dst = _axis_list(destination, a.ndim, "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [i for i in range(a.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(a, order)


def expand_dims(a, axis):
    a = as_array(a)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    n = a.ndim + len(axes)
    axes = normalize_axes([int(x) if isinstance(x, (bool, np.bool_)) else x for x in axes], n,  # numpy takes
                          "expand_dims")  # a bool axis as an int here
    shape = iter(a.shape)
    return reshape(a, tuple(1 if i in axes else next(shape) for i in range(n)))


def squeeze(a, axis=None):
    a = as_array(a)
    if axis is None:
        axes = tuple(i for i, d in enumerate(a.shape) if d == 1)
    else:
        axes = normalize_axes(axis, a.ndim, "squeeze", ufunc_reduce=True)
        for ax in axes:
            if a.shape[ax] != 1:
                raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    return reshape(a, tuple(d for i, d in enumerate(a.shape) if i not in axes))


def broadcast_to(array, shape):
    a = as_array(array)
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape)
    try:
        if np.broadcast_shapes(tuple(a.shape), shape) != shape:
            raise ValueError
    except ValueError:
        raise ValueError(
            f"operands could not be broadcast together with remapped shapes [original->remapped]: "
            f"{tuple(a.shape)} and requested shape {shape}"
        ) from None
    return a if shape == tuple(a.shape) else _sp.broadcast_to(a, shape)


def broadcast_shapes(*shapes):
    return np.broadcast_shapes(*shapes)


def ravel(a, order="C"):
    """numpy.ravel (also Array.ravel and Array.flatten).  order='F' flattens in Fortran order;
    'A' and 'K' in C order (every funcgrad array is C-ordered)."""
    fortran = order_code(order, "ravel") == "F"
    a = as_array(a)
    return reshape(transpose(a) if fortran else a, (a.size,))


def concatenate(arrays, axis=0, out=None, *, dtype=None):
    no_out(out, "concatenate")
    arrays = [as_array(x) for x in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrays, axis = [ravel(x) for x in arrays], 0
    integer(axis, "axis", "concatenate", allow_bool=False)
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    for x in arrays:
        if x.ndim != nd:
            raise ValueError(
                "all the input arrays must have same number of dimensions, but the array at index 0 "
                f"has {nd} dimension(s) and an array has {x.ndim} dimension(s)"
            )
    axis = normalize_axis(axis, nd)
    out = arrays[0] if len(arrays) == 1 else _sp.concatenate(arrays, axis)
    if dtype is not None:
        from ._elementwise import astype  # noqa: PLC0415

        out = astype(out, dtype)
    return out


def stack(arrays, axis=0, out=None, *, dtype=None):
    arrays = [as_array(x) for x in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    shapes = {tuple(x.shape) for x in arrays}
    if len(shapes) != 1:
        raise ValueError("all input arrays must have the same shape")
    axis = normalize_axis(axis, arrays[0].ndim + 1)
    return concatenate([expand_dims(x, axis) for x in arrays], axis=axis, out=out, dtype=dtype)


def shape(a):
    return tuple(as_array(a).shape)


def ndim(a):
    return as_array(a).ndim


def size(a, axis=None):
    a = as_array(a)
    return a.size if axis is None else a.shape[normalize_axis(axis, a.ndim)]



def rollaxis(a, axis, start=0):
    """numpy.rollaxis: move ``axis`` to before position ``start`` (a transpose)."""
    a = as_array(a)
    n = a.ndim
    axis = axis_index(axis, n, "rollaxis", "axis")
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    if axis < start:
        start -= 1
    if axis == start:
        return a
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return transpose(a, axes)
