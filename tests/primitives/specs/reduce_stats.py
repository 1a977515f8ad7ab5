"""Specs: prod, std, median, all/any (funcgrad.primitives.reduce_stats) and cumsum/cumprod
(funcgrad.primitives.reduce_cumulative)."""

import hypothesis.strategies as st
import numpy as np

import funcgrad.numpy as fnp
from funcgrad.testing import strategies as fst

from ..spec import Spec, floats_of
from .reduce import _extremum_args, _nonempty_reduction


@st.composite
def _with_zeros(draw, min_side=0):
    """Floats in [-1.1, 1.1] (at most 27 of them) where about a third are exactly 0.

    Small magnitudes and sizes keep products moderate: finite differences of a product
    of many large factors have errors far above any tolerance.
    """
    x = draw(floats_of(fst.shapes(min_side=min_side, max_side=3), -1.1, 1.1))
    zero = draw(fst.host_arrays(x.shape, np.bool_))
    return np.where(zero & (np.abs(x) < 1.0), 0.0, x)


@st.composite
def _reduce_args(draw):
    x = draw(_with_zeros())
    return (x,), {"axis": draw(fst.axes(x.ndim)), "keepdims": draw(st.booleans())}


@st.composite
def _cumulative_args(draw):
    x = draw(_with_zeros())
    axis = draw(st.none() | st.integers(-x.ndim, x.ndim - 1)) if x.ndim else None
    return (x,), {"axis": axis}


@st.composite
def _std_args(draw):
    (x,), kw = draw(_extremum_args(False).filter(_nonempty_reduction))
    axes = fnp._util.normalize_axes(kw["axis"], x.ndim)
    n = int(np.prod([x.shape[a] for a in axes]))
    return (x,), dict(kw, ddof=draw(st.integers(0, 1)) if n > 1 else 0)


def _has_axes(c):
    return c[0][0].ndim > 0 and c[1]["axis"] != ()


SPECS = [
    Spec("reduce_prod", ("reduce_prod",), lambda x, axis, keepdims: fnp.prod(x, axis=axis, keepdims=keepdims),
         _reduce_args().filter(lambda c: _has_axes(c) or c[1]["keepdims"])),
    Spec("cumsum", ("cumsum",), lambda x, axis: fnp.cumsum(x, axis=axis), _cumulative_args()),
    Spec("cumprod", ("cumprod",), lambda x, axis: fnp.cumprod(x, axis=axis), _cumulative_args()),
    Spec("reduce_std", ("reduce_std",),
         lambda x, axis, keepdims, ddof: fnp.std(x, axis=axis, keepdims=keepdims, ddof=ddof), _std_args()),
    Spec("var", ("reduce_sum", "multiply"),
         lambda x, axis, keepdims, ddof: fnp.var(x, axis=axis, keepdims=keepdims, ddof=ddof), _std_args()),
    Spec("reduce_median", ("reduce_median",),
         lambda x, axis, keepdims: fnp.median(x, axis=axis, keepdims=keepdims),
         _extremum_args(False).filter(_has_axes)),
    Spec("reduce_all_any", ("reduce_all", "reduce_any"),
         lambda x, axis, keepdims: [fnp.all(x > 0, axis=axis, keepdims=keepdims),
                                    fnp.any(x, axis=axis, keepdims=keepdims)],
         _reduce_args(), differentiable=False),
]
