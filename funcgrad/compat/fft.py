"""torch.fft: PyTorch's signatures (``n``/``s``, ``dim``, ``norm``) over funcgrad.numpy.fft.

Complex tensors are compat tensors (complex64 from float32 and from integer or
bool input, complex128 from float64); gradients follow funcgrad's complex
convention, which for a real loss of the outputs (``.abs()``, ``.real``,
``.imag``, ``torch.view_as_real``) gives PyTorch's gradients.
"""

from __future__ import annotations

import numpy as np

from ..numpy import fft as _nf
from . import dtypes
from ._dispatch import cast, name_grad
from .tensor import Tensor

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn",
           "rfftn", "irfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]


def _in(x):
    """Integer/bool input -> the default float dtype (PyTorch's promotion); float16 -> float32."""
    if not isinstance(x, Tensor):
        raise TypeError(f"fft functions expect a Tensor as input, got {type(x).__name__}")
    kind = x._value.dtype.kind
    if kind in "biu":
        return cast(x, dtypes.get_default_dtype().dtype)
    if x._value.dtype == np.float16:
        return cast(x, np.dtype(np.float32))
    return x


def _one(name, grad_name):
    npf = getattr(_nf, name)

    def f(input, n=None, dim=-1, norm=None, *, out=None):
        return name_grad(npf(_in(input), n=n, axis=dim, norm=norm), grad_name)
    f.__name__ = name
    f.__doc__ = f"torch.fft.{name}(input, n=None, dim=-1, norm=None): numpy.fft.{name} along ``dim``."
    return f


def _many(name, grad_name, default_dim):
    npf = getattr(_nf, name)

    def f(input, s=None, dim=default_dim, norm=None, *, out=None):
        x = _in(input)
        if dim is None and s is not None:
            dim = tuple(range(-len(s), 0))
        if isinstance(dim, int):
            dim = (dim,)
        return name_grad(npf(x, s=None if s is None else tuple(s), axes=None if dim is None else tuple(dim),
                             norm=norm), grad_name)
    f.__name__ = name
    f.__doc__ = f"torch.fft.{name}(input, s=None, dim={default_dim}, norm=None): numpy.fft.{name} over ``dim``."
    return f


fft = _one("fft", "FftC2CBackward0")
ifft = _one("ifft", "FftC2CBackward0")
rfft = _one("rfft", "FftR2CBackward0")
irfft = _one("irfft", "FftC2RBackward0")
hfft = _one("hfft", "FftC2RBackward0")
ihfft = _one("ihfft", "FftR2CBackward0")
fft2 = _many("fft2", "FftC2CBackward0", (-2, -1))
ifft2 = _many("ifft2", "FftC2CBackward0", (-2, -1))
rfft2 = _many("rfft2", "FftR2CBackward0", (-2, -1))
irfft2 = _many("irfft2", "FftC2RBackward0", (-2, -1))
fftn = _many("fftn", "FftC2CBackward0", None)
ifftn = _many("ifftn", "FftC2CBackward0", None)
rfftn = _many("rfftn", "FftR2CBackward0", None)
irfftn = _many("irfftn", "FftC2RBackward0", None)


def _freq(host, dtype, device, requires_grad):
    from .creation import tensor  # noqa: PLC0415

    return tensor(host, dtype=dtype or dtypes.get_default_dtype(), device=device, requires_grad=requires_grad)


def fftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """Sample frequencies of an n-point FFT with spacing ``d`` (default dtype)."""
    return _freq(np.fft.fftfreq(int(n), d), dtype, device, requires_grad)


def rfftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The non-negative sample frequencies of an n-point rfft."""
    return _freq(np.fft.rfftfreq(int(n), d), dtype, device, requires_grad)


def fftshift(input, dim=None):
    """Move the zero frequency to the centre of ``dim`` (all dims by default): a roll, differentiable."""
    return _shift(input, dim, 1)


def ifftshift(input, dim=None):
    """The inverse of fftshift."""
    return _shift(input, dim, -1)


def _shift(x, dim, sign):
    from ._dispatch import FUNCS  # noqa: PLC0415

    nd = x._value.ndim
    dims = tuple(range(nd)) if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))
    if not dims:
        return x
    shifts = [sign * (x.shape[d] // 2) for d in dims]
    return FUNCS["roll"](x, shifts, dims)
from .fft_hermitian import hfft2, hfftn, ihfft2, ihfftn  # noqa: E402,F401

from ._out import install as _install_out  # noqa: E402

_install_out(globals(), "fft.")  # out= on every function that declares it (see _out.py)
