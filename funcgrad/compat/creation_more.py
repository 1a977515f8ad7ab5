"""More creation functions: the window functions (``hann_window``, ``hamming_window``,
``blackman_window``, ``bartlett_window``, ``kaiser_window``), ``asarray``, ``frombuffer``,
``from_dlpack`` / ``to_dlpack``, ``empty_permuted``.
"""

from __future__ import annotations

import numpy as np

from ..backend import kind_of
from . import dtypes
from .creation import _finish, as_tensor, from_numpy
from .tensor import Tensor, wrap

__all__ = ["hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window", "asarray",
           "frombuffer", "from_dlpack", "to_dlpack", "empty_permuted"]


def _window(name, fn, window_length, periodic, dtype, device, requires_grad):
    if not isinstance(window_length, int) or isinstance(window_length, bool) or window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    d = dtypes.get_default_dtype() if dtype is None else dtypes.as_dtype(dtype)
    if kind_of(d.dtype) != "f":
        raise RuntimeError(f"{name} expects floating point dtypes, got: {d}")
    n = window_length
    if n <= 1:
        w = np.ones(n)
    else:
        w = fn(n + 1)[:-1] if periodic else fn(n)
    return _finish(np.asarray(w, np.float64), d, device, requires_grad)


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False):
    return _window("hann_window", np.hanning, window_length, periodic, dtype, device, requires_grad)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None, device=None,
                   requires_grad=False):
    def fn(m):
        return alpha - beta * np.cos(2 * np.pi * np.arange(m) / (m - 1))
    return _window("hamming_window", fn, window_length, periodic, dtype, device, requires_grad)


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False):
    return _window("blackman_window", np.blackman, window_length, periodic, dtype, device, requires_grad)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False):
    return _window("bartlett_window", np.bartlett, window_length, periodic, dtype, device, requires_grad)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None, device=None,
                  requires_grad=False):
    return _window("kaiser_window", lambda m: np.kaiser(m, beta), window_length, periodic, dtype, device,
                   requires_grad)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """A tensor of ``obj``, sharing memory with a tensor or numpy array when dtype and device
    allow (``copy=True`` always copies; ``copy=False`` refuses to)."""
    if isinstance(obj, Tensor) or isinstance(obj, np.ndarray):
        t = obj if isinstance(obj, Tensor) else from_numpy(obj)
        out = as_tensor(t, dtype=dtype, device=device)
        if copy is False and out is not t:
            raise ValueError(f"can't alias tensor from a {t.dtype} on {t.device} as {dtype or t.dtype} on "
                             f"{device or t.device}: a copy is needed (copy=False)")
        if copy:
            out = out.clone() if out is t else out
    elif hasattr(obj, "__dlpack__") and not isinstance(obj, (list, tuple)):
        out = as_tensor(from_dlpack(obj), dtype=dtype, device=device)
    else:
        if copy is False:
            raise ValueError(f"can't alias a {type(obj).__name__} (copy=False): it has no buffer to share")
        out = as_tensor(obj, dtype=dtype, device=device)
    if requires_grad:
        out = out.detach() if out.requires_grad else out
        out.requires_grad_(True)
    return out


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A 1-D tensor over the bytes of an object with the buffer protocol (memory shared)."""
    npd = dtypes.as_dtype(dtype).dtype
    mv = memoryview(buffer)
    nbytes = mv.nbytes - offset
    if nbytes <= 0 or offset < 0:
        raise ValueError(f"both buffer length ({mv.nbytes}) and offset ({offset}) must be non-negative, and offset "
                         "less than the buffer length")
    if count == -1 and nbytes % npd.itemsize:
        raise ValueError(f"buffer length ({nbytes} bytes) after offset ({offset} bytes) must be a multiple of "
                         f"element size ({npd.itemsize})")
    a = np.frombuffer(buffer, dtype=npd, count=count, offset=offset)
    t = from_numpy(a) if a.flags.writeable else _readonly(a)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _readonly(a):
    import warnings  # noqa: PLC0415

    warnings.warn("The given buffer is not writable, and PyTorch does not support non-writable tensors. This means "
                  "you can write to the underlying (supposedly non-writable) buffer using the tensor.",
                  UserWarning, stacklevel=3)
    return wrap(a)


def from_dlpack(ext_tensor):
    """A tensor sharing memory with any DLPack producer (a numpy/cupy array, a capsule-bearing object)."""
    if isinstance(ext_tensor, Tensor):
        return ext_tensor
    if hasattr(ext_tensor, "__dlpack_device__"):
        dev_type = int(ext_tensor.__dlpack_device__()[0])
        if dev_type == 2:  # kDLCUDA
            from .. import backend  # noqa: PLC0415

            xp = backend._cupy().xp
            return wrap(xp.from_dlpack(ext_tensor))
    return wrap(np.from_dlpack(ext_tensor))


def to_dlpack(tensor):
    """A DLPack capsule of the tensor's buffer (memory shared)."""
    return tensor.detach()._value.__dlpack__()


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None, requires_grad=False,
                   pin_memory=False):
    """An uninitialised tensor of ``size`` whose dimensions lie in memory in ``physical_layout``'s order
    (outermost first): ``empty_permuted((2, 3, 4), (0, 2, 1))`` has strides (12, 1, 3)."""
    size = tuple(int(s) for s in size)
    perm = tuple(int(p) for p in physical_layout)
    if sorted(perm) != list(range(len(size))):
        raise RuntimeError(f"Number of dimensions in size does not match the length of the physical_layout; "
                           f"size={list(size)}, physical_layout={list(perm)}")
    d = dtypes.get_default_dtype() if dtype is None else dtypes.as_dtype(dtype)
    phys = _finish(np.empty(tuple(size[p] for p in perm), d.dtype), None, device, False)
    out = phys.permute(*np.argsort(perm).tolist())
    if requires_grad:
        out.requires_grad_(True)
    return out
