"""sparsify(f): run ``f``, written with funcgrad.numpy for dense arrays, on BCOO arguments.

As JAX's ``jax.experimental.sparse.sparsify``, this is an interpreter: every BCOO
argument enters ``f`` as a tracer of a :class:`SparsifyTrace` (an Array-like value of
the BCOO's shape and dtype), and each primitive applied to such a tracer goes to
the trace, which applies the primitive's sparse rule when it has one (the result
stays sparse or becomes dense, as the operation decides) and otherwise computes it
densely on ``todense()`` of the sparse operands.  So any function runs, and the
operations that have sparse forms cost O(nse):

- ``matmul`` (``@``, ``fnp.matmul``) with one sparse operand: the sparse product, dense result;
- ``multiply`` / ``divide`` by a scalar or 0-d array, ``negative``, ``convert_element_type``:
  sparse, same pattern; ``multiply`` by a dense array of the sparse operand's shape: sparse;
- ``transpose``: sparse (permuted indices); ``reduce_sum`` (no keepdims): sparse
  (``bcoo_reduce_sum``), or the dense 0-d total over every axis.

Sparse results are returned as BCOOs.  The rules bind primitives one level down, so
``grad``/``vmap`` of a sparsified function differentiate and batch the sparse computation.
"""

from __future__ import annotations

import functools
import operator

import numpy as np

from .. import tree
from ..array import ArrayTracer
from ..core import Trace
from .. import numpy as fnp
from . import _matmul, BCOO, bcoo_multiply_dense, bcoo_reduce_sum

__all__ = ["sparsify", "SparsifyTrace", "SparsifyTracer"]


class SparsifyTracer(ArrayTracer):
    """A BCOO inside a sparsified function: its shape and dtype; the BCOO is ``mat``."""

    __slots__ = ("_trace", "mat")

    @property
    def shape(self):
        return self.mat.shape

    @property
    def dtype(self):
        return self.mat.dtype

    def _concrete(self):
        return self.mat.todense()._concrete()


class SparsifyTrace(Trace):
    __slots__ = ()
    kind = "sparsify"

    def wrap(self, mat):
        t = object.__new__(SparsifyTracer)
        t._trace = self
        t.mat = mat
        return t

    def lower(self, x):
        """An argument one level down: a BCOO for our tracers, the value itself otherwise."""
        return x.mat if type(x) is SparsifyTracer and x._trace is self else x

    def process_primitive(self, prim, args, params):
        vals = [self.lower(a) for a in args]
        rule = RULES.get(prim.name)
        out = rule(*vals, **params) if rule is not None else None
        if out is None:  # no sparse form: compute densely
            dense = [v.todense() if isinstance(v, BCOO) else v for v in vals]
            return prim.bind(*dense, **params)
        return self.wrap(out) if isinstance(out, BCOO) else out


# --- sparse rules: return a BCOO, a dense value, or None (no sparse form for these operands) -------

def _is_sparse(x):
    return isinstance(x, BCOO)


def _is_scalar(x):
    return not _is_sparse(x) and (isinstance(x, (int, float, bool)) or len(getattr(x, "shape", (1,))) == 0)


def _matmul_rule(x, y):
    if _is_sparse(x) and _is_sparse(y):
        return None
    sp = x if _is_sparse(x) else y
    if sp.ndim != 2 or sp.n_batch:
        return None
    return _matmul(x, y)


def _elementwise_rule(op):
    def rule(x, y):
        if _is_sparse(x) and _is_scalar(y):
            return BCOO((op(x.data, y), x.indices), shape=x.shape)
        if op is operator.mul and _is_scalar(x) and _is_sparse(y):
            return BCOO((op(x, y.data), y.indices), shape=y.shape)
        if op is operator.mul and (_is_sparse(x) != _is_sparse(y)):
            sp, other = (x, y) if _is_sparse(x) else (y, x)
            if not sp.n_batch and np.broadcast_shapes(tuple(other.shape), sp.shape) == sp.shape:
                return bcoo_multiply_dense(sp, other)
        return None

    return rule


def _negative_rule(x):
    return -x if _is_sparse(x) else None


def _convert_rule(x, dtype, **params):
    return x.astype(dtype) if _is_sparse(x) and not params else None


def _transpose_rule(x, perm):
    return x.transpose(perm) if _is_sparse(x) and not x.n_batch else None


def _sum_rule(x, axes, keepdims):
    if not _is_sparse(x) or keepdims or x.n_batch:
        return None
    if len(set(axes)) == x.ndim:
        return fnp.sum(x.data)
    return bcoo_reduce_sum(x, axes)


RULES = {
    "matmul": _matmul_rule,
    "multiply": _elementwise_rule(operator.mul),
    "divide": _elementwise_rule(operator.truediv),
    "negative": _negative_rule,
    "convert_element_type": _convert_rule,
    "transpose": _transpose_rule,
    "reduce_sum": _sum_rule,
}


def sparsify(fun):
    """``sparsify(f)(*args)``: ``f`` on arguments that may hold BCOOs (see the module docstring)."""
    @functools.wraps(fun)
    def sparse_fun(*args, **kwargs):
        trace = SparsifyTrace()
        leaves, treedef = tree.tree_flatten(args, is_leaf=_is_sparse)
        wrapped = [trace.wrap(x) if _is_sparse(x) else x for x in leaves]
        try:
            out = fun(*tree.tree_unflatten(treedef, wrapped), **kwargs)
            out_leaves, out_tree = tree.tree_flatten(out)
            result = [x.mat if type(x) is SparsifyTracer and x._trace is trace else x for x in out_leaves]
        finally:
            trace.alive = False
        return tree.tree_unflatten(out_tree, result)

    return sparse_fun
