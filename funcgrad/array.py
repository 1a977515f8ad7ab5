"""Values: the immutable Array, abstract ShapedArray, and the Tracer protocol.

An :class:`Array` wraps one backend buffer that nothing writes to.  A
:class:`Tracer` is anything a transformation watches (``bind`` hands
primitives applied to it to its trace); functional transformations' tracers
subclass :class:`ArrayTracer` and so are Arrays too, while
``funcgrad.compat.Tensor`` is a Tracer without being an Array.
"""

from __future__ import annotations

import numpy as np

from . import backend
from .backend import namespace_of
from .errors import ConcretizationTypeError

__all__ = [
    "Array", "ShapedArray", "Tracer", "ArrayTracer", "PrimalTracer", "InspectingTracer", "asarray", "is_array",
    "ConcretizationTypeError",
]




# Array's array API namespace (what ``__array_namespace__`` returns): funcgrad.numpy, which sits
# layers above this module, registers itself when it is imported.
_ARRAY_NAMESPACE = []


def set_array_namespace(namespace):
    """Make ``namespace`` what ``x.__array_namespace__()`` returns (called by funcgrad.numpy)."""
    _ARRAY_NAMESPACE[:] = [namespace]


class AvalProps:
    """``ndim`` and ``size`` from ``shape``: for everything that stands in for an array's
    shape and dtype (ShapedArray, the nodes reverse-mode rules see for unsaved arguments)."""

    __slots__ = ()

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))


class ShapedArray(AvalProps):
    """The shape and dtype of an array, without its data."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)

    def __eq__(self, other):
        return isinstance(other, ShapedArray) and (self.shape, self.dtype) == (other.shape, other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))

    def __repr__(self):
        return f"{self.dtype.name}[{','.join(map(str, self.shape))}]"

    def str_short(self):
        return repr(self)


# ---------------------------------------------------------------------------
# Array
# ---------------------------------------------------------------------------

class Array:
    """An immutable n-dimensional array on a device (numpy, cupy or stand-in buffer).

    Nothing ever writes to the wrapped buffer.  Functional updates go through
    ``x.at[idx].set(v)`` (also ``add``, ``multiply``, ``min``, ``max``, ``get``).
    """

    __slots__ = ("_value", "__weakref__")
    __array_priority__ = 1000  # numpy defers binary operators to us

    def __init__(self, obj, dtype=None, device=None):
        self._value = _to_buffer(obj, dtype, device)

    @classmethod
    def _from_buffer(cls, buf):
        """Wrap a backend buffer without copying (internal: the buffer must not be shared)."""
        a = object.__new__(Array)
        a._value = buf
        return a

    # --- metadata -----------------------------------------------------------
    @property
    def shape(self) -> tuple:
        return self._value.shape

    @property
    def dtype(self) -> np.dtype:
        return self._value.dtype

    @property
    def ndim(self) -> int:
        return self._value.ndim

    @property
    def size(self) -> int:
        return self._value.size

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def device(self) -> backend.Device:
        return backend.device_of(self._value)

    def devices(self):
        return {self.device}

    @property
    def aval(self) -> ShapedArray:
        return ShapedArray(self.shape, self.dtype)

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of unsized object (a 0-d array)")
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    # --- immutability ---------------------------------------------------------
    def __setitem__(self, idx, value):
        raise TypeError(
            "funcgrad Arrays are immutable and do not support item assignment; "
            f"use x = x.at[{_index_repr(idx)}].set(value) to get an updated copy"
        )

    def __delitem__(self, idx):
        raise TypeError("funcgrad Arrays are immutable; use funcgrad.numpy.delete for a copy without the items")

    __hash__ = None  # mutable-looking containers of numbers are unhashable, as numpy arrays

    # --- conversion -------------------------------------------------------------
    def _concrete(self):
        """The backend buffer (concrete value) behind this array."""
        return self._value

    def __array__(self, dtype=None, copy=None):
        host = backend.to_numpy(self._concrete())
        if dtype is not None and host.dtype != np.dtype(dtype):
            return host.astype(dtype)
        if copy:
            return np.array(host, copy=True)
        view = np.asarray(host).view()
        view.flags.writeable = False  # writes cannot reach our buffer
        return view

    def __dlpack__(self, *args, **kwargs):
        buf = self._concrete()
        if isinstance(buf, np.generic):
            buf = np.asarray(buf)
        return buf.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self):
        buf = self._concrete()
        if isinstance(buf, np.generic):
            buf = np.asarray(buf)
        return buf.__dlpack_device__()

    def __array_namespace__(self, api_version=None):
        if not _ARRAY_NAMESPACE:
            raise RuntimeError("Array's array API namespace, funcgrad.numpy, has not been imported")
        return _ARRAY_NAMESPACE[0]

    def _scalar(self, kind):
        if self.size != 1:
            raise TypeError(f"only size-1 arrays can be converted to Python {kind.__name__}s, got shape {self.shape}")
        v = self._concrete()
        return kind(v.item() if hasattr(v, "item") else v)

    def __bool__(self):
        if self.size != 1:
            raise ValueError(
                f"The truth value of an array with more than one element is ambiguous (shape {self.shape}). "
                "Use a.any() or a.all()"
            )
        return self._scalar(bool)

    def __float__(self):
        return self._scalar(float)

    def __int__(self):
        return self._scalar(int)

    def __complex__(self):
        return self._scalar(complex)

    def __index__(self):
        if self.ndim != 0 or self.dtype.kind not in "iub":
            raise TypeError(f"only 0-d integer arrays can be used as an index, got {self.dtype}{list(self.shape)}")
        return int(self._concrete().item())

    def item(self, *args):
        v = self._concrete()
        if args:
            return v.item(*args)
        if self.size != 1:
            raise ValueError(f"can only convert an array of size 1 to a Python scalar, got shape {self.shape}")
        return v.item()

    def tolist(self):
        return backend.to_numpy(self._concrete()).tolist()

    def __reduce__(self):
        return (_rebuild, (np.asarray(self).copy(), str(self.device)))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __format__(self, spec):
        if self.ndim == 0:
            return format(self.item(), spec)
        return format(str(self), spec)

    # --- printing ------------------------------------------------------------
    def __repr__(self):
        return _array_repr(self, "Array")

    def __str__(self):
        return str(np.asarray(self))


def _rebuild(host, device):
    return Array(host, device=device if device != "cpu" else None)


def _index_repr(idx):
    def one(i):
        if isinstance(i, slice):
            s = "" if i.start is None else str(i.start)
            s += ":" + ("" if i.stop is None else str(i.stop))
            return s + ("" if i.step is None else f":{i.step}")
        if i is Ellipsis:
            return "..."
        if isinstance(i, (int, np.integer)):
            return str(int(i))
        return "idx"

    return ", ".join(one(i) for i in idx) if isinstance(idx, tuple) else one(idx)


def _array_repr(x, name):
    host = np.asarray(x)
    prefix = name + "("
    body = np.array2string(host, separator=", ", prefix=prefix)
    extra = f", dtype={host.dtype.name}"
    dev = x.device
    if dev.kind != "cpu":
        extra += f", device={dev}"
    if host.size == 0 and host.ndim > 1:
        body = f"[], shape={host.shape}"
    return f"{prefix}{body}{extra})"


def _to_buffer(obj, dtype=None, device=None):
    """Make a fresh backend buffer from array-like data (the public Array(...) path)."""
    if isinstance(obj, Array) and not isinstance(obj, Tracer):
        buf = obj._value
        if device is not None:
            buf = backend.put_buffer(buf, device)
        if dtype is not None and buf.dtype != np.dtype(dtype):
            buf = namespace_of(buf).asarray(buf).astype(dtype)
        return buf
    if isinstance(obj, Tracer) or (isinstance(obj, (list, tuple)) and any(isinstance(o, Tracer) for o in obj)):
        raise TypeError(
            "cannot build a concrete Array from a traced value; use funcgrad.numpy.asarray "
            "(which keeps it traced) or funcgrad.stop_gradient"
        )
    dev = backend.get_device(device)
    be = backend.get_backend(dev)
    src = backend._BACKEND_OF_TYPE.get(type(obj))
    if src is not None and src is not backend.NUMPY and not isinstance(obj, np.generic):
        buf = backend.put_buffer(obj, dev)
        return buf if dtype is None else buf.astype(dtype)
    if isinstance(obj, (list, tuple)) and any(isinstance(o, Array) for o in obj):
        obj = [np.asarray(o) if isinstance(o, Array) else o for o in obj]
    host = np.array(obj, dtype=dtype, copy=True)
    if host.dtype.kind in "OSUV" and not backend.is_numeric_dtype(host.dtype):
        what = "non-numeric objects" if host.dtype == object else f"{host.dtype.name} data"
        raise TypeError(f"cannot make an Array from {type(obj).__name__}: it holds {what} (funcgrad arrays hold numbers)")
    return be.from_host(host, index=dev.index) if be is not backend.NUMPY else host


def asarray(obj, dtype=None, device=None) -> "Array":
    """Concrete values -> Array (no copy when already an Array with that dtype/device)."""
    if type(obj) is Array and dtype is None and device is None:
        return obj
    return Array(obj, dtype=dtype, device=device)


def is_array(x) -> bool:
    return isinstance(x, Array)


# ---------------------------------------------------------------------------
# Tracers and traces
# ---------------------------------------------------------------------------

_TRACER_TYPES: set = set()


class Tracer:
    """Protocol base of every value a trace watches.

    A subclass instance has a ``_trace`` attribute; ``bind`` hands any primitive
    applied to it to that trace.  Subclasses register themselves (so
    ``funcgrad.compat.Tensor`` can be a tracer without being an Array).
    """

    __slots__ = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _TRACER_TYPES.add(cls)


class ArrayTracer(AvalProps, Array, Tracer):
    """A tracer that behaves as an Array (functional transformations' tracers).

    Subclasses define ``shape``, ``dtype`` and ``_concrete()`` (the concrete
    value, when the transformation has one; eager tracing always does except
    under vmap); ``ndim`` and ``size`` follow from ``shape``.
    """

    __slots__ = ()

    @property
    def device(self):
        return backend.device_of(self._concrete())

    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            f"a value traced by {self._trace.describe()} cannot be converted to a numpy array: "
            "numpy would compute on it without the transformation seeing it, silently dropping "
            "its derivative. Use funcgrad.numpy (import funcgrad.numpy as fnp) instead of numpy "
            "inside transformed functions, or funcgrad.stop_gradient(x) if you mean a constant."
        )

    def __repr__(self):
        try:
            body = _array_repr(_ConcreteView(self), "")[1:-1]
        except Exception:  # no concrete value (vmap)
            body = f"{self.dtype.name}{list(self.shape)}"
        return f"Traced<{self._trace.describe()}>({body})"

    def __str__(self):
        return repr(self)

    def __reduce__(self):
        raise TypeError(f"cannot pickle a value traced by {self._trace.describe()}")

    # --- conversion to Python values: refused (the transformation could not see the result) ---
    def _conversion_error(self, what):
        return ConcretizationTypeError(
            f"{what} was applied to a value traced by {self._trace.describe()} "
            f"({self.dtype.name}{list(self.shape)}): the transformation cannot see a Python value, so "
            "whatever is computed from it would silently lose its derivative. Keep the value an array "
            "(compute with funcgrad.numpy, compare with fnp.where instead of `if`), apply "
            "funcgrad.stop_gradient(x) first if you mean a constant, or convert the transformation's "
            "result outside the transformed function."
        )

    def __bool__(self):
        raise self._conversion_error("bool()")

    def __float__(self):
        raise self._conversion_error("float()")

    def __int__(self):
        raise self._conversion_error("int()")

    def __complex__(self):
        raise self._conversion_error("complex()")

    def __index__(self):
        raise self._conversion_error("__index__ (use as an integer index or size)")

    def item(self, *args):
        raise self._conversion_error(".item()")

    def tolist(self):
        raise self._conversion_error(".tolist()")

    def __format__(self, spec):
        try:
            view = _ConcreteView(self)
        except TypeError:  # no concrete value (vmap)
            return format(repr(self), spec)
        return format(view, spec) if spec else repr(self)


class PrimalTracer(ArrayTracer):
    """A tracer that wraps a value one level down (its primal): shape, dtype, device and
    concrete value are the primal's.  The differentiation tracers build on it."""

    __slots__ = ("_trace", "primal")

    @property
    def shape(self):
        return self.primal.shape

    @property
    def dtype(self):
        return self.primal.dtype

    @property
    def device(self):
        return self.primal.device

    def _concrete(self):
        return self.primal._concrete()


class InspectingTracer(PrimalTracer):
    """A tracer of a trace that records or checks without transforming anything (make_graph,
    check_shape_rules): Python conversions read the concrete value, so Python control flow on
    it picks the branch taken (the record shows that branch)."""

    __slots__ = ()

    __bool__, __float__, __int__, __complex__ = Array.__bool__, Array.__float__, Array.__int__, Array.__complex__
    __index__, item, tolist, __format__ = Array.__index__, Array.item, Array.tolist, Array.__format__


class _ConcreteView(Array):
    """An untraced view of a tracer's concrete value (for printing only)."""

    __slots__ = ()

    def __init__(self, tracer):
        self._value = tracer._concrete()
