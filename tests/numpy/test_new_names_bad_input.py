"""The generated bad input of test_bad_input.py (axes, special values, empty sizes) for the
reductions and axis functions of the coverage work: quantiles, nan-functions, unstack,
rollaxis, apply_over_axes.  numpy is the oracle (same exception class, or equal results)."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from .test_bad_input import arrays, axis_like, check_like_numpy

# a string axis: funcgrad refuses it (docs/numpy.md); numpy's reductions read '' as no axes
axis_no_str = axis_like.filter(lambda ax: not isinstance(ax, str))
NEW_AXIS_FUNCS = ["nanvar", "nanstd", "nanargmax", "nanargmin", "nancumsum", "nancumprod", "nanmedian"]
QUANTILES = ["quantile", "nanquantile", "percentile", "nanpercentile"]


@given(a=arrays(), axis=axis_no_str, name=st.sampled_from(NEW_AXIS_FUNCS))
def test_axis(a, axis, name):
    check_like_numpy(lambda m: getattr(m, name)(a, axis=axis), ("axis",))


@given(a=arrays(), axis=axis_no_str, name=st.sampled_from(QUANTILES), q=st.sampled_from([0.3, [0.0, 1.0], 1.0]),
       keepdims=st.booleans())
def test_quantile_axis(a, axis, name, q, keepdims):
    scale = 100 if "percentile" in name else 1
    qq = [v * scale for v in q] if isinstance(q, list) else q * scale
    check_like_numpy(lambda m: getattr(m, name)(a, qq, axis=axis, keepdims=keepdims), ("axis",))


@given(a=arrays(), name=st.sampled_from(NEW_AXIS_FUNCS + QUANTILES))
def test_special_values_and_empty_sizes(a, name):
    if name in QUANTILES:
        check_like_numpy(lambda m: getattr(m, name)(a, 50 if "percentile" in name else 0.5))
    else:
        check_like_numpy(lambda m: getattr(m, name)(a))


@given(a=arrays(), axis=st.integers(-4, 4), start=st.integers(-4, 4))
def test_rollaxis_and_unstack(a, axis, start):
    check_like_numpy(lambda m: m.rollaxis(a, axis, start), ("axis",))
    check_like_numpy(lambda m: m.unstack(a, axis=axis)[0] if a.ndim and a.shape[axis % a.ndim] else
                     m.unstack(a, axis=axis), ("axis",))


ONE_ARRAY = {
    "histogram": lambda m, a: m.histogram(a, bins=3)[0],
    "histogram_edges": lambda m, a: m.histogram_bin_edges(a, bins=2),
    "histogram_range": lambda m, a: m.histogram(a, bins=2, range=(-1, 1))[0],
    "digitize": lambda m, a: m.digitize(a, [-1.0, 0.0, 2.0]),
    "isin": lambda m, a: m.isin(a, [0.0, np.inf]),
    "union1d": lambda m, a: m.union1d(a, [0.0, 1.5]),
    "intersect1d": lambda m, a: m.intersect1d(a, [0.0, 1.5]),
    "setdiff1d": lambda m, a: m.setdiff1d(a, [0.0]),
    "setxor1d": lambda m, a: m.setxor1d(a, [0.0, -2.0]),
    "trim_zeros": lambda m, a: m.trim_zeros(a) if a.ndim else m.trim_zeros(a.reshape(1)),
    "polyval": lambda m, a: m.polyval(a.ravel(), 1.5) if a.size else m.polyval([1.0], 1.5),
    "vander": lambda m, a: m.vander(a.ravel(), 3),
    "nan_to_num_geomspace": lambda m, a: m.geomspace(1.0, 10.0, a.size),
    "block": lambda m, a: m.block([a, a]) if a.ndim else m.block([[a]]),
    "rollaxis": lambda m, a: m.rollaxis(a, -1) if a.ndim else m.rollaxis(a.reshape(1), 0),
    "emath_sqrt": lambda m, a: m.emath.sqrt(a),
    "emath_arcsin": lambda m, a: m.emath.arcsin(a),
}


@given(a=arrays(), name=st.sampled_from(sorted(ONE_ARRAY)))
def test_special_values_of_the_other_new_functions(a, name):
    check_like_numpy(lambda m: ONE_ARRAY[name](m, a))
