"""Reverse mode: the VJP trace, its tape, and the backward pass.

While ``f`` runs under a :class:`VJPTrace`, every primitive applied to one of
the trace's tracers computes its output one level down and appends a
:class:`Node` to the trace's tape: the primitive, its params, the arguments
its vjp rules read (per the primitive's declaration, not more) and the
parents (nodes of the traced arguments).  Nodes are appended in execution
order, so walking the tape backwards is a reverse topological order: no sort
is needed.  The backward pass applies each primitive's vjp rules with
funcgrad operations (recorded by any outer trace, which is how higher
derivatives work), sums cotangents on fan-out, fits each cotangent to its
parent's shape and dtype (the one place broadcasting is undone), and drops
each node's saved values right after using them.
"""

from __future__ import annotations

import numpy as np

from ..array import AvalProps, PrimalTracer
from ..core import ALL_ARGS, Array, ShapedArray, Trace, Zero, missing_rule
from ..primitives.complex import real
from ..primitives.elementwise import add, convert
from ..primitives.reduce import sum_to_shape
from ..backend import is_float_dtype


class Node(AvalProps):
    """One recorded primitive application (or, with prim None, a leaf/output slot).

    ``shape``/``dtype`` describe the value this node produced; a node also
    serves as the aval-like stand-in for arguments that were not saved.
    """

    __slots__ = ("prim", "params", "args", "out", "parents", "outs", "shape", "dtype", "__weakref__")

    def __init__(self, shape, dtype):
        self.prim = None
        self.shape = shape
        self.dtype = dtype

    def __repr__(self):
        name = self.prim.name if self.prim is not None else "leaf"
        return f"<Node {name} {self.dtype}{list(self.shape)}>"


_new = object.__new__


class VJPTracer(PrimalTracer):
    __slots__ = ("node",)


class VJPTrace(Trace):
    __slots__ = ("tape", "name")
    kind = "grad"

    def __init__(self, name="grad"):
        super().__init__()
        self.tape = []
        self.name = name

    def describe(self):
        return f"{self.name} (level {self.level})"

    def new_tracer(self, primal, node):
        t = _new(VJPTracer)
        t._trace = self
        t.primal = primal
        t.node = node
        return t

    def leaf(self, primal):
        return self.new_tracer(primal, Node(tuple(primal.shape), primal.dtype))

    def process_primitive(self, prim, args, params):
        if len(args) == 1:  # bind only calls us with one of our tracers
            a = args[0]
            node_in = a.node
            if prim.vjp_residuals is not None:
                return self._record_residuals(prim, [a.primal], [node_in], params)
            out = prim.bind(a.primal, **params)
            if not prim.differentiable:
                return out
            parents = (node_in,)
            # keep only what the rules read; a node stands in for an unsaved arg's aval
            primals = parents if prim.unsaved or (prim.reads is not None and 0 not in prim.reads[0]) else (a.primal,)
        else:
            primals = []
            parents = []
            traced = False
            for a in args:
                if type(a) is VJPTracer and a._trace is self:
                    primals.append(a.primal)
                    parents.append(a.node)
                    traced = True
                else:
                    primals.append(a)
                    parents.append(None)
            if traced and prim.vjp_residuals is not None:
                return self._record_residuals(prim, primals, parents, params)
            out = prim.bind(*primals, **params)
            if not prim.differentiable or not traced:
                return out
            unsaved = prim.unsaved if prim.reads is None else prim.unsaved_given([p is not None for p in parents])
            if unsaved:
                for i in (range(len(primals)) if unsaved is ALL_ARGS else unsaved):
                    if i < len(primals):
                        p = parents[i]
                        primals[i] = p if p is not None else _const_aval(primals[i])
        node = _new(Node)
        node.prim = prim
        node.params = params
        node.args = primals
        node.parents = parents
        self.tape.append(node)
        if prim.multiple_results:
            node.out = out
            node.outs = outs = [Node(tuple(o.shape), o.dtype) for o in out]
            return tuple(self.new_tracer(o, slot) for o, slot in zip(out, outs))
        node.out = out if prim.saves_out else None
        if type(out) is Array:
            v = out._value
            node.shape = v.shape
            node.dtype = v.dtype
        else:
            node.shape = tuple(out.shape)
            node.dtype = out.dtype
        t = _new(VJPTracer)
        t._trace = self
        t.primal = out
        t.node = node
        return t

    def _record_residuals(self, prim, primals, parents, params):
        """A primitive with a residual-saving vjp (``Primitive.defvjp_residuals``): its forward part runs
        now, and the tape keeps the residuals it returns, not the arguments."""
        parents = [p if p is not None and is_float_dtype(p.dtype) else None for p in parents]
        if all(p is None for p in parents):  # nothing to differentiate (integer tracers only)
            return prim.bind(*primals, **params)
        fwd_params, n_out, bwd = prim.vjp_residuals(primals, tuple(p is not None for p in parents), params)
        out = prim.bind(*primals, **fwd_params)
        outs = out[:n_out]
        node = _new(Node)
        node.prim = CallRule(prim.name, bwd, residuals=True)
        node.params = {}
        node.shape, node.dtype = (), None
        node.args = list(out[n_out:])
        node.parents = parents
        node.outs = slots = [Node(tuple(o.shape), o.dtype) for o in outs]
        node.out = slots  # the backward part reads residuals only: the outputs' avals stand in for them
        self.tape.append(node)
        return tuple(self.new_tracer(o, slot) for o, slot in zip(outs, slots))


class CallRule:
    """Stands in for a primitive on a tape node whose rule is one function ``vjp_all(g, ans, *args)``:
    a function-level call (custom_vjp, checkpoint) or the backward part of a residual-saving vjp
    (``Primitive.defvjp_residuals``; then ``residuals`` is true and ``args`` are the residuals)."""

    __slots__ = ("name", "vjp_all", "residuals")
    multiple_results = True
    saves_out = True
    differentiable = True
    zero_derivative = False
    vjps = None

    def __init__(self, name, vjp_all, residuals=False):
        self.name = name
        self.vjp_all = vjp_all
        self.residuals = residuals

    def __repr__(self):
        return f"<backward of {self.name}>" if self.residuals else f"<call {self.name}>"


def _const_aval(x):
    if isinstance(x, (int, float, complex, bool)):
        return x
    return ShapedArray(x.shape, x.dtype)


def fit_cotangent(c, shape, dtype, prim, i):
    """Make cotangent ``c`` (for argument i of prim) match the argument's shape and dtype.

    The one place where broadcasting is undone and gradients get their input's
    dtype (funcgrad.compat's engine uses it too).
    """
    try:
        if tuple(c.shape) != tuple(shape):
            c = sum_to_shape(c, shape)
        if c.dtype != dtype:
            if np.dtype(c.dtype).kind == "c" and np.dtype(dtype).kind != "c":
                c = real(c)  # a real input of a complex function: the real part (see primitives/complex.py)
            if c.dtype != dtype:
                c = convert(c, dtype)
    except AttributeError:
        raise TypeError(
            f"the vjp rule of '{prim.name}' returned {type(c).__name__} for argument {i}; "
            "rules must return arrays"
        ) from None
    except ValueError as e:
        raise ValueError(
            f"the vjp rule of '{prim.name}' returned a cotangent of shape {tuple(c.shape)} for "
            f"argument {i}, whose shape is {tuple(shape)}: {e}"
        ) from None
    return c


def backward_pass(tape, seeds, release=True):
    """Propagate cotangents through ``tape`` in reverse.

    ``seeds`` maps nodes to their cotangents; returns the dict of cotangents
    left on nodes that no tape entry consumed (the leaves).  With ``release``,
    each node's saved values are dropped as soon as its rules have run.
    """
    cts = dict(seeds)
    pop = cts.pop
    get = cts.get
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for node in reversed(tape):
            prim = node.prim
            if prim.multiple_results:
                g = _multi_cts(node, pop)
            else:
                g = pop(node, None)
            if g is None:
                continue
            parents = node.parents
            ans = node.out if prim.saves_out else node
            # (no Zero comes back: zero-derivative primitives are not recorded by VJPTrace)
            for p, c in zip(parents, apply_vjp_rules(prim, g, ans, node.args, node.params, parents)):
                if c is not None:
                    prev = get(p)
                    cts[p] = c if prev is None else add(prev, c)
            if release:  # (after a failure the whole tape is dropped with its trace)
                node.args = node.out = None
    return cts


def apply_vjp_rules(prim, g, ans, args, params, parents, transform="reverse-mode differentiation"):
    """The one rule driver: cotangents of one recorded application of ``prim``.

    Serves this module's backward pass and funcgrad.compat's engine.  ``g``: the
    output's cotangent (a tuple, Zero for missing ones, for multiple results);
    ``args``: what was saved for the rules; ``parents[i]``: an aval-like object
    (``.shape``, ``.dtype``) for an argument that needs a cotangent, else None.
    Returns one entry per argument: its cotangent fitted to its shape and dtype
    (``fit_cotangent``), None where it needs none or the rules give none, and a
    symbolic Zero for an argument of a zero-derivative primitive (floor, sign)
    that has no rule.  A missing rule raises ``MissingRuleError`` naming
    ``transform``.
    """
    if prim.vjp_all is not None:
        outs = prim.vjp_all(g, ans, *args, **params)
        return [None if p is None or c is None or type(c) is Zero else fit_cotangent(c, p.shape, p.dtype, prim, i)
                for i, (p, c) in enumerate(zip(parents, outs))]
    rules = prim.vjps
    if rules is None or len(rules) < len(parents):
        rules = _padded_rules(prim, rules, parents, transform)
    res = []
    for p, rule in zip(parents, rules):
        if p is None:
            res.append(None)
        elif rule is None:
            if not prim.zero_derivative:
                raise missing_rule(prim, "vjp", len(res), transform)
            res.append(Zero(p))  # PyTorch: a zero gradient, not none
        else:
            c = rule(g, ans, *args, **params) if params else rule(g, ans, *args)
            if type(c) is not Array or c._value.shape != p.shape or c._value.dtype != p.dtype:
                c = fit_cotangent(c, p.shape, p.dtype, prim, len(res))
            res.append(c)
    return res


def _padded_rules(prim, rules, parents, transform):
    """Per-argument rules for every argument: arguments past the rules must be untraced
    (index arrays), unless the primitive's derivative is zero anyway."""
    rules = rules or ()
    if not prim.zero_derivative and _extra_traced(rules, parents):
        raise _rule_count_error(prim, prim.vjps, parents, transform)
    return tuple(rules) + (None,) * (len(parents) - len(rules))


def _extra_traced(rules, parents):
    """Arguments beyond the per-argument rules are fine only if untraced (e.g. index arrays)."""
    return any(p is not None for p in parents[len(rules):])


def _rule_count_error(prim, rules, parents, transform):
    if rules is None:
        return missing_rule(prim, "vjp", transform=transform)
    return TypeError(
        f"primitive '{prim.name}' was applied to {len(parents)} arguments but defines "
        f"{len(rules)} per-argument vjp rules (variadic primitives need defvjp_joint)"
    )


def _multi_cts(node, pop):
    gs = [pop(o, None) for o in node.outs]
    if all(g is None for g in gs):
        return None
    return tuple(Zero(o) if g is None else g for g, o in zip(gs, node.out))
