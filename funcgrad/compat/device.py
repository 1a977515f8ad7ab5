"""torch.device: 'cpu' or 'cuda:N' (cupy buffers), mapped to funcgrad's backend devices."""

from __future__ import annotations

from .. import backend

__all__ = ["device"]


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
                index = int(idx)
            if s not in ("cpu", "cuda", "standin"):
                raise RuntimeError(f"Expected one of cpu, cuda device type at start of device string: {type}")
            type = s
        self.type = type
        self.index = index

    @classmethod
    def _of(cls, buf):
        d = backend.device_of(buf)
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
    d = device(dev)
    if device._of(buf) == d or (d.type == "cpu" and backend.device_of(buf).kind == "cpu"):
        return buf
    return backend.put_buffer(buf, d._backend_device())
