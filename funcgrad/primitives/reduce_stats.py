"""More reductions: prod, std, median, all, any.

``axes`` is a normalised tuple of non-negative ints, as for ``reduce_sum``.

Derivative conventions (documented in docs/numpy.md):
- prod: exact where the input has zeros, to any order (products of the other
  elements, computed without dividing by the input);
- std: the gradient at a constant input (std == 0) is 0, not nan;
- median: the (co)tangent goes to the middle element(s): 1/2 to each of the two
  middle values for even counts; ties among equal values split it evenly.
"""

from __future__ import annotations

import numpy as np

from ..backend import ML_FLOATS, XP_OF_TYPE, in_float32
from ..core import Primitive, ShapedArray
from ._batching import reduction_rule
from .complex import conj
from .elementwise import convert, equal, greater_equal, less_equal, where
from .reduce import reduce_max, reduce_min, reduce_sum, reduced_shape
from .reduce_cumulative import exclusive_products, has_no_zeros
from .shape import reshape, transpose


def _xp(x):
    return XP_OF_TYPE.get(type(x), np)


def _keep(v, shape, axes, keepdims):
    """A reduced value (or cotangent) in its keepdims form."""
    return v if keepdims else reshape(v, reduced_shape(shape, axes, True))


def _count(shape, axes):
    n = 1
    for a in axes:
        n *= shape[a]
    return n


# --- prod ----------------------------------------------------------------------------

def _prod_abstract(x, axes, keepdims):
    dtype = np.multiply.reduce(np.ones(1, x.dtype)).dtype  # small ints and bool -> int64
    return ShapedArray(reduced_shape(x.shape, axes, keepdims), dtype)


def _others(ans, x, axes, keepdims):
    """Product over ``axes`` of all elements but each one (same shape as x)."""
    if has_no_zeros(x):  # concrete, nothing differentiates this further: ans / x
        return _keep(ans, x.shape, axes, keepdims) / x
    rest = [i for i in range(x.ndim) if i not in axes]
    perm = rest + list(axes)
    moved = transpose(x, perm) if perm != list(range(x.ndim)) else x
    lead = tuple(x.shape[i] for i in rest)
    flat = reshape(moved, lead + (_count(x.shape, axes),))
    out = reshape(exclusive_products(flat, len(lead)), tuple(moved.shape))
    inv = tuple(int(i) for i in np.argsort(perm))
    return transpose(out, inv) if perm != list(range(x.ndim)) else out


def _prod_impl(x, axes, keepdims):
    if getattr(x, "dtype", None) in ML_FLOATS:  # bfloat16: accumulated in float32 (backend.in_float32)
        return in_float32(_prod_impl, x, axes=axes, keepdims=keepdims)
    return _xp(x).prod(x, axis=axes, keepdims=keepdims)


reduce_prod_p = Primitive("reduce_prod", _prod_impl, _prod_abstract)
reduce_prod_p.defvjp(lambda g, ans, x, axes, keepdims:
                     _keep(g, x.shape, axes, keepdims) * _others(ans, x, axes, keepdims))
reduce_prod_p.defjvp(lambda t, ans, x, axes, keepdims:
                     reduce_sum(t * _others(ans, x, axes, keepdims), axes, keepdims))


reduce_prod_p.batch = reduction_rule(reduce_prod_p)


def reduce_prod(x, axes, keepdims=False):
    return reduce_prod_p.bind(x, axes=tuple(axes), keepdims=bool(keepdims))


# --- std ---------------------------------------------------------------------------------

def _float_result(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "iub":
        return np.dtype(np.float64)
    return np.dtype(dtype.type(0).real.dtype) if dtype.kind == "c" else dtype


def _std_abstract(x, axes, ddof, keepdims):
    return ShapedArray(reduced_shape(x.shape, axes, keepdims), _float_result(x.dtype))


def _std_weights(ans, x, axes, ddof, keepdims):
    """d std / d x = (x - mean) / ((n - ddof) std); 0 where std == 0 (constant input)."""
    n = _count(x.shape, axes)
    dev = x - reduce_sum(x, axes, True) / n
    s = _keep(ans, x.shape, axes, keepdims)
    if np.dtype(dev.dtype).kind == "c":  # std = sqrt(mean |x - mean|^2): d std pairs conj(dev) with dx
        dev = conj(dev)
    zero = equal(s, 0)
    return where(zero, 0.0, dev / where(zero, 1.0, s)) / max(n - ddof, 0)  # numpy: ddof >= n gives inf


def _std_impl(x, axes, ddof, keepdims):
    if getattr(x, "dtype", None) in ML_FLOATS:
        return in_float32(_std_impl, x, axes=axes, ddof=ddof, keepdims=keepdims)
    return _xp(x).std(x, axis=axes, ddof=ddof, keepdims=keepdims)


reduce_std_p = Primitive("reduce_std", _std_impl, _std_abstract)
reduce_std_p.defvjp(lambda g, ans, x, axes, ddof, keepdims:
                    _keep(g, x.shape, axes, keepdims) * _std_weights(ans, x, axes, ddof, keepdims))
reduce_std_p.defjvp(lambda t, ans, x, axes, ddof, keepdims:
                    reduce_sum(t * _std_weights(ans, x, axes, ddof, keepdims), axes, keepdims))


reduce_std_p.batch = reduction_rule(reduce_std_p)


def reduce_std(x, axes, ddof=0, keepdims=False):
    return reduce_std_p.bind(x, axes=tuple(axes), ddof=ddof, keepdims=bool(keepdims))


# --- median ------------------------------------------------------------------------------

def _median_weights(ans, x, axes, keepdims):
    """1/2 to the lower and 1/2 to the upper middle value (1 to the middle one for odd
    counts), each split evenly among the elements equal to it."""
    m = _keep(ans, x.shape, axes, keepdims)
    lo = reduce_max(where(less_equal(x, m), x, -np.inf), axes, True)
    hi = reduce_min(where(greater_equal(x, m), x, np.inf), axes, True)
    at_lo = convert(equal(x, lo), x.dtype)
    at_hi = convert(equal(x, hi), x.dtype)
    return 0.5 * at_lo / reduce_sum(at_lo, axes, True) + 0.5 * at_hi / reduce_sum(at_hi, axes, True)


reduce_median_p = Primitive(
    "reduce_median",
    lambda x, axes, keepdims: _xp(x).median(x, axis=axes, keepdims=keepdims),
    lambda x, axes, keepdims: ShapedArray(reduced_shape(x.shape, axes, keepdims),
                                          x.dtype if np.dtype(x.dtype).kind == "c" else _float_result(x.dtype)),
)
reduce_median_p.defvjp(lambda g, ans, x, axes, keepdims:
                       _keep(g, x.shape, axes, keepdims) * _median_weights(ans, x, axes, keepdims))
reduce_median_p.defjvp(lambda t, ans, x, axes, keepdims:
                       reduce_sum(t * _median_weights(ans, x, axes, keepdims), axes, keepdims))


reduce_median_p.batch = reduction_rule(reduce_median_p)


def reduce_median(x, axes, keepdims=False):
    return reduce_median_p.bind(x, axes=tuple(axes), keepdims=bool(keepdims))


# --- all / any (boolean results) -----------------------------------------------------------

def _logical_reduction(name):
    prim = Primitive(
        f"reduce_{name}",
        lambda x, axes, keepdims: getattr(_xp(x), name)(x, axis=axes, keepdims=keepdims),
        lambda x, axes, keepdims: ShapedArray(reduced_shape(x.shape, axes, keepdims), np.dtype(bool)),
        differentiable=False,
    )
    prim.batch = reduction_rule(prim)
    return lambda x, axes, keepdims=False: prim.bind(x, axes=tuple(axes), keepdims=bool(keepdims))


reduce_all = _logical_reduction("all")
reduce_any = _logical_reduction("any")
