"""The ``jit`` primitive: one compiled graph (:class:`Compiled`) applied under other transformations.

Its rules are jitted functions of its graph, derived on first use and cached on the compiled
graph: the vjp is ``jit`` of the graph's vjp (forward recomputed, then the backward pass, in one
replay), the jvp ``jit`` of the graph's jvp, the batching rule ``jit`` of the graph's ``vmap``.
"""

from __future__ import annotations

import numpy as np

from ..core import Array, Primitive, ShapedArray, Zero
from ..primitives.creation import zeros_like
from . import compile as _compile
from .graph import Var, eval_eqns

__all__ = ["Compiled", "jit_p"]


class Compiled:
    """One traced signature: the graph, its replay, and (lazily) the jitted rules derived from it."""

    def __init__(self, graph, fname, in_types, donated, custom_rules=()):
        self.graph = graph
        self.custom_rules = tuple(custom_rules)
        self.fname = fname
        self.donated = donated
        eqns, outvars, const_env = _compile.optimize(graph, jit_p, all(t is np.ndarray for t in in_types))
        self.n_eqns = len(eqns)
        self.replay, self.source = _compile.generate(eqns, graph.invars, outvars, const_env, in_types, donated)
        self.out_avals = [a.aval if type(a) is Var else ShapedArray((), np.result_type(a.value))
                          for a in graph.outvars]
        self.derived = {}

    def __repr__(self):
        return f"<jit {self.fname}: {len(self.graph.invars)} inputs, {self.n_eqns} equations>"

    __str__ = __repr__

    def run(self, buffers):
        return self.replay(*buffers)

    def as_function(self):
        """The graph as a function of its flat inputs, applied with bind (for transformations)."""
        g = self.graph

        def fun(*xs):
            env = dict(zip(map(id, g.constvars), (Array._from_buffer(c) if not isinstance(c, Array) else c
                                                  for c in g.consts)))
            env.update(zip(map(id, g.invars), xs))
            return eval_eqns(g.eqns, env, g.outvars)

        fun.__name__ = self.fname
        return fun

    def derived_jit(self, kind, build):
        if self.custom_rules and kind in ("vjp", "jvp"):
            raise NotImplementedError(
                f"differentiating the jitted function {self.fname} from outside (grad(jit(f)), jvp(jit(f))) "
                f"is not supported when it calls {', '.join(sorted(set(self.custom_rules)))}: the jitted graph "
                "holds their primal bodies, not their rules. Put the differentiation inside: jit(grad(f)).")
        j = self.derived.get(kind)
        if j is None:
            from .jit import jit  # noqa: PLC0415 - jit.py builds on this module

            j = self.derived[kind] = jit(build(self.as_function()))
        return j


def _jit_impl(*buffers, jitted):
    return jitted.run(buffers)


def _jit_abstract(*avals, jitted):
    return tuple(jitted.out_avals)


jit_p = Primitive("jit", _jit_impl, _jit_abstract, multiple_results=True)


def _instantiate(zs):
    return [zeros_like(z.like) if type(z) is Zero else z for z in zs]


def _jit_vjp(gs, ans, *args, jitted):
    from .api import vjp  # noqa: PLC0415

    n = len(args)

    def build(fun):
        def bwd(*xs_and_gs):
            _, pullback = vjp(lambda *xs: fun(*xs), *xs_and_gs[:n])
            return list(pullback(list(xs_and_gs[n:])))
        bwd.__name__ = f"vjp of {jitted.fname}"
        return bwd

    j = jitted.derived_jit("vjp", build)
    cts = j(*args, *_instantiate(gs))
    return tuple(c if np.dtype(a.dtype).kind in "fc" else Zero(a) for c, a in zip(cts, args))


def _jit_jvp(ts, ans, *args, jitted):
    from .api import jvp  # noqa: PLC0415

    n = len(args)

    def build(fun):
        def tangent(*xs_and_ts):
            return jvp(lambda *xs: fun(*xs), tuple(xs_and_ts[:n]), tuple(xs_and_ts[n:]))[1]
        tangent.__name__ = f"jvp of {jitted.fname}"
        return tangent

    j = jitted.derived_jit("jvp", build)
    return tuple(j(*args, *_instantiate(ts)))


def _jit_batch(args, dims, jitted):
    from .batching import vmap  # noqa: PLC0415

    key = ("vmap", tuple(dims))

    def build(fun):
        def batched(*xs):
            return vmap(lambda *ys: fun(*ys), in_axes=tuple(dims), out_axes=0)(*xs)
        batched.__name__ = f"vmap of {jitted.fname}"
        return batched

    j = jitted.derived_jit(key, build)
    out = j(*args)
    return tuple(out), (0,) * len(out)


jit_p.defvjp_joint(_jit_vjp, saves_out=False)
jit_p.defjvp_joint(_jit_jvp)
jit_p.batch = _jit_batch


