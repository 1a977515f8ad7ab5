"""Removable hook handles (``handle.remove()``)."""

from __future__ import annotations

import itertools

__all__ = ["RemovableHandle"]

_IDS = itertools.count()


class RemovableHandle:
    """Returned by ``register_hook``: ``remove()`` unregisters the hook (also as a context manager)."""

    def __init__(self, hooks, fn):
        self.id = next(_IDS)
        self._hooks = hooks
        self._fn = fn
        hooks.append(fn)

    def remove(self):
        try:
            self._hooks.remove(self._fn)
        except ValueError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
