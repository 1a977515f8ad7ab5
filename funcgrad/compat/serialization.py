"""torch.save / torch.load: pickles whose tensors are stored as raw storages.

File layout: a magic line, then a pickle of ``(storages, payload)`` made only
of dicts, ints and bytes: ``storages`` maps a storage id to its raw bytes,
``payload`` is the object's pickle, in which every Tensor is a persistent id
``(kind, storage id, dtype, shape, strides, byte offset, requires_grad,
location)``.  Tensors saved together that share memory (views) share one
storage, so the sharing survives a round trip.

``load`` defaults to ``weights_only=True``: the payload is read by an
unpickler whose ``find_class`` allows only plain containers (OrderedDict,
set, ...), Size, dtypes, devices, and classes registered with :func:`add_safe_globals`;
anything else (a pickled Module, ``os.system``) raises
``pickle.UnpicklingError`` before any of it runs.  Writes to a path are
atomic: a temporary file in the same folder, then ``os.replace``.
"""

from __future__ import annotations

import importlib
import io
import os
import pickle
import tempfile

import numpy as np

from .. import backend
from .tensor import Tensor, wrap

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "DEFAULT_PROTOCOL"]

DEFAULT_PROTOCOL = 2
MAGIC = b"FUNCGRAD-COMPAT-SAVE 1\n"

_SAFE = {
    ("collections", "OrderedDict"), ("builtins", "set"), ("builtins", "frozenset"), ("builtins", "slice"),
    ("builtins", "complex"), ("builtins", "bytearray"), ("builtins", "range"),
    ("funcgrad.compat.tensor", "Size"), ("funcgrad.compat.dtypes", "as_dtype"), ("funcgrad.compat.device", "device"),
}
_USER_SAFE: dict = {}


def add_safe_globals(safe_globals):
    """Allow these classes/functions in ``load(..., weights_only=True)`` payloads."""
    for g in safe_globals:
        _USER_SAFE[(g.__module__, g.__qualname__)] = g


def get_safe_globals():
    return list(_USER_SAFE.values())


# --- save ----------------------------------------------------------------------------------

def _root(buf):
    from .tensor import root  # noqa: PLC0415

    return root(buf)


def _addr(a):
    return a.__array_interface__["data"][0]


class _Pickler(pickle.Pickler):
    def __init__(self, file, protocol):
        super().__init__(file, protocol)
        self.storages = {}
        self._keys = {}
        self._keep = []  # the roots stay alive while pickling, so their ids stay unique
        self._device_roots = {}  # (device, address, bytes) of a device storage -> its host copy

    def _host_view(self, buf):
        """A host array with ``buf``'s values; device views of one storage view one host copy of it
        (copied once per save), so the file keeps them sharing, as numpy views do."""
        if isinstance(buf, np.ndarray):
            return buf
        from .tensor import _addr as dev_addr, root  # noqa: PLC0415

        r = root(buf)
        k = (str(backend.device_of(r)), dev_addr(r), r.nbytes)
        host_root = self._device_roots.get(k)
        if host_root is None:
            host_root = self._device_roots[k] = np.ascontiguousarray(backend.to_numpy(r))
            self._keep.append(r)
        if not buf.size:
            return np.empty(buf.shape, buf.dtype)
        return np.ndarray(buf.shape, buf.dtype, buffer=host_root, offset=dev_addr(buf) - dev_addr(r),
                          strides=buf.strides)

    def _storage(self, host, shareable):
        root = _root(host) if shareable else host
        if not (root.flags.c_contiguous or root.flags.f_contiguous):
            root = host = np.ascontiguousarray(host)
        key = self._keys.get(id(root))
        if key is None:
            key = self._keys[id(root)] = len(self._keys)
            self.storages[key] = root.tobytes(order="A")
            self._keep.append(root)
        return key, _addr(host) - _addr(root), host

    def persistent_id(self, obj):
        if not isinstance(obj, Tensor):
            return None
        key, offset, host = self._storage(self._host_view(obj._value), True)
        kind = "param" if obj._is_param else "tensor"
        return (kind, key, host.dtype.str, tuple(host.shape), tuple(host.strides), offset, bool(obj.requires_grad),
                str(obj.device))


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Write ``obj`` (tensors, state_dicts, optimizer state, whole modules) to a path or a binary file.

    A path ending in ``.safetensors`` writes a state_dict (a dict of str -> Tensor) in the
    safetensors format instead (needs the ``safetensors`` package).
    """
    if _is_safetensors(f):
        _write_atomic(os.fspath(f), _safetensors_bytes(obj))
        return
    body = io.BytesIO()
    p = _Pickler(body, pickle_protocol)
    p.dump(obj)
    data = MAGIC + pickle.dumps((p.storages, body.getvalue()), protocol=4)
    if hasattr(f, "write"):
        f.write(data)
        return
    _write_atomic(os.fspath(f), data)


def _write_atomic(path, data):
    """Write ``data`` to ``path`` through a temporary file in the same folder and os.replace:
    a crash mid-write never leaves a truncated file under the target name."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-" + os.path.basename(path) + "-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# --- safetensors ---------------------------------------------------------------------------

def _is_safetensors(f):
    return not hasattr(f, "write") and not hasattr(f, "read") and os.fspath(f).endswith(".safetensors")


def _safetensors_module():
    try:
        import safetensors.numpy as st  # noqa: PLC0415 - optional dependency
    except ImportError:
        raise ImportError(
            "reading and writing .safetensors files needs the safetensors package: pip install safetensors "
            "(or pip install 'funcgrad[safetensors]')"
        ) from None
    return st


def _safetensors_bytes(obj):
    st = _safetensors_module()
    if not isinstance(obj, dict):
        raise ValueError(f"a .safetensors file holds a state_dict (a dict of str -> Tensor), got {type(obj).__name__}")
    arrays = {}
    for k, v in obj.items():
        if not isinstance(k, str) or not isinstance(v, Tensor):
            raise ValueError(f".safetensors: entry {k!r} is a {type(v).__name__}; only str -> Tensor entries can be saved")
        arrays[k] = np.array(v.detach().cpu().numpy(), order="C")  # (ascontiguousarray makes 0-d 1-d)
    return st.save(arrays)


def _load_safetensors(path, map_location):
    from .creation import from_numpy  # noqa: PLC0415

    st = _safetensors_module()
    with open(path, "rb") as fh:
        arrays = st.load(fh.read())
    out = {k: from_numpy(np.array(a)) for k, a in arrays.items()}
    if map_location is not None and not callable(map_location) and not isinstance(map_location, dict):
        out = {k: t.to(map_location) for k, t in out.items()}
    return out


# --- load -------------------------------------------------------------------------------

_WEIGHTS_ONLY_MSG = (
    "Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only "
    "if you trust the source of the checkpoint.\n\t(1) Re-running `torch.load` with `weights_only` set to `False` "
    "will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a "
    "trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please check the recommended steps in "
    "the following error message.\n\tWeightsUnpickler error: {}")


class _NoGlobals(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"not a funcgrad.compat save file (it refers to {module}.{name})")


def _restricted_find(module, name):
    if (module, name) in _USER_SAFE:
        return _USER_SAFE[(module, name)]
    if (module, name) in _SAFE:
        return getattr(importlib.import_module(module), name)
    raise pickle.UnpicklingError(_WEIGHTS_ONLY_MSG.format(
        f"Unsupported global: GLOBAL {module}.{name} was not an allowed global by default. Please use "
        f"`torch.serialization.add_safe_globals([{name}])` to allowlist this global if you trust this class/"
        "function."))


def _target_device(location, map_location):
    if map_location is None:
        return location
    if isinstance(map_location, dict):
        return map_location.get(location, location)
    return str(map_location)


def _make_unpickler(file, storages, weights_only, map_location):
    cache = {}

    def storage(key):
        if key not in cache:
            cache[key] = np.frombuffer(bytearray(storages[key]), dtype=np.uint8)
        return cache[key]

    def _on_device(t, key, offset, dev):
        """The tensor as a view of its storage copied once to ``dev``: views saved together stay views."""
        from .device import device as _device, xp_of  # noqa: PLC0415

        d = _device(dev)._backend_device()
        k = (key, str(d))
        raw = cache.get(k)
        if raw is None:
            raw = cache[k] = backend.put_buffer(storage(key), d)
        buf = t._value
        if not buf.size or offset % buf.dtype.itemsize or (raw.size - offset) % buf.dtype.itemsize:
            return t.to(dev)
        flat = raw[offset:].view(buf.dtype)
        return wrap(xp_of(flat).lib.stride_tricks.as_strided(flat, buf.shape, buf.strides))

    def persistent_load(pid):
        if not (isinstance(pid, tuple) and len(pid) == 8 and pid[0] in ("tensor", "param")):
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r:.80}")
        kind, key, dt, shape, strides, offset, req, location = pid
        if key not in storages:
            raise pickle.UnpicklingError(f"missing storage {key!r}")
        buf = np.ndarray(shape, np.dtype(dt), buffer=storage(key), offset=offset, strides=strides)
        t = wrap(buf)
        if callable(map_location) and not isinstance(map_location, (dict, str)):
            r = map_location(t, location)
            t = t if r is None else r
        else:
            dev = _target_device(location, map_location)
            if dev != "cpu":
                t = _on_device(t, key, offset, dev)
        if kind == "param":
            from .nn.parameter import Parameter  # noqa: PLC0415

            return Parameter(t, req)
        if req:
            t.requires_grad_(True)
        return t

    class _Unpickler(pickle.Unpickler):
        def find_class(self, module, name):
            if weights_only:
                return _restricted_find(module, name)
            return super().find_class(module, name)

    u = _Unpickler(file)
    u.persistent_load = persistent_load
    return u


def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None, **pickle_load_args):
    """Read what :func:`save` wrote.  ``map_location``: a device/str, a dict ``{'cuda:1': 'cpu'}``, or
    ``fn(tensor, location)``.  ``weights_only=True`` (default) refuses anything but tensors and plain
    containers with ``pickle.UnpicklingError``, running nothing from the file.  A path ending
    in ``.safetensors`` reads a safetensors state_dict (which can hold no code)."""
    if _is_safetensors(f):
        return _load_safetensors(os.fspath(f), map_location)
    if hasattr(f, "read"):
        data = f.read()
    else:
        with open(os.fspath(f), "rb") as fh:
            data = fh.read()
    if not data.startswith(MAGIC):
        # a plain pickle (not written by save): only with weights_only=False does any of it run
        u = _make_unpickler(io.BytesIO(data), {}, weights_only, map_location)
        try:
            return u.load()
        except pickle.UnpicklingError:
            raise
        except Exception as e:
            if weights_only:
                raise pickle.UnpicklingError(_WEIGHTS_ONLY_MSG.format(e)) from e
            raise
    try:
        storages, payload = _NoGlobals(io.BytesIO(data[len(MAGIC):])).load()
    except Exception as e:
        raise pickle.UnpicklingError(f"corrupt funcgrad.compat save file: {e}") from e
    return _make_unpickler(io.BytesIO(payload), storages, weights_only, map_location).load()
