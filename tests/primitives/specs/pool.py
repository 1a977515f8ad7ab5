"""Specs: pooling (reductions over funcgrad.primitives.conv.unfold windows)."""

import hypothesis.strategies as st
import numpy as np

import funcgrad.nn.functional as F
from funcgrad.primitives.pool import window_first_max

from ..spec import Spec, floats_of
from .conv import _geometry


@st.composite
def _pool_args(draw, distinct, nd=2):
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(nd))
    stride = tuple(draw(st.integers(1, 3)) for _ in range(nd))
    padding = tuple(draw(st.integers(0, k // 2)) for k in kernel)
    spatial = tuple(k + draw(st.integers(0, 3)) for k in kernel)
    shape = (draw(st.integers(1, 2)), draw(st.integers(1, 2))) + spatial
    if distinct:  # values at least 0.1 apart: max is differentiable
        n = int(np.prod(shape))
        perm = np.asarray(draw(st.permutations(range(n))), dtype=np.float64)
        x = ((perm - n / 2) * 0.3 + draw(floats_of((n,), -0.1, 0.1))).reshape(shape)
    else:
        x = draw(floats_of(shape))
    return (x,), dict(kernel_size=kernel, stride=stride, padding=padding, ceil_mode=draw(st.booleans()))


def _max_pool_dilated(x, **kw):
    return F.max_pool2d(x, dilation=2, **kw)


def _avg(x, count_include_pad, **kw):
    return F.avg_pool2d(x, count_include_pad=count_include_pad, **kw)


@st.composite
def _first_max_args(draw):
    # few distinct values (ties in most windows), sometimes a NaN; -inf padding may fill a window
    nd = draw(st.integers(1, 2))
    kernel, stride, padding, dilation, spatial = draw(_geometry(nd))
    shape = (draw(st.integers(0, 2)), draw(st.integers(1, 2))) + spatial
    values = [-1.0, 0.0, 1.0] + ([np.nan] if draw(st.booleans()) else [])
    x = np.asarray(draw(st.lists(st.sampled_from(values), min_size=int(np.prod(shape)),
                                 max_size=int(np.prod(shape)))), dtype=np.float64).reshape(shape)
    return (x,), dict(kernel=kernel, stride=stride, padding=padding, dilation=dilation)


SPECS = [
    Spec("window_first_max", ("window_first_max",), window_first_max, _first_max_args(), differentiable=False),
    Spec("max_pool2d", ("max_pool",), F.max_pool2d, _pool_args(True)),
    Spec("max_pool1d", ("max_pool",), F.max_pool1d, _pool_args(True, nd=1)),
    Spec("max_pool2d_dilated", ("max_pool",), _max_pool_dilated,
         _pool_args(True).filter(lambda a: all(s >= 2 * k - 1 - 2 * p for s, k, p in zip(
             a[0][0].shape[2:], a[1]["kernel_size"], a[1]["padding"])))),
    Spec("avg_pool2d", ("unfold", "reduce_sum"), _avg,
         st.tuples(_pool_args(False), st.booleans()).map(lambda a: (a[0][0], dict(a[0][1], count_include_pad=a[1])))),
    Spec("adaptive_avg_pool2d", ("matmul",), F.adaptive_avg_pool2d,
         st.tuples(floats_of((2, 1, 5, 4)), st.sampled_from([(2, 3), (1, 1), 3, (5, 4)])).map(
             lambda a: ((a[0],), dict(output_size=a[1])))),
]
