"""custom_jvp and custom_vjp: user-defined derivative rules for Python functions.

    @fg.custom_jvp
    def f(x): ...
    @f.defjvp
    def f_jvp(primals, tangents):      # -> (primal_out, tangent_out)

    @fg.custom_vjp
    def g(x, y): ...
    g.defvjp(g_fwd, g_bwd)             # fwd(x, y) -> (out, residuals)
                                       # bwd(residuals, cotangent) -> (ct_x, ct_y)

A custom function is applied by the innermost transformation among its
arguments (like a primitive, see :mod:`._calls`):

- forward mode calls the jvp rule (a custom_vjp function cannot be: it has no
  forward rule, and says so);
- reverse mode records one tape node: for custom_vjp its rule is ``bwd``; for
  custom_jvp it is the transpose of the (linear in the tangents) jvp rule,
  obtained by reverse-differentiating the rule with respect to its tangents;
- vmap batches the function and its rules together (a new custom function of
  the batched values), so the traces below still see the custom rule.

Rules are written with funcgrad operations, so they are differentiated again
for higher orders: ``grad(grad(f))`` of a custom_jvp function works.
``nondiff_argnums`` name arguments that are not differentiated (Python
values: functions, ints, flags); rules receive them first, as in JAX.
"""

from __future__ import annotations

import functools

from .. import tree
from ..core import Tracer
from ..primitives._batching import moveaxis
from ..primitives.reduce import reduce_sum
from ._calls import dispatch, instantiate, is_inexact, lower_vjp, record_vjp_call, zero_tangent
from .batching import BatchTrace, vmap
from .forward import JVPTrace, JVPTracer, _fit
from .jit import JitTrace
from .reverse import VJPTrace
from .api import vjp

__all__ = ["custom_jvp", "custom_vjp"]


class _Split:
    """The arguments of one call split into nondiff values and flattened differentiable leaves."""

    def __init__(self, fname, nondiff_argnums, args, kwargs):
        if kwargs:
            raise TypeError(f"{fname}: a custom_jvp/custom_vjp function takes positional arguments only "
                            f"(got keyword arguments {sorted(kwargs)})")
        n = len(args)
        nums = sorted({a % n if -n <= a < n else _bad(fname, a, n) for a in nondiff_argnums})
        self.n = n
        self.nums = nums
        self.nondiff = [args[i] for i in nums]
        diff = tuple(a for i, a in enumerate(args) if i not in nums)
        self.leaves, self.in_tree = tree.tree_flatten(diff)
        for leaf in self.nondiff:
            if any(_is_traced(x) for x in tree.tree_leaves(leaf)):
                raise TypeError(f"{fname}: an argument in nondiff_argnums {tuple(nondiff_argnums)} holds a traced "
                                "array; pass arrays as differentiable arguments")

    def diff_args(self, leaves):
        return tree.tree_unflatten(self.in_tree, list(leaves))

    def full_args(self, leaves):
        diff = iter(self.diff_args(leaves))
        nd = iter(self.nondiff)
        return tuple(next(nd) if i in self.nums else next(diff) for i in range(self.n))


def _bad(fname, a, n):
    raise ValueError(f"{fname}: nondiff_argnums names argument {a}, but the function was called with {n} arguments")


def _is_traced(x):
    return isinstance(x, Tracer)


class _OutTree:
    """Records the output structure the first time the function (or a rule) runs."""

    __slots__ = ("treedef", "fname")

    def __init__(self, fname):
        self.treedef = None
        self.fname = fname

    def flatten(self, out, what):
        leaves, treedef = tree.tree_flatten(out)
        if self.treedef is None:
            self.treedef = treedef
        elif treedef != self.treedef:
            raise TypeError(f"{self.fname}: {what} has structure {treedef}, but the function's output has "
                            f"structure {self.treedef}")
        return leaves


# --- custom_jvp ---------------------------------------------------------------------------------

class custom_jvp:  # noqa: N801 - a decorator, named as in JAX
    """A function with a user-defined forward-mode rule (used by reverse mode too, transposed)."""

    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.jvp_rule = None

    def defjvp(self, jvp_rule):
        """Set ``jvp_rule(*nondiff, primals, tangents) -> (primal_out, tangent_out)``; returns it."""
        self.jvp_rule = jvp_rule
        return jvp_rule

    def __call__(self, *args, **kwargs):
        fname = f"custom_jvp function {getattr(self.fun, '__name__', '')}"
        if self.jvp_rule is None:
            raise AttributeError(f"{fname} has no jvp rule: define one with @{self.fun.__name__}.defjvp")
        split = _Split(fname, self.nondiff_argnums, args, kwargs)
        outs = _OutTree(fname)

        def flat_fun(*leaves):
            return outs.flatten(self.fun(*split.full_args(leaves)), "the output")

        def flat_rule(primals, tangents):
            res = self.jvp_rule(*split.nondiff, split.diff_args(primals), split.diff_args(tangents))
            if not (isinstance(res, (tuple, list)) and len(res) == 2):
                raise TypeError(f"{fname}: the jvp rule must return a pair (primal_out, tangent_out), "
                                f"got {type(res).__name__}")
            p = outs.flatten(res[0], "the jvp rule's primal output")
            t = outs.flatten(res[1], "the jvp rule's tangent output")
            return p, t

        out_leaves = call_custom_jvp(flat_fun, flat_rule, split.leaves, fname)
        return tree.tree_unflatten(outs.treedef, out_leaves)


def call_custom_jvp(fun, rule, leaves, name):
    """Apply a custom_jvp call on flat leaves: ``fun(*leaves) -> list``, ``rule(ps, ts) -> (list, list)``."""
    handlers = {
        JVPTrace: lambda trace: _jvp_of_custom_jvp(trace, rule, leaves),
        VJPTrace: lambda trace: _vjp_of_custom_jvp(trace, fun, rule, leaves, name),
        BatchTrace: lambda trace: _batch_of_custom_jvp(trace, fun, rule, leaves, name),
        JitTrace: lambda trace: _inline_under_jit(trace, fun, leaves, name),
    }
    return dispatch(handlers, leaves, lambda: list(fun(*leaves)))


def _jvp_of_custom_jvp(trace, rule, leaves):
    primals, tangents = [], []
    for x in leaves:
        if type(x) is JVPTracer and x._trace is trace:
            primals.append(x.primal)
            tangents.append(x.tangent)
        else:
            primals.append(x)
            tangents.append(zero_tangent(x))
    p_out, t_out = rule(primals, tangents)
    return [trace.new_tracer(p, _fit(t, p)) if is_inexact(p) and hasattr(p, "shape") else p
            for p, t in zip(p_out, t_out)]


def _vjp_of_custom_jvp(trace, fun, rule, leaves, name):
    primals, parents = lower_vjp(trace, leaves)
    outs = call_custom_jvp(fun, rule, primals, name)

    def transpose_rule(g, ans, *args):
        traced = [i for i, p in enumerate(parents) if p is not None]
        diff_out = [k for k, o in enumerate(ans) if is_inexact(o) and hasattr(o, "shape")]

        def tangent_map(*ts):  # linear in ts: its vjp is the transpose we want
            full = [zero_tangent(a) for a in args]
            for i, t in zip(traced, ts):
                full[i] = t
            t_out = rule(list(args), full)[1]
            return [_fit(t_out[k], ans[k]) for k in diff_out]

        _, pullback = vjp(tangent_map, *[zero_tangent(args[i]) for i in traced])
        cts = pullback([instantiate(g[k], ans[k]) for k in diff_out])
        result = [None] * len(args)
        for i, c in zip(traced, cts):
            result[i] = c
        return tuple(result)

    return record_vjp_call(trace, name, transpose_rule, primals, parents, outs)


def _batch_of_custom_jvp(trace, fun, rule, leaves, name):
    vals, dims = zip(*(trace.lower(x) for x in leaves)) if leaves else ((), ())
    dims, n = tuple(dims), trace.axis_size

    def bfun(*xs):
        return vmap(lambda *a: list(fun(*a)), in_axes=dims, axis_size=n)(*xs)

    def brule(ps, ts):
        p, t = vmap(lambda a, b: tuple(rule(list(a), list(b))), in_axes=(dims, dims), axis_size=n)(tuple(ps), tuple(ts))
        return list(p), list(t)

    outs = call_custom_jvp(bfun, brule, list(vals), name)
    return [trace.new_tracer(o, 0) for o in outs]


# --- custom_vjp ---------------------------------------------------------------------------------

class custom_vjp:  # noqa: N801 - a decorator, named as in JAX
    """A function with a user-defined reverse-mode rule (``defvjp(fwd, bwd)``)."""

    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.fwd = self.bwd = None

    def defvjp(self, fwd, bwd):
        """``fwd(*args) -> (out, residuals)``; ``bwd(*nondiff, residuals, ct_out) -> cts`` (one per
        differentiable argument, None for no cotangent)."""
        self.fwd, self.bwd = fwd, bwd

    def __call__(self, *args, **kwargs):
        fname = f"custom_vjp function {getattr(self.fun, '__name__', '')}"
        if self.fwd is None:
            raise AttributeError(f"{fname} has no vjp rule: define one with {self.fun.__name__}.defvjp(fwd, bwd)")
        split = _Split(fname, self.nondiff_argnums, args, kwargs)
        outs = _OutTree(fname)
        n_diff = len(split.diff_args(split.leaves))

        def flat_fun(*leaves):
            return outs.flatten(self.fun(*split.full_args(leaves)), "the output")

        def flat_fwd(*leaves):
            res = self.fwd(*split.full_args(leaves))
            if not (isinstance(res, (tuple, list)) and len(res) == 2):
                raise TypeError(f"{fname}: fwd must return a pair (output, residuals), got {type(res).__name__}")
            return outs.flatten(res[0], "fwd's output"), res[1]

        def flat_bwd(res, cts):
            got = self.bwd(*split.nondiff, res, tree.tree_unflatten(outs.treedef, list(cts)))
            if not isinstance(got, (tuple, list)) or len(got) != n_diff:
                raise TypeError(f"{fname}: bwd must return a tuple with one cotangent per differentiable "
                                f"argument ({n_diff}), got {type(got).__name__}"
                                + (f" of length {len(got)}" if isinstance(got, (tuple, list)) else ""))
            flat = []
            for ct, arg in zip(got, split.diff_args(split.leaves)):
                n = len(tree.tree_leaves(arg))
                flat.extend([None] * n if ct is None else tree.tree_leaves(ct))
            return flat

        out_leaves = call_custom_vjp(flat_fun, flat_fwd, flat_bwd, split.leaves, fname)
        return tree.tree_unflatten(outs.treedef, out_leaves)


def call_custom_vjp(fun, fwd, bwd, leaves, name):
    handlers = {
        JVPTrace: lambda trace: _jvp_of_custom_vjp(trace, name),
        VJPTrace: lambda trace: _vjp_of_custom_vjp(trace, fwd, bwd, leaves, name),
        BatchTrace: lambda trace: _batch_of_custom_vjp(trace, fun, fwd, bwd, leaves, name),
        JitTrace: lambda trace: _inline_under_jit(trace, fun, leaves, name),
    }
    return dispatch(handlers, leaves, lambda: list(fun(*leaves)))


def _inline_under_jit(trace, fun, leaves, name):
    """Under jit the call's primal body is recorded; the graph notes that it held a custom rule, so that
    differentiating the jitted function from outside refuses instead of ignoring the rule."""
    trace.custom_rules.append(name)
    return list(fun(*leaves))


def _jvp_of_custom_vjp(trace, name):
    raise TypeError(
        f"cannot take a forward-mode derivative (jvp, jacfwd, hessian) of the {name}: custom_vjp "
        "defines only a reverse-mode rule, and a vjp cannot be turned into a jvp. Use reverse mode "
        "(grad, vjp, jacrev; for Hessians jacrev(jacrev(f))), or define the rule with custom_jvp, "
        "which serves both modes."
    )


def _vjp_of_custom_vjp(trace, fwd, bwd, leaves, name):
    primals, parents = lower_vjp(trace, leaves)
    outs, res = fwd(*primals)

    def bwd_rule(g, ans, *args, res):
        cts = bwd(res, [instantiate(gk, ak) for gk, ak in zip(g, ans)])
        return tuple(cts)

    return record_vjp_call(trace, name, bwd_rule, primals, parents, outs, params={"res": res})


def _batch_of_custom_vjp(trace, fun, fwd, bwd, leaves, name):
    vals, dims = zip(*(trace.lower(x) for x in leaves)) if leaves else ((), ())
    dims, n = tuple(dims), trace.axis_size
    static = {}  # residual leaves that are not arrays are the same for every example

    def bfun(*xs):
        return vmap(lambda *a: list(fun(*a)), in_axes=dims, axis_size=n)(*xs)

    def split_res(*a):
        out, res = fwd(*a)
        r_leaves, r_tree = tree.tree_flatten(res)
        static["tree"] = r_tree
        static["consts"] = {i: r for i, r in enumerate(r_leaves) if not hasattr(r, "shape")}
        return list(out), [r for r in r_leaves if hasattr(r, "shape")]

    def join_res(arrays):
        it = iter(arrays)
        count = len(arrays) + len(static["consts"])
        leaves_ = [static["consts"][i] if i in static["consts"] else next(it) for i in range(count)]
        return tree.tree_unflatten(static["tree"], leaves_)

    def bfwd(*xs):
        return vmap(split_res, in_axes=dims, axis_size=n)(*xs)

    def bbwd(res_arrays, cts):
        got = vmap(lambda r, c: bwd(join_res(r), c), in_axes=(0, 0), axis_size=n)(res_arrays, list(cts))
        out = []
        for ct, d in zip(got, dims):
            if ct is None:
                out.append(None)
            elif d is None:  # the same input for every example: its cotangents add up
                out.append(reduce_sum(ct, (0,)))
            else:
                out.append(moveaxis(ct, 0, d))
        return out

    outs = call_custom_vjp(bfun, bfwd, bbwd, list(vals), name)
    return [trace.new_tracer(o, 0) for o in outs]
