"""torch's runtime switches and build facts: deterministic debug mode, warn-always,
flush-denormal, inter-op threads, anomaly mode (functional forms), autocast setters, and the
``has_*`` build flags (as true of funcgrad's numpy backend: LAPACK and FFT yes, MKL/OpenMP no).
"""

from __future__ import annotations

from . import settings
from .amp import autocast_mode as _ac
from .autograd.grad_mode import STATE

__all__ = ["get_deterministic_debug_mode", "set_deterministic_debug_mode", "set_warn_always",
           "is_warn_always_enabled", "set_flush_denormal", "get_num_interop_threads", "set_num_interop_threads",
           "init_num_threads", "is_anomaly_enabled", "set_anomaly_enabled", "is_anomaly_check_nan_enabled",
           "set_autocast_enabled", "set_autocast_cpu_enabled", "set_autocast_cpu_dtype", "set_autocast_gpu_dtype",
           "has_lapack", "has_spectral", "has_mkl", "has_openmp", "newaxis"]

has_lapack = True  # numpy.linalg / scipy.linalg
has_spectral = True  # numpy.fft (pocketfft)
has_mkl = False
has_openmp = False
newaxis = None
_FLAGS = {"warn_always": False, "check_nan": True, "enabled_no_nan": False}


def set_deterministic_debug_mode(debug_mode):
    """0 / "default": off; 1 / "warn": deterministic, warning only; 2 / "error": deterministic."""
    modes = {"default": 0, "warn": 1, "error": 2}
    if isinstance(debug_mode, str):
        if debug_mode not in modes:
            raise RuntimeError(f"invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               f"{debug_mode}")
        debug_mode = modes[debug_mode]
    if not isinstance(debug_mode, int) or isinstance(debug_mode, bool):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    settings.use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode():
    if not settings.are_deterministic_algorithms_enabled():
        return 0
    return 1 if settings.is_deterministic_algorithms_warn_only_enabled() else 2


def set_warn_always(b):
    """Recorded and reported back (compat's warnings are Python's: the warnings filters decide)."""
    _FLAGS["warn_always"] = bool(b)


def is_warn_always_enabled():
    return _FLAGS["warn_always"]


def set_flush_denormal(mode):
    """False: numpy offers no switch for the CPU's flush-to-zero mode (PyTorch returns False where
    the CPU does not support it)."""
    return False


def get_num_interop_threads():
    return 1


def set_num_interop_threads(n):
    """Accepted for compatibility, as set_num_threads (compat runs one inter-op thread)."""
    if not isinstance(n, int) or n < 1:
        raise RuntimeError("Expected positive number of threads")


def init_num_threads():
    """Nothing to initialise (numpy's BLAS manages its threads)."""


def is_anomaly_enabled():
    return bool(STATE.anomaly) or _FLAGS["enabled_no_nan"]


def set_anomaly_enabled(enabled, check_nan=True):
    """compat's anomaly mode is its NaN check: enabling it with check_nan=False records the flag
    (is_anomaly_check_nan_enabled reports it) and leaves the NaN check off."""
    STATE.anomaly = bool(enabled) and bool(check_nan)
    _FLAGS["check_nan"] = bool(check_nan)
    _FLAGS["enabled_no_nan"] = bool(enabled) and not check_nan


def is_anomaly_check_nan_enabled():
    return _FLAGS["check_nan"]


def set_autocast_enabled(device_type, enabled=None):
    """``set_autocast_enabled('cpu', True)``; the legacy ``set_autocast_enabled(True)`` is CUDA's."""
    if enabled is None:
        device_type, enabled = "cuda", device_type
    _ac._check_device_type(device_type)
    _ac._state()[device_type][0] = bool(enabled)


def set_autocast_cpu_enabled(enabled):
    set_autocast_enabled("cpu", enabled)


def set_autocast_cpu_dtype(dtype):
    _ac.set_autocast_dtype("cpu", dtype)


def set_autocast_gpu_dtype(dtype):
    _ac.set_autocast_dtype("cuda", dtype)
