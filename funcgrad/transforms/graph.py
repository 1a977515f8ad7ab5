"""Graph inspection: make_graph records the primitives a function applies (like jax.make_jaxpr).

``fg.make_graph(f)(*args)`` runs ``f`` on its arguments under a recording
trace and returns a :class:`Graph`: input variables, one equation per
primitive applied (``c:f64[3] = mul a b``), constants (arrays the function
closed over) and the outputs.  Values are computed as the function runs, so
Python control flow works (the graph shows the branch taken).  Transformations
used inside ``f`` appear as what they apply: a ``grad`` inside shows its
forward and backward equations.  ``graph.to_dot()`` gives Graphviz DOT text,
and calling ``graph(*args)`` replays the equations on new inputs of the same
shapes.

:func:`linearize` is built on it: the tangent map of ``jvp`` at fixed primals,
recorded once (the primal computation runs once, as constants) and replayed
for each tangent.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from .. import tree
from ..array import InspectingTracer
from ..core import Array, ShapedArray, Trace, Tracer, asarray
from ..primitives.creation import zeros_like
from .api import jvp

__all__ = ["make_graph", "Graph", "linearize", "WeakScalar"]

_SHORT = {"float64": "f64", "float32": "f32", "float16": "f16", "int64": "i64", "int32": "i32",
          "int16": "i16", "int8": "i8", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
          "bool": "bool", "complex128": "c128", "complex64": "c64"}


def _aval_str(aval):
    name = np.dtype(aval.dtype).name
    weak = "{weak}" if type(aval) is WeakScalar else ""
    return f"{_SHORT.get(name, name)}[{','.join(map(str, aval.shape))}]{weak}"


class WeakScalar(ShapedArray):
    """The aval of a Python number ``jit`` traces (JAX's weak type): 0-d, numpy's dtype for the number
    (bool, int64, float64, complex128), and at run time the Python number itself, so numpy applies it
    to arrays as it applies Python numbers (``float32 array * 2.5`` stays float32).  ``example`` is a
    number of the type that abstract rules receive in its place."""

    __slots__ = ("example",)
    PY_TYPES = {np.dtype(bool): bool, np.dtype(np.int64): int, np.dtype(np.float64): float,
                np.dtype(np.complex128): complex}

    def __init__(self, dtype):
        super().__init__((), dtype)
        self.example = self.PY_TYPES[self.dtype](1)

    @classmethod
    def of(cls, pytype):
        return cls(np.result_type(pytype(0)))

    def __repr__(self):
        return f"{self.dtype.name}[]{{weak}}"


def _names():
    letters = "abcdefghijklmnopqrstuvwxyz"
    for n in itertools.count(1):
        for combo in itertools.product(letters, repeat=n):
            yield "".join(combo)


class Var:
    """A value in the graph: a name and its shape/dtype."""

    __slots__ = ("name", "aval")

    def __init__(self, name, aval):
        self.name = name
        self.aval = aval

    def __repr__(self):
        return self.name

    def typed(self):
        return f"{self.name}:{_aval_str(self.aval)}"


class Literal:
    """A Python scalar used directly as an argument."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return repr(self.value)


class Eqn:
    """One primitive application: ``outputs = prim[params] inputs``."""

    __slots__ = ("prim", "params", "inputs", "outputs")

    def __init__(self, prim, params, inputs, outputs):
        self.prim, self.params, self.inputs, self.outputs = prim, params, inputs, outputs

    def params_str(self):
        items = [f"{k}={_param_str(v)}" for k, v in self.params.items()]
        return f"[{' '.join(items)}]" if items else ""

    def __repr__(self):
        outs = " ".join(v.typed() for v in self.outputs)
        ins = " ".join(repr(a) for a in self.inputs)
        return f"{outs} = {self.prim.name}{self.params_str()} {ins}".rstrip()


def _param_str(v):
    if isinstance(v, np.dtype):
        return v.name
    if isinstance(v, tuple):
        inner = ", ".join(_param_str(x) for x in v)
        return f"({inner}{',' if len(v) == 1 else ''})"
    if isinstance(v, slice):
        return f"slice({v.start}, {v.stop}, {v.step})"
    return str(v)


def eval_eqns(eqns, env, outvars):
    """Apply ``eqns`` with bind (so that transformations see them) on ``env`` (id(var) -> value);
    returns the values of ``outvars``."""
    def read(a):
        return a.value if type(a) is Literal else env[id(a)]

    for e in eqns:
        out = e.prim.bind(*[read(a) for a in e.inputs], **e.params)
        for v, o in zip(e.outputs, out if e.prim.multiple_results else (out,)):
            env[id(v)] = o
    return [read(a) for a in outvars]


class Graph:
    """The record of a traced call: ``invars``, ``constvars`` (with ``consts``), ``eqns``, ``outvars``."""

    def __init__(self, invars, constvars, consts, eqns, outvars, in_tree, out_tree):
        self.invars, self.constvars, self.consts = invars, constvars, consts
        self.eqns, self.outvars = eqns, outvars
        self.in_tree, self.out_tree = in_tree, out_tree

    def __str__(self):
        consts = " ".join(v.typed() for v in self.constvars)
        ins = " ".join(v.typed() for v in self.invars)
        lines = [f"{{ lambda {consts}; {ins}. let"]
        lines += [f"    {e!r}" for e in self.eqns]
        outs = ", ".join(repr(v) for v in self.outvars)
        lines.append(f"  in ({outs}{',' if len(self.outvars) == 1 else ''}) }}")
        return "\n".join(lines)

    __repr__ = __str__

    def primitive_names(self):
        return [e.prim.name for e in self.eqns]

    def __call__(self, *args):
        """Replay the equations on new arguments (same structure, shapes and dtypes)."""
        leaves = tree.tree_leaves(args)
        if len(leaves) != len(self.invars):
            raise TypeError(f"this graph takes {len(self.invars)} array input(s), got {len(leaves)}")
        env = dict(zip(map(id, self.constvars), self.consts))
        for v, x in zip(self.invars, leaves):
            if type(v.aval) is WeakScalar and type(x) in (bool, int, float, complex):
                env[id(v)] = x  # a weakly typed input stays a Python number
                continue
            x = x if isinstance(x, (Array, Tracer)) else asarray(x)
            if tuple(x.shape) != v.aval.shape or np.dtype(x.dtype) != v.aval.dtype:
                raise TypeError(f"input {v.name} was traced as {_aval_str(v.aval)}, got "
                                f"{_aval_str(ShapedArray(x.shape, x.dtype))}")
            env[id(v)] = x

        return tree.tree_unflatten(self.out_tree, eval_eqns(self.eqns, env, self.outvars))

    def to_dot(self, name="funcgrad"):
        """Graphviz DOT text: variables as ellipses, equations as boxes."""
        def q(s):
            return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"') + '"'

        lines = [f"digraph {q(name)} {{", "  rankdir=TB;", '  node [fontname="monospace"];']
        for v in self.invars:
            lines.append(f"  {q(v.name)} [label={q(v.typed())}, shape=ellipse, style=filled, fillcolor=lightblue];")
        for v in self.constvars:
            lines.append(f"  {q(v.name)} [label={q(v.typed() + ' (const)')}, shape=ellipse, style=dashed];")
        for i, e in enumerate(self.eqns):
            eq = f"eqn{i}"
            lines.append(f"  {q(eq)} [label={q(e.prim.name + e.params_str())}, shape=box];")
            for k, a in enumerate(e.inputs):
                if type(a) is Literal:
                    lit = f"{eq}_lit{k}"
                    lines.append(f"  {q(lit)} [label={q(repr(a.value))}, shape=plaintext];")
                    lines.append(f"  {q(lit)} -> {q(eq)};")
                else:
                    lines.append(f"  {q(a.name)} -> {q(eq)};")
            for v in e.outputs:
                lines.append(f"  {q(v.name)} [label={q(v.typed())}, shape=ellipse];")
                lines.append(f"  {q(eq)} -> {q(v.name)};")
        for k, a in enumerate(self.outvars):
            out = f"out{k}"
            lines.append(f"  {q(out)} [label={q('output ' + str(k))}, shape=doublecircle];")
            src = a.name if type(a) is not Literal else None
            if src is not None:
                lines.append(f"  {q(src)} -> {q(out)};")
        lines.append("}")
        return "\n".join(lines)


class GraphTracer(InspectingTracer):
    __slots__ = ("var",)


class GraphTrace(Trace):
    __slots__ = ("eqns", "constvars", "consts", "_const_ids", "_names")
    kind = "make_graph"

    def __init__(self):
        super().__init__()
        self.eqns, self.constvars, self.consts = [], [], []
        self._const_ids = {}
        self._names = _names()

    def new_var(self, x):
        return Var(next(self._names), ShapedArray(x.shape, x.dtype))

    def new_tracer(self, val, var=None):
        t = object.__new__(GraphTracer)
        t._trace = self
        t.primal = val
        t.var = var if var is not None else self.new_var(val)
        return t

    def atom(self, x):
        """The graph atom for an argument: our variable, a constant, or a literal."""
        if type(x) is GraphTracer and x._trace is self:
            return x.var
        if isinstance(x, (int, float, complex, bool)):
            return Literal(x)
        key = id(x)
        if key not in self._const_ids:
            v = Var("", ShapedArray(getattr(x, "shape", ()), getattr(x, "dtype", np.result_type(x))))
            self._const_ids[key] = v
            self.constvars.append(v)
            self.consts.append(x)
        return self._const_ids[key]

    def process_primitive(self, prim, args, params):
        inputs = [self.atom(a) for a in args]
        vals = [a.primal if type(a) is GraphTracer and a._trace is self else a for a in args]
        out = prim.bind(*vals, **params)
        outs = out if prim.multiple_results else (out,)
        tracers = [self.new_tracer(o) for o in outs]
        self.eqns.append(Eqn(prim, dict(params), inputs, [t.var for t in tracers]))
        return tuple(tracers) if prim.multiple_results else tracers[0]


def make_graph(fun):
    """``make_graph(f)(*args)`` -> the :class:`Graph` of primitives ``f`` applies to ``args``.

    Array leaves of ``args`` become the graph's inputs; other leaves (Python
    numbers, strings) are static.  Arrays ``f`` uses without receiving them
    become constants.
    """
    @functools.wraps(fun)
    def graph_fun(*args, **kwargs):
        trace = GraphTrace()
        leaves, in_tree = tree.tree_flatten(args)
        tracers = []
        wrapped = []
        for x in leaves:
            if isinstance(x, (Array, Tracer, np.ndarray)):
                t = trace.new_tracer(x if isinstance(x, (Array, Tracer)) else asarray(x))
                tracers.append(t)
                wrapped.append(t)
            else:
                wrapped.append(x)
        try:
            out = fun(*tree.tree_unflatten(in_tree, wrapped), **kwargs)
        finally:
            trace.alive = False
        out_leaves, out_tree = tree.tree_flatten(out)
        outvars = [trace.atom(x) for x in out_leaves]
        consts_first = trace.constvars
        for v in consts_first:  # constants are named after the inputs, in order of first use
            v.name = next(trace._names)
        return Graph([t.var for t in tracers], consts_first, trace.consts, trace.eqns, outvars, in_tree, out_tree)

    return graph_fun


def linearize(fun, *primals):
    """``(fun(*primals), f_jvp)``: ``f_jvp(*tangents)`` is the jvp at ``primals``, without
    recomputing the primal (the tangent map is recorded once with :func:`make_graph` and
    replayed)."""
    primals = tuple(x if isinstance(x, (Array, Tracer)) else asarray(x) for x in primals)
    holder = []

    def tangent_map(*ts):
        out, t_out = jvp(fun, primals, ts)
        holder.append(out)
        return t_out

    zeros = tuple(tree.tree_map(zeros_like, p) for p in primals)
    graph = make_graph(tangent_map)(*zeros)
    in_tree = tree.tree_structure(primals)

    def f_jvp(*tangents):
        if tree.tree_structure(tuple(tangents)) != in_tree:
            raise TypeError(f"linearize: f_jvp expects tangents with the structure of the primals ({in_tree}), "
                            f"got {tree.tree_structure(tuple(tangents))}")
        return graph(*tangents)

    return holder[0], f_jvp
