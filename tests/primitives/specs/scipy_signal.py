"""Specs: the n-d full convolution behind funcgrad.scipy.signal (and the modes built on it)."""

import hypothesis.strategies as st

import funcgrad.scipy.signal as fsig
from funcgrad.testing import strategies as fst

from ..spec import Spec, floats_of


@st.composite
def _pair(draw, min_side=1):
    ndim = draw(st.integers(1, 3))
    s1 = draw(fst.shapes(ndim, ndim, min_side, 4))
    s2 = draw(fst.shapes(ndim, ndim, min_side, 3))
    kw = {"mode": draw(st.sampled_from(["full", "same"])), "method": draw(st.sampled_from(["auto", "direct", "fft"]))}
    return (draw(floats_of(s1)), draw(floats_of(s2))), kw


@st.composite
def _valid_pair(draw):
    ndim = draw(st.integers(1, 2))
    small = draw(fst.shapes(ndim, ndim, 1, 3))
    big = tuple(s + draw(st.integers(0, 2)) for s in small)
    a, b = (big, small) if draw(st.booleans()) else (small, big)
    return (draw(floats_of(a)), draw(floats_of(b))), {"mode": "valid"}


SPECS = [
    Spec("convolve", ("convolve_full",), fsig.convolve, _pair()),
    Spec("correlate", ("convolve_full",), fsig.correlate, _pair()),
    Spec("convolve_valid", ("convolve_full",), fsig.convolve, _valid_pair()),
    Spec("correlate_valid", ("convolve_full",), fsig.correlate, _valid_pair()),
    Spec("convolve_empty", ("convolve_full",), fsig.convolve, _pair(min_side=0)),
]
