"""Helpers for batching rules (vmap), shared by the primitive families.

A batching rule has the signature ``rule(args, dims, **params) -> (out, out_dim)``:
``args`` are the primitive's arguments one level below the vmap (whole
batched arrays, Python scalars, or unbatched arrays), ``dims[i]`` is the
axis of ``args[i]`` that is the batch axis, or None if ``args[i]`` is not
batched.  The rule returns the batched result and the axis of it that is the
batch axis (a tuple of both for primitives with multiple results; an
``out_dim`` of None means the result is the same for every batch element).

Rules are written with primitives (``bind``), so that whatever trace lies
below the vmap (grad, jvp, another vmap) sees ordinary operations.
"""

from __future__ import annotations

import numpy as np

from ..array import Array, ShapedArray
from ..backend import put_buffer


def _shape_ops():
    """(reshape, transpose, broadcast_to): imported late, as the shape family uses this module."""
    from .shape import broadcast_to, reshape, transpose  # noqa: PLC0415

    return reshape, transpose, broadcast_to

__all__ = [
    "ndim_of", "batch_size", "moveaxis", "to_front", "at_front", "with_rank",
    "elementwise_rule", "passthrough_rule", "reduction_rule", "axis_rule", "leading_axis_rule",
    "gather_batch_rule", "scatter_batch_rule", "stacked_rule", "axes_param_rule",
]


def ndim_of(x):
    """Rank of an array or 0 for a Python scalar."""
    return len(x.shape) if hasattr(x, "shape") else 0


def batch_size(args, dims):
    """The batch size: the length of the batch axis of the first batched argument."""
    for a, d in zip(args, dims):
        if d is not None:
            return a.shape[d]
    raise ValueError("a batching rule was called without any batched argument")


def moveaxis(x, src, dst):
    """``x`` with axis ``src`` moved to position ``dst`` (both non-negative)."""
    if src == dst:
        return x
    perm = [i for i in range(ndim_of(x)) if i != src]
    perm.insert(dst, src)
    return _shape_ops()[1](x, perm)


def to_front(x, d):
    return moveaxis(x, d, 0)


def at_front(x, d, size):
    """``x`` with its batch axis first; an unbatched ``x`` (d None) broadcast to ``size``."""
    if d is not None:
        return moveaxis(x, d, 0)
    reshape, _, broadcast_to = _shape_ops()
    shape = tuple(getattr(x, "shape", ()))
    return broadcast_to(reshape(x, (1,) + shape) if hasattr(x, "shape") else x, (size,) + shape)


def with_rank(x, rank):
    """A batch-first ``x`` reshaped to ``rank`` per-example dims (size-1 dims after the batch axis)."""
    shape = tuple(x.shape)
    missing = rank - (len(shape) - 1)
    if missing <= 0:
        return x
    return _shape_ops()[0](x, shape[:1] + (1,) * missing + shape[1:])


# --- family rules --------------------------------------------------------------------------

def elementwise_rule(prim):
    """Batching for broadcasting elementwise primitives (every ufunc, where, safe_mul).

    Per-example operands broadcast against each other from the right, so the
    batch axes must line up: when every batched operand has the full
    per-example rank and the same batch axis (and unbatched operands only
    cover the axes after it), the primitive applies as is; otherwise batch
    axes move to the front, with size-1 axes inserted after them.
    """
    def rule(args, dims, **params):
        ranks = [ndim_of(a) - (d is not None) for a, d in zip(args, dims)]
        rank = max(ranks)
        batch_dims = {d for d in dims if d is not None}
        if len(batch_dims) == 1:
            d = next(iter(batch_dims))
            if all(r == rank if bd is not None else r <= rank - d for r, bd in zip(ranks, dims)):
                return prim.bind(*args, **params), d
        new = [a if d is None else with_rank(to_front(a, d), rank) for a, d in zip(args, dims)]
        return prim.bind(*new, **params), 0

    rule.__qualname__ = f"{prim.name}_batch_rule"
    return rule


def passthrough_rule(prim):
    """Batching for one-argument primitives that act on each element alone (casts, copies)."""
    def rule(args, dims, **params):
        return prim.bind(*args, **params), dims[0]

    rule.__qualname__ = f"{prim.name}_batch_rule"
    return rule


def reduction_rule(prim):
    """Batching for reductions with params ``axes`` (a tuple) and ``keepdims``."""
    def rule(args, dims, *, axes, keepdims, **params):
        (x,), (d,) = args, dims
        full_axes = tuple(a + 1 if a >= d else a for a in axes)
        out = prim.bind(x, axes=full_axes, keepdims=keepdims, **params)
        return out, d if keepdims else d - sum(1 for a in axes if a < d)

    rule.__qualname__ = f"{prim.name}_batch_rule"
    return rule


def axis_rule(prim):
    """Batching for one-argument primitives along one ``axis`` param (cumsum, cumprod):
    the axis shifts past the batch axis; a 0-d example is treated as shape (1,), as numpy does."""
    def rule(args, dims, *, axis, **params):
        (x,), (d,) = args, dims
        if ndim_of(x) == 1:  # 0-d examples
            out = prim.bind(_shape_ops()[0](x, (x.shape[0], 1)), axis=1, **params)
            return out, 0
        return prim.bind(x, axis=axis + 1 if axis >= d else axis, **params), d

    rule.__qualname__ = f"{prim.name}_batch_rule"
    return rule


def leading_axis_rule(prim):
    """Batching for one-argument primitives whose first axis is already a batch (N) axis
    (sliding windows): the vmap batch merges into it and is split off again."""
    def rule(args, dims, **params):
        reshape = _shape_ops()[0]
        (x,), (d,) = args, dims
        x = to_front(x, d)
        b, n = x.shape[0], x.shape[1]
        out = prim.bind(reshape(x, (b * n,) + tuple(x.shape[2:])), **params)
        return reshape(out, (b, n) + tuple(out.shape[1:])), 0

    rule.__qualname__ = f"{prim.name}_batch_rule"
    return rule


# --- indexing: getitem and the scatters ------------------------------------------------------------
# Under vmap, x and the index arrays may each carry a batch axis.  Where numpy puts the
# dimensions of advanced indices (in place when adjacent, else first) is found by
# indexing a zero-strided dummy with a marker-sized axis: exactly numpy's rule.

def _marker_position(x_shape, template, index_shapes, marker_on_x):
    """Position of the marker axis in the result of indexing a dummy.

    ``marker_on_x``: the marker is x's leading axis (indexed by a leading full slice);
    otherwise it is a leading axis of every index array (the broadcast advanced block).
    """
    from .index import _dummy, _rebuild  # noqa: PLC0415

    dims = list(x_shape) + [d for s in index_shapes for d in s]
    m = max(dims + [1]) + 2
    if marker_on_x:
        x_shape, template = (m,) + tuple(x_shape), (slice(None),) + tuple(template)
    else:
        index_shapes = [(m,) + tuple(s) for s in index_shapes]
    dummy = _dummy(ShapedArray(x_shape, np.int8))
    idx = _rebuild(template, [np.zeros(s, np.intp) for s in index_shapes])
    return dummy[idx].shape.index(m)


def _batched_index_args(arrays, adims, rank, size=None):
    """Batched index arrays -> batch axis first, padded to ``rank`` per-example dims."""
    out = []
    for a, d in zip(arrays, adims):
        if d is None:
            out.append(a if size is None else with_rank(at_front(a, None, size), rank))
        else:
            out.append(with_rank(to_front(a, d), rank))
    return out


def _per_example_shapes(arrays, adims):
    return [tuple(a.shape)[:d] + tuple(a.shape)[d + 1:] if d is not None else tuple(a.shape)
            for a, d in zip(arrays, adims)]


def _iota(size, like, rank):
    """Batch positions 0..size-1 as an index array of shape (size, 1, ..., 1) on like's device."""
    host = np.arange(size, dtype=np.intp).reshape((size,) + (1,) * rank)
    return Array._from_buffer(put_buffer(host, like.device))


def _gather_plan(x, dx, arrays, adims, template):
    """-> (x', arrays', template', layout): the batched gather; layout says how to fix its result."""
    from .index import _Slot  # noqa: PLC0415

    n = batch_size([x, *arrays], [dx, *adims])
    ex_shapes = _per_example_shapes(arrays, adims)
    x_shape = tuple(x.shape)[:dx] + tuple(x.shape)[dx + 1:] if dx is not None else tuple(x.shape)
    rank = len(np.broadcast_shapes(*ex_shapes)) if ex_shapes else 0
    if all(d is None for d in adims):  # a batch of x, the same index: a leading full slice
        return at_front(x, dx, n), list(arrays), (slice(None),) + tuple(template), \
            ("x", _marker_position(x_shape, template, ex_shapes, True))
    p = _marker_position(x_shape, template, ex_shapes, False)  # where the index block lands per example
    if dx is None:  # one x, a batch of indices: the batch axis joins the advanced block
        return x, _batched_index_args(arrays, adims, rank), tuple(template), ("x", p)
    # both batched: index the batch axis with 0..n-1 too; the advanced block (n, S) comes first
    iota = _iota(n, x, rank)
    new_template = (_Slot(len(arrays)),) + tuple(template)
    return at_front(x, dx, n), _batched_index_args(arrays, adims, rank, n) + [iota], new_template, \
        ("block", p, rank)


def gather_batch_rule(args, dims, template):
    """getitem under vmap: x and/or the index arrays batched."""
    from .index import getitem_p  # noqa: PLC0415

    x, arrays = args[0], list(args[1:])
    xb, arrs, tmpl, layout = _gather_plan(x, dims[0], arrays, list(dims[1:]), template)
    out = getitem_p.bind(xb, *arrs, template=tmpl)
    if layout[0] == "x":
        return out, layout[1]
    _, p, s = layout
    if p == 0:
        return out, 0
    nd = out.ndim
    perm = [0] + [1 + s + i for i in range(p)] + [1 + i for i in range(s)] + list(range(1 + s + p, nd))
    return _shape_ops()[1](out, perm), 0


def scatter_batch_rule(prim):
    """The scatters under vmap: x, the index arrays and the values each batched or not."""
    def rule(args, dims, template):
        from .index import _dummy, _rebuild  # noqa: PLC0415

        reshape, transpose, _ = _shape_ops()

        x, v, arrays = args[0], args[1], list(args[2:])
        dx, dv, adims = dims[0], dims[1], list(dims[2:])
        n = batch_size(args, dims)
        x_ex = tuple(x.shape)[:dx] + tuple(x.shape)[dx + 1:] if dx is not None else tuple(x.shape)
        ex_shapes = _per_example_shapes(arrays, adims)
        region = _dummy(ShapedArray(x_ex, np.int8))[_rebuild(template, [np.zeros(s, np.intp) for s in ex_shapes])].shape
        if dx is None and all(d is None for d in adims):
            xb, arrs, tmpl = at_front(x, None, n), list(arrays), (slice(None),) + tuple(template)
        else:
            xb, arrs, tmpl, _ = _gather_plan(at_front(x, dx, n), 0, arrays, adims, template)
        if isinstance(v, (int, float, complex, bool)):
            return prim.bind(xb, v, *arrs, template=tmpl), 0
        # values: batch axis first (size 1 if unbatched), per-example dims as the region's
        vb = to_front(v, dv) if dv is not None else reshape(v, (1,) + tuple(v.shape))
        vb = with_rank(vb, len(region))
        if all(d is None for d in adims):
            vb = moveaxis(vb, 0, _marker_position(x_ex, template, ex_shapes, True))
        else:
            p = _marker_position(x_ex, template, ex_shapes, False)
            s = len(np.broadcast_shapes(*ex_shapes))
            if p:  # the region is (n, S, rest...) here; per example it is (rest[:p], S, rest[p:])
                vb = transpose(vb, [0] + [1 + p + i for i in range(s)] + [1 + i for i in range(p)]
                               + list(range(1 + p + s, vb.ndim)))
        return prim.bind(xb, vb, *arrs, template=tmpl), 0

    return rule


# --- stacks of matrices and axis-parameterised transforms --------------------------------------

def stacked_rule(prim):
    """Batching for primitives acting on the trailing axes of stacked operands (linalg):
    each operand gets its batch axis first (size 1 if unbatched) and its per-example dims
    padded to a common rank, so the batch axes line up and the stack dimensions broadcast
    as they do per example; every output has the batch axis first."""
    def rule(args, dims, **params):
        if len(args) == 1:
            return prim.bind(to_front(args[0], dims[0]), **params), 0
        reshape = _shape_ops()[0]
        rank = max(ndim_of(a) - (d is not None) for a, d in zip(args, dims))
        fixed = []
        for a, d in zip(args, dims):
            front = to_front(a, d) if d is not None else reshape(a, (1,) + tuple(a.shape))
            fixed.append(with_rank(front, rank))
        return prim.bind(*fixed, **params), 0

    rule.__qualname__ = f"{prim.name}_batch_rule"
    return rule


def axes_param_rule(prim):
    """Batching for one-argument primitives with an ``axes`` tuple param (fft family):
    the batch axis moves to the front and the axes shift past it."""
    def rule(args, dims, *, axes, **params):
        (x,), (d,) = args, dims
        return prim.bind(to_front(x, d), axes=tuple(a + 1 for a in axes), **params), 0

    rule.__qualname__ = f"{prim.name}_batch_rule"
    return rule
