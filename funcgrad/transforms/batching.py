"""vmap: vectorising a function over a batch axis (the batch trace).

A :class:`BatchTracer` holds a value one level down (the whole batch) and
``bdim``, the axis of it that is the batch axis; to the function it looks like
one example (its ``shape`` leaves that axis out).  For each primitive the
trace calls the primitive's batching rule ``prim.batch(args, dims, **params)``
(written next to the primitive; families share helpers in
:mod:`funcgrad.primitives._batching`).  A primitive without a rule still works:
the fallback applies it to each example in turn and stacks the results
(correct, but a Python loop: :func:`primitives_without_batch_rule` lists them).
"""

from __future__ import annotations

import functools

import numpy as np
import optree

from .. import tree
from ..core import REGISTRY, Array, ArrayTracer, ShapedArray, Trace, Tracer, asarray
from ..errors import BatchedValueError
from ..primitives._batching import moveaxis
from ..primitives.creation import full_like
from ..primitives.index import getitem_p
from ..primitives.shape import broadcast_to, concatenate, reshape

__all__ = ["vmap", "BatchTrace", "BatchTracer", "BatchedValueError", "primitives_without_batch_rule"]

_new = object.__new__


class BatchTracer(ArrayTracer):
    """One example of a batch: ``val`` is the whole batch, ``bdim`` its batch axis."""

    __slots__ = ("_trace", "val", "bdim")

    @property
    def shape(self):
        s = tuple(self.val.shape)
        d = self.bdim
        return s[:d] + s[d + 1:]

    @property
    def dtype(self):
        return self.val.dtype

    @property
    def device(self):
        return self.val.device

    def _concrete(self):
        raise self._conversion_error("conversion to a concrete array")

    def _conversion_error(self, what):
        return BatchedValueError(
            f"vmap: {what} of a batched value (shape {self.shape} per example, batch size "
            f"{self._trace.axis_size}) is not possible: its value differs from example to example. "
            "Python control flow that depends on values (`if x > 0:`, `while`, `and`/`or`, int(x), "
            "float(x)) cannot be vectorised; select with funcgrad.numpy.where(cond, a, b) instead, "
            "or move the control flow out of the vmapped function."
        )

    def __array__(self, dtype=None, copy=None):
        raise self._conversion_error("conversion to a numpy array")


class BatchTrace(Trace):
    __slots__ = ("axis_size", "name")
    kind = "vmap"

    def __init__(self, axis_size, name="vmap"):
        super().__init__()
        self.axis_size = axis_size
        self.name = name

    def describe(self):
        return f"{self.name} (level {self.level})"

    def new_tracer(self, val, bdim):
        if bdim is None:
            return val
        t = _new(BatchTracer)
        t._trace = self
        t.val = val
        t.bdim = bdim
        return t

    def lower(self, x):
        """-> (value one level down, batch axis or None)."""
        if type(x) is BatchTracer and x._trace is self:
            return x.val, x.bdim
        return x, None

    def process_primitive(self, prim, args, params):
        vals, dims = [], []
        for a in args:
            v, d = self.lower(a)
            vals.append(v)
            dims.append(d)
        if all(d is None for d in dims):
            return prim.bind(*vals, **params)
        rule = prim.batch
        if rule is None or self.axis_size == 0:  # no examples: only the shape rule is needed
            out, out_dim = _loop_fallback(prim, vals, dims, params, self.axis_size)
        else:
            out, out_dim = rule(vals, dims, **params)
        if prim.multiple_results:
            if not isinstance(out_dim, (tuple, list)):
                out_dim = (out_dim,) * len(out)
            return tuple(self.new_tracer(o, d) for o, d in zip(out, out_dim))
        return self.new_tracer(out, out_dim)


def _take(x, d, i):
    """Example i of a batched value (batch axis d)."""
    return getitem_p.bind(x, template=(slice(None),) * d + (i,))


def _stack(xs):
    return concatenate([reshape(x, (1,) + tuple(x.shape)) for x in xs], 0) if len(xs) > 1 \
        else reshape(xs[0], (1,) + tuple(xs[0].shape))


def _loop_fallback(prim, vals, dims, params, size):
    """Apply ``prim`` to each example and stack the results (for primitives without a rule)."""
    if size == 0:
        ref = next(v for v, d in zip(vals, dims) if d is not None)
        avals = [ShapedArray(tuple(v.shape)[:d] + tuple(v.shape)[d + 1:], v.dtype) if d is not None
                 else (ShapedArray(v.shape, v.dtype) if hasattr(v, "shape") else v) for v, d in zip(vals, dims)]
        out = prim.abstract(*avals, **params)
        outs = out if prim.multiple_results else (out,)
        empty = tuple(full_like(ref, 0, shape=(0,) + tuple(o.shape), dtype=o.dtype) for o in outs)
        return (empty if prim.multiple_results else empty[0]), 0
    results = []
    for i in range(size):
        args = [v if d is None else _take(v, d, i) for v, d in zip(vals, dims)]
        results.append(prim.bind(*args, **params))
    if prim.multiple_results:
        return tuple(_stack([r[k] for r in results]) for k in range(len(results[0]))), 0
    return _stack(results), 0


def primitives_without_batch_rule():
    """Names of registered primitives that vmap runs with the per-example loop fallback."""
    return sorted(name for name, prim in REGISTRY.items() if prim.batch is None)


# --- vmap -----------------------------------------------------------------------------------

def _axes_per_leaf(spec, full, what):
    """Broadcast ``spec`` (an int, None, or a pytree prefix of ``full`` holding them) to
    ``full``'s leaves: -> list of (axis or None) in leaf order."""
    if spec is None or isinstance(spec, (int, np.integer)):
        return [None if spec is None else int(spec)] * len(tree.tree_leaves(full))
    treedef = optree.tree_structure(spec, none_is_leaf=True, namespace=tree.NAMESPACE)
    try:
        subtrees = treedef.flatten_up_to(full)
    except ValueError as e:
        raise ValueError(f"vmap: {what} {spec!r} does not match the structure of the values it "
                         f"describes ({tree.tree_structure(full)}): {e}") from None
    out = []
    for ax, sub in zip(treedef.flatten_up_to(spec), subtrees):
        if not (ax is None or isinstance(ax, (int, np.integer))):
            raise TypeError(f"vmap: {what} must hold ints or None, got {ax!r}")
        out.extend([None if ax is None else int(ax)] * len(tree.tree_leaves(sub)))
    return out


def _arg_names(fun, n):
    try:
        import inspect  # noqa: PLC0415 - only for error messages

        params = list(inspect.signature(fun).parameters)
    except (TypeError, ValueError):
        params = []
    return [f"argument {i}" + (f" ({params[i]})" if i < len(params) else "") for i in range(n)]


def vmap(fun, in_axes=0, out_axes=0, axis_size=None):
    """Vectorise ``fun`` over a batch axis of its arguments.

    ``in_axes``: for each positional argument, the axis to map over (negative
    counts from the end) or None (the same value for every example); an int or
    None applies to all arguments, a tuple/list gives one entry per argument,
    and an entry may be a pytree prefix of its argument.  ``out_axes`` says
    where the batch axis goes in each output (an output that does not depend
    on a mapped input is broadcast; None keeps such an output as it is).
    ``axis_size`` gives the batch size when no argument is mapped.
    Composes with every transformation: ``vmap(grad(f))`` gives per-example
    gradients, ``jacfwd`` / ``jacrev`` are vmaps of jvp / vjp.
    """
    if not callable(fun):
        raise TypeError(f"vmap: the first argument must be a function, got {type(fun).__name__}")
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)

    @functools.wraps(fun)
    def vmapped(*args, **kwargs):
        if isinstance(in_axes, tuple) and len(in_axes) != len(args):
            raise ValueError(
                f"vmap: in_axes is a tuple of {len(in_axes)} entries but the function was called with "
                f"{len(args)} positional argument(s); give one entry per argument (None: not mapped)"
            )
        leaves, treedef = tree.tree_flatten(args)
        axes = _axes_per_leaf(in_axes, args, "in_axes")
        paths = [p for p, _ in tree.tree_flatten_with_path(args)[0]]
        names = _arg_names(fun, len(args))
        size, sizes, new_leaves = axis_size, [], []
        for leaf, ax, path in zip(leaves, axes, paths):
            where = names[path[0]] + (tree.keystr(path[1:]) if len(path) > 1 else "")
            if ax is None:
                new_leaves.append(leaf)
                continue
            if not isinstance(leaf, (Array, Tracer)):
                if isinstance(leaf, (int, float, complex, bool)) or not hasattr(leaf, "shape"):
                    raise ValueError(
                        f"vmap: {where} is a {type(leaf).__name__}, which has no axis {ax} to map over; "
                        "give it in_axes None"
                    )
                leaf = asarray(leaf)
            nd = len(leaf.shape)
            if not -nd <= ax < nd:
                raise ValueError(
                    f"vmap: in_axes says to map {where} over axis {ax}, but it has shape "
                    f"{tuple(leaf.shape)} (rank {nd})"
                )
            ax %= nd
            sizes.append((where, ax, leaf.shape[ax]))
            new_leaves.append((leaf, ax))
        distinct = {n for _, _, n in sizes}
        if axis_size is not None and sizes and distinct != {axis_size}:
            distinct = distinct | {axis_size}
        if len(distinct) > 1:
            lines = "; ".join(f"{w} has size {n} along axis {a}" for w, a, n in sizes)
            extra = f"; axis_size={axis_size}" if axis_size is not None else ""
            raise ValueError(f"vmap got inconsistent sizes for the mapped axis: {lines}{extra}")
        if not sizes:
            if axis_size is None:
                raise ValueError(
                    "vmap: no argument is mapped (every in_axes entry is None and no argument has "
                    "leaves): pass axis_size to say how many examples to make"
                )
        else:
            size = sizes[0][2]
        trace = BatchTrace(int(size))
        try:
            ins = [trace.new_tracer(*x) if isinstance(x, tuple) else x for x in new_leaves]
            out = fun(*tree.tree_unflatten(treedef, ins), **kwargs)
        finally:
            trace.alive = False
        return _place_outputs(trace, out, out_axes)

    return vmapped


def _place_outputs(trace, out, out_axes):
    leaves, treedef = tree.tree_flatten(out)
    axes = _axes_per_leaf(out_axes, out, "out_axes")
    paths = [tree.keystr(p) or "the output" for p, _ in tree.tree_flatten_with_path(out)[0]]
    res = []
    for leaf, ax, where in zip(leaves, axes, paths):
        val, d = trace.lower(leaf)
        if ax is None:
            if d is not None:
                raise ValueError(
                    f"vmap: out_axes is None at {where}, but that output differs across the batch "
                    "(it depends on a mapped input); give it an axis"
                )
            res.append(val)
            continue
        if not isinstance(val, (Array, Tracer)):
            val = asarray(val)
        nd = len(val.shape) + (d is None)
        if not -nd <= ax < nd:
            raise ValueError(f"vmap: out_axes {ax} at {where} is out of range for an output of rank {nd}")
        ax %= nd
        if d is None:  # the same for every example: broadcast along the new axis
            shape = tuple(val.shape)
            val = broadcast_to(reshape(val, shape[:ax] + (1,) + shape[ax:]), shape[:ax] + (trace.axis_size,) + shape[ax:])
        else:
            val = moveaxis(val, d, ax)
        res.append(val)
    return tree.tree_unflatten(treedef, res)


# --- the documented fallback list -------------------------------------------------------------

_DOCS_MARK = "<!-- fallback-list -->"


def fallback_list_markdown():
    names = primitives_without_batch_rule()
    if not names:
        return "Every registered primitive has a batching rule; none uses the fallback.\n"
    return "".join(f"- `{n}`\n" for n in names)


def update_fallback_docs(path="docs/transformations.md"):
    """Rewrite the block between the two fallback-list markers of docs/transformations.md."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head, _, rest = text.partition(_DOCS_MARK)
    _, _, tail = rest.partition(_DOCS_MARK)
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"{head}{_DOCS_MARK}\n{fallback_list_markdown()}{_DOCS_MARK}{tail}")

