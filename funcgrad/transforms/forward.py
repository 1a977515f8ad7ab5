"""Forward mode: the JVP trace.

A :class:`JVPTracer` carries a primal and its tangent.  For each primitive,
the trace computes the primal output one level down, then the output tangent
from the primitive's jvp rules: per-argument contributions for arguments that
carry a tangent (constants contribute nothing: a symbolic zero that costs
nothing), broadcast to the output's shape and cast to its dtype.
"""

from __future__ import annotations

from ..array import PrimalTracer
from ..core import Trace, Zero, missing_rule
from ..primitives.complex import real
from ..primitives.elementwise import add, convert
from ..primitives.shape import broadcast_to
from ..primitives.creation import zeros_like

_new = object.__new__


class JVPTracer(PrimalTracer):
    __slots__ = ("tangent",)


class JVPTrace(Trace):
    __slots__ = ("name",)
    kind = "jvp"

    def __init__(self, name="jvp"):
        super().__init__()
        self.name = name

    def describe(self):
        return f"{self.name} (level {self.level})"

    def new_tracer(self, primal, tangent):
        t = _new(JVPTracer)
        t._trace = self
        t.primal = primal
        t.tangent = tangent
        return t

    def process_primitive(self, prim, args, params):
        primals = []
        tangents = []
        traced = False
        for a in args:
            if type(a) is JVPTracer and a._trace is self:
                primals.append(a.primal)
                tangents.append(a.tangent)
                traced = True
            else:
                primals.append(a)
                tangents.append(None)
        out = prim.bind(*primals, **params)
        if not prim.differentiable or not traced:
            return out
        t_out = _tangent_out(prim, out, primals, tangents, params)
        if prim.multiple_results:
            return tuple(self.new_tracer(o, _fit(t, o)) for o, t in zip(out, t_out))
        return self.new_tracer(out, _fit(t_out, out))


def _tangent_out(prim, out, primals, tangents, params):
    if prim.jvp_all is not None:
        ts = tuple(Zero(p) if t is None else t for p, t in zip(primals, tangents))
        return prim.jvp_all(ts, out, *primals, **params)
    rules = prim.jvps
    if rules is None:
        raise missing_rule(prim, "jvp", transform="forward-mode differentiation")
    t_out = None
    for i, t in enumerate(tangents):
        if t is None:
            continue
        rule = rules[i] if i < len(rules) else None
        if rule is None:
            raise missing_rule(prim, "jvp", i, "forward-mode differentiation")
        c = rule(t, out, *primals, **params)
        t_out = c if t_out is None else add(t_out, c)
    return t_out


def _fit(t, out):
    """Broadcast a tangent to its primal's shape and cast it to its dtype."""
    if type(t) is Zero:
        return zeros_like(out)
    if tuple(t.shape) != tuple(out.shape):
        t = broadcast_to(t, out.shape)
    if t.dtype != out.dtype:
        if t.dtype.kind == "c" and out.dtype.kind != "c":
            t = real(t)  # a real function of complex values: the real part (primitives/complex.py)
        if t.dtype != out.dtype:
            t = convert(t, out.dtype)
    return t
