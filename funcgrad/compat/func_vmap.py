"""torch.func.vmap over ``fg.vmap``: the function runs once, vectorized by the primitives' batching rules.

PyTorch's surface on top: its checks of ``in_dims`` and of the mapped sizes (with its messages),
Tensors in and out of the function (``_func_values``), ``randomness`` (compat's random draws under
this vmap: 'error' raises, 'same' draws once for the whole batch, 'different' draws one sample per
example: creation._rng / _random_tensor read ``creation._VMAP_RANDOM``), and ``chunk_size`` (the
batch is mapped in chunks of that many examples and the results concatenated).
"""

from __future__ import annotations

from .. import tree
from ..array import Array, Tracer
from ..transforms import batching as _batching
from . import creation
from ._func_values import _handed_out, _tree_to_fg, _tree_to_torch
from .tensor import Tensor

__all__ = ["vmap"]


def _check_randomness(randomness):
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """Map func over a dimension of its inputs (``in_dims``: an int, None or a per-argument tree)."""
    _check_randomness(randomness)
    if chunk_size is not None and not (isinstance(chunk_size, int) and chunk_size > 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")
    name = getattr(func, "__name__", "function")

    def wrapper(*args, **kwargs):
        dims = tuple(in_dims) if isinstance(in_dims, (tuple, list)) else (in_dims,) * len(args)
        if len(dims) != len(args):
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the "
                             f"structure of `inputs`. in_dims has structure {len(dims)} entries but inputs has "
                             f"{len(args)} positional arguments")
        leaf_dims, size = _mapped(name, args, dims, in_dims)
        if chunk_size is None or chunk_size >= size:
            return _call(func, name, args, kwargs, dims, out_dims, randomness, size)
        return _chunked(func, name, args, kwargs, dims, leaf_dims, out_dims, randomness, size, chunk_size)
    return wrapper


def _mapped(name, args, dims, in_dims):
    """PyTorch's checks of in_dims against the arguments -> (each leaf's dim (or None), batch size)."""
    leaves = tree.tree_leaves(args)
    leaf_dims = _batching._axes_per_leaf(dims, args, "in_dims")
    sizes = []
    for x, d in zip(leaves, leaf_dims):
        if d is None:
            continue
        if not isinstance(x, (Tensor, Tracer, Array)):  # (fg's values count as Tensors: the front doors mix)
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for an input but the "
                             f"input is of type {type(x)}. We cannot vmap over non-Tensor arguments, please use None "
                             "as the respective in_dim")
        nd = len(x.shape)
        if not -nd <= d < nd:
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for some input, but "
                             f"that input is a Tensor of dimensionality {nd} so expected in_dim to satisfy "
                             f"-{nd} <= in_dim < {nd}.")
        sizes.append(x.shape[d % nd])
    if not sizes:
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Expected at least one Tensor to vmap "
                         "over")
    if len(set(sizes)) > 1:
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sizes} for the mapped dimension")
    return leaf_dims, sizes[0]


def _call(func, name, args, kwargs, dims, out_dims, randomness, size):
    def body(*xs):
        traces = [x._trace for x in tree.tree_leaves(xs) if type(x) is _batching.BatchTracer]
        creation._VMAP_RANDOM.append((randomness, max(traces, key=lambda t: t.level), size))
        try:
            out = func(*_handed_out(xs), **kwargs)
        except _batching.BatchedValueError as e:  # .item(), bool(), data-dependent control flow: PyTorch's class
            raise RuntimeError(str(e)) from e
        finally:
            creation._VMAP_RANDOM.pop()
        if out_dims is not None:
            for leaf in tree.tree_leaves(out):
                if not isinstance(leaf, (Tensor, Tracer, Array)):
                    raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(leaf)}. "
                                     "Did you mean to set out_dims= to None for output?")
        return _tree_to_fg(out)

    body.__name__ = name
    return _tree_to_torch(_batching.vmap(body, in_axes=dims, out_axes=out_dims)(*_tree_to_fg(args)))


def _chunked(func, name, args, kwargs, dims, leaf_dims, out_dims, randomness, size, chunk):
    """vmap over chunks of ``chunk`` examples, concatenated along out_dims (randomness='same': every chunk
    draws what the first drew)."""
    from ._dispatch import FUNCS  # noqa: PLC0415
    from .utils.checkpoint import get_rng, set_rng  # noqa: PLC0415

    leaves, treedef = tree.tree_flatten(args)
    state = get_rng()
    results = []
    for start in range(0, size, chunk):
        n = min(chunk, size - start)
        part = [x if d is None else FUNCS["narrow"](x, d, start, n) for x, d in zip(leaves, leaf_dims)]
        if randomness == "same":
            set_rng(state)
        results.append(_call(func, name, tree.tree_unflatten(treedef, part), kwargs, dims, out_dims, randomness, n))
    flat0, out_def = tree.tree_flatten(results[0])
    cols = [tree.tree_leaves(r) for r in results]
    od = _batching._axes_per_leaf(out_dims, results[0], "out_dims")
    out = []
    for k, leaf in enumerate(flat0):
        if od[k] is None:
            out.append(leaf)
        else:
            out.append(FUNCS["cat"]([c[k] for c in cols], od[k]))
    return tree.tree_unflatten(out_def, out)


