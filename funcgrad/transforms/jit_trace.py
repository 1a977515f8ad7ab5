"""The abstract trace behind ``fg.jit``: each primitive applied to a traced value records an
equation and gets its output's shape and dtype from the primitive's ``abstract`` rule (nothing is
computed).  Values of enclosing transformations the function closes over become extra inputs."""

from __future__ import annotations

import numpy as np

from .. import backend
from ..array import ArrayTracer
from ..core import Array, ConcretizationTypeError, ShapedArray, Trace, Tracer
from .graph import Eqn, Literal, Var, WeakScalar, _names

__all__ = ["JitTracer", "JitTrace"]


class _CLayout:
    c_contiguous = True
    f_contiguous = False
    writeable = False
    owndata = True


_C_LAYOUT = _CLayout()


class JitTracer(ArrayTracer):
    __slots__ = ("_trace", "var", "_device", "origin")

    @property
    def shape(self):
        return self.var.aval.shape

    @property
    def dtype(self):
        return self.var.aval.dtype

    @property
    def device(self):
        return self._device

    @property
    def aval(self):
        return self.var.aval

    # layout queries (compat's contiguous(), stride(), ...): a traced value is laid out C-contiguously
    @property
    def flags(self):
        return _C_LAYOUT

    @property
    def strides(self):
        out, step = [], self.dtype.itemsize
        for d in reversed(self.shape):
            out.append(step)
            step *= max(d, 1)
        return tuple(reversed(out))

    def _conversion_error(self, what):
        err = ConcretizationTypeError(
            f"{what} was applied to a value traced by {self._trace.describe()}, which has no concrete value: "
            f"it is abstract ({self.dtype.name}{list(self.shape)}, derived from {self.origin}). Python control "
            "flow, float()/int()/bool()/.item() and boolean-mask indexing need concrete values: mark the argument "
            "static (jit(f, static_argnums=...) / static_argnames=...), or compute both branches and "
            "select with funcgrad.numpy.where instead of Python control flow on traced values."
        )
        err.origin = self.origin  # jit makes a Python-number input static when its value is needed
        return err

    def _concrete(self):
        raise self._conversion_error("reading the value")

    def __repr__(self):
        return f"Traced<{self._trace.describe()}>({self.dtype.name}{list(self.shape)})"


class JitTrace(Trace):
    """Records primitives applied to abstract values into a graph (nothing is computed)."""

    __slots__ = ("eqns", "constvars", "consts", "_const_ids", "_names", "fname", "lifted", "_keep", "custom_rules")
    kind = "jit"

    def __init__(self, fname="function"):
        super().__init__()
        self.eqns, self.constvars, self.consts = [], [], []
        self._const_ids = {}
        self._names = _names()
        self.fname = fname
        self.lifted = []  # (var, tracer): values of outer transformations the function closes over
        self.custom_rules = []  # names of custom_vjp/custom_jvp calls recorded by their primal body
        self._keep = []  # the objects behind _const_ids stay alive, so their ids stay unique

    def describe(self):
        return f"jit of {self.fname} (level {self.level})"

    def new_tracer(self, aval, device, origin):
        t = object.__new__(JitTracer)
        t._trace = self
        t.var = Var(next(self._names), aval)
        t._device = device
        t.origin = origin
        return t

    def atom(self, x):
        if type(x) is JitTracer and x._trace is self:
            return x.var
        inner = getattr(x, "_value", None)  # a wrapper of one of our tracers (compat's TracedTensor)
        if type(inner) is JitTracer and inner._trace is self:
            return inner.var
        if isinstance(x, (int, float, complex, bool)) and not isinstance(x, np.generic):
            return Literal(x)
        key = id(x)
        if isinstance(x, Tracer):  # an outer transformation's value: becomes an extra input
            if key not in self._const_ids:
                v = self._const_ids[key] = Var(next(self._names), ShapedArray(tuple(x.shape), np.dtype(x.dtype)))
                self.lifted.append((v, x))
                self._keep.append(x)
            return self._const_ids[key]
        if key not in self._const_ids:
            buf = x._value if type(x) is Array else x
            v = Var("", ShapedArray(tuple(getattr(buf, "shape", ())), getattr(buf, "dtype", np.result_type(buf))))
            self._const_ids[key] = v
            self.constvars.append(v)
            self.consts.append(buf)
            self._keep.append(x)
        return self._const_ids[key]

    def process_primitive(self, prim, args, params):
        inputs = [self.atom(a) for a in args]
        weak = _weak_inputs(prim, params, inputs)
        if weak is None:
            avals = [a.value if type(a) is Literal else a.aval for a in inputs]
        else:  # a weakly typed input is a Python number at run time: abstract rules see one
            avals = [a.value if type(a) is Literal else a.aval.example if type(a.aval) is WeakScalar else a.aval
                     for a in inputs]
        out = prim.abstract(*avals, **params)
        outs = out if prim.multiple_results else (out,)
        if prim.name == "device_put":
            device = params["device"]
        else:
            device = next((a.device for a in args if type(a) is JitTracer and type(a.var.aval) is not WeakScalar),
                          None) or backend.default_device()
        origin = next((a.origin for a in args if type(a) is JitTracer), "a constant")
        tracers = [self.new_tracer(_out_aval(o, weak), device, origin) for o in outs]
        self.eqns.append(Eqn(prim, dict(params), inputs, [t.var for t in tracers]))
        return tuple(tracers) if prim.multiple_results else tracers[0]


def takes_python_numbers(prim, params, inputs):
    """Whether the replay passes this equation's weakly typed inputs as Python numbers: for numpy ufuncs
    (element-wise arithmetic: numpy applies a Python number to an array in the array's dtype); every other
    primitive (astype, reshape, where, dot, scan...) gets them as 0-d arrays of their default dtype."""
    return not params and isinstance(prim.fast.get(np.ndarray), np.ufunc)


def _weak_inputs(prim, params, inputs):
    """None when no input is weakly typed or the equation takes them as 0-d arrays; else "mixed" (a
    strong traced input too: the output is strong) or "all" (only Python numbers: a ufunc's 0-d output
    stays weakly typed, as Python arithmetic on Python numbers)."""
    if not any(type(a) is Var and type(a.aval) is WeakScalar for a in inputs):
        return None
    if not takes_python_numbers(prim, params, inputs):
        return None
    return "mixed" if any(type(a) is Var and type(a.aval) is not WeakScalar for a in inputs) else "all"


def _out_aval(o, weak):
    if type(o) is WeakScalar:  # (a nested jit's weakly typed output)
        return o
    dtype = np.dtype(o.dtype)
    if weak == "all" and not tuple(o.shape) and dtype in WeakScalar.PY_TYPES:
        return WeakScalar(dtype)
    return ShapedArray(tuple(o.shape), dtype)
