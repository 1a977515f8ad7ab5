"""Specs: FFTs (funcgrad.primitives.fft) and complex parts (funcgrad.primitives.complex).

check_grads compares real values, so complex inputs are built as ``x + 1j * y``
from two real arrays and complex outputs are split into real and imaginary
parts: that checks the derivative convention (cotangent pairing Re(c * dz))
end to end, to second order.
"""

import hypothesis.strategies as st

import funcgrad.numpy as fnp

from ..spec import Spec, floats_of

NORMS = [None, "backward", "ortho", "forward"]


def _parts(z):
    return [fnp.real(z), fnp.imag(z)]


@st.composite
def _one_axis(draw, two=True):
    shape = draw(st.sampled_from([(1,), (4,), (5,), (2, 3), (3, 1, 4)]))
    arrays = (draw(floats_of(shape)),) + ((draw(floats_of(shape)),) if two else ())
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    n = draw(st.sampled_from([None, None, 1, 3, 6]))
    return arrays, {"n": n, "axis": axis, "norm": draw(st.sampled_from(NORMS))}


@st.composite
def _many_axes(draw, two=True):
    shape = draw(st.sampled_from([(2, 3), (3, 4), (2, 2, 3), (1, 3, 2)]))
    arrays = (draw(floats_of(shape)),) + ((draw(floats_of(shape)),) if two else ())
    k = draw(st.integers(1, len(shape)))
    axes = tuple(draw(st.permutations(range(len(shape))))[:k])
    s = draw(st.sampled_from([None, tuple(draw(st.integers(1, 4)) for _ in axes)]))
    return arrays, {"s": s, "axes": axes, "norm": draw(st.sampled_from(NORMS))}


def _half_spectrum_ok(c):
    """n=None means n = 2 * (m - 1): numpy refuses m = 1 (n = 0)."""
    return c[1]["n"] is not None or c[0][0].shape[c[1]["axis"]] > 1


SPECS = [
    Spec("fft", ("fftn",), lambda x, y, **kw: _parts(fnp.fft.fft(x + 1j * y, **kw)), _one_axis()),
    Spec("ifft", ("fftn",), lambda x, y, **kw: _parts(fnp.fft.ifft(x + 1j * y, **kw)), _one_axis()),
    Spec("fft_of_real", ("fftn",), lambda x, **kw: _parts(fnp.fft.fft(x, **kw)), _one_axis(two=False)),
    Spec("rfft", ("rfftn",), lambda x, **kw: _parts(fnp.fft.rfft(x, **kw)), _one_axis(two=False)),
    Spec("irfft", ("irfftn",), lambda x, y, **kw: fnp.fft.irfft(x + 1j * y, **kw),
         _one_axis().filter(_half_spectrum_ok)),
    Spec("fftn", ("fftn",), lambda x, y, **kw: _parts(fnp.fft.fftn(x + 1j * y, **kw)), _many_axes()),
    Spec("ifftn", ("fftn",), lambda x, y, **kw: _parts(fnp.fft.ifftn(x + 1j * y, **kw)), _many_axes()),
    Spec("rfftn", ("rfftn",), lambda x, **kw: _parts(fnp.fft.rfftn(x, **kw)), _many_axes(two=False)),
    Spec("irfftn", ("irfftn",), lambda x, y, **kw: fnp.fft.irfftn(x + 1j * y, **kw),
         _many_axes().filter(lambda c: c[1]["s"] is not None or c[0][0].shape[c[1]["axes"][-1]] > 1)),
    Spec("power_spectrum", ("rfftn", "real", "conj"),
         lambda x, **kw: fnp.real(fnp.conj(fnp.fft.rfft(x, **kw)) * fnp.fft.rfft(x, **kw)), _one_axis(two=False)),
    Spec("hfft_ihfft", ("irfftn", "rfftn", "conj"),
         lambda x, y, n, axis, norm: [fnp.fft.hfft(x + 1j * y, n, axis, norm)] + _parts(fnp.fft.ihfft(x, n, axis, norm)),
         _one_axis().filter(_half_spectrum_ok)),
    Spec("fftshift", (), lambda x, axes: [fnp.fft.fftshift(x, axes), fnp.fft.ifftshift(x, axes)],
         _many_axes(two=False).map(lambda c: (c[0], {"axes": c[1]["axes"]}))),
    Spec("complex_parts", ("real", "imag", "conj"),
         lambda x, y: [fnp.real(fnp.conj(x + 1j * y) * (x - 2j * y)), fnp.imag(fnp.conj(x + 1j * y) ** 2)],
         st.tuples(st.sampled_from([(), (3,), (2, 2)])).flatmap(
             lambda s: st.tuples(floats_of(s[0]), floats_of(s[0]))).map(lambda a: (a, {}))),
]
