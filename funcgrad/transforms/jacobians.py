"""Jacobians and Hessians: jacrev (vmap of vjp), jacfwd (vmap of jvp), hessian.

Both push a standard basis through the linear map in one vmapped call (no
Python loop over basis vectors).  Shapes follow JAX: for an output leaf of
shape ``O`` and an input leaf of shape ``I`` the block has shape ``O + I``;
the result is the output's pytree with each leaf replaced by the input's
pytree of blocks (a tuple of them when ``argnums`` is a tuple).
"""

from __future__ import annotations

import functools

import numpy as np

from .. import tree
from ..core import Array, Tracer, asarray
from ..backend import kind_of
from ..primitives.creation import full_like
from ..primitives.index import getitem
from ..primitives.shape import reshape
from .api import _normalize_argnums, jvp, vjp
from .batching import vmap

__all__ = ["jacrev", "jacfwd", "jacobian", "hessian"]


def _size(shape):
    return int(np.prod(shape, dtype=np.int64))


def _basis(leaves, like):
    """Rows of the identity, split per leaf: leaf j gets shape (total,) + leaf.shape."""
    sizes = [_size(x.shape) for x in leaves]
    total = sum(sizes)
    eye = np.eye(total)
    out, start = [], 0
    for x, n in zip(leaves, sizes):
        block = eye[:, start:start + n].reshape((total,) + tuple(x.shape)).astype(x.dtype)
        out.append(asarray(block, device=like.device))
        start += n
    return out, total


def _split_columns(flat, leaves, lead_shape, axis_first):
    """Split the basis axis of ``flat`` (first or last) into one block per leaf: lead + leaf.shape."""
    out, start = [], 0
    for x in leaves:
        n = _size(x.shape)
        if axis_first:
            part = getitem(flat, (slice(start, start + n),))
            out.append(reshape(part, tuple(x.shape) + tuple(lead_shape)))
        else:
            part = getitem(flat, (Ellipsis, slice(start, start + n)))
            out.append(reshape(part, tuple(lead_shape) + tuple(x.shape)))
        start += n
    return out


def _check_dtypes(leaves, what, fname, holomorphic, allow_complex):
    """JAX's checks: holomorphic wants complex; otherwise real (or, where allowed, complex) floats."""
    for x in leaves:
        kind = kind_of(x.dtype)
        if holomorphic:
            if kind != "c":
                raise TypeError(f"{fname} with holomorphic=True requires complex {what}, got dtype {x.dtype}")
        elif kind == "c" and not allow_complex:
            raise TypeError(
                f"{fname} requires real floating-point {what}, got dtype {x.dtype}. For the Jacobian of a "
                f"holomorphic function pass holomorphic=True; for a non-holomorphic one use "
                f"{'vjp' if fname == 'jacrev' else 'jvp'} directly"
            )
        elif kind not in "fc":
            raise TypeError(
                f"{fname} requires floating-point {what}, got dtype {x.dtype}; cast it first (x.astype(float))"
            )


def _partial(fun, args, nums):
    """fun as a function of args[nums] only (the others fixed)."""
    def f(*diff):
        full = list(args)
        for i, d in zip(nums, diff):
            full[i] = d
        return fun(*full)

    return f


def _nest(out_leaves, out_tree, in_tree, blocks, single):
    """blocks[i][j]: output leaf i vs input leaf j -> out pytree of in pytrees."""
    rows = []
    for row in blocks:
        inner = tree.tree_unflatten(in_tree, row)
        rows.append(inner[0] if single else tuple(inner))
    return tree.tree_unflatten(out_tree, rows)


def jacrev(fun, argnums=0, has_aux=False, holomorphic=False):
    """Jacobian of ``fun`` w.r.t. ``argnums`` by reverse mode: one vmapped vjp over output basis.

    Efficient when outputs are fewer than inputs.  Returns the Jacobian
    (``(jac, aux)`` with ``has_aux``); see the module docstring for shapes.
    Complex inputs are fine for real outputs (each row is a conjugate-convention
    gradient, as ``grad``); complex outputs need ``holomorphic=True``.
    """
    @functools.wraps(fun)
    def jac_fun(*args):
        single, nums = _normalize_argnums(argnums, len(args), "jacrev")
        diff = tuple(args[i] for i in nums)
        in_leaves, in_tree = tree.tree_flatten(diff)
        # Python scalars are 0-d inputs (their Jacobian blocks need a shape and a dtype)
        in_leaves = [x if isinstance(x, (Array, Tracer)) else asarray(x) for x in in_leaves]
        if holomorphic:
            _check_dtypes(in_leaves, "inputs", "jacrev", True, True)
        diff = tree.tree_unflatten(in_tree, in_leaves)
        res = vjp(_partial(fun, args, nums), *diff, has_aux=has_aux)
        y, pullback = res[0], res[1]
        out_leaves, out_tree = tree.tree_flatten(y)
        in_leaves, in_tree = tree.tree_flatten(diff)
        out_leaves = [x if isinstance(x, (Array, Tracer)) else asarray(x) for x in out_leaves]
        _check_dtypes(out_leaves, "outputs", "jacrev", holomorphic, False)
        if sum(_size(x.shape) for x in out_leaves) == 0 or not in_leaves:
            blocks = [[full_like(x, 0, shape=tuple(x.shape) + tuple(i.shape), dtype=i.dtype) for i in in_leaves]
                      for x in out_leaves]
        else:
            basis, _ = _basis(out_leaves, out_leaves[0])
            cts = vmap(lambda *b: pullback(tree.tree_unflatten(out_tree, list(b))))(*basis)
            ct_leaves = tree.tree_leaves(cts)  # per input leaf: (total_out,) + in.shape
            per_in = [_split_columns(c, out_leaves, tuple(i.shape), True) for c, i in zip(ct_leaves, in_leaves)]
            blocks = [[per_in[j][k] for j in range(len(in_leaves))] for k in range(len(out_leaves))]
        jac = _nest(out_leaves, out_tree, in_tree, blocks, single)
        return (jac, res[2]) if has_aux else jac

    return jac_fun


jacobian = jacrev


def jacfwd(fun, argnums=0, has_aux=False, holomorphic=False):
    """Jacobian of ``fun`` w.r.t. ``argnums`` by forward mode: one vmapped jvp over input basis.

    Efficient when inputs are fewer than outputs; same result as :func:`jacrev`.
    Complex outputs of real inputs are fine; complex inputs need ``holomorphic=True``.
    """
    @functools.wraps(fun)
    def jac_fun(*args):
        single, nums = _normalize_argnums(argnums, len(args), "jacfwd")
        diff = tuple(args[i] for i in nums)
        in_leaves, in_tree = tree.tree_flatten(diff)
        in_leaves = [x if isinstance(x, (Array, Tracer)) else asarray(x) for x in in_leaves]
        _check_dtypes(in_leaves, "inputs", "jacfwd", holomorphic, False)
        diff = tree.tree_unflatten(in_tree, in_leaves)
        f = _partial(fun, args, nums)

        def push(*t_leaves):
            tangents = tree.tree_unflatten(in_tree, list(t_leaves))
            res = jvp(f, diff, tangents, has_aux=has_aux)
            return res if has_aux else res + (None,)

        basis, total = _basis(in_leaves, in_leaves[0]) if in_leaves else ([], 0)
        if total == 0:
            res = jvp(f, diff, tree.tree_map(lambda x: full_like(x, 0), diff), has_aux=has_aux)
            y, aux = res[0], (res[2] if has_aux else None)
            out_leaves, out_tree = tree.tree_flatten(y)
            blocks = [[full_like(x, 0, shape=tuple(x.shape) + tuple(i.shape), dtype=x.dtype) for i in in_leaves]
                      for x in out_leaves]
        else:
            # the primal output and aux are the same for every basis vector, but a custom rule or
            # checkpoint under vmap may return them batched: take the first example
            y, tangents, aux = vmap(push, out_axes=(0, -1, 0))(*basis)
            y, aux = (tree.tree_map(lambda v: getitem(v, (0,)), t) for t in (y, aux))
            out_leaves, out_tree = tree.tree_flatten(y)
            t_leaves = tree.tree_leaves(tangents)  # per output leaf: out.shape + (total_in,)
            per_out = [_split_columns(t, in_leaves, tuple(o.shape), False) for t, o in zip(t_leaves, out_leaves)]
            blocks = per_out
        _check_dtypes([x if hasattr(x, "dtype") else asarray(x) for x in out_leaves], "outputs", "jacfwd",
                      holomorphic, True)
        jac = _nest(out_leaves, out_tree, in_tree, blocks, single)
        return (jac, aux) if has_aux else jac

    return jac_fun


def hessian(fun, argnums=0, has_aux=False, holomorphic=False):
    """Hessian: ``jacfwd(jacrev(fun))`` (forward over reverse, the efficient order).

    As in JAX, complex inputs need ``holomorphic=True`` (a holomorphic ``fun``).
    """
    return jacfwd(jacrev(fun, argnums, has_aux, holomorphic), argnums, has_aux, holomorphic)
