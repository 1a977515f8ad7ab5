"""torch.fft.hfft2 / hfftn / ihfft2 / ihfftn: the n-dimensional Hermitian transforms, as PyTorch
defines them from the real ones (``hfftn(x) = irfftn(conj(x))`` and ``ihfftn(x) = conj(rfftn(x))``
with the normalisation mode swapped), so gradients come from those."""

from __future__ import annotations

from ._dispatch import FUNCS

__all__ = ["hfft2", "hfftn", "ihfft2", "ihfftn"]

_SWAP = {None: "forward", "backward": "forward", "forward": "backward", "ortho": "ortho"}


def _norm(norm):
    if norm not in _SWAP:
        raise ValueError(f'Invalid normalization mode: "{norm}"')
    return _SWAP[norm]


def hfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The real n-D signal whose one-sided Hermitian spectrum is ``input`` (last dim one-sided)."""
    from .fft import irfftn  # noqa: PLC0415

    x = FUNCS["conj"](input) if input.is_complex() else input
    return irfftn(x, s, dim, _norm(norm))


def hfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return hfftn(input, s, dim, norm)


def ihfftn(input, s=None, dim=None, norm=None, *, out=None):
    """The one-sided inverse transform of a real n-D signal."""
    from .fft import rfftn  # noqa: PLC0415

    if input.is_complex():
        raise RuntimeError("ihfftn expects a real-valued input tensor, but got " + str(input.dtype))
    return FUNCS["conj"](rfftn(input, s, dim, _norm(norm)))


def ihfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return ihfftn(input, s, dim, norm)
