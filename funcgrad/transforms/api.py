"""Public differentiation API: grad, value_and_grad, vjp, jvp, stop_gradient.

Inputs and outputs are pytrees.  Each call opens a fresh trace (a new level),
wraps the differentiated leaves in its tracers, runs the function, and closes
the trace; the recorded tape is released when the result is returned (or,
for ``vjp``, when the returned ``vjp_fn`` is dropped).
"""

from __future__ import annotations

import functools

import numpy as np

from .. import tree
from ..core import Array, Primitive, Tracer, asarray
from ..primitives.creation import ones_like, zeros_like
from ..primitives.stop_gradient import stop_gradient, stop_gradient_p  # noqa: F401  (public here too)
from .forward import JVPTrace, JVPTracer
from .reverse import VJPTrace, VJPTracer, backward_pass
from ..backend import kind_of

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "stop_gradient"]


# --- helpers -----------------------------------------------------------------------------

def _normalize_argnums(argnums, nargs, fname):
    single = isinstance(argnums, (int, np.integer))
    nums = (int(argnums),) if single else tuple(int(a) for a in argnums)
    if not nums:
        raise ValueError(f"{fname}: argnums must name at least one argument")
    out = []
    for a in nums:
        if not -nargs <= a < nargs:
            raise ValueError(
                f"{fname}: argnums={argnums!r} but the function was called with {nargs} "
                f"positional argument(s)"
            )
        out.append(a % nargs)
    if len(set(out)) != len(out):
        raise ValueError(f"{fname}: argnums {argnums!r} names an argument twice")
    return single, tuple(out)


def _describe_leaf(x):
    dt = getattr(x, "dtype", None)
    return f"{type(x).__name__} of dtype {dt}" if dt is not None else type(x).__name__


def _to_diff_input(x, where, fname, holomorphic=False):
    """A leaf to differentiate with respect to: a float or complex Array (or an outer tracer).

    Python complex numbers become complex128 arrays.  With ``holomorphic`` the
    leaf must be complex (as JAX's ``holomorphic=True``).
    """
    if isinstance(x, Tracer):
        v = x
    elif isinstance(x, bool) or isinstance(x, (int, np.integer)):
        raise TypeError(
            f"{fname} requires floating-point or complex inputs, but {where} is the integer {x!r}. "
            f"Pass a float instead (e.g. {float(x)!r}), or cast arrays with x.astype(float)."
        )
    else:
        try:
            v = asarray(x)
        except TypeError:
            raise TypeError(f"{fname}: {where} is a {type(x).__name__}, not an array or number") from None
    kind = kind_of(v.dtype)
    if kind not in "fc":
        raise TypeError(
            f"{fname} requires floating-point or complex inputs, but {where} has integer or boolean "
            f"dtype {v.dtype}. Cast it first, e.g. x.astype(float) (or funcgrad.numpy.asarray(x, float))."
        )
    if holomorphic and kind != "c":
        raise TypeError(
            f"{fname} with holomorphic=True requires complex inputs, but {where} has dtype {v.dtype}; "
            "cast it (x.astype(complex)) or drop holomorphic=True"
        )
    return v


def _wrap_inputs(trace, args, argnums, fname, wrap, holomorphic=False):
    """Replace args[i] (i in argnums) leaf-wise by tracers; return (new_args, leaves, treedef)."""
    new_args = list(args)
    diff = tuple(args[i] for i in argnums)
    leaves, treedef = tree.tree_flatten(diff)
    paths = [p for p, _ in tree.tree_flatten_with_path(diff)[0]]
    tracers = []
    for (path, leaf) in zip(paths, leaves):
        where = f"argument {argnums[path[0]]}{tree.keystr(path[1:]) if len(path) > 1 else ''}"
        tracers.append(wrap(_to_diff_input(leaf, where, fname, holomorphic)))
    rebuilt = tree.tree_unflatten(treedef, tracers)
    for i, sub in zip(argnums, rebuilt):
        new_args[i] = sub
    return new_args, tracers, treedef


def _lower(x, trace):
    """A tracer of ``trace`` -> its primal; anything else unchanged."""
    if isinstance(x, (VJPTracer, JVPTracer)) and x._trace is trace:
        return x.primal
    return x


def _lower_tree(t, trace):
    return tree.tree_map(lambda x: _lower(x, trace), t)


# --- reverse mode ------------------------------------------------------------------------

def value_and_grad(fun, argnums=0, has_aux=False, holomorphic=False):
    """``fun``'s value and its gradient w.r.t. ``argnums`` (a scalar-output function).

    Returns ``(value, grads)``, or ``((value, aux), grads)`` with ``has_aux``.
    ``grads`` has the structure of ``args[argnums]`` (a tuple of them when
    ``argnums`` is a tuple); each gradient has its input's shape and dtype.

    Complex inputs (JAX's convention, docs/transformations.md): for a real
    output ``f`` of ``z = x + iy`` the gradient is ``df/dx - i df/dy`` (twice
    the Wirtinger derivative ``df/dz``; descend along its conjugate).  A complex
    output needs ``holomorphic=True`` (complex inputs then), which gives the
    complex derivative ``f'(z)``.
    """
    fname = f"grad of {getattr(fun, '__name__', 'function')}"

    @functools.wraps(fun)
    def value_and_grad_fun(*args, **kwargs):
        single, nums = _normalize_argnums(argnums, len(args), "grad")
        trace = VJPTrace("grad")
        try:
            new_args, tracers, treedef = _wrap_inputs(trace, args, nums, "grad", trace.leaf, holomorphic)
            res = fun(*new_args, **kwargs)
        finally:
            trace.alive = False
        out, aux = _split_aux(res, has_aux, "grad")
        value, seed_node = _scalar_output(out, trace, fname, holomorphic)
        cts = {}
        if seed_node is not None:
            cts = backward_pass(trace.tape, {seed_node: ones_like(value)})
        trace.tape = None
        grads = [cts.get(t.node) for t in tracers]
        grads = [zeros_like(t.primal) if g is None else g for g, t in zip(grads, tracers)]
        grads = tree.tree_unflatten(treedef, grads)
        grads = grads[0] if single else tuple(grads)
        if has_aux:
            return (value, _lower_tree(aux, trace)), grads
        return value, grads

    return value_and_grad_fun


def grad(fun, argnums=0, has_aux=False, holomorphic=False):
    """The gradient of a scalar-output function, w.r.t. positional argument(s) ``argnums``.

    ``grad(f)(x)`` has x's structure, shapes and dtypes.  Compose freely:
    ``grad(grad(f))``, ``jvp(grad(f), ...)`` and so on, to any order.  Complex
    inputs and ``holomorphic``: see :func:`value_and_grad`.
    """
    vg = value_and_grad(fun, argnums, has_aux, holomorphic)

    @functools.wraps(fun)
    def grad_fun(*args, **kwargs):
        (value_aux, grads) = vg(*args, **kwargs)
        return (grads, value_aux[1]) if has_aux else grads

    return grad_fun


def _split_aux(res, has_aux, fname):
    if not has_aux:
        return res, None
    if not (isinstance(res, (tuple, list)) and len(res) == 2):
        raise TypeError(f"{fname}(has_aux=True) expects the function to return a pair (output, aux), got {type(res).__name__}")
    return res[0], res[1]


def _scalar_output(out, trace, fname, holomorphic=False):
    """-> (primal value, node to seed or None) for a grad-able scalar output."""
    if isinstance(out, VJPTracer) and out._trace is trace:
        value, node = out.primal, out.node
    elif isinstance(out, (Array, Tracer, int, float, complex, np.ndarray, np.generic)):
        value, node = asarray(out) if not isinstance(out, Tracer) else out, None
    else:
        raise TypeError(
            f"{fname}: the function must return a scalar array, got {type(out).__name__}"
            + (" (to also return other values, use has_aux=True)" if isinstance(out, (tuple, list, dict)) else "")
        )
    shape = tuple(value.shape)
    if shape != ():
        raise TypeError(
            f"{fname}: grad requires a scalar output, but the function returned shape {shape}. "
            "Reduce it (e.g. .sum()), or use vjp / jacrev for non-scalar outputs."
        )
    kind = kind_of(value.dtype)
    if holomorphic and kind != "c":
        raise TypeError(
            f"{fname}: grad with holomorphic=True requires a complex output, but the function returned "
            f"dtype {value.dtype}"
        )
    if not holomorphic and kind != "f":
        raise TypeError(
            f"{fname}: grad requires a real floating-point output, but the function returned dtype {value.dtype}"
            + (". For the derivative of a holomorphic function pass holomorphic=True; for a non-holomorphic "
               "complex-valued function use vjp (or take real/imag/abs of the output)" if kind == "c" else "")
        )
    return value, node


def vjp(fun, *primals, has_aux=False):
    """``(fun(*primals), vjp_fn)``; ``vjp_fn(cotangent)`` returns one cotangent per primal.

    The cotangent must have the output's tree structure, shapes and dtypes.
    ``vjp_fn`` can be called any number of times (and differentiated).
    """
    trace = VJPTrace("vjp")
    try:
        new_args, tracers, treedef = _wrap_inputs(trace, primals, tuple(range(len(primals))), "vjp", trace.leaf)
        res = fun(*new_args)
    finally:
        trace.alive = False
    out, aux = _split_aux(res, has_aux, "vjp")
    out_leaves, out_tree = tree.tree_flatten(out)
    out_primals = [_lower(x, trace) for x in out_leaves]
    out_nodes = [x.node if isinstance(x, VJPTracer) and x._trace is trace else None for x in out_leaves]
    tape = trace.tape
    trace.tape = None
    primal_out = tree.tree_unflatten(out_tree, out_primals)

    def vjp_fn(cotangent):
        ct_leaves = _check_cotangent(cotangent, primal_out, out_primals)
        seeds = {}
        for node, ct in zip(out_nodes, ct_leaves):
            if node is not None:
                seeds[node] = ct if node not in seeds else seeds[node] + ct
        cts = backward_pass(tape, seeds, release=False) if seeds else {}
        grads = [cts.get(t.node) for t in tracers]
        grads = [zeros_like(t.primal) if g is None else g for g, t in zip(grads, tracers)]
        return tuple(tree.tree_unflatten(treedef, grads))

    if has_aux:
        return primal_out, vjp_fn, _lower_tree(aux, trace)
    return primal_out, vjp_fn


def _check_cotangent(cotangent, primal_out, out_primals):
    tree.check_same_structure(primal_out, cotangent, what="vjp_fn: the cotangent")
    paths_leaves, _ = tree.tree_flatten_with_path(cotangent)
    out = []
    for (path, ct), p in zip(paths_leaves, out_primals):
        where = tree.keystr(path)
        if not isinstance(ct, (Array, Tracer)):
            ct = asarray(np.asarray(ct, dtype=p.dtype) if isinstance(ct, (int, float, complex)) else ct)
        if tuple(ct.shape) != tuple(p.shape):
            raise ValueError(
                f"vjp_fn: the cotangent at {where} has shape {tuple(ct.shape)}, but the output there has shape {tuple(p.shape)}"
            )
        if ct.dtype != p.dtype:
            raise TypeError(
                f"vjp_fn: the cotangent at {where} has dtype {ct.dtype}, but the output there has dtype {p.dtype}; cast it first"
            )
        out.append(ct)
    return out


# --- forward mode ------------------------------------------------------------------------

def jvp(fun, primals, tangents, has_aux=False):
    """Forward mode: ``(fun(*primals), d fun(primals) . tangents)``.

    ``primals`` and ``tangents`` are tuples (or lists) of pytrees with equal
    structure, shapes and dtypes.  Floating-point warnings are silenced
    inside (derivatives at masked-off points produce inf/nan harmlessly).
    """
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError(
            "jvp: primals and tangents must be tuples or lists of arguments, got "
            f"{type(primals).__name__} and {type(tangents).__name__} (write jvp(f, (x,), (t,)))"
        )
    if len(primals) != len(tangents):
        raise ValueError(f"jvp: {len(primals)} primal(s) but {len(tangents)} tangent(s)")
    tree.check_same_structure(tuple(primals), tuple(tangents), what="jvp: tangents")
    t_leaves = tree.tree_leaves(tuple(tangents))
    trace = JVPTrace("jvp")
    it = iter(t_leaves)

    def wrap(p):
        t = next(it)
        if not isinstance(t, (Array, Tracer)):
            t = asarray(t, dtype=p.dtype if isinstance(t, (int, float, complex)) else None)
        if tuple(t.shape) != tuple(p.shape):
            raise ValueError(f"jvp: a tangent has shape {tuple(t.shape)} but its primal has shape {tuple(p.shape)}")
        if t.dtype != p.dtype:
            raise TypeError(f"jvp: a tangent has dtype {t.dtype} but its primal has dtype {p.dtype}")
        return trace.new_tracer(p, t)

    try:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            new_args, _, _ = _wrap_inputs(trace, tuple(primals), tuple(range(len(primals))), "jvp", wrap)
            res = fun(*new_args)
    finally:
        trace.alive = False
    out, aux = _split_aux(res, has_aux, "jvp")
    leaves, out_tree = tree.tree_flatten(out)
    p_out, t_out = [], []
    for x in leaves:
        if isinstance(x, JVPTracer) and x._trace is trace:
            p_out.append(x.primal)
            t_out.append(x.tangent)
        else:
            p_out.append(x)
            t_out.append(zeros_like(x))
    result = (tree.tree_unflatten(out_tree, p_out), tree.tree_unflatten(out_tree, t_out))
    return result + (_lower_tree(aux, trace),) if has_aux else result
