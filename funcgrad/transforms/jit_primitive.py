"""The ``jit`` primitive: one compiled graph (:class:`Compiled`) applied under other transformations.

Its rules are jitted functions of its graph, derived on first use and cached on the compiled
graph: the vjp is the graph's vjp traced once and split by partial evaluation into a forward
graph that also returns residuals and a backward graph that reads them
(``Primitive.defvjp_residuals``: reverse mode runs the forward graph when the call happens and
keeps only the residuals, so the backward pass does not recompute the forward); the jvp is
``jit`` of the graph's jvp, the batching rule ``jit`` of the graph's ``vmap``.
"""

from __future__ import annotations

import numpy as np

from .. import backend
from ..core import Array, Primitive, Tracer, ShapedArray, Zero
from ..primitives.creation import zeros_like
from . import compile as _compile
from .graph import Var, eval_eqns

__all__ = ["Compiled", "jit_p"]


class Compiled:
    """One traced signature: the graph, its replay, and (lazily) the jitted rules derived from it."""

    def __init__(self, graph, fname, in_types, donated, custom_rules=()):
        """``in_types``: each input's buffer type (None for a weakly typed Python number)."""
        self.graph = graph
        self.custom_rules = tuple(custom_rules)
        self.fname = fname
        self.donated = donated
        eqns, outvars, const_env = _compile.optimize(graph, jit_p, all(t is np.ndarray or t is None for t in in_types))
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

    def refuse_custom_rules(self, how):
        """Differentiating the graph from outside ignores the rules of the custom_vjp/custom_jvp calls
        it holds (their primal bodies were traced): refuse, naming ``how`` (e.g. "grad(jit(f))")."""
        if self.custom_rules:
            raise NotImplementedError(
                f"differentiating the jitted function {self.fname} from outside ({how}) is not supported "
                f"when it calls {', '.join(sorted(set(self.custom_rules)))}: the jitted graph holds their "
                "primal bodies, not their rules. Put the differentiation inside: jit(grad(f)).")

    def derived_jit(self, kind, build):
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


def _device(x):
    """The device of an argument: an Array or tracer (funcgrad's reverse mode), or a raw buffer (compat's)."""
    return x.device if isinstance(x, (Array, Tracer)) else backend.device_of(x)


def _jit_residuals(args, traced, params):
    """Reverse mode of a jitted call, split (JAX's partial evaluation of the graph's vjp): a forward graph
    computing the outputs and the residuals the backward pass reads, and a backward graph from the
    residuals and the output cotangents to the traced arguments' cotangents.  Traced once per
    (traced arguments, devices) and cached on the compiled graph."""
    jitted = params["jitted"]
    devices = [_device(a) for a in args]
    key = ("residuals", traced, tuple(map(str, devices)))
    hit = jitted.derived.get(key)
    if hit is None:
        hit = jitted.derived[key] = _split_vjp(jitted, traced, devices)
    return hit


def _split_vjp(jitted, traced, devices):
    from .api import vjp  # noqa: PLC0415
    from .partial_eval import split_known, trace_flat  # noqa: PLC0415 - partial_eval builds on jit

    jitted.refuse_custom_rules("grad(jit(f)), vjp(jit(f))")
    fun = jitted.as_function()
    n, n_out = len(traced), len(jitted.out_avals)

    def joint(*xs_and_gs):
        xs = xs_and_gs[:n]

        def on_traced(*d):
            it = iter(d)
            return list(fun(*[next(it) if t else x for x, t in zip(xs, traced)]))

        out, pullback = vjp(on_traced, *[x for x, t in zip(xs, traced) if t])
        return list(out) + list(pullback(list(xs_and_gs[n:])))

    avals = [v.aval for v in jitted.graph.invars] + list(jitted.out_avals)
    devices = devices + [devices[0] if devices else None] * n_out  # (cotangents live with the inputs)
    graph, lifted = trace_flat(joint, avals, devices, f"vjp of {jitted.fname}",
                               [f"in_{i}" for i in range(n)] + [f"ct_{i}" for i in range(n_out)])
    assert not lifted  # the graph closes over constants only
    fwd, bwd, _ = split_known(graph, list(range(n)), ["res"] + list(range(n, n + n_out)), n_out, devices,
                              remat=True)

    def backward(gs, ans, *residuals):
        like = next(g for g in gs if type(g) is not Zero)  # (the backward pass runs when one arrived)
        gs = [zeros_like(like, shape=tuple(g.like.shape), dtype=g.like.dtype) if type(g) is Zero else g for g in gs]
        cts = iter(jit_p.bind(*residuals, *gs, jitted=bwd))
        return tuple(next(cts) if t else None for t in traced)

    return {"jitted": fwd}, n_out, backward


def _jit_jvp(ts, ans, *args, jitted):
    from .api import jvp  # noqa: PLC0415

    n = len(args)
    mask = tuple(type(t) is not Zero and backend.is_float_dtype(a.dtype) for t, a in zip(ts, args))

    def build(fun):
        def tangent(*xs_and_ts):
            xs = xs_and_ts[:n]

            def on_tangent_args(*d):
                it = iter(d)
                return fun(*[next(it) if m else x for x, m in zip(xs, mask)])

            return jvp(on_tangent_args, tuple(x for x, m in zip(xs, mask) if m), tuple(xs_and_ts[n:]))[1]
        tangent.__name__ = f"jvp of {jitted.fname}"
        return tangent

    jitted.refuse_custom_rules("jvp(jit(f)), jacfwd(jit(f))")
    j = jitted.derived_jit(("jvp", mask), build)
    return tuple(j(*args, *[t for t, m in zip(ts, mask) if m]))


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


jit_p.defvjp_residuals(_jit_residuals)
jit_p.defjvp_joint(_jit_jvp)
jit_p.batch = _jit_batch


