"""detect_anomaly / set_detect_anomaly: name the forward op whose backward produced NaN.

While enabled, each recorded node keeps the stack where its forward op ran;
the engine checks every gradient a node returns and raises a RuntimeError
naming the node (``Function 'DivBackward0' returned nan values in its 0th
output.``) and showing where the forward operation was created.
"""

from __future__ import annotations

import warnings

from .grad_mode import STATE

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled"]


def is_anomaly_enabled():
    return STATE.anomaly


class detect_anomaly:  # noqa: N801
    """Context manager / decorator enabling anomaly detection."""

    def __init__(self, check_nan=True):
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime and should only "
                      "be enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self):
        self._prev = STATE.anomaly
        STATE.anomaly = self.check_nan

    def __exit__(self, *exc):
        STATE.anomaly = self._prev
        return False

    def __call__(self, fn):
        import functools  # noqa: PLC0415

        @functools.wraps(fn)
        def wrapper(*a, **k):
            with self:
                return fn(*a, **k)
        return wrapper


class set_detect_anomaly:  # noqa: N801
    def __init__(self, mode, check_nan=True):
        self._prev = STATE.anomaly
        STATE.anomaly = bool(mode)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        STATE.anomaly = self._prev
        return False
