"""The core: immutable Array, Primitive, bind, traces with levels, symbolic zeros.

How an operation runs
---------------------
Every operation is a :class:`Primitive` applied with :func:`bind`.  ``bind``
looks at its arguments for tracers (values a transformation is watching).  With
none, it runs the primitive's ``impl`` on the raw buffers and wraps the result
in an :class:`Array`: that is the whole fast path.  Otherwise it hands the
primitive to the innermost trace (the one with the highest level) among the
arguments; that trace applies its rule (record for reverse mode, push tangents
for forward mode, batch for vmap) and usually calls ``bind`` again on the
values one level down.  A tracer of a lower level is a constant to a higher
trace, which is what keeps nested transformations free of perturbation
confusion.

Array methods and operators are attached by :mod:`funcgrad.numpy` (this module
cannot import it); derivative rules live next to each primitive in
:mod:`funcgrad.primitives`.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from . import backend
from .backend import backend_of, namespace_of  # noqa: F401  (re-exported for rule authors)

__all__ = [
    "Array", "Tracer", "ArrayTracer", "Trace", "Primitive", "bind", "Zero", "ShapedArray",
    "REGISTRY", "asarray", "is_array", "EscapedTracerError", "MissingRuleError",
]


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

class EscapedTracerError(RuntimeError):
    """A value traced by a transformation was used after that transformation ended."""


class MissingRuleError(NotImplementedError):
    """A primitive has no rule for the transformation being applied to it."""


# ---------------------------------------------------------------------------
# Abstract values (shape + dtype), used by shape rules and symbolic zeros
# ---------------------------------------------------------------------------

class ShapedArray:
    """The shape and dtype of an array, without its data."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    def __eq__(self, other):
        return isinstance(other, ShapedArray) and (self.shape, self.dtype) == (other.shape, other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))

    def __repr__(self):
        return f"{self.dtype.name}[{','.join(map(str, self.shape))}]"

    def str_short(self):
        return repr(self)


class Zero:
    """A symbolic zero cotangent/tangent: costs nothing until instantiated.

    Joint derivative rules receive Zero for inputs/outputs that carry no
    tangent/cotangent; ``like`` is a value with the zero's shape, dtype and device.
    """

    __slots__ = ("like",)

    def __init__(self, like):
        self.like = like

    @property
    def shape(self):
        return self.like.shape

    @property
    def dtype(self):
        return self.like.dtype

    def __repr__(self):
        return f"Zero({self.like.dtype}{list(self.like.shape)})"


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
        from . import numpy as fnp  # noqa: PLC0415 - funcgrad.numpy imports core

        return fnp

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
        return np.asarray(self).tolist()

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
    if host.dtype == object:
        raise TypeError(f"cannot make an Array from {type(obj).__name__}: it holds non-numeric objects")
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


class ArrayTracer(Array, Tracer):
    """A tracer that behaves as an Array (functional transformations' tracers).

    Subclasses define ``shape``, ``dtype`` and ``_concrete()`` (the concrete
    value, when the transformation has one; eager tracing always does except
    under vmap).
    """

    __slots__ = ()

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

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

    def tolist(self):
        return _ConcreteView(self).tolist()

    def __reduce__(self):
        raise TypeError(f"cannot pickle a value traced by {self._trace.describe()}")


class _ConcreteView(Array):
    """An untraced view of a tracer's concrete value (for printing only)."""

    __slots__ = ()

    def __init__(self, tracer):
        self._value = tracer._concrete()


_LEVELS = itertools.count(1)  # level 0 belongs to funcgrad.compat's persistent trace


class Trace:
    """One transformation in progress.  Higher level = more nested (created later)."""

    __slots__ = ("level", "alive", "__weakref__")
    kind = "trace"

    def __init__(self, level=None):
        self.level = next(_LEVELS) if level is None else level
        self.alive = True

    def process_primitive(self, prim, args, params):
        """Apply ``prim`` to ``args`` (some of them this trace's tracers)."""
        raise MissingRuleError(f"{type(self).__name__} does not define process_primitive")

    def describe(self):
        return f"{self.kind} (level {self.level})"

    def __repr__(self):
        return f"<{type(self).__name__} level={self.level}{'' if self.alive else ' finished'}>"


# ---------------------------------------------------------------------------
# Primitives
# ---------------------------------------------------------------------------

REGISTRY: dict[str, "Primitive"] = {}


class _AllArgs(tuple):
    """``unsaved_args=ALL_ARGS``: no argument is saved (variadic primitives)."""

    def __repr__(self):
        return "ALL_ARGS"


ALL_ARGS = _AllArgs((-1,))


class Primitive:
    """A named operation with its impl, shape rule and derivative/batching rules.

    Rules, all with the same argument order:
    - ``vjps[i](g, ans, *args, **params)`` -> cotangent of argument i (of the
      broadcast shape is fine: the driver sums it down to the argument's shape
      and casts it to its dtype);
    - ``jvps[i](t, ans, *args, **params)`` -> the tangent contribution of argument
      i (the driver broadcasts and sums contributions);
    - ``vjp_all(g, ans, *args, **params)`` -> a tuple of cotangents, one per
      argument (``g`` is a tuple for multiple results; missing ones are Zero);
    - ``jvp_all(ts, ans, *args, **params)`` -> tangent(s) of the output(s) (``ts``
      holds Zero for arguments without a tangent);
    - ``batch(args, dims, **params)`` -> ``(out, out_dim)`` for vmap;
    - ``abstract(*avals, **params)`` -> ShapedArray(s): the shape/dtype rule.
    Rules are written with funcgrad operations only, so that they are
    themselves differentiable: higher derivatives need nothing else.
    """

    __slots__ = (
        "name", "impl", "abstract", "vjps", "vjp_all", "jvps", "jvp_all", "batch",
        "multiple_results", "differentiable", "zero_derivative", "unsaved", "saves_out",
        "bind", "fast", "__weakref__",
    )

    def __init__(self, name, impl, abstract=None, *, multiple_results=False,
                 differentiable=True, zero_derivative=False):
        if name in REGISTRY:
            raise ValueError(f"a primitive named {name!r} is already registered")
        self.name = name
        self.impl = impl
        self.abstract = abstract
        self.multiple_results = multiple_results
        # differentiable=False: outputs are integer/bool or derivative-free (comparisons,
        # argmax, zeros_like); zero_derivative=True: float outputs whose derivative
        # is zero almost everywhere (floor, sign, round).  Differentiation traces
        # treat both as constants; compat records the latter as PyTorch does.
        self.differentiable = differentiable and not zero_derivative
        self.zero_derivative = zero_derivative
        self.vjps = None
        self.vjp_all = None
        self.jvps = None
        self.jvp_all = None
        self.batch = None
        self.unsaved = ()  # args reverse mode need not keep for the vjp rules
        self.saves_out = True  # whether reverse mode keeps the output for them
        self.bind = functools.partial(bind, self)  # prim.bind(*args, **params)
        # buffer type -> a C function equal to impl for buffers of that type (filled
        # by families such as ufuncs): the eager fast path then skips a Python frame
        self.fast = {}
        REGISTRY[name] = self

    def __repr__(self):
        return f"<primitive {self.name}>"

    # --- rule registration ----------------------------------------------------
    def defvjp(self, *rules, unsaved_args=(), saves_out=True):
        """Per-argument vjp rules ``rule(g, ans, *args, **params)``; None: no derivative.

        What reverse mode records for the rules: every argument except those in
        ``unsaved_args`` (the rules then see an aval-like object with ``.shape``,
        ``.dtype`` and ``.ndim`` in its place, or None for a constant), and the
        output if ``saves_out`` (else an aval-like object).
        """
        self.vjps = rules
        self._set_saved(unsaved_args, saves_out)
        return self

    def defjvp(self, *rules):
        """Per-argument jvp rules ``rule(t, ans, *args, **params)``; None: no derivative."""
        self.jvps = rules
        return self

    def defvjp_joint(self, rule, unsaved_args=(), saves_out=True):
        """One rule ``rule(g, ans, *args, **params) -> tuple`` of all cotangents."""
        self.vjp_all = rule
        self._set_saved(unsaved_args, saves_out)
        return self

    def defjvp_joint(self, rule):
        """One rule ``rule(ts, ans, *args, **params) -> tangent(s) out``."""
        self.jvp_all = rule
        return self

    def _set_saved(self, unsaved_args, saves_out):
        self.unsaved = unsaved_args if unsaved_args is ALL_ARGS else tuple(unsaved_args)
        self.saves_out = saves_out

    def rule_for(self, mode):
        return {"vjp": self.vjps or self.vjp_all, "jvp": self.jvps or self.jvp_all,
                "batch": self.batch}[mode]


def missing_rule(prim, mode, argnum=None, transform=None):
    where = "" if argnum is None else f" for argument {argnum}"
    via = f" (needed by {transform})" if transform else ""
    return MissingRuleError(
        f"primitive '{prim.name}' has no {mode} rule{where}{via}. "
        f"Define one with funcgrad.core.REGISTRY[{prim.name!r}].def{mode}(...), or wrap the "
        "function in funcgrad.custom_vjp / custom_jvp"
    )


# ---------------------------------------------------------------------------
# bind: the one dispatch path
# ---------------------------------------------------------------------------

_PY_SCALARS = frozenset((float, int, bool, complex))
_BUFFER_TYPES = backend._BACKEND_OF_TYPE  # numpy/cupy/stand-in buffer and scalar types
_HOST_OK = [True]  # raw numpy arrays may be used as-is (the default device is cpu)


def bind(prim, *args, **params):
    """Apply a primitive: eagerly on buffers, or through the innermost trace."""
    n = len(args)
    if n == 1:  # the fast path, unrolled for one and two arguments: impl + one wrap
        x = args[0]
        tx = type(x)
        if tx is Array:
            v = x._value
            try:
                out = (prim.fast.get(type(v)) or prim.impl)(v, **params)
            except Exception as e:
                raise _impl_error(prim, [v], params, e) from e
            if prim.multiple_results:
                return tuple(_wrap(o) for o in out)
            r = _new_array(Array)
            r._value = out
            return r
        if tx in _TRACER_TYPES:
            top = x._trace
            if not top.alive:
                raise _escaped(top, prim)
            return top.process_primitive(prim, args, params)
    elif n == 2:
        x, y = args
        tx, ty = type(x), type(y)
        if (tx is Array or tx in _PY_SCALARS) and (ty is Array or ty in _PY_SCALARS):
            if tx is Array:
                x = x._value
            if ty is Array:
                y = y._value
            try:
                out = (prim.fast.get(type(x)) or prim.impl)(x, y, **params)
            except Exception as e:
                raise _impl_error(prim, [x, y], params, e) from e
            if prim.multiple_results:
                return tuple(_wrap(o) for o in out)
            r = _new_array(Array)
            r._value = out
            return r
    top = None
    vals = []
    for a in args:
        t = type(a)
        if t is Array:
            vals.append(a._value)
        elif t in _PY_SCALARS:
            vals.append(a)
        elif t in _TRACER_TYPES:
            tr = a._trace
            if top is None or tr.level > top.level:
                top = tr
        elif t in _BUFFER_TYPES and (t is not np.ndarray or _HOST_OK[0]):
            vals.append(a)
        else:
            return _bind_slow(prim, args, params)
    if top is None:
        try:
            out = prim.impl(*vals, **params)
        except Exception as e:
            raise _impl_error(prim, vals, params, e) from e
        if prim.multiple_results:
            return tuple(_wrap(o) for o in out)
        r = _new_array(Array)
        r._value = out
        return r
    if not top.alive:
        raise _escaped(top, prim)
    return top.process_primitive(prim, args, params)


def eval_primitive(prim, args, params):
    """Run the impl on the buffers of concrete arguments and wrap the result."""
    vals = [a._value if type(a) is Array else a for a in args]
    try:
        out = prim.impl(*vals, **params)
    except Exception as e:
        raise _impl_error(prim, vals, params, e) from e
    if prim.multiple_results:
        return tuple(_wrap(o) for o in out)
    return _wrap(out)


_new_array = object.__new__


def _wrap(buf) -> Array:
    a = _new_array(Array)
    a._value = buf
    return a


def _bind_slow(prim, args, params):
    """Normalise unusual argument types, then bind again."""
    fixed = []
    for i, a in enumerate(args):
        t = type(a)
        if isinstance(a, Tracer):
            _TRACER_TYPES.add(t)
        elif isinstance(a, Array):
            a = _wrap(a._value)  # a subclass of Array that is no tracer
        elif t in _PY_SCALARS or (t in _BUFFER_TYPES and t is not np.ndarray):
            pass
        elif isinstance(a, np.generic):
            backend.backend_of(a)  # registers the scalar type
        elif isinstance(a, (np.ndarray, list, tuple)) or hasattr(a, "__array__"):
            if isinstance(a, (list, tuple)) and any(isinstance(v, Tracer) for v in a):
                from .numpy import asarray as _asarray  # noqa: PLC0415

                a = _asarray(a)
            else:
                host = np.asarray(a)
                if host.dtype == object:
                    raise TypeError(
                        f"{prim.name}: argument {i} ({t.__name__}) is not numeric array data"
                    )
                a = _wrap(backend.put_buffer(host, backend.default_device()))
        else:
            raise TypeError(
                f"{prim.name}: argument {i} has type {t.__name__}, which is not an array, "
                "a number or array-like data"
            )
        fixed.append(a)
    return bind(prim, *fixed, **params)


def set_default_device(device):
    """Set where creation functions and host (numpy) data go; returns the previous one."""
    prev = backend.set_default_device(device)
    _HOST_OK[0] = backend.default_device().kind == "cpu"
    return prev


_HOST_OK[0] = backend.default_device().kind == "cpu"


def _escaped(trace, prim):
    return EscapedTracerError(
        f"'{prim.name}' was applied to a value traced by {trace.describe()}, which has "
        "already finished: an intermediate value leaked out of the transformed function "
        "(stored in a global, a closure or an attribute). Return it from the function instead."
    )


def _impl_error(prim, vals, params, err):
    """Re-raise an impl failure naming the primitive (and devices, if mixed)."""
    if isinstance(err, (TypeError, ValueError)):
        try:
            backend.check_same_device(vals, prim.name)
        except backend.DeviceMismatchError as dev_err:
            return dev_err
    shapes = ", ".join(
        f"{v.dtype}{list(v.shape)}" if hasattr(v, "shape") else type(v).__name__ for v in vals
    )
    msg = f"{prim.name}({shapes}): {err}"
    try:
        new = type(err)(msg)
    except Exception:
        return err
    return new


def full_lower(x):
    """Concrete buffer of an Array, or x itself."""
    return x._value if type(x) is Array else x
