"""torch.serialization's load options: the mmap flags of ``load(mmap=True)``; SourceChangeWarning."""

from __future__ import annotations

import mmap as _mmap

__all__ = ["get_default_mmap_options", "set_default_mmap_options", "SourceChangeWarning"]

_FLAGS = [_mmap.MAP_PRIVATE]


class SourceChangeWarning(Warning):
    """PyTorch warns it when a pickled module's source differs from the current one (filterable by class)."""


def get_default_mmap_options():
    """The flags ``load(mmap=True)`` maps files with: ``mmap.MAP_PRIVATE`` (copy-on-write, the default) or
    ``mmap.MAP_SHARED`` (writes to the loaded tensors go to the file)."""
    return _FLAGS[0]


class set_default_mmap_options:
    """``set_default_mmap_options(flags)``: sets the flags now; as a context manager, restores them on exit."""

    def __init__(self, flags):
        if flags != _mmap.MAP_PRIVATE and flags != _mmap.MAP_SHARED:
            raise ValueError("Invalid argument in function set_default_mmap_options, expected mmap.MAP_PRIVATE or "
                             f"mmap.MAP_SHARED, but got {flags}")
        self.prev, _FLAGS[0] = _FLAGS[0], flags

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        _FLAGS[0] = self.prev
