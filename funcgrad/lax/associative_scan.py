"""``associative_scan``: all prefix combinations of an associative operator, in O(log n) vectorized steps.

``associative_scan(fn, elems)`` computes ``[e0, fn(e0, e1), fn(fn(e0, e1), e2), ...]`` along an axis,
as ``jax.lax.associative_scan`` does: ``fn`` combines two *batches* of elements (it is called on
slices holding many elements at once, so it must be vectorized along the scanned axis), and the
recursion of Blelloch's parallel scan (combine adjacent pairs, scan the half-length result, fill in
the even positions) applies it O(log n) times instead of n.  It is built from slicing, ``fn`` and
concatenation, so every transformation (grad, jvp, vmap, jit) goes through it unchanged.
"""

from __future__ import annotations

from .. import tree
from ..numpy import concatenate, flip, reshape, stack

__all__ = ["associative_scan"]


def _slice(x, axis, start, stop, step=1):
    return x[(slice(None),) * axis + (slice(start, stop, step),)]


def _interleave(a, b, axis):
    """``a[0], b[0], a[1], b[1], ...`` along ``axis``; ``a`` is as long as ``b`` or one longer."""
    na, nb = a.shape[axis], b.shape[axis]
    if na == nb + 1:  # pad b with a's last element, interleave, drop it
        b = concatenate([b, _slice(a, axis, na - 1, na)], axis=axis)
    pairs = stack([a, b], axis=axis + 1)
    shape = tuple(a.shape[:axis]) + (2 * na,) + tuple(a.shape[axis + 1:])
    out = reshape(pairs, shape)
    return out if na == nb else _slice(out, axis, 0, na + nb)


def associative_scan(fn, elems, reverse=False, axis=0):
    """``jax.lax.associative_scan``: inclusive prefix combinations of ``elems`` (a pytree of arrays sharing
    the length of ``axis``) under the associative ``fn(a, b)``, which takes and returns pytrees like
    ``elems`` whose leaves hold any number of elements along ``axis``.  ``reverse=True`` combines from
    the end: ``out[i]`` combines ``elems[i:]``, in their order (``fn(e[i], fn(e[i+1], ...))``)."""
    if not callable(fn):
        raise TypeError(f"associative_scan: fn must be callable, got {type(fn).__name__}")
    leaves, treedef = tree.tree_flatten(elems)
    if not leaves:
        raise ValueError("associative_scan: elems has no array leaves")
    ndims = [len(getattr(x, "shape", ())) for x in leaves]
    if min(ndims) == 0:
        raise ValueError("associative_scan: elems must be arrays with at least one axis; got a 0-d leaf")
    rank = ndims[0]
    if not -rank <= axis < rank:
        raise ValueError(f"associative_scan: axis {axis} is out of range for elems of rank {rank}")
    lengths = []
    for x, nd in zip(leaves, ndims):
        ax = axis % nd if -nd <= axis < nd else None
        if ax is None:
            raise ValueError(f"associative_scan: axis {axis} is out of range for a leaf of shape {tuple(x.shape)}")
        lengths.append(x.shape[ax])
    if len(set(lengths)) != 1:
        shapes = ", ".join(str(tuple(x.shape)) for x in leaves)
        raise ValueError(f"associative_scan: the leaves of elems must have one length along axis {axis}; "
                         f"got shapes {shapes}")
    axes = [axis % nd for nd in ndims]

    def combine(a, b):
        if reverse:  # the elements were flipped: keep fn's operands in their original order
            a, b = b, a
        out = fn(tree.tree_unflatten(treedef, a), tree.tree_unflatten(treedef, b))
        flat, out_def = tree.tree_flatten(out)
        if out_def != treedef:
            raise TypeError(f"associative_scan: fn must return the structure of elems ({treedef}); got {out_def}")
        for x, ref in zip(flat, a):
            if tuple(getattr(x, "shape", ())) != tuple(ref.shape):
                raise TypeError(f"associative_scan: fn returned a leaf of shape {tuple(getattr(x, 'shape', ()))} "
                                f"for operands of shape {tuple(ref.shape)}; it must combine element-wise along "
                                "the scanned axis")
        return flat

    def scan(xs):
        n = xs[0].shape[axes[0]]
        if n < 2:
            return xs
        # combine adjacent pairs (e0 e1), (e2 e3), ...: the odd positions of the result, once scanned
        reduced = combine([_slice(x, a, 0, n - 1, 2) for x, a in zip(xs, axes)],
                          [_slice(x, a, 1, None, 2) for x, a in zip(xs, axes)])
        odd = scan(reduced)
        # the even positions (after the first): the preceding odd prefix combined with the element
        if n % 2 == 0:
            even = combine([_slice(o, a, 0, -1) for o, a in zip(odd, axes)],
                           [_slice(x, a, 2, None, 2) for x, a in zip(xs, axes)])
        else:
            even = combine(odd, [_slice(x, a, 2, None, 2) for x, a in zip(xs, axes)])
        even = [concatenate([_slice(x, a, 0, 1), e], axis=a) for x, e, a in zip(xs, even, axes)]
        return [_interleave(e, o, a) for e, o, a in zip(even, odd, axes)]

    if reverse:
        leaves = [flip(x, axis=a) for x, a in zip(leaves, axes)]
        out = [flip(x, axis=a) for x, a in zip(scan(leaves), axes)]
    else:
        out = scan(leaves)
    return tree.tree_unflatten(treedef, out)
