"""The generated bad input of test_bad_input.py (axes, special values, empty sizes) for the
reductions and axis functions of the coverage work: quantiles, nan-functions, unstack,
rollaxis, apply_over_axes.  numpy is the oracle (same exception class, or equal results)."""

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
