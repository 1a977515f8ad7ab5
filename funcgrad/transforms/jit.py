"""``fg.jit``: trace once on abstract values, replay generated straight-line code on raw buffers.

``jit(f)(*args)`` flattens the arguments; array leaves become abstract inputs (shape,
dtype, device), Python ``int``/``float``/``complex`` leaves weakly typed 0-d inputs
(:class:`~funcgrad.transforms.graph.WeakScalar`: the replay receives the number itself, so numpy
applies it as a Python number; one whose value the function needs becomes static and the function
is traced again), every other leaf and every ``static_argnums``/``static_argnames``
argument is static.  The first call with a new signature traces ``f`` under a
:class:`JitTrace`: each primitive applied to a traced value records an equation and
gets its output's shape and dtype from the primitive's ``abstract`` rule (nothing is
computed).  The graph (the same :class:`~funcgrad.transforms.graph.Graph` that
``make_graph`` shows) is optimized and turned into Python source by
:mod:`funcgrad.transforms.compile`, and cached under the signature; later calls
with the same signature run the replay directly on the input buffers.

Inside a transformation (``grad(jit(f))``, ``vmap(jit(f))``, ``jvp``...), a jitted
call is one primitive, ``jit``, whose rules are jitted functions of the graph:
its vjp is the graph's vjp traced once and split by partial evaluation
(:mod:`funcgrad.transforms.partial_eval`) into a forward graph that also returns
the residuals the backward pass reads, and a backward graph that starts from them;
its jvp is ``jit`` of the graph's jvp, its batching rule ``jit`` of the graph's
``vmap``.  Those derived graphs are cached on the compiled graph, so ``grad(jit(f))``
compiles once per signature and runs two replays per call (forward, backward), with
nothing recomputed.

Traced values have no concrete value: ``float()``, ``int()``, ``bool()`` (a Python
``if``), ``.item()`` or boolean-mask indexing of one raises
:class:`ConcretizationTypeError`, naming the argument it came from.  A Python side
effect (``print``, appending to a list) runs when ``f`` is traced, not on cached
calls.  Set ``FUNCGRAD_JIT_LOG=1`` (or configure the ``funcgrad.jit`` logger) to see
each trace and why it happened.
"""

from __future__ import annotations

import functools
import inspect
import logging
import os
import sys

import numpy as np

from .. import backend, tree
from ..core import Array, ConcretizationTypeError, ShapedArray, Tracer, asarray
from .graph import Graph, WeakScalar
from .jit_primitive import Compiled, jit_p
from .jit_trace import JitTrace, JitTracer  # noqa: F401  (JitTracer: re-exported)

__all__ = ["jit", "make_jaxpr", "JitTrace", "JitTracer", "Compiled", "jit_p"]

log = logging.getLogger("funcgrad.jit")
if os.environ.get("FUNCGRAD_JIT_LOG", "").lower() in ("1", "true", "yes"):
    _h = logging.StreamHandler(sys.stderr)
    _h.setFormatter(logging.Formatter("funcgrad.jit: %(message)s"))
    log.addHandler(_h)
    log.setLevel(logging.INFO)


# --- the user-facing wrapper -----------------------------------------------------------------

def _hashable(v, what, fname):
    try:
        hash(v)
    except TypeError:
        raise TypeError(f"jit of {fname}: {what} is static (not an array) and must be hashable, got "
                        f"{type(v).__name__} {v!r:.60}; make it a tuple, or pass arrays instead") from None
    return v


_CPU = backend.get_device("cpu")
_DEFAULT = backend._DEFAULT  # [the default device]: read on every call
_new_array = object.__new__
_LEAF = tree.tree_structure(0)


def _leaf_key(x):
    if type(x) is Array:
        v = x._value
        if type(v) is np.ndarray or isinstance(v, np.generic):  # numpy buffers are on the cpu
            return ("a", v.shape, v.dtype, _CPU)
        return ("a", tuple(v.shape), v.dtype, backend.device_of(v))
    if isinstance(x, Tracer):
        if type(x) is JitTracer and type(x.var.aval) is WeakScalar:  # an enclosing jit's Python number
            return ("w", WeakScalar.PY_TYPES[x.var.aval.dtype])
        return ("a", tuple(x.shape), np.dtype(x.dtype), x.device)
    return None


_NUMBERS = (int, float, complex)  # Python numbers traced weakly typed (bool stays static: flags)


def _wrap(buf):
    a = object.__new__(Array)
    a._value = buf
    return a


class Jitted:
    """What ``jit(f)`` returns: call it like ``f``; ``.lower(*args)`` shows the graph for those inputs."""

    def __init__(self, fun, static_argnums, static_argnames, donate_argnums, weak_numbers=True):
        self.fun = fun
        # Python numbers are traced as weakly typed inputs (JAX's rule), except where the function needs
        # their value: then, per argument structure, those leaves are static (_static_leaves)
        self.weak_numbers = weak_numbers
        self._static_leaves = {}
        self.fname = getattr(fun, "__name__", type(fun).__name__)
        self._sig = _signature(fun)
        self.static_argnums = _normalize_nums(static_argnums)
        self.static_argnames = (static_argnames,) if isinstance(static_argnames, str) else tuple(static_argnames)
        self.donate_argnums = _normalize_nums(donate_argnums)
        self.cache = {}
        self._fast = {}  # shapes/dtypes of positional Arrays -> (default device, replay, out_tree, single output)
        self._plain = not (self.static_argnums or self.static_argnames or self.donate_argnums)
        self.trace_count = 0
        functools.update_wrapper(self, fun)

    def __repr__(self):
        return f"<jit of {self.fname}>"

    def __get__(self, obj, objtype=None):  # a jitted method binds like the function it wraps
        return self if obj is None else functools.partial(self, obj)

    def _split(self, args, kwargs):
        if self._plain:
            return (), args, kwargs
        positions = self._static_positions(args)
        for i in self.static_argnums:
            if i >= len(args):
                raise TypeError(f"jit of {self.fname}: static_argnums includes {i}, but the call passes only "
                                f"{len(args)} positional argument(s)")
        static = tuple((i, _hashable(args[i], f"argument {i}", self.fname)) for i in positions)
        static += tuple((k, _hashable(kwargs[k], f"argument {k!r}", self.fname))
                        for k in self.static_argnames if k in kwargs)
        dyn_args = tuple(a for i, a in enumerate(args) if i not in positions)
        dyn_kwargs = {k: v for k, v in kwargs.items() if k not in self.static_argnames}
        return static, dyn_args, dyn_kwargs

    def _static_positions(self, args):
        """static_argnums, plus the positions of static_argnames passed positionally (as in JAX)."""
        nums = set(self.static_argnums)
        if self._sig is not None and self.static_argnames:
            names = list(self._sig.parameters)
            nums |= {names.index(k) for k in self.static_argnames if k in names and names.index(k) < len(args)}
        return tuple(sorted(nums))

    def _signature_key(self, args, kwargs, weak=True):
        static, dyn_args, dyn_kwargs = self._split(args, kwargs)
        leaves, treedef = tree.tree_flatten((dyn_args, dyn_kwargs))
        keys, arrays, positions = [], [], []
        weak = weak and self.weak_numbers and _weak_ok(leaves)
        forced = self._static_leaves.get(treedef, ()) if weak else ()
        for i, x in enumerate(leaves):
            if isinstance(x, (np.ndarray, np.generic)):
                x = leaves[i] = asarray(x)
            k = _leaf_key(x)
            if k is None:
                if weak and type(x) in _NUMBERS and i not in forced:
                    keys.append(("w", type(x)))
                    arrays.append(x)
                    positions.append(i)
                    continue
                keys.append(("s", type(x), _hashable(x, f"the leaf {x!r:.40}", self.fname)))
            else:
                keys.append(k)
                arrays.append(x)
                positions.append(i)
        key = (treedef, tuple(keys), static, backend._DEFAULT[0])
        return key, leaves, treedef, arrays, positions, static

    def _fast_key(self, args, kwargs):
        """For a call of plain positional numpy-backed Arrays (no static or donated arguments): a cheap key."""
        if not self._plain or kwargs:
            return None
        fk = []
        ndarray = np.ndarray
        for a in args:
            if type(a) is not Array:
                if type(a) in _NUMBERS and self.weak_numbers:
                    fk.append(type(a))
                    continue
                return None
            v = a._value
            if type(v) is not ndarray:
                return None
            fk.append(v.shape)
            fk.append(v.dtype)
        return tuple(fk)

    def __call__(self, *args, **kwargs):
        fast = self._fast_key(args, kwargs)
        if fast is not None:
            hit = self._fast.get(fast)
            if hit is not None and hit[0] is _DEFAULT[0]:  # the cached replay, with little around it
                _, replay, out_tree, single = hit
                outs = replay(*[a._value if type(a) is Array else a for a in args])
                if single:
                    r = _new_array(Array)
                    r._value = outs[0]
                    return r
                return tree.tree_unflatten(out_tree, [_wrap(o) for o in outs])
        (key, leaves, treedef, arrays, positions, static), entry = self._lookup(args, kwargs)
        compiled, out_tree, lifted = entry
        if fast is not None and not lifted and len(arrays) == len(args):  # (no leaf was made static)
            self._fast[fast] = (_DEFAULT[0], compiled.replay, out_tree, out_tree == _LEAF)
        if lifted:  # the function closes over values of an outer transformation: they are inputs too
            outs = jit_p.bind(*lifted, *arrays, jitted=compiled)
            return tree.tree_unflatten(out_tree, list(outs))
        if all(type(a) is Array or type(a) in _NUMBERS for a in arrays):
            outs = compiled.run([a._value if type(a) is Array else a for a in arrays])
            for i in self.donate_argnums_flat(args, positions):
                if type(arrays[i]) is Array:  # (a Python number has no buffer to give)
                    arrays[i]._value = _Donated(self.fname)
            return tree.tree_unflatten(out_tree, [_wrap(o) for o in outs])
        outs = jit_p.bind(*arrays, jitted=compiled)
        return tree.tree_unflatten(out_tree, list(outs))

    def _leaf_owners(self, args):
        """For each flat leaf of the dynamic arguments, the positional argument it comes from (leaves past
        the end come from keyword arguments)."""
        static = self._static_positions(args)
        owners = []
        for i, a in enumerate(args):
            if i not in static:
                owners += [i] * len(tree.tree_leaves(a))
        return owners

    def donate_argnums_flat(self, args, positions):
        """Indices (among the array leaves) of the arrays that ``donate_argnums`` donates."""
        if not self.donate_argnums:
            return []
        owners = self._leaf_owners(args)
        return [k for k, p in enumerate(positions) if p < len(owners) and owners[p] in self.donate_argnums]

    def _explain(self, key):
        if not self.cache:
            return "first call"
        prev = next(reversed(self.cache))
        if prev[0] != key[0]:
            return f"the argument structure changed ({prev[0]} -> {key[0]})"
        for i, (a, b) in enumerate(zip(prev[1], key[1])):
            if a != b:
                return f"leaf {i} changed: {_describe_key(a)} -> {_describe_key(b)}"
        if prev[2] != key[2]:
            return f"a static argument changed: {prev[2]} -> {key[2]}"
        return f"the default device changed ({prev[3]} -> {key[3]})"

    def _lookup(self, args, kwargs):
        """The signature of this call and its cache entry, traced if needed.  A Python number whose value
        the function needs (Python control flow, ``int()``, ``range``) is made static for this argument
        structure, and the function traced again."""
        sig = self._signature_key(args, kwargs)
        entry = self.cache.get(sig[0])
        while entry is None:
            key, leaves, treedef, arrays, positions, static = sig
            weak = [pos for x, pos in zip(arrays, positions) if type(x) in _NUMBERS]
            try:
                return sig, self._trace(key, leaves, treedef, arrays, positions, static, args)
            except ConcretizationTypeError as e:
                names = dict(zip(positions, self._leaf_names(args, positions)))
                culprits = {pos for pos in weak if names[pos] == getattr(e, "origin", None)}
                if not culprits:
                    raise
                log.info("%s: the value of %s is needed: that Python number is static from now on", self.fname,
                         names[min(culprits)])
                self._static_leaves[treedef] = self._static_leaves.get(treedef, frozenset()) | culprits
                sig = self._signature_key(args, kwargs)
            except _LiftedWeak:  # closes over another transformation's values, whose rules take arrays
                sig = self._signature_key(args, kwargs, weak=False)
            entry = self.cache.get(sig[0])
        return sig, entry

    def _trace(self, key, leaves, treedef, arrays, positions, static, args):
        reason = self._explain(key)
        trace = JitTrace(self.fname)
        names = self._leaf_names(args, positions)
        wrapped = list(leaves)
        tracers = []
        for x, pos, name in zip(arrays, positions, names):
            if type(x) in _NUMBERS:
                t = trace.new_tracer(WeakScalar.of(type(x)), backend.default_device(), name)
            else:
                aval = x.var.aval if type(x) is JitTracer and type(x.var.aval) is WeakScalar else \
                    ShapedArray(tuple(x.shape), np.dtype(x.dtype))
                t = trace.new_tracer(aval, x.device, name)
            tracers.append(t)
            wrapped[pos] = t
        dyn_args, dyn_kwargs = tree.tree_unflatten(treedef, wrapped)
        full_args = list(dyn_args)
        for i, v in static:
            if isinstance(i, int):
                full_args.insert(i, v)
        kwargs = dict(dyn_kwargs)
        kwargs.update({k: v for k, v in static if isinstance(k, str)})
        try:
            out = self.fun(*full_args, **kwargs)
        finally:
            trace.alive = False
        out_leaves, out_tree = tree.tree_flatten(out)
        for x in out_leaves:
            if not isinstance(x, (Array, Tracer, int, float, complex, bool, np.ndarray, np.generic)):
                raise TypeError(f"jit of {self.fname}: the function returned a {type(x).__name__} leaf; jitted "
                                "functions return arrays and numbers (in pytrees)")
        outvars = [trace.atom(x if isinstance(x, (Array, Tracer)) else asarray(x)) for x in out_leaves]
        for v in trace.constvars:
            v.name = next(trace._names)
        lifted_vars = [v for v, _ in trace.lifted]
        graph = Graph(lifted_vars + [t.var for t in tracers], trace.constvars, trace.consts, trace.eqns, outvars,
                      treedef, out_tree)
        if any(type(x) in _NUMBERS for x in arrays) and any(type(t) is not JitTracer for _, t in trace.lifted):
            raise _LiftedWeak
        in_types = [None if type(x) in _NUMBERS else backend.get_backend(x.device).array_type
                    for x in [t for _, t in trace.lifted] + arrays]
        donated = [False] * len(trace.lifted)
        donated += [False] * len(arrays)
        for k in self.donate_argnums_flat(args, positions):
            donated[len(trace.lifted) + k] = True
        compiled = Compiled(graph, self.fname, in_types, donated, trace.custom_rules)
        self.trace_count += 1
        log.info("traced %s (%s): %d inputs, %d equations after optimization", self.fname, reason,
                 len(arrays), compiled.n_eqns)
        entry = (compiled, out_tree, [x for _, x in trace.lifted])
        if not trace.lifted:  # closed-over tracers belong to this call only: such a trace is not reused
            self.cache[key] = entry
        return entry

    def _leaf_names(self, args, positions):
        names = list(self._sig.parameters) if self._sig is not None else []
        owners = self._leaf_owners(args)
        out = []
        for p in positions:
            if p < len(owners):
                i = owners[p]
                out.append(f"argument {names[i]!r}" if i < len(names) else f"positional argument {i}")
            else:
                out.append("a keyword argument")
        return out

    def lower(self, *args, **kwargs):
        """The optimized graph and generated replay for these arguments (traces if needed)."""
        return Lowered(self._lookup(args, kwargs)[1][0])


class Lowered:
    """``jit(f).lower(*args)``: ``.graph`` (printable, ``.to_dot()``), ``.source`` (the generated replay)."""

    def __init__(self, compiled):
        self.compiled = compiled
        self.graph = compiled.graph
        self.source = compiled.source

    def as_text(self):
        return str(self.graph)

    def __repr__(self):
        return f"<lowered {self.compiled.fname}: {self.compiled.n_eqns} equations>\n{self.source}"


class _LiftedWeak(Exception):
    """A trace with weakly typed Python numbers closed over another transformation's values: the
    jit primitive's rules take array inputs, so it is traced again with the numbers static."""


class _Donated:
    """The buffer of an Array whose memory was donated to a jitted call: any use is an error."""

    def __init__(self, fname):
        self.fname = fname

    def __getattr__(self, name):
        raise RuntimeError(f"this Array was donated to the jitted function {self.fname} (donate_argnums) and its "
                           "buffer reused; it can no longer be used")


def _describe_key(k):
    if k[0] == "a":
        return f"{k[2].name}{list(k[1])} on {k[3]}"
    if k[0] == "w":
        return f"a Python {k[1].__name__} (weakly typed)"
    return f"static {k[2]!r:.40}"


def _weak_ok(leaves):
    """Whether this call's Python numbers may be traced weakly typed: its traced leaves are concrete arrays
    or an enclosing jit's values (other transformations' rules for the jit primitive take arrays)."""
    for x in leaves:
        if isinstance(x, Tracer) and type(x) is not JitTracer:
            return False
    return True


def _signature(fun):
    try:
        return inspect.signature(fun)
    except (TypeError, ValueError):
        return None


def _normalize_nums(nums):
    if nums is None:
        return ()
    if isinstance(nums, int):
        return (nums,)
    return tuple(sorted(int(n) for n in nums))


def jit(fun=None, *, static_argnums=(), static_argnames=(), donate_argnums=()):
    """Compile ``fun``: trace it once per input signature, then replay the generated code.

    Usable as ``jit(f)``, ``@jit`` and ``@jit(static_argnums=...)``.  See the module docstring
    and docs/jit.md for what is traced, what retraces and what cannot be traced.
    """
    if fun is None:
        return functools.partial(jit, static_argnums=static_argnums, static_argnames=static_argnames,
                                 donate_argnums=donate_argnums)
    if not callable(fun):
        raise TypeError(f"jit expects a function, got {type(fun).__name__}")
    return Jitted(fun, static_argnums, static_argnames, donate_argnums)


def make_jaxpr(fun, static_argnums=()):
    """``make_jaxpr(f)(*args)`` -> the :class:`Graph` ``jit`` traces for these arguments (abstractly,
    computing nothing), as ``jax.make_jaxpr`` shows it."""
    j = jit(fun, static_argnums=static_argnums)

    @functools.wraps(fun)
    def show(*args, **kwargs):
        return j.lower(*args, **kwargs).graph

    return show
