"""torch.device: 'cpu', 'cuda:N' (cupy buffers) or 'standin' (the test device), on funcgrad's backends.

Also the buffer helpers the ops use to stay device-generic: :func:`xp_of` (the
array namespace of a buffer: numpy, cupy or the stand-in's) and :func:`like`
(host data -> a buffer on another buffer's device).  Compat keeps PyTorch's
placement rule: tensors are created on the cpu unless a device is given (or
``torch.set_default_device``), whatever funcgrad's own default device is.
"""

from __future__ import annotations

import numpy as np

from .. import backend
from ..core import Tracer

__all__ = ["device", "xp_of", "like", "to_device", "set_default_device", "get_default_device"]


class device:  # noqa: N801
    """``torch.device('cpu')``, ``torch.device('cuda:1')``, ``torch.device('cuda', 0)``."""

    __slots__ = ("type", "index")

    def __init__(self, type, index=None):  # noqa: A002
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, int):
            type, index = "cuda", type
        else:
            s = str(type)
            if ":" in s:
                s, idx = s.split(":", 1)
                if index is not None:
                    raise RuntimeError(f"type (string) must not include an index because index was passed explicitly: {type}")
                if not idx.isdigit():
                    raise RuntimeError(f"Invalid device string: '{type}'")
                index = int(idx)
            if s not in ("cpu", "cuda", "standin"):
                raise RuntimeError(f"Expected one of cpu, cuda, standin device type at start of device string: {type}")
            type = s
        self.type = type
        self.index = index

    @classmethod
    def _of(cls, buf):
        d = buf.device if isinstance(buf, Tracer) else backend.device_of(buf)  # (a traced value: its device)
        if isinstance(d, cls):  # a transformation's tracer of a Tensor (torch.func over a tensor requiring grad)
            return d
        if d.kind == "cpu":
            return cls("cpu")
        return cls(d.kind, d.index)

    def _backend_device(self):
        if self.type == "cpu":
            return backend.get_device("cpu")
        return backend.get_device(f"{self.type}:{self.index or 0}")

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self):
        idx = "" if self.index is None else f", index={self.index}"
        return f"device(type='{self.type}'{idx})"


def to_device(buf, dev):
    """Move a buffer to ``dev`` (a torch.device/str/None); the same buffer when already there."""
    if dev is None:
        return buf
    return backend.put_buffer(buf, device(dev)._backend_device())


def same_device(buf, dev):
    """Whether ``buf`` lives on ``dev`` (``'cuda'`` means the current device, ``cuda:0``)."""
    return backend.device_of(buf) == device(dev)._backend_device()


def xp_of(buf):
    """The array namespace (numpy, cupy, the stand-in's) a buffer computes with."""
    return backend.namespace_of(buf)


def like(host, buf):
    """Host data (a numpy array or scalar) as a buffer on ``buf``'s device (itself on the cpu)."""
    if type(buf) is np.ndarray or isinstance(buf, np.generic):
        return np.asarray(host)
    return backend.put_buffer(np.asarray(host), backend.device_of(buf))


_DEFAULT = [None]  # torch.set_default_device; None: the cpu


def set_default_device(dev):
    """``torch.set_default_device``: where factory functions put tensors when no device is given."""
    d = None if dev is None or device(dev).type == "cpu" else device(dev)
    if d is not None:
        backend.get_backend(d._backend_device())  # fail now if unavailable
    _DEFAULT[0] = d


def get_default_device():
    return _DEFAULT[0] if _DEFAULT[0] is not None else device("cpu")


def default_for(dev):
    """The device a factory call uses: the one given, else torch's default (not funcgrad's)."""
    return _DEFAULT[0] if dev is None else dev


def mixed_devices(a, b):
    """PyTorch's error for an op given tensors of two devices (``a``, ``b``: devices or their names)."""
    return RuntimeError(f"Expected all tensors to be on the same device, but found at least two devices, {a} and {b}!")


def check_same(*bufs):
    """Raise PyTorch's error for buffers of different devices in one op (0-d cpu ones are scalars)."""
    seen = []
    for b in bufs:
        if type(b) is np.ndarray and b.ndim == 0:
            continue
        d = device._of(b)
        if d not in seen:
            seen.append(d)
    if len(seen) > 1:
        raise mixed_devices(seen[0], seen[1])
