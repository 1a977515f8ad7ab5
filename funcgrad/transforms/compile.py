"""From a traced :class:`~funcgrad.transforms.graph.Graph` to a replay function over raw buffers.

The passes, in order (each returns a new list of equations):

1. ``inline``: nested ``jit`` equations are replaced by their graphs' equations;
2. ``fold_constants``: an equation whose inputs are all constants or literals runs
   once, at compile time, and its outputs become constants (random-number and
   other effectful primitives are never folded: funcgrad has none, its random
   functions take keys);
3. ``simplify``: multiplications by one (a literal, or an all-ones constant such as the seed
   cotangent of ``grad``) that change neither shape nor dtype are dropped;
4. ``cse``: equations with the same primitive, params and inputs (in any order, for commutative
   primitives) are computed once;
5. ``dce``: equations whose outputs nothing uses are dropped.

``generate`` then writes straight-line Python source, one line per equation, that
calls each primitive's ``impl`` (or, for ufunc primitives on numpy, the ufunc itself)
on raw buffers: no tracers, no ``bind``, no Array wrappers.  Intermediates of
ufunc equations whose last use is another ufunc equation of the same shape and
dtype are overwritten in place (``out=``), and so are donated input buffers; an
intermediate is only reused when no view of it is still alive.
"""

from __future__ import annotations

import functools

import numpy as np

from .. import backend
from . import fusion
from .graph import Eqn, Var, WeakScalar
from .jit_trace import takes_python_numbers
from ..backend import is_float_dtype
from .. import backend

__all__ = ["optimize", "generate"]


def _is_var(a):
    return type(a) is Var


def inline(eqns, jit_prim):
    out = []
    for e in eqns:
        if e.prim is not jit_prim:
            out.append(e)
            continue
        inner = e.params["jitted"].graph
        env = {id(v): a for v, a in zip(inner.invars, e.inputs)}
        env.update({id(v): v for v in inner.constvars})
        for ie in inline(inner.eqns, jit_prim):
            ins = [env.get(id(a), a) if _is_var(a) else a for a in ie.inputs]
            outs = [Var(v.name, v.aval) for v in ie.outputs]
            env.update({id(old): new for old, new in zip(ie.outputs, outs)})
            out.append(Eqn(ie.prim, ie.params, ins, outs))
        for v, src in zip(e.outputs, inner.outvars):
            out.append(Eqn(None, {}, [env.get(id(src), src) if _is_var(src) else src], [v]))  # a rename
    return out


def _resolve_renames(eqns, outvars):
    """Remove the rename equations ``inline`` left, substituting their sources."""
    sub = {}

    def get(a):
        while _is_var(a) and id(a) in sub:
            a = sub[id(a)]
        return a

    kept = []
    for e in eqns:
        if e.prim is None:
            sub[id(e.outputs[0])] = e.inputs[0]
            continue
        kept.append(Eqn(e.prim, e.params, [get(a) for a in e.inputs], e.outputs))
    return kept, [get(a) for a in outvars]


def _fold_shape_only(e, const_env):
    """``full_like`` reads only its input's shape and dtype: on numpy, its output is a constant."""
    x = e.inputs[0]
    if not _is_var(x):
        return False
    aval = x.aval
    p = e.params
    const_env[id(e.outputs[0])] = np.full(aval.shape if p.get("shape") is None else p["shape"], p["fill_value"],
                                          aval.dtype if p.get("dtype") is None else p["dtype"])
    return True


def fold_constants(eqns, const_env, numpy_only=False):
    """Evaluate equations of constants now; ``const_env`` (id(var) -> buffer) grows with their outputs.
    With ``numpy_only`` (every buffer of the graph is a numpy array), shape-only equations fold too."""
    kept = []
    for e in eqns:
        if numpy_only and e.prim.name == "full_like" and _fold_shape_only(e, const_env):
            continue
        if all((not _is_var(a)) or id(a) in const_env for a in e.inputs):  # (nested jit is inlined by now)
            vals = [const_env[id(a)] if _is_var(a) else a.value for a in e.inputs]
            try:
                out = e.prim.impl(*vals, **e.params)
            except Exception:  # noqa: BLE001 - leave it to run (and fail) at call time
                kept.append(e)
                continue
            for v, o in zip(e.outputs, out if e.prim.multiple_results else (out,)):
                const_env[id(v)] = o
            continue
        kept.append(e)
    return kept


def _param_key(v):
    try:
        hash(v)
        return v
    except TypeError:
        return id(v)


_COMMUTATIVE = frozenset(("add", "multiply", "maximum", "minimum", "logical_and", "logical_or", "logical_xor",
                          "equal", "not_equal", "bitwise_and", "bitwise_or", "bitwise_xor"))


def _is_one(a, const_env):
    if not _is_var(a):
        return type(a.value) in (int, float) and a.value == 1
    c = const_env.get(id(a))
    return isinstance(c, (np.ndarray, np.generic)) and c.size <= 1 << 16 and bool(np.all(c == 1))


def simplify(eqns, outvars, const_env):
    """``x * 1`` (a literal or an all-ones constant that does not change x's shape or dtype) is x."""
    sub, kept = {}, []

    def get(a):
        return sub.get(id(a), a) if _is_var(a) else a

    for e in eqns:
        ins = [get(a) for a in e.inputs]
        if e.prim.name == "multiply" and len(ins) == 2:
            out = e.outputs[0].aval
            for keep, other in ((ins[0], ins[1]), (ins[1], ins[0])):
                if _is_var(keep) and id(keep) not in const_env and keep.aval == out and _is_one(other, const_env):
                    sub[id(e.outputs[0])] = keep
                    break
            if id(e.outputs[0]) in sub:
                continue
        kept.append(Eqn(e.prim, e.params, ins, e.outputs))
    return kept, [get(a) for a in outvars]


def cse(eqns, outvars):
    seen, sub, kept = {}, {}, []

    def get(a):
        return sub.get(id(a), a) if _is_var(a) else a

    for e in eqns:
        ins = [get(a) for a in e.inputs]
        in_keys = tuple(id(a) if _is_var(a) else ("lit", type(a.value), a.value) for a in ins)
        if e.prim.name in _COMMUTATIVE:
            in_keys = tuple(sorted(in_keys, key=repr))
        key = (e.prim, in_keys,
               tuple(sorted((k, _param_key(v)) for k, v in e.params.items())))
        try:
            prev = seen.get(key)
        except TypeError:
            prev, key = None, None
        if prev is not None:
            for old, new in zip(e.outputs, prev.outputs):
                sub[id(old)] = new
            continue
        ne = Eqn(e.prim, e.params, ins, e.outputs)
        if key is not None:
            seen[key] = ne
        kept.append(ne)
    return kept, [get(a) for a in outvars]


def dce(eqns, outvars):
    live = {id(a) for a in outvars if _is_var(a)}
    kept = []
    for e in reversed(eqns):
        if any(id(v) in live for v in e.outputs):
            kept.append(e)
            live.update(id(a) for a in e.inputs if _is_var(a))
    return kept[::-1]


def optimize(graph, jit_prim, numpy_only=False):
    """The graph's equations after inlining, constant folding, CSE and DCE; returns
    ``(eqns, outvars, const_env)``."""
    eqns, outvars = _resolve_renames(inline(graph.eqns, jit_prim), graph.outvars)
    const_env = {id(v): c for v, c in zip(graph.constvars, graph.consts)}
    numpy_only = numpy_only and all(isinstance(c, (np.ndarray, np.generic)) for c in graph.consts) and not any(
        e.prim.name == "device_put" for e in eqns)
    eqns = fold_constants(eqns, const_env, numpy_only)
    eqns, outvars = simplify(eqns, outvars, const_env)
    eqns, outvars = cse(eqns, outvars)
    return dce(eqns, outvars), outvars, const_env


# --- code generation ---------------------------------------------------------------------

def _interpreter(eqns, inputs, outputs, types):
    """A function computing ``outputs`` from ``inputs`` by running ``eqns`` one by one (a fused run's
    fallback)."""
    fns = [_callable(e, types) for e in eqns]

    def run(*xs):
        env = {id(v): x for v, x in zip(inputs, xs)}
        for e, fn in zip(eqns, fns):
            out = fn(*[env[id(a)] if _is_var(a) else a.value for a in e.inputs])
            env[id(e.outputs[0])] = out
        return [env[id(v)] for v in outputs]

    return run


def _callable(e, buffer_type):
    """What the generated line calls for ``e``: the ufunc itself where the primitive registered one for
    this buffer type and there are no params, else the impl with its params bound (a fused run: its
    kernel's caller)."""
    if e.prim is None:
        fr = e.params["run"]
        return fusion.make_caller(fr, _interpreter(fr.eqns, fr.inputs, fr.outputs, buffer_type))
    fast = e.prim.fast.get(buffer_type)
    if fast is not None and not e.params:
        return fast
    if not e.params:
        return e.prim.impl
    return functools.partial(e.prim.impl, **e.params)


def _reuse_plan(eqns, invars, outvars, donated, fns):
    """For each equation, the input variable whose buffer its output may be written into (or None).

    A buffer may be overwritten at equation i when it is a fresh ufunc result (or a donated input)
    whose memory nothing else can see: every variable that may view it (the outputs of non-ufunc
    equations may view any of their inputs) is dead after i, and no graph output shares it.
    """
    roots = {id(v): frozenset((id(v),)) for v in invars}
    owner = {id(v) for v, d in zip(invars, donated) if d}
    for e, fn in zip(eqns, fns):
        if isinstance(fn, np.ufunc) and not e.prim.multiple_results:  # (only numpy buffers get ufuncs)
            v = e.outputs[0]
            roots[id(v)] = frozenset((id(v),))
            if v.aval.shape:
                owner.add(id(v))
        else:
            shared = frozenset().union(*(roots.get(id(a), frozenset()) for a in e.inputs if _is_var(a)))
            for v in e.outputs:
                roots[id(v)] = shared | {id(v)}
    last = {}
    for i, e in enumerate(eqns):
        for a in e.inputs:
            if _is_var(a):
                for r in roots.get(id(a), ()):
                    last[r] = i
    protected = frozenset().union(*(roots.get(id(a), frozenset()) for a in outvars if _is_var(a)))
    plan = [None] * len(eqns)
    for i, (e, fn) in enumerate(zip(eqns, fns)):
        if not isinstance(fn, np.ufunc) or e.prim.multiple_results or not e.outputs[0].aval.shape:
            continue
        out = e.outputs[0].aval
        for a in e.inputs:
            if (_is_var(a) and id(a) in owner and id(a) not in protected and last.get(id(a)) == i
                    and a.aval.shape == out.shape and a.aval.dtype == out.dtype):
                plan[i] = a
                owner.discard(id(a))
                break
    return plan


def _literal(value, like):
    """A Python number operand of a ufunc whose array operands and result all have dtype ``like``, as a 0-d
    array of that dtype: numpy applies it the same way (a weak scalar takes the array's dtype) and takes
    the 0-d array faster."""
    if like is None or type(value) not in (int, float) or not is_float_dtype(like):
        return value
    return np.asarray(value, dtype=like)


def _buffer_types(eqns, invars, in_types, const_env):
    """Per equation, the buffer type (array library) its inputs live in: the inputs' type, the constants'
    type, or for a transfer, the destination's."""
    types = {id(v): t for v, t in zip(invars, in_types)}
    out = []
    for e in eqns:
        t = None
        for a in e.inputs:
            if _is_var(a):
                t = types.get(id(a))
                if t is None and id(a) in const_env:
                    t = types[id(a)] = backend.backend_of(const_env[id(a)]).array_type
                if t is not None:
                    break
        out.append(t)
        t_out = backend.get_backend(backend.get_device(e.params["device"])).array_type \
            if e.prim.name == "device_put" else t
        for v in e.outputs:
            types[id(v)] = t_out
    return out


def generate(eqns, invars, outvars, const_env, in_types, donated=None, fuse=True):
    """Python source for the replay, compiled; returns ``(fn, source)``: ``fn(*buffers) -> list of buffers``.

    ``in_types`` are the inputs' buffer types (numpy.ndarray, cupy.ndarray, ...)."""
    donated = donated or [False] * len(invars)
    names, ns, lines = {}, {}, []
    for k, v in enumerate(invars):
        names[id(v)] = f"a{k}"

    def ref(a, like=None):
        if not _is_var(a):
            key = f"l{len(ns)}"
            ns[key] = _literal(a.value, like)
            return key
        if id(a) in names:
            return names[id(a)]
        key = f"k{len(ns)}"
        ns[key] = const_env[id(a)]
        names[id(a)] = key
        return key

    types = _buffer_types(eqns, invars, in_types, const_env)
    host = backend.get_backend(backend.default_device())  # where a Python number becomes an array

    def as_array(name, aval):  # a weakly typed value (a Python number at run time) as a 0-d array
        key = f"w{len(ns)}"
        ns[key] = functools.partial(host.from_host, dtype=aval.dtype)
        return f"{key}({name})"

    if fuse:
        eqns, types = fusion.fuse(eqns, outvars, types)
    fns = [_callable(e, t) for e, t in zip(eqns, types)]
    plan = _reuse_plan(eqns, invars, outvars, donated, fns)
    tmp = 0
    for i, (e, fn) in enumerate(zip(eqns, fns)):
        fname = f"f{i}"
        ns[fname] = fn
        like = e.outputs[0].aval.dtype if isinstance(fn, np.ufunc) and len(e.outputs) == 1 and all(
            not _is_var(a) or a.aval.dtype == e.outputs[0].aval.dtype for a in e.inputs) else None
        refs = [ref(a, like) for a in e.inputs]
        weak_in = [_is_var(a) and type(a.aval) is WeakScalar for a in e.inputs]
        if any(weak_in) and e.prim is not None and not takes_python_numbers(e.prim, e.params, e.inputs):
            refs = [as_array(r, a.aval) if w else r for r, a, w in zip(refs, e.inputs, weak_in)]
        args = ", ".join(refs)
        outs = []
        for v in e.outputs:
            names[id(v)] = f"t{tmp}"
            outs.append(f"t{tmp}")
            tmp += 1
        if plan[i] is not None:
            args += f", out={names[id(plan[i])]}"
        multiple = e.prim is None or e.prim.multiple_results
        lhs = ", ".join(outs) + ("," if multiple and len(outs) == 1 else "")
        if multiple and not outs:
            lhs = "_"
        what = e.prim.name if e.prim is not None else f"fused: {len(e.params['run'].eqns)} equations"
        call = f"{fname}({args})"
        if len(e.outputs) == 1 and type(e.outputs[0].aval) is WeakScalar and not multiple:
            call = f"{WeakScalar.PY_TYPES[e.outputs[0].aval.dtype].__name__}({call})"  # stays a Python number
        lines.append(f"    {lhs} = {call}  # {what}")
    # an output that is a constant is copied: the caller may donate it to another jitted call
    ret = ", ".join(as_array(ref(a), a.aval) if _is_var(a) and type(a.aval) is WeakScalar else
                    ref(a) + (".copy()" if _is_var(a) and id(a) in const_env and hasattr(const_env[id(a)], "copy")
                              else "") for a in outvars)
    params = ", ".join(f"a{k}" for k in range(len(invars)))
    source = f"def replay({params}):\n" + "\n".join(lines) + f"\n    return [{ret}]\n"
    exec(compile(source, "<funcgrad.jit replay>", "exec"), ns)  # noqa: S102 - our own generated code
    return ns["replay"], source
