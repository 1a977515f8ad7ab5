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


def _shape_ops():
    """(reshape, transpose, broadcast_to): imported late, as the shape family uses this module."""
    from .shape import broadcast_to, reshape, transpose  # noqa: PLC0415

    return reshape, transpose, broadcast_to

__all__ = [
    "ndim_of", "batch_size", "moveaxis", "to_front", "at_front", "with_rank",
    "elementwise_rule", "passthrough_rule", "reduction_rule",
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
