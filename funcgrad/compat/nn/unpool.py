"""Max-pooling indices (``return_indices=True``) and their inverse, ``max_unpool1d/2d/3d`` / ``MaxUnpool*``.

The indices are computed on the host from the input's values (they carry no gradient, as in PyTorch):
for each output position, the flat index, within the input's spatial extent, of the first maximum
of its window (padding never wins). ``max_unpool`` scatters its input to those positions of a
zero tensor, differentiably in the input.
"""

from __future__ import annotations

import itertools

import numpy as np

from ...backend import kind_of
from ... import backend
from .. import creation as _c, dtypes
from .module import Module

__all__ = ["MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d"]

FUNCTIONS = ["max_unpool1d", "max_unpool2d", "max_unpool3d"]


def _tuple(v, nd):
    return (int(v),) * nd if isinstance(v, (int, np.integer)) else tuple(int(a) for a in v)


def max_pool_indices(input, out, kernel_size, stride, padding, dilation, nd):
    """int64 indices (shape of ``out``) of each window's maximum in ``input``'s flattened spatial axes."""
    k = _tuple(kernel_size, nd)
    s = _tuple(stride if stride not in (None, ()) else kernel_size, nd)
    p, d = _tuple(padding, nd), _tuple(dilation, nd)
    x = backend.to_numpy(input.detach()._value)
    if not kind_of(x.dtype) == "f":
        x = x.astype(np.float64)
    lead = x.shape[:-nd]
    spatial = x.shape[-nd:]
    osz = tuple(out.shape[-nd:])
    pads = [(0, 0)] * len(lead)
    for i in range(nd):
        need = (osz[i] - 1) * s[i] + (k[i] - 1) * d[i] + 1
        pads.append((p[i], max(0, need - spatial[i] - p[i])))
    xp = np.pad(x, pads, constant_values=-np.inf)
    windows, offsets = [], list(itertools.product(*(range(kk) for kk in k)))
    for off in offsets:
        sl = tuple(slice(off[i] * d[i], off[i] * d[i] + (osz[i] - 1) * s[i] + 1, s[i]) for i in range(nd))
        windows.append(xp[(Ellipsis,) + sl])
    best = np.argmax(np.stack(windows), axis=0)  # first maximum (first NaN, as PyTorch's NaN-propagating max)
    offs = np.asarray(offsets)[best]  # (..., nd)
    flat = np.zeros(best.shape, dtype=np.int64)
    for i in range(nd):
        o = np.arange(osz[i]).reshape((-1,) + (1,) * (nd - 1 - i))
        pos = o * s[i] - p[i] + offs[..., i] * d[i]
        flat = flat * spatial[i] + pos
    return _c.tensor(flat, dtype=dtypes.int64, device=input.device)


def _unpool(input, indices, kernel_size, stride, padding, output_size, nd, fname):
    if input.dim() not in (nd + 1, nd + 2):
        raise ValueError(f"{fname}: expected a {nd + 1}-d or {nd + 2}-d input, got {input.dim()}-d "
                         f"{list(input.shape)}")
    if tuple(indices.shape) != tuple(input.shape):
        raise ValueError(f"{fname}: expected indices of the input's shape {list(input.shape)}, got "
                         f"{list(indices.shape)}")
    k = _tuple(kernel_size, nd)
    s = _tuple(stride if stride is not None else kernel_size, nd)
    p = _tuple(padding, nd)
    insz = tuple(input.shape[-nd:])
    if output_size is None:
        osz = tuple((insz[i] - 1) * s[i] - 2 * p[i] + k[i] for i in range(nd))
    else:
        osz = tuple(int(v) for v in tuple(output_size)[-nd:])
        if len(tuple(output_size)) not in (nd, nd + 1, nd + 2):
            raise ValueError(f"{fname}: output_size must have {nd} (or {nd + 2}) elements, got {list(output_size)}")
    lead = tuple(input.shape[:-nd])
    total = int(np.prod(osz))
    idx = indices.reshape(lead + (-1,))
    if idx.numel() and (int(idx.min()) < 0 or int(idx.max()) >= total):
        raise RuntimeError(f"{fname}: Found an invalid max index: {int(idx.max())} (output volumes are of size "
                           f"{'x'.join(map(str, osz))})")
    out = _c.zeros(lead + (total,), dtype=input.dtype, device=input.device)
    return out.scatter(len(lead), idx, input.reshape(lead + (-1,))).reshape(lead + osz)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Inverse of ``max_pool1d``: ``input`` placed at ``indices`` of a zero (N, C, L_out) tensor."""
    return _unpool(input, indices, kernel_size, stride, padding, output_size, 1, "max_unpool1d")


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Inverse of ``max_pool2d``: ``input`` placed at ``indices`` of a zero (N, C, H_out, W_out) tensor."""
    return _unpool(input, indices, kernel_size, stride, padding, output_size, 2, "max_unpool2d")


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Inverse of ``max_pool3d``."""
    return _unpool(input, indices, kernel_size, stride, padding, output_size, 3, "max_unpool3d")


class MaxUnpool1d(Module):
    _nd = 1

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = _tuple(kernel_size, self._nd)
        self.stride = _tuple(stride if stride is not None else kernel_size, self._nd)
        self.padding = _tuple(padding, self._nd)

    def forward(self, input, indices, output_size=None):
        return _unpool(input, indices, self.kernel_size, self.stride, self.padding, output_size, self._nd,
                       f"max_unpool{self._nd}d")

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool2d(MaxUnpool1d):
    _nd = 2


class MaxUnpool3d(MaxUnpool1d):
    _nd = 3
