"""``F.pad`` (constant, reflect, replicate, circular; negative widths crop) and the padding layers
(ZeroPad, ConstantPad, ReflectionPad, ReplicationPad, CircularPad, 1d/2d/3d)."""

from __future__ import annotations

import numpy as np

from .. import _validate, creation as _c
from .module import Module

__all__ = ["ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
           "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "CircularPad1d", "CircularPad2d", "CircularPad3d"]

_NUMPY_MODE = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def _check_mode(input, pad, mode, value):
    if mode not in _NUMPY_MODE:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode == "constant":
        return
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    k = len(pad) // 2
    if not 1 <= k <= 3 or input.dim() not in (k + 1, k + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\nSupported combinations for "
            "non-constant padding:\n  - 2D or 3D input: padding size = 2 (pads last dimension)\n  - 3D or 4D input: "
            "padding size = 4 (pads last 2 dimensions)\n  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")


def pad(input, pad, mode="constant", value=None):
    """Pad the last ``len(pad) // 2`` dims, ``pad = (left_last, right_last, left_prev, right_prev, ...)``.

    Negative widths crop (before a circular or replicate pad, after a reflect pad, as PyTorch). ``reflect`` excludes the edge and needs a width
    below the dim's size; ``replicate`` repeats the edge; ``circular`` wraps (at most once around).
    """
    if not isinstance(pad, (tuple, list)):
        raise TypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, not {type(pad).__name__}")
    pad = _validate.sizes((pad,), "pad", "pad")
    if len(pad) % 2:
        raise ValueError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise ValueError("Padding length should be less than or equal to two times the input dimension")
    _check_mode(input, pad, mode, value)
    from ... import numpy as fnp  # noqa: PLC0415

    nd = input.dim()
    crop = [slice(None)] * nd
    widths = [(0, 0)] * nd
    for i in range(len(pad) // 2):
        d = nd - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        size = input.shape[d]
        if lo < 0 or hi < 0:
            crop[d] = slice(max(-lo, 0), size - max(-hi, 0))
        widths[d] = (max(lo, 0), max(hi, 0))
        if mode == "reflect" and (lo >= size or hi >= size):
            raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding input dimension, "
                               f"but got: padding ({lo}, {hi}) at dimension {d} of input {list(input.shape)}")
        if mode == "circular" and (lo > size or hi > size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if mode != "constant" and size == 0 and (lo or hi):
            raise RuntimeError(f"pad: mode {mode!r} cannot pad dimension {d} of size 0 (input {list(input.shape)})")
        if size - max(-lo, 0) - max(-hi, 0) < 0:
            raise RuntimeError(f"The input size {size}, plus negative padding {lo} and {hi} resulted in a negative "
                               f"output size, which is invalid. Check dimension {d} of your input.")
    if mode == "constant":
        cropped = any(s != slice(None) for s in crop)
        if cropped:
            input = input[tuple(crop)]
        if all(w == (0, 0) for w in widths):
            return input if cropped else input.clone()
        return fnp.pad(input, widths, constant_values=0.0 if value is None else value)
    # reflect / replicate / circular: a gather along each padded dim; numpy computes the source indices.
    # PyTorch crops (negative widths) before a circular or replicate pad, after a reflect pad.
    out = input
    for d in range(nd):
        if crop[d] == slice(None) and widths[d] == (0, 0):
            continue
        idx = np.arange(input.shape[d])
        if mode == "reflect":
            idx = np.pad(idx, widths[d], mode="reflect")
            lo, hi = (-w for w in pad[2 * (nd - 1 - d):2 * (nd - d)])
            idx = idx[max(lo, 0):len(idx) - max(hi, 0)]
        else:
            idx = np.pad(idx[crop[d]], widths[d], mode=_NUMPY_MODE[mode])
        out = out.index_select(d, _c.tensor(idx, device=input.device))
    return out if out is not input else input.clone()


class _PadNd(Module):
    _mode = "constant"
    _nd = 1

    def __init__(self, padding, value=None):
        super().__init__()
        self.padding = (padding,) * (2 * self._nd) if isinstance(padding, int) else tuple(padding)
        if len(self.padding) != 2 * self._nd:
            raise ValueError(f"{type(self).__name__}: padding must be an int or {2 * self._nd} ints, got {padding!r}")
        if value is not None:
            self.value = value

    def forward(self, input):
        if self._mode == "constant":
            return pad(input, self.padding, "constant", self.value)
        return pad(input, self.padding, self._mode)

    def extra_repr(self):
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value):
        super().__init__(padding, float(value) if not isinstance(value, (int, float)) else value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


def _padding_classes(kind, base, mode):
    return [type(f"{kind}{n}d", (base,), {"_nd": n, "_mode": mode, "__module__": __name__,
                                          "__doc__": f"``F.pad(input, padding, {mode!r})`` over the last {n} dims."})
            for n in (1, 2, 3)]


ZeroPad1d, ZeroPad2d, ZeroPad3d = _padding_classes("ZeroPad", _ZeroPadNd, "constant")
ConstantPad1d, ConstantPad2d, ConstantPad3d = _padding_classes("ConstantPad", _ConstantPadNd, "constant")
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = _padding_classes("ReflectionPad", _PadNd, "reflect")
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = _padding_classes("ReplicationPad", _PadNd, "replicate")
CircularPad1d, CircularPad2d, CircularPad3d = _padding_classes("CircularPad", _PadNd, "circular")
