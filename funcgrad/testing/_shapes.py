"""check_shape_rules: every primitive's shape/dtype rule against what its impl produced."""

from __future__ import annotations

import numpy as np

from .. import tree
from ..array import InspectingTracer
from ..core import Array, ShapedArray, Trace
from ..errors import ShapeRuleError

__all__ = ["check_shape_rules", "ShapeRuleError"]




class _CheckTracer(InspectingTracer):
    __slots__ = ()


class _ShapeCheckTrace(Trace):
    __slots__ = ("seen",)
    kind = "check_shape_rules"

    def __init__(self):
        super().__init__()
        self.seen = []

    def process_primitive(self, prim, args, params):
        vals = [a.primal if type(a) is _CheckTracer and a._trace is self else a for a in args]
        out = prim.bind(*vals, **params)
        self.seen.append(prim.name)
        if prim.abstract is None:
            raise ShapeRuleError(f"primitive '{prim.name}' has no shape rule")
        avals = [ShapedArray(v.shape, v.dtype) if hasattr(v, "shape") else v for v in vals]
        try:
            expected = prim.abstract(*avals, **params)
        except Exception as e:
            raise ShapeRuleError(f"the shape rule of '{prim.name}' failed on {avals}: {type(e).__name__}: {e}") from e
        outs = out if prim.multiple_results else (out,)
        exps = expected if prim.multiple_results else (expected,)
        for o, e in zip(outs, exps):
            got = (tuple(o.shape), np.dtype(o.dtype))
            want = (tuple(e.shape), np.dtype(e.dtype))
            if got != want:
                raise ShapeRuleError(
                    f"the shape rule of '{prim.name}' says {e} for inputs {avals} (params {params}), "
                    f"but its impl produced {got[1]}{list(got[0])}"
                )
        if prim.multiple_results:
            return tuple(self._wrap(o) for o in out)
        return self._wrap(out)

    def _wrap(self, v):
        t = object.__new__(_CheckTracer)
        t._trace = self
        t.primal = v
        return t


def check_shape_rules(f, *args):
    """Run ``f(*args)``, checking each primitive's shape rule; return the primitives' names seen."""
    trace = _ShapeCheckTrace()
    try:
        wrapped = tree.tree_map(lambda x: trace._wrap(x) if isinstance(x, Array) else x, args)
        f(*wrapped)
    finally:
        trace.alive = False
    return trace.seen
