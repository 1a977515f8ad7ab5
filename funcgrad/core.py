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
from .array import (  # noqa: F401  (re-exported: the core's public names)
    _TRACER_TYPES, Array, ArrayTracer, ConcretizationTypeError, ShapedArray, Tracer, asarray, is_array,
)
from .backend import backend_of, namespace_of  # noqa: F401  (re-exported for rule authors)
from .errors import EscapedTracerError, MissingRuleError  # noqa: F401  (public here too)

__all__ = [
    "Array", "Tracer", "ArrayTracer", "Trace", "Primitive", "bind", "Zero", "ShapedArray",
    "REGISTRY", "asarray", "is_array", "EscapedTracerError", "MissingRuleError", "ConcretizationTypeError",
]


# ---------------------------------------------------------------------------
# Symbolic zeros
# ---------------------------------------------------------------------------

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
        "reads", "_unsaved_by", "bind", "fast", "vjp_residuals", "__weakref__",
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
        self.reads = None  # per-argument rule -> the arguments it reads (None: every saved one)
        self._unsaved_by = {}  # unsaved_given's answers, by which arguments are traced
        self.bind = functools.partial(bind, self)  # prim.bind(*args, **params)
        # buffer type -> a C function equal to impl for buffers of that type (filled
        # by families such as ufuncs): the eager fast path then skips a Python frame
        self.fast = {}
        self.vjp_residuals = None  # see defvjp_residuals
        REGISTRY[name] = self

    def __repr__(self):
        return f"<primitive {self.name}>"

    # --- rule registration ----------------------------------------------------
    def defvjp(self, *rules, unsaved_args=(), saves_out=True, reads=None):
        """Per-argument vjp rules ``rule(g, ans, *args, **params)``; None: no derivative.

        What reverse mode records for the rules: every argument except those in
        ``unsaved_args`` (the rules then see an aval-like object with ``.shape``,
        ``.dtype`` and ``.ndim`` in its place, or None for a constant), and the
        output if ``saves_out`` (else an aval-like object).  ``reads[i]``, when
        given, lists the arguments rule i reads: an argument no rule of a traced
        argument reads is not kept either (``x * c`` keeps ``c``, not ``x``).
        """
        self.vjps = rules
        self._set_saved(unsaved_args, saves_out)
        if reads is not None:
            self.reads = tuple(frozenset(r) for r in reads)
        return self

    def unsaved_given(self, traced):
        """The arguments reverse mode need not keep when those with ``traced[i]`` true
        receive cotangents: ``unsaved_args`` plus those no needed rule reads."""
        key = tuple(traced)
        got = self._unsaved_by.get(key)
        if got is None:
            n = len(key)
            unsaved = range(n) if self.unsaved is ALL_ARGS else self.unsaved
            if self.reads is None:
                got = tuple(unsaved)
            else:
                read = frozenset().union(*(r for r, t in zip(self.reads, key) if t))
                got = tuple(i for i in range(n) if i in unsaved or i not in read)
            self._unsaved_by[key] = got
        return got

    def defjvp(self, *rules):
        """Per-argument jvp rules ``rule(t, ans, *args, **params)``; None: no derivative."""
        self.jvps = rules
        return self

    def defvjp_joint(self, rule, unsaved_args=(), saves_out=True):
        """One rule ``rule(g, ans, *args, **params) -> tuple`` of all cotangents."""
        self.vjp_all = rule
        self._set_saved(unsaved_args, saves_out)
        return self

    def defvjp_residuals(self, split):
        """The vjp as a forward part that saves residuals and a backward part that reads them.

        ``split(args, traced, params) -> (fwd_params, n_out, bwd)``, for a primitive with
        multiple results: applied with ``fwd_params``, the primitive returns its ``n_out``
        outputs followed by residuals; ``bwd(g, ans, *residuals)`` returns one cotangent (or
        None) per argument, for the arguments ``traced`` marks.  Reverse mode (funcgrad's and
        compat's autograd) then runs the forward part when the primitive is applied and keeps
        only the residuals, instead of the arguments, for the backward pass; the primitive's
        vjp rule (``vjp_all``) is the two parts applied in a row.
        """
        if not self.multiple_results:
            raise ValueError(f"defvjp_residuals: primitive '{self.name}' must have multiple results")
        self.vjp_residuals = split

        def vjp_all(g, ans, *args, **params):
            traced = tuple(backend.is_float_dtype(getattr(a, "dtype", None) or np.result_type(a)) for a in args)
            fwd_params, n_out, bwd = split(args, traced, params)
            return bwd(g, ans, *self.bind(*args, **fwd_params)[n_out:])

        self.vjp_all = vjp_all
        self._set_saved((), False)
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
        if tx in _TRACER_TYPES and (ty in _PY_SCALARS or ty is Array or (ty is tx and y._trace is x._trace)):
            top = x._trace  # a tracer with a constant, or two tracers of one trace (compat's x * 2.0, x + y)
            if not top.alive:
                raise _escaped(top, prim)
            return top.process_primitive(prim, args, params)
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


# How a list of traced values becomes one array (a stack, which the trace sees): a primitive,
# so funcgrad.primitives registers it (register_sequence_stacker); the core sits below it.
_SEQUENCE_STACKER = []


def register_sequence_stacker(stack):
    """``stack(seq)``: a nested list/tuple holding tracers -> one array (funcgrad.primitives.shape)."""
    _SEQUENCE_STACKER[:] = [stack]


def _holds_tracers(seq):
    return any(_holds_tracers(v) if isinstance(v, (list, tuple)) else isinstance(v, Tracer) for v in seq)


def _stack_sequence(seq):
    if not _SEQUENCE_STACKER:
        raise RuntimeError("funcgrad.primitives, which stacks lists of traced values, has not been imported")
    return _SEQUENCE_STACKER[0](seq)


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
            if isinstance(a, (list, tuple)) and _holds_tracers(a):
                a = _stack_sequence(a)
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
    if isinstance(err, (TypeError, ValueError, IndexError)) and prim.abstract is not None and \
            any(type(v) in backend.XP_OF_TYPE and backend.XP_OF_TYPE[type(v)] is not np for v in vals):
        # another backend's wording (cupy: "Axis dimension mismatch"): the shape rule's error
        # is numpy's, naming the shapes
        try:
            prim.abstract(*(ShapedArray(v.shape, v.dtype) if hasattr(v, "shape") else v for v in vals), **params)
        except (TypeError, ValueError, IndexError) as rule_err:
            err = rule_err
        except Exception:  # noqa: S110 - a rule that cannot judge these avals: keep the impl's error
            pass
    msg = f"{prim.name}({shapes}): {err}"
    try:
        new = type(err)(msg)
    except Exception:
        return err
    return new


def full_lower(x):
    """Concrete buffer of an Array, or x itself."""
    return x._value if type(x) is Array else x
