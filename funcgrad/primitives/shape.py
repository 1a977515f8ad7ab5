"""Shape primitives: reshape, transpose, broadcast_to, concatenate, pad (constant), split.

Parameters are static and normalised by the numpy layer (shape tuples with no
-1, full permutations).  Results may be views of the input buffer: buffers
are never written, so sharing is safe.
"""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import ALL_ARGS, Array, Primitive, ShapedArray, Tracer, Zero, asarray, register_sequence_stacker
from ._batching import at_front, batch_size, to_front, with_rank
from .creation import zeros_like


def _xp(x):
    return XP_OF_TYPE.get(type(x), np)


# --- reshape ---------------------------------------------------------------------

def _reshape_impl(x, shape):
    return _xp(x).reshape(x, shape)


def _reshape_abstract(x, shape):
    if int(np.prod(shape, dtype=np.int64)) != x.size:
        raise ValueError(f"cannot reshape array of shape {x.shape} (size {x.size}) into shape {shape}")
    return ShapedArray(shape, x.dtype)


reshape_p = Primitive("reshape", _reshape_impl, _reshape_abstract)
reshape_p.defvjp(lambda g, ans, x, shape: reshape(g, x.shape), unsaved_args=(0,), saves_out=False)
reshape_p.defjvp(lambda t, ans, x, shape: reshape(t, shape))
reshape_p.batch = lambda args, dims, shape: (reshape(to_front(args[0], dims[0]), (args[0].shape[dims[0]],) + shape), 0)


def reshape(x, shape):
    return reshape_p.bind(x, shape=tuple(int(d) for d in shape))


# --- transpose ------------------------------------------------------------------------

def _transpose_impl(x, perm):
    return _xp(x).transpose(x, perm)


def _transpose_abstract(x, perm):
    return ShapedArray(tuple(x.shape[p] for p in perm), x.dtype)


def _inverse_perm(perm):
    return tuple(int(i) for i in np.argsort(perm))


transpose_p = Primitive("transpose", _transpose_impl, _transpose_abstract)
transpose_p.defvjp(lambda g, ans, x, perm: transpose(g, _inverse_perm(perm)), unsaved_args=(0,), saves_out=False)
transpose_p.defjvp(lambda t, ans, x, perm: transpose(t, perm))
transpose_p.batch = lambda args, dims, perm: (transpose(to_front(args[0], dims[0]), (0,) + tuple(p + 1 for p in perm)), 0)


def transpose(x, perm):
    return transpose_p.bind(x, perm=tuple(int(p) for p in perm))


def swap_last_two(x):
    n = x.ndim
    perm = list(range(n))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return transpose(x, perm)


# --- broadcast_to ------------------------------------------------------------------------

def _broadcast_impl(x, shape):
    return _xp(x).broadcast_to(x, shape)


def _broadcast_abstract(x, shape):
    xs = getattr(x, "shape", ())
    if np.broadcast_shapes(xs, shape) != tuple(shape):
        raise ValueError(f"cannot broadcast an array of shape {xs} to shape {shape}")
    return ShapedArray(shape, x.dtype if isinstance(x, ShapedArray) else np.result_type(x))


broadcast_to_p = Primitive("broadcast_to", _broadcast_impl, _broadcast_abstract)
# the reverse driver sums the cotangent down to the input's shape
broadcast_to_p.defvjp(lambda g, ans, x, shape: g, unsaved_args=(0,), saves_out=False)
broadcast_to_p.defjvp(lambda t, ans, x, shape: broadcast_to(t, shape))


def _broadcast_batch(args, dims, shape):
    x = with_rank(to_front(args[0], dims[0]), len(shape))
    return broadcast_to(x, x.shape[:1] + shape), 0


broadcast_to_p.batch = _broadcast_batch


def broadcast_to(x, shape):
    return broadcast_to_p.bind(x, shape=tuple(int(d) for d in shape))


def expand_dims(x, axis):
    """Insert a size-1 axis at ``axis`` (normalised, may be negative)."""
    shape = list(x.shape)
    n = len(shape) + 1
    axis = axis + n if axis < 0 else axis
    shape.insert(axis, 1)
    return reshape(x, shape)


# --- concatenate ------------------------------------------------------------------------------

def _concatenate_impl(*xs, axis):
    get = XP_OF_TYPE.get
    xp = next((get(type(x)) for x in xs if get(type(x)) is not None), np)
    return xp.concatenate(xs, axis=axis)


def _concatenate_abstract(*xs, axis):
    first = xs[0].shape
    for x in xs[1:]:
        if len(x.shape) != len(first) or any(a != b for i, (a, b) in enumerate(zip(x.shape, first)) if i != axis):
            raise ValueError(
                "all the input array dimensions except for the concatenation axis must match "
                f"exactly: shapes {[tuple(x.shape) for x in xs]}, axis {axis}"
            )
    shape = list(first)
    shape[axis] = sum(x.shape[axis] for x in xs)
    return ShapedArray(shape, np.result_type(*(x.dtype for x in xs)))


def _concatenate_vjp(g, ans, *xs, axis):
    from .index import getitem  # noqa: PLC0415 - index imports this module

    out, start = [], 0
    for x in xs:
        n = x.shape[axis]
        out.append(getitem(g, (slice(None),) * axis + (slice(start, start + n),)))
        start += n
    return tuple(out)


def _concatenate_jvp(ts, ans, *xs, axis):
    return concatenate([zeros_like(t.like, dtype=ans.dtype) if type(t) is Zero else t for t in ts], axis)


concatenate_p = Primitive("concatenate", _concatenate_impl, _concatenate_abstract)
concatenate_p.defvjp_joint(_concatenate_vjp, unsaved_args=ALL_ARGS, saves_out=False)
concatenate_p.defjvp_joint(_concatenate_jvp)


def _concatenate_batch(args, dims, axis):
    n = batch_size(args, dims)
    return concatenate([at_front(x, d, n) for x, d in zip(args, dims)], axis + 1), 0


concatenate_p.batch = _concatenate_batch


def concatenate(xs, axis):
    return concatenate_p.bind(*xs, axis=int(axis))


def _holds_arrays(seq):
    return any(_holds_arrays(v) if isinstance(v, (list, tuple)) else isinstance(v, (Array, Tracer)) for v in seq)


def stack_sequence(seq):
    """A nested list/tuple holding traced values (or arrays of another device) as one array,
    stacked along new leading axes, as numpy.asarray stacks host data.  Python numbers and
    host data in it become Arrays on the default device."""
    parts = [
        v if isinstance(v, (Array, Tracer))
        else stack_sequence(v) if isinstance(v, (list, tuple)) and _holds_arrays(v)
        else asarray(v)
        for v in seq
    ]
    if not parts:
        return asarray(np.zeros((0,)))
    shapes = {tuple(p.shape) for p in parts}
    if len(shapes) != 1:
        raise ValueError(
            "setting an array element with a sequence: the elements of a list of traced values "
            f"must have one shape to stack, got shapes {sorted(shapes)}"
        )
    return concatenate([reshape(p, (1,) + tuple(p.shape)) for p in parts], 0)


register_sequence_stacker(stack_sequence)


# --- pad (constant mode; the other modes are gathers, see funcgrad.numpy) --------------------

def _pad_impl(x, pad_width, value):
    return _xp(x).pad(x, pad_width, mode="constant", constant_values=value)


def _pad_abstract(x, pad_width, value):
    if len(pad_width) != len(x.shape) or any(b < 0 or a < 0 for b, a in pad_width):
        raise ValueError(f"pad: pad_width {pad_width} does not fit an array of shape {x.shape}")
    return ShapedArray(tuple(d + b + a for d, (b, a) in zip(x.shape, pad_width)), x.dtype)


def _pad_vjp(g, ans, x, pad_width, value):
    from .index import getitem  # noqa: PLC0415 - index imports this module

    return getitem(g, tuple(slice(b, b + d) for d, (b, _) in zip(x.shape, pad_width)))


pad_p = Primitive("pad", _pad_impl, _pad_abstract)
pad_p.defvjp(_pad_vjp, unsaved_args=(0,), saves_out=False)
pad_p.defjvp(lambda t, ans, x, pad_width, value: pad(t, pad_width, 0))


def pad(x, pad_width, value=0):
    """``x`` with ``pad_width[i] = (before, after)`` elements of ``value`` around axis i."""
    return pad_p.bind(x, pad_width=tuple((int(b), int(a)) for b, a in pad_width), value=value)


# --- split: several views of one array; the vjp is one concatenate ----------------------------

def _split_impl(x, bounds, axis):
    return tuple(_xp(x).split(x, list(bounds), axis=axis))


def _split_abstract(x, bounds, axis):
    edges = (0,) + bounds + (x.shape[axis],)
    if any(lo > hi for lo, hi in zip(edges[:-1], edges[1:])):
        raise ValueError(f"split: bounds {bounds} are not increasing within [0, {x.shape[axis]}]")
    out = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        shape = list(x.shape)
        shape[axis] = hi - lo
        out.append(ShapedArray(shape, x.dtype))
    return tuple(out)


def _split_vjp(gs, ans, x, bounds, axis):
    dtype = next(g.dtype for g in gs if type(g) is not Zero)
    parts = [zeros_like(g.like, dtype=dtype) if type(g) is Zero else g for g in gs]
    return (concatenate(parts, axis) if len(parts) > 1 else parts[0],)


split_p = Primitive("split", _split_impl, _split_abstract, multiple_results=True)
split_p.defvjp_joint(_split_vjp, unsaved_args=(0,), saves_out=False)
split_p.defjvp_joint(lambda ts, ans, x, bounds, axis: split(ts[0], bounds, axis))


def split(x, bounds, axis):
    """Pieces of ``x`` between ``bounds`` (increasing, within [0, n]) along ``axis``: they tile x."""
    return split_p.bind(x, bounds=tuple(int(b) for b in bounds), axis=int(axis))
