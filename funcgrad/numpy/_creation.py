"""Array creation: array/asarray, zeros/ones/full/empty (+ _like), arange, eye."""

from __future__ import annotations

import numpy as np

from .. import backend
from ..core import Array, Tracer
from ..primitives import creation as _cp
from ._util import as_array

__all__ = [
    "array", "asarray", "zeros", "ones", "full", "empty", "zeros_like", "ones_like",
    "full_like", "empty_like", "arange", "eye", "identity",
]


def asarray(a, dtype=None, order=None, *, copy=None, device=None):
    """Like numpy.asarray; traced values stay traced (then ``dtype`` casts them)."""
    if isinstance(a, Tracer) or (isinstance(a, Array) and device is None):
        if dtype is not None and np.dtype(dtype) != a.dtype:
            from ._elementwise import astype  # noqa: PLC0415

            return astype(a, dtype)
        return a
    if isinstance(a, (list, tuple)) and any(isinstance(v, Tracer) for v in _flat(a)):
        from ._shape import stack  # noqa: PLC0415

        out = stack([asarray(v) for v in a])
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
        from ._shape import reshape  # noqa: PLC0415

        out = reshape(out, (1,) * (ndmin - out.ndim) + tuple(out.shape))
    return out


def _shape_tuple(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    shape = tuple(int(d) for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError(f"negative dimensions are not allowed: {shape}")
    return shape


def _create(fn_name, shape, dtype, device, *args):
    dev = backend.get_device(device)
    be = backend.get_backend(dev)
    dtype = np.dtype(float if dtype is None else dtype)
    if be.kind == "cuda":
        with be.xp.cuda.Device(dev.index):
            return Array._from_buffer(getattr(be.xp, fn_name)(_shape_tuple(shape), *args, dtype=dtype))
    return Array._from_buffer(getattr(be.xp, fn_name)(_shape_tuple(shape), *args, dtype=dtype))


def zeros(shape, dtype=None, order="C", *, device=None):
    return _create("zeros", shape, dtype, device)


def ones(shape, dtype=None, order="C", *, device=None):
    return _create("ones", shape, dtype, device)


def empty(shape, dtype=None, order="C", *, device=None):
    """Like zeros: funcgrad never hands out uninitialised memory."""
    return _create("zeros", shape, dtype, device)


def full(shape, fill_value, dtype=None, order="C", *, device=None):
    if dtype is None:
        dtype = np.result_type(fill_value) if not isinstance(fill_value, (Array, Tracer)) else fill_value.dtype
    return _create("full", shape, dtype, device, _host_scalar(fill_value))


def _host_scalar(v):
    if isinstance(v, Array):
        return v.item()
    return v


def _like(fn, a, fill, dtype, shape):
    a = as_array(a)
    return fn(a, fill, shape=None if shape is None else _shape_tuple(shape), dtype=dtype)


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like(_cp.full_like, a, 0, dtype, shape)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like(_cp.full_like, a, 1, dtype, shape)


def empty_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like(_cp.full_like, a, 0, dtype, shape)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like(_cp.full_like, a, _host_scalar(fill_value), dtype, shape)


def arange(start, stop=None, step=None, dtype=None, *, device=None):
    dev = backend.get_device(device)
    return Array(np.arange(_host_scalar(start), _host_scalar(stop), _host_scalar(step), dtype=dtype), device=dev)


def eye(N, M=None, k=0, dtype=None, order="C", *, device=None):
    return Array(np.eye(N, M, k, dtype=float if dtype is None else dtype), device=backend.get_device(device))


def identity(n, dtype=None, *, device=None):
    return eye(n, dtype=dtype, device=device)
