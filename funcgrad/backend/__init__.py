"""Backends, devices, transfers and the dtype policy.

A backend is an array library funcgrad computes with: numpy (the embedded
default, device ``cpu``), cupy (optional, devices ``cuda:N``) and the CPU
stand-in (``standin:0``, a strict cupy look-alike used to prove that no code
path hard-codes numpy).  Primitive implementations never call ``numpy.xxx`` on
data: they ask :func:`namespace_of` for the namespace of their inputs.
"""

from __future__ import annotations

import contextlib
import functools
import os

import ml_dtypes
import numpy as np

from . import standin as _standin, standin_cupy as _standin_cupy
from ..errors import DeviceMismatchError, NoDeviceImplementationError  # noqa: F401  (public here too)

__all__ = [
    "Device", "Backend", "DeviceMismatchError", "devices", "get_device", "namespace_of",
    "backend_of", "device_of", "default_device", "set_default_device", "to_numpy",
    "put_buffer", "is_float_dtype", "is_real_float_dtype", "kind_of", "compute_dtype", "computes_in_float32", "in_float32", "ML_FLOATS", "is_numeric_dtype", "canonical_dtype", "linalg_raises", "NoDeviceImplementationError",
]




class Device:
    """A place where arrays live: ``cpu``, ``cuda:N`` or ``standin:0``."""

    __slots__ = ("kind", "index")

    def __init__(self, kind: str, index: int = 0):
        self.kind = kind
        self.index = index

    def __str__(self):
        return "cpu" if self.kind == "cpu" else f"{self.kind}:{self.index}"

    def __repr__(self):
        return f"Device({str(self)!r})"

    def __eq__(self, other):
        if isinstance(other, str):
            try:
                other = get_device(other)
            except ValueError:
                return False
        return isinstance(other, Device) and (self.kind, self.index) == (other.kind, other.index)

    def __hash__(self):
        return hash((self.kind, self.index))

    @property
    def platform(self):
        return {"cpu": "cpu", "cuda": "gpu", "standin": "standin"}[self.kind]


class Backend:
    """One array library: its namespace, array type and host transfers."""

    __slots__ = ("name", "xp", "kind", "array_type")

    def __init__(self, name, xp, kind, array_type):
        self.name, self.xp, self.kind, self.array_type = name, xp, kind, array_type

    def __repr__(self):
        return f"<backend {self.name}>"

    def device_of(self, buf) -> Device:
        if self.kind == "cuda":
            return Device("cuda", int(buf.device.id))
        return Device(self.kind, 0)

    def to_numpy(self, buf) -> np.ndarray:
        if self.kind == "cpu":
            return np.asarray(buf)
        return self.xp.asnumpy(buf)

    def from_host(self, obj, dtype=None, index=0):
        """Host data (numpy array, list, scalar) -> a new buffer on this backend."""
        if self.kind == "cpu":
            return np.array(obj, dtype=dtype, copy=True)
        d = getattr(obj, "dtype", None) if dtype is None else np.dtype(dtype)
        if d in ML_FLOATS:
            raise NoDeviceImplementationError(
                f"{d} arrays cannot move to a {self.kind} device: cupy has no {d} dtype (it is ml_dtypes', for "
                "numpy); keep them on the cpu, or cast to float32 / float16 first")
        if self.kind == "cuda":
            with self.xp.cuda.Device(index):
                return self.xp.array(obj, dtype=dtype)
        return self.xp.asarray(obj, dtype=dtype)


NUMPY = Backend("numpy", np, "cpu", np.ndarray)
STANDIN = Backend("standin", _standin.namespace, "standin", _standin.StandinArray)

# type of a buffer -> its backend, and -> its namespace (the hot-path lookup)
_BACKEND_OF_TYPE: dict = {}
XP_OF_TYPE: dict = {}


def _register_type(t, be):
    _BACKEND_OF_TYPE[t] = be
    if not issubclass(t, np.generic):
        # numpy scalars are host scalars: like Python numbers, they never decide which
        # namespace an impl uses (np.float64(2) * a_gpu_array runs on the GPU)
        XP_OF_TYPE[t] = be.xp


_register_type(np.ndarray, NUMPY)
_register_type(_standin.StandinArray, STANDIN)
for _t in set(np.sctypeDict.values()):
    _register_type(_t, NUMPY)

_CUPY: Backend | None = None
_CUPY_ERROR: str | None = None


def _cupy() -> Backend:
    """The cupy backend, imported on first use; a clear error if unavailable."""
    global _CUPY, _CUPY_ERROR
    if _CUPY is None:
        if _CUPY_ERROR is None:
            try:
                import cupy  # noqa: PLC0415 - optional dependency, imported on demand

                if cupy.cuda.runtime.getDeviceCount() < 1:
                    raise RuntimeError("cupy found no CUDA device")
                _CUPY = Backend("cupy", cupy, "cuda", cupy.ndarray)
                _register_type(cupy.ndarray, _CUPY)
            except Exception as e:  # ImportError, CUDA driver errors
                _CUPY_ERROR = f"{type(e).__name__}: {e}"
        if _CUPY is None:
            raise RuntimeError(
                f"device 'cuda' is not available ({_CUPY_ERROR}); install the GPU extra "
                "(pip install 'funcgrad[gpu]') on a machine with an NVIDIA GPU, or use device='cpu'"
            )
    return _CUPY


def cuda_available() -> bool:
    try:
        _cupy()
        return True
    except RuntimeError:
        return False


def get_device(spec) -> Device:
    """Parse ``'cpu'``, ``'cuda'``, ``'cuda:1'``, ``'standin'`` or a Device."""
    if isinstance(spec, Device):
        return spec
    if spec is None:
        return default_device()
    if not isinstance(spec, str):
        # torch.device-like objects carry .type/.index
        kind = getattr(spec, "type", None)
        if isinstance(kind, str):
            idx = getattr(spec, "index", None)
            return get_device(kind if idx is None else f"{kind}:{idx}")
        raise TypeError(f"device must be a string like 'cpu' or 'cuda:0', got {spec!r}")
    kind, _, idx = spec.strip().lower().partition(":")
    if kind == "gpu":
        kind = "cuda"
    if kind not in ("cpu", "cuda", "standin"):
        raise ValueError(f"unknown device {spec!r}: expected 'cpu', 'cuda', 'cuda:N' or 'standin'")
    try:
        index = int(idx) if idx else 0
    except ValueError:
        raise ValueError(f"bad device index in {spec!r}") from None
    if kind == "cpu" and index != 0:
        raise ValueError(f"there is one cpu device, got {spec!r}")
    return Device(kind, index)


def get_backend(device) -> Backend:
    d = get_device(device)
    if d.kind == "cpu":
        return NUMPY
    if d.kind == "standin":
        return STANDIN
    be = _cupy()
    n = be.xp.cuda.runtime.getDeviceCount()
    if d.index >= n:
        raise ValueError(f"device {d} does not exist: this machine has {n} CUDA device(s)")
    return be


def devices(kind: str | None = None) -> list[Device]:
    """The devices funcgrad can use (``cpu`` always; ``cuda:N`` with cupy and a GPU)."""
    out = [Device("cpu")]
    if cuda_available():
        out += [Device("cuda", i) for i in range(_CUPY.xp.cuda.runtime.getDeviceCount())]
    if kind is not None:
        out = [d for d in out if d.kind == get_device(kind).kind]
    return out


_DEFAULT = [get_device(os.environ.get("FUNCGRAD_DEFAULT_DEVICE", "cpu"))]


def default_device() -> Device:
    return _DEFAULT[0]


def set_default_device(device) -> Device:
    """Where creation functions and host data go; returns the previous default."""
    d = get_device(device)
    get_backend(d)  # fail now if unavailable
    prev, _DEFAULT[0] = _DEFAULT[0], d
    return prev


def backend_of(buf) -> Backend:
    be = _BACKEND_OF_TYPE.get(type(buf))
    if be is not None:
        return be
    if isinstance(buf, np.generic):
        _register_type(type(buf), NUMPY)
        return NUMPY
    if isinstance(buf, np.ndarray):  # ndarray subclasses (np.matrix, memmap)
        return NUMPY
    raise TypeError(f"not an array buffer: {type(buf).__name__}")


def namespace_of(*bufs):
    """The array namespace (numpy, cupy, stand-in) of the first buffer among bufs."""
    get = _BACKEND_OF_TYPE.get
    for b in bufs:
        be = get(type(b))
        if be is not None:
            return be.xp
    for b in bufs:
        if isinstance(b, (np.generic, np.ndarray)):
            return np
    return np


def device_of(buf) -> Device:
    return backend_of(buf).device_of(buf)


def to_numpy(buf) -> np.ndarray:
    return backend_of(buf).to_numpy(buf)


def put_buffer(buf, device) -> object:
    """Copy a buffer (or host data) to ``device``; no copy if it is already there."""
    d = get_device(device)
    be = get_backend(d)
    src = _BACKEND_OF_TYPE.get(type(buf))
    if src is be and (be.kind != "cuda" or int(buf.device.id) == d.index):
        return buf
    if src is not None and src is not NUMPY:
        buf = src.to_numpy(buf)
    return be.from_host(buf, index=d.index)


def linalg_raises(xp):
    """A context in which ``xp.linalg`` raises numpy's LinAlgError on singular or non positive
    definite matrices, as numpy always does: cupy (and the stand-in, which mimics it) check
    the solver's status only under ``cupyx.errstate(linalg='raise')``."""
    if xp is np:
        return contextlib.nullcontext()
    if xp is _standin.namespace:
        return _standin_cupy.errstate(linalg="raise")
    import cupyx  # noqa: PLC0415 - cupy is loaded whenever xp is cupy

    return cupyx.errstate(linalg="raise")


def check_same_device(bufs, what: str):
    """Raise DeviceMismatchError if bufs live on more than one device."""
    seen = {}
    for b in bufs:
        be = _BACKEND_OF_TYPE.get(type(b))
        if be is not None and type(b) is not np.ndarray and not isinstance(b, np.generic):
            seen.setdefault(str(be.device_of(b)), None)
        elif isinstance(b, np.ndarray):
            seen.setdefault("cpu", None)
    if len(seen) > 1:
        names = " and ".join(seen)
        raise DeviceMismatchError(
            f"{what}: arguments are on different devices ({names}); move them to one device "
            "first, e.g. with funcgrad.device_put(x, 'cpu')"
        )


# --- dtype policy ---------------------------------------------------------------

_FLOAT_KINDS = frozenset("fc")

# ml_dtypes' floats (bfloat16, float8_*): numpy reports their kind as 'V' (user dtypes), so
# every "is this floating?" question goes through kind_of / is_float_dtype, never dtype.kind.
BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
FLOAT8_E4M3FN = np.dtype(ml_dtypes.float8_e4m3fn)
FLOAT8_E5M2 = np.dtype(ml_dtypes.float8_e5m2)
ML_FLOATS = frozenset((BFLOAT16, FLOAT8_E4M3FN, FLOAT8_E5M2))
# the float8 types store values only: numpy's loops on them are too few to compute with
STORAGE_ONLY_FLOATS = frozenset((FLOAT8_E4M3FN, FLOAT8_E5M2))


def kind_of(dtype) -> str:
    """``np.dtype(dtype).kind``, except 'f' for ml_dtypes' floats (bfloat16, float8)."""
    k = getattr(dtype, "kind", None)
    if type(k) is not str:  # a scalar type (np.float32), a name or a Python type
        k = np.dtype(dtype).kind
    return "f" if k == "V" and np.dtype(dtype) in ML_FLOATS else k


def is_float_dtype(dtype) -> bool:
    """Inexact (floating or complex) dtypes are the differentiable ones; bfloat16 is one."""
    d = np.dtype(dtype)
    return d.kind in _FLOAT_KINDS or d in ML_FLOATS


def is_real_float_dtype(dtype) -> bool:
    """Real floating dtypes: float16/32/64 and ml_dtypes' bfloat16 / float8."""
    d = np.dtype(dtype)
    return d.kind == "f" or d in ML_FLOATS


def is_numeric_dtype(dtype) -> bool:
    """Numbers (bool, int, float, complex, ml_dtypes' floats); not objects, strings, void or dates."""
    d = np.dtype(dtype)
    return d.kind in "biufc" or d in ML_FLOATS


def in_float32(impl, *bufs, **params):
    """``impl(*bufs, **params)`` with ml_dtypes float buffers (bfloat16) converted to float32 and float32
    results rounded back to the buffers' promoted dtype.

    For the primitives numpy has no good bfloat16 loop for: matmul (numpy returns float32), sums and
    products (numpy accumulates in bfloat16: a sum of 1000 ones is 256), linalg.  PyTorch accumulates
    bfloat16 in float32 too.  Impls call it after testing ``x.dtype in ML_FLOATS`` (one set lookup on
    their fast path); :func:`computes_in_float32` wraps a whole impl instead.
    """
    low = [b.dtype for b in bufs if getattr(b, "dtype", None) in ML_FLOATS]
    if any(d in STORAGE_ONLY_FLOATS for d in low):
        name = getattr(impl, "__name__", "impl").strip("_").removesuffix("_impl")
        raise TypeError(f"{name}: {low[0]} arrays hold values only (storage and casts); cast them to float32 "
                        "(or bfloat16) to compute")
    target = np.result_type(*[b.dtype for b in bufs if hasattr(b, "dtype") and is_float_dtype(b.dtype)])
    wide = [b.astype(np.float32) if getattr(b, "dtype", None) in ML_FLOATS else b for b in bufs]
    out = impl(*wide, **params)
    if isinstance(out, (tuple, list)):
        return type(out)(_round_back(o, target) for o in out)
    return _round_back(out, target)


def computes_in_float32(impl):
    """``impl`` made to compute ml_dtypes float arguments with :func:`in_float32` (for impls whose own
    cost dwarfs the extra call: linalg, einsum)."""
    @functools.wraps(impl)  # keeps the impl's module: docs/numpy-coverage.md names the family by it
    def wrapped(*bufs, **params):
        for b in bufs:
            if getattr(b, "dtype", None) in ML_FLOATS:
                return in_float32(impl, *bufs, **params)
        return impl(*bufs, **params)

    return wrapped


def _round_back(out, target):
    dt = getattr(out, "dtype", None)
    if dt is not None and dt == np.float32 and target in ML_FLOATS:
        return out.astype(target)
    return out


def compute_dtype(dtype):
    """The dtype numpy computes an ml_dtypes float in (float32: its loops for bfloat16 are slow
    or missing, and sums in bfloat16 lose everything past 256); other dtypes compute as themselves."""
    d = np.dtype(dtype)
    return np.dtype(np.float32) if d in ML_FLOATS else d


def canonical_dtype(dtype):
    return None if dtype is None else np.dtype(dtype)
