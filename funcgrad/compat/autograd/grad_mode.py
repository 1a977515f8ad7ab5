"""Grad mode: no_grad / enable_grad / set_grad_enabled / inference_mode (thread-local).

Each is a context manager and a decorator, as in PyTorch.
"""

from __future__ import annotations

import functools
import threading

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled"]


class _State(threading.local):
    enabled = True
    inference = False
    anomaly = False


STATE = _State()


def is_grad_enabled():
    return STATE.enabled


def is_inference_mode_enabled():
    return STATE.inference


class _Mode:
    """Base: a context manager that sets grad mode, usable as a decorator."""

    _target = True

    def __enter__(self):
        self._prev = (STATE.enabled, STATE.inference)
        self._apply()

    def _apply(self):
        STATE.enabled = self._target

    def __exit__(self, *exc):
        STATE.enabled, STATE.inference = self._prev
        return False

    def __call__(self, fn):
        mode = self

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with mode.clone():
                return fn(*args, **kwargs)

        return wrapper

    def clone(self):
        return type(self)()


class no_grad(_Mode):  # noqa: N801
    """Operations inside record no graph (results have requires_grad=False)."""

    _target = False


class enable_grad(_Mode):  # noqa: N801
    """Re-enables recording inside no_grad."""

    _target = True


class set_grad_enabled(_Mode):  # noqa: N801
    """``set_grad_enabled(False)``: a context manager, or a plain call setting the mode."""

    def __init__(self, mode):
        self._target = bool(mode)
        self._prev = (STATE.enabled, STATE.inference)
        STATE.enabled = self._target  # a plain call sets the mode (as PyTorch)

    def __enter__(self):
        STATE.enabled = self._target

    def clone(self):
        prev = STATE.enabled
        m = set_grad_enabled(self._target)
        STATE.enabled = prev
        return m


class inference_mode(_Mode):  # noqa: N801
    """Like no_grad (tensors made inside are marked as inference tensors)."""

    def __init__(self, mode=True):
        self._mode = bool(mode)

    def _apply(self):
        if self._mode:
            STATE.enabled = False
            STATE.inference = True

    def clone(self):
        return inference_mode(self._mode)
