"""Array creation: array/asarray, zeros/ones/full/empty (+ _like), arange, linspace,
logspace, eye, identity, tri, meshgrid.

Creation from Python numbers goes straight to the default device.  ``full``,
``full_like``, ``linspace``, ``logspace`` and ``meshgrid`` are differentiable in
their array arguments (fill value, start/stop, coordinate vectors).
"""

from __future__ import annotations

import operator

import numpy as np

from .. import backend
from ..core import Array, Tracer
from ..primitives import creation as _cp
from ..primitives.shape import stack_sequence
from ._util import as_array
from ._validate import fill_scalar, order_code, shape_tuple
from ._elementwise import absolute, add, astype, multiply, power, sign, subtract
from ._indexing import _device
from ._math import floor, log10
from ._shape import broadcast_to, moveaxis, reshape

__all__ = [
    "array", "asarray", "zeros", "ones", "full", "empty", "zeros_like", "ones_like",
    "full_like", "empty_like", "arange", "linspace", "logspace", "geomspace", "eye", "identity", "tri", "meshgrid",
]


def asarray(a, dtype=None, order=None, *, copy=None, device=None):
    """Like numpy.asarray; traced values stay traced (then ``dtype`` casts them)."""
    if isinstance(a, Tracer) or (isinstance(a, Array) and device is None):
        if dtype is not None and np.dtype(dtype) != a.dtype:
            return astype(a, dtype)
        return a
    if isinstance(a, (list, tuple)) and any(isinstance(v, Tracer) or (isinstance(v, Array) and v.device.kind != "cpu")
                                            for v in _flat(a)):
        out = stack_sequence(a)
        return out if dtype is None else asarray(out, dtype)
    return Array(a, dtype=dtype, device=device)


def _flat(seq):
    for v in seq:
        if isinstance(v, (list, tuple)):
            yield from _flat(v)
        else:
            yield v


def array(object, dtype=None, *, copy=True, order="K", ndmin=0, device=None):
    out = asarray(object, dtype=dtype, device=device)
    if ndmin > out.ndim:
        out = reshape(out, (1,) * (ndmin - out.ndim) + tuple(out.shape))
    return out


def _create(fn_name, shape, dtype, device, *args, order="C", fname=None):
    fname = fname or fn_name
    order_code(order, fname, "CF")
    shape = shape_tuple(shape, fname)
    dev = backend.get_device(device)
    be = backend.get_backend(dev)
    dtype = np.dtype(float if dtype is None else dtype)
    if be.kind == "cuda":
        with be.xp.cuda.Device(dev.index):
            return Array._from_buffer(getattr(be.xp, fn_name)(shape, *args, dtype=dtype))
    return Array._from_buffer(getattr(be.xp, fn_name)(shape, *args, dtype=dtype))


def zeros(shape, dtype=None, order="C", *, device=None):
    return _create("zeros", shape, dtype, device, order=order)


def ones(shape, dtype=None, order="C", *, device=None):
    return _create("ones", shape, dtype, device, order=order)


def empty(shape, dtype=None, order="C", *, device=None):
    """Like zeros: funcgrad never hands out uninitialised memory."""
    return _create("zeros", shape, dtype, device, order=order, fname="empty")


def full(shape, fill_value, dtype=None, order="C", *, device=None):
    """numpy.full; an array fill value is broadcast (and differentiable)."""
    if _is_array_fill(fill_value):
        v = asarray(fill_value, dtype=dtype)
        return broadcast_to(v, shape_tuple(shape, "full"))
    fill_scalar(fill_value, "full")
    if dtype is None:
        dtype = np.result_type(fill_value)
    return _create("full", shape, dtype, device, _host_scalar(fill_value), order=order)


def _is_array_fill(v):
    return isinstance(v, Tracer) or (isinstance(v, Array) and v.ndim > 0) or \
        (not isinstance(v, (Array, int, float, complex, bool, np.generic)) and np.ndim(v) > 0)


def _host_scalar(v):
    if isinstance(v, Array):
        return v.item()
    return v


def _like(fname, a, fill, dtype, shape, order):
    order_code(order, fname)
    a = as_array(a)
    return _cp.full_like(a, fill, shape=None if shape is None else shape_tuple(shape, fname), dtype=dtype)


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like("zeros_like", a, 0, dtype, shape, order)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like("ones_like", a, 1, dtype, shape, order)


def empty_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like("empty_like", a, 0, dtype, shape, order)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """numpy.full_like; an array fill value is broadcast (and differentiable)."""
    if _is_array_fill(fill_value):
        a = as_array(a)
        return full(a.shape if shape is None else shape, fill_value, a.dtype if dtype is None else dtype)
    return _like("full_like", a, _host_scalar(fill_scalar(fill_value, "full_like")), dtype, shape, order)


def arange(start, stop=None, step=None, dtype=None, *, device=None):
    """numpy.arange (its arguments must be concrete numbers; the result has no derivative)."""
    vals = [_host_scalar(v) for v in (start, stop, step)]
    return Array(np.arange(*vals, dtype=dtype), device=backend.get_device(device))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """numpy.linspace; differentiable in start and stop (arrays broadcast, as numpy)."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    div = (num - 1) if endpoint else num
    if not any(isinstance(v, (Array, Tracer)) for v in (start, stop)):
        host = np.linspace(start, stop, num, endpoint, retstep, dtype, axis)
        if retstep:
            return Array(host[0], device=backend.get_device(device)), host[1]
        return Array(host, device=backend.get_device(device))
    start, stop = asarray(start), asarray(stop)
    dt = np.result_type(start.dtype, stop.dtype, float(num))
    start, stop = astype(start, dt), astype(stop, dt)
    delta = subtract(stop, start)
    nd = max(start.ndim, stop.ndim)
    if device is None:  # the positions live where the traced ends do
        device = _device(start if isinstance(start, (Array, Tracer)) and start.ndim >= stop.ndim else stop)
    t = reshape(arange(0, num, dtype=dt, device=device), (-1,) + (1,) * nd)
    step = delta / div if div > 0 else np.nan
    y = add(multiply(t, step) if div > 0 else multiply(t, delta), start)
    if endpoint and num > 1:
        y = y.at[-1].set(broadcast_to(stop, tuple(y.shape[1:])))
    if axis != 0:
        y = moveaxis(y, 0, axis)
    if dtype is not None:
        if np.dtype(dtype).kind in "iu":
            y = floor(y)
        y = astype(y, dtype)
    return (y, step) if retstep else y


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """numpy.logspace: base ** linspace(start, stop); differentiable in start and stop."""
    y = power(base, linspace(start, stop, num, endpoint, axis=axis))
    return y if dtype is None else astype(y, dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """numpy.geomspace: a geometric sequence (negative and complex ends as numpy); exact ends;
    differentiable in start and stop."""
    start, stop = asarray(start), asarray(stop)
    for end in (start, stop):
        try:
            host = end._concrete()
        except Exception:  # traced without a value (vmap): numpy's check is skipped
            continue
        if bool(backend.namespace_of(host).any(host == 0)):
            raise ValueError("Geometric sequence cannot include zero")
    dt = np.result_type(start.dtype, stop.dtype, float(num), np.zeros((), dtype))
    start, stop = astype(start, dt), astype(stop, dt)
    out_sign = start / absolute(start) if dt.kind == "c" else sign(start)
    start, stop = start / out_sign, stop / out_sign
    result = logspace(log10(start), log10(stop), num=num, endpoint=endpoint, dtype=dt)
    shape = tuple(result.shape[1:])
    if num > 0:
        result = result.at[0].set(broadcast_to(start, shape))
        if num > 1 and endpoint:
            result = result.at[-1].set(broadcast_to(stop, shape))
    result = result * out_sign
    if axis != 0:
        result = moveaxis(result, 0, axis)
    if dtype is not None and np.issubdtype(dtype, np.integer):
        result = floor(result)
    return result if dtype is None else astype(result, dtype)


def eye(N, M=None, k=0, dtype=None, order="C", *, device=None):
    return Array(np.eye(N, M, k, dtype=float if dtype is None else dtype), device=backend.get_device(device))


def identity(n, dtype=None, *, device=None):
    return eye(n, dtype=dtype, device=device)


def tri(N, M=None, k=0, dtype=float, *, device=None):
    """Ones at and below the k-th diagonal (numpy.tri)."""
    return Array(np.tri(N, M, k, dtype=dtype), device=backend.get_device(device))


def indices_grid(shape, dtype):
    """The arrays of ``numpy.indices(shape, dtype)`` as a tuple of Arrays (for fromfunction)."""
    return tuple(Array(g) for g in np.indices(tuple(shape), dtype=dtype))


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """numpy.meshgrid (a tuple of arrays); differentiable in the coordinate vectors."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    xs = [asarray(x) for x in xi]
    n = len(xs)
    shapes = [(1,) * i + (-1,) + (1,) * (n - i - 1) for i in range(n)]
    if indexing == "xy" and n > 1:
        shapes[0] = (1, -1) + (1,) * (n - 2)
        shapes[1] = (-1, 1) + (1,) * (n - 2)
    out = [reshape(x, s) for x, s in zip(xs, shapes)]
    if not sparse:
        full_shape = np.broadcast_shapes(*(tuple(o.shape) for o in out))
        out = [broadcast_to(o, full_shape) for o in out]
    return tuple(out)
