"""Specs: sliding windows (funcgrad.primitives.conv: unfold, fold) and the convolutions on them."""

import hypothesis.strategies as st

import funcgrad.nn.functional as F
from funcgrad.primitives.conv import fold, unfold

from ..spec import Spec, floats_of


@st.composite
def _geometry(draw, nd):
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(nd))
    stride = tuple(draw(st.integers(1, 2)) for _ in range(nd))
    dilation = tuple(draw(st.integers(1, 2)) for _ in range(nd))
    padding = tuple((draw(st.integers(0, 1)), draw(st.integers(0, 1))) for _ in range(nd))
    # spatial sizes large enough for at least one window
    spatial = tuple(max(1, d * (k - 1) + 1 - lo - hi) + draw(st.integers(0, 3))
                    for k, d, (lo, hi) in zip(kernel, dilation, padding))
    return kernel, stride, padding, dilation, spatial


@st.composite
def _unfold_args(draw):
    nd = draw(st.integers(1, 2))
    kernel, stride, padding, dilation, spatial = draw(_geometry(nd))
    n, c = draw(st.integers(0, 2)), draw(st.integers(1, 2))
    x = draw(floats_of((n, c) + spatial))
    return (x,), dict(kernel=kernel, stride=stride, padding=padding, dilation=dilation)


@st.composite
def _fold_args(draw):
    nd = draw(st.integers(1, 2))
    kernel, stride, padding, dilation, spatial = draw(_geometry(nd))
    n, c = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    out = tuple((s + lo + hi - d * (k - 1) - 1) // st_ + 1
                for s, k, st_, (lo, hi), d in zip(spatial, kernel, stride, padding, dilation))
    cols = draw(floats_of((n, c) + out + kernel))
    return (cols,), dict(spatial=spatial, kernel=kernel, stride=stride, padding=padding, dilation=dilation)


@st.composite
def _conv_args(draw, nd, transposed=False):
    g = draw(st.integers(1, 2))
    cin, cout = g * draw(st.integers(1, 2)), g * draw(st.integers(1, 2))
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(nd))
    stride = draw(st.integers(1, 2))
    dilation = draw(st.integers(1, 2))
    pad = draw(st.integers(0, 1))
    n = draw(st.integers(1, 2))
    if transposed:
        spatial = tuple(draw(st.integers(1, 3)) for _ in range(nd))
        opad = draw(st.integers(0, max(stride, dilation) - 1))
        # output size (i-1)*s - 2p + d(k-1) + op + 1 must be positive
        if any((i - 1) * stride - 2 * pad + dilation * (k - 1) + opad + 1 < 1 for i, k in zip(spatial, kernel)):
            pad = 0
        x = draw(floats_of((n, cin) + spatial))
        w = draw(floats_of((cin, cout // g) + kernel))
        b = draw(floats_of((cout // g * g,)))
        return (x, w, b), dict(stride=stride, padding=pad, output_padding=opad, groups=g, dilation=dilation)
    spatial = tuple(dilation * (k - 1) + 1 + draw(st.integers(0, 3)) for k in kernel)
    x = draw(floats_of((n, cin) + spatial))
    w = draw(floats_of((cout, cin // g) + kernel))
    b = draw(floats_of((cout,)))
    padding = draw(st.sampled_from([pad, "valid"] + (["same"] if stride == 1 else [])))
    return (x, w, b), dict(stride=stride, padding=padding, dilation=dilation, groups=g)


SPECS = [
    Spec("unfold", ("unfold",), lambda x, **kw: unfold(x, **kw) * 1.0, _unfold_args()),
    Spec("fold", ("fold",), lambda c, **kw: fold(c, **kw), _fold_args()),
    Spec("conv1d", ("unfold",), F.conv1d, _conv_args(1)),
    Spec("conv2d", ("unfold",), F.conv2d, _conv_args(2)),
    Spec("conv_transpose2d", ("fold", "matmul"), F.conv_transpose2d, _conv_args(2, transposed=True)),
]


@st.composite
def _dense_args(draw):
    lead = draw(st.sampled_from([(), (3,), (2, 2), (0,)]))
    k, o = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    return (draw(floats_of(lead + (k,))), draw(floats_of((o, k))), draw(floats_of((o,)))), {}


SPECS.append(Spec("dense", ("dense",), lambda x, w, b: [F.linear(x, w), F.linear(x, w, b)], _dense_args()))
