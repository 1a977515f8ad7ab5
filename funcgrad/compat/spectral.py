"""torch.stft / torch.istft (and the Tensor methods), built from differentiable compat ops.

stft pads (``center``), cuts overlapping frames with ``unfold``, multiplies by the window and takes
``fft.rfft``/``fft.fft`` of each frame; istft inverts each frame, windows it, overlap-adds with
``index_add`` and divides by the summed squared window (the NOLA envelope). Gradients come from
those ops' rules; nothing here has a derivative of its own.
"""

from __future__ import annotations

import warnings

import numpy as np

from ._dispatch import op
from .tensor import Tensor


def _torch():
    from .. import compat  # noqa: PLC0415  (the package: its creation functions and ops, all registered)

    return compat


def _signature(x, n_fft, hop, win, window, normalized, onesided, return_complex, align=None):
    shape = ", ".join(str(s) for s in x.shape)
    wdesc = "None" if window is None else f"torch.{window.type().split('.')[-1]}{{[{', '.join(map(str, window.shape))}]}}"
    return (f"stft(torch.{x.type().split('.')[-1]}[{shape}], n_fft={n_fft}, hop_length={hop}, win_length={win}, "
            f"window={wdesc}, normalized={int(bool(normalized))}, onesided={onesided}, "
            f"return_complex={int(bool(return_complex))}, align_to_window={align})")


def _window(window, n_fft, win_length, x, sig):
    """The window padded on both sides to n_fft (ones when None), in ``x``'s real dtype."""
    if window is not None:
        if not isinstance(window, Tensor):
            raise TypeError(f"stft(): argument 'window' must be Tensor, not {type(window).__name__}")
        if window.dim() != 1 or window.shape[0] != win_length:
            raise RuntimeError(f"{sig} : expected a 1D window tensor of size equal to win_length={win_length}, "
                               f"but got window with size {list(window.shape)}")
    else:
        real = _torch().real(x) if x.is_complex() else x
        window = _torch().ones(win_length, dtype=real.dtype, device=x.device)
    if win_length < n_fft:
        left = (n_fft - win_length) // 2
        window = _torch().constant_pad_nd(window, [left, n_fft - win_length - left], 0)
    return window


def _check_lengths(n_fft, hop, win, sig):
    if not isinstance(n_fft, (int, np.integer)) or isinstance(n_fft, bool):
        raise TypeError(f"stft(): argument 'n_fft' must be int, not {type(n_fft).__name__}")
    if hop <= 0:
        raise RuntimeError(f"{sig} : expected hop_length > 0, but got hop_length={hop}")
    if not 0 < win <= n_fft:
        raise RuntimeError(f"{sig} : expected 0 < win_length <= n_fft, but got win_length={win}")


@op("stft")
def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
         normalized=False, onesided=None, return_complex=None, align_to_window=None):
    """PyTorch's short-time Fourier transform: (B?, n_fft // 2 + 1 or n_fft, n_frames), complex."""
    from .nn import functional as F  # noqa: PLC0415

    if not isinstance(input, Tensor):
        raise TypeError(f"stft(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    if return_complex is None:
        if not (input.is_complex() or (window is not None and window.is_complex())):
            raise RuntimeError("stft requires the return_complex parameter be given for real inputs, and will "
                               "further require that return_complex=True in a future PyTorch release.")
        return_complex = True
    elif not return_complex:
        warnings.warn("stft with return_complex=False is deprecated. In a future pytorch release, stft will return "
                      "complex tensors for all inputs, and return_complex=False will raise an error.", UserWarning,
                      stacklevel=2)
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    x = input
    if center:
        if x.dim() not in (1, 2):
            raise RuntimeError(f"{_signature(x, n_fft, hop, win, window, normalized, onesided, return_complex)} : "
                               "expected a 1D or 2D tensor")
        pad = n_fft // 2
        shape = tuple(x.shape)
        x = F.pad(x.reshape((1,) * (3 - x.dim()) + shape), [pad, pad], pad_mode).reshape(shape[:-1] + (-1,))
    sig = _signature(x, n_fft, hop, win, window, normalized, onesided, return_complex, align_to_window)
    if x.dim() not in (1, 2):
        raise RuntimeError(f"{sig} : expected a 1D or 2D tensor")
    if not (x.is_floating_point() or x.is_complex()):
        raise RuntimeError(f"{sig} : expected a tensor of floating point or complex values")
    _check_lengths(n_fft, hop, win, sig)
    if align_to_window and win < n_fft:  # frames start where the (unpadded) window starts
        left = (n_fft - win) // 2
        x = _torch().constant_pad_nd(x, [left, n_fft - win - left], 0)
    length = x.shape[-1]
    if not 0 < n_fft <= length:
        raise RuntimeError(f"{sig} : expected 0 < n_fft < {length}, but got n_fft={n_fft}")
    w = _window(window, n_fft, win, x, sig)
    frames = x.unfold(-1, n_fft, hop) * w  # (B?, n_frames, n_fft)
    if onesided is None:
        onesided = not (x.is_complex() or w.is_complex())
    elif onesided and (x.is_complex() or w.is_complex()):
        raise RuntimeError("Cannot have onesided output if window or input is complex")
    from . import fft as _fft  # noqa: PLC0415

    spec = _fft.rfft(frames, dim=-1) if onesided else _fft.fft(frames, dim=-1)
    if normalized:
        spec = spec * (n_fft ** -0.5)
    spec = spec.transpose(-1, -2)  # (B?, freq, n_frames)
    return spec if return_complex else _torch().view_as_real(spec)


def _positions(n_fft, hop, n_frames):
    """Overlap-add positions (n_frames * n_fft,) of every frame sample, and the output's length."""
    pos = (np.arange(n_frames)[:, None] * hop + np.arange(n_fft)[None, :]).reshape(-1)
    return pos, n_fft + hop * (n_frames - 1)


@op("istft")
def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False,
          onesided=None, length=None, return_complex=False):
    """Inverse of :func:`stft` by windowed overlap-add (PyTorch's istft)."""
    from . import fft as _fft  # noqa: PLC0415

    if not isinstance(input, Tensor):
        raise TypeError(f"istft(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    if not input.is_complex():
        raise RuntimeError("istft requires a complex-valued input tensor matching the output from stft with "
                           "return_complex=True.")
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if input.dim() not in (2, 3):
        raise RuntimeError(f"istft: expected a tensor with 2 or 3 dimensions of complex values, but got {input.dim()}")
    if hop <= 0:
        raise RuntimeError(f"istft: expected hop_length > 0, but got hop_length={hop}")
    if not 0 < win <= n_fft:
        raise RuntimeError(f"istft: expected 0 < win_length <= n_fft, but got win_length={win}")
    n_freq, n_frames = input.shape[-2], input.shape[-1]
    if onesided is None:
        onesided = n_freq != n_fft
    want = n_fft // 2 + 1 if onesided else n_fft
    if n_freq != want:
        kind = "onesided=True" if onesided else "onesided=False"
        raise RuntimeError(f"istft: expected the frequency dimension (3rd to the last) of the input tensor to match "
                           f"n_fft / 2 + 1 when onesided=True, but got {n_freq}" if onesided else
                           f"istft: expected the frequency dimension (3rd to the last) of the input tensor to match "
                           f"n_fft when {kind}, but got {n_freq}")
    if onesided and return_complex:
        raise RuntimeError("cannot have onesided output if window or input is complex")
    real_dtype = _torch().real(input).dtype
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        raise RuntimeError(f"istft: expected a 1D window tensor of size equal to win_length={win}, but got window "
                           f"with size {list(window.shape)}")
    w = _window(window, n_fft, win, _torch().zeros(1, dtype=real_dtype, device=input.device), "istft")
    spec = input.transpose(-1, -2)  # (B?, n_frames, freq)
    if normalized:
        spec = spec * (n_fft ** 0.5)
    if onesided:
        frames = _fft.irfft(spec, n=n_fft, dim=-1)
    else:
        frames = _fft.ifft(spec, n=n_fft, dim=-1)
        if not return_complex:
            frames = _torch().real(frames)
    frames = frames * w
    pos, total = _positions(n_fft, hop, n_frames)
    batch = input.shape[:-2]
    index = _torch().tensor(pos, device=input.device)
    flat = frames.reshape(tuple(batch) + (-1,))
    out = _torch().zeros(tuple(batch) + (total,), dtype=flat.dtype, device=input.device)
    y = _torch().index_add(out, -1, index, flat)
    w2 = (w.detach() * w.detach().conj() if w.is_complex() else w.detach() ** 2).reshape(1, -1)
    env = _torch().index_add(_torch().zeros(total, dtype=w2.dtype, device=input.device), 0, index,
                             w2.expand(n_frames, n_fft).reshape(-1))
    start = n_fft // 2 if center else 0
    end = total - n_fft // 2 if center else total
    if length is not None:
        end = start + length
    kept = env[start:min(end, total)]
    if kept.numel() and bool((kept.abs() < 1e-11).any()):
        raise RuntimeError("istft: window overlap add min: 0 (the window does not satisfy the NOLA condition)")
    y = y[..., start:min(end, total)] / kept
    if length is not None and y.shape[-1] < length:
        y = _torch().constant_pad_nd(y, [0, length - y.shape[-1]], 0)
    return y
