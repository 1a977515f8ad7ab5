"""torch.save / torch.load: pickles whose tensors are stored as raw storages.

The file holds the saved object's pickle (the payload) and, beside it, the raw
bytes of every tensor storage (see ``_records`` for the layout).  In the payload
every Tensor is a persistent id ``(kind, storage id, dtype, shape, strides, byte
offset, requires_grad, location)``; tensors saved together that share memory
(views) share one storage, so the sharing survives a round trip.

``load`` is weights-only by default (``weights_only=None`` means True, as in
PyTorch 2.6+): the payload is read by ``_unpickler.WeightsOnlyUnpickler``, which
resolves only allowlisted globals and refuses every other way a pickle reaches
code, and every tensor record is validated (numeric dtypes only, the view inside
its storage) before numpy sees it.  ``TORCH_FORCE_WEIGHTS_ONLY_LOAD=1`` forces
weights-only loads even where ``weights_only=False`` is passed;
``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1`` turns the default off where the caller did
not pass ``weights_only``.  Writes to a path go through
``funcgrad._atomic_file.atomic_write`` (a temporary file renamed over the target:
the umask and an existing file's mode apply, symlinks are followed, leftovers of a
killed save are removed by the next save).
"""

from __future__ import annotations

import io
import mmap as _mmap
import os
import pickle
import warnings

import numpy as np

from ... import backend
from ...backend import kind_of
from ..._atomic_file import atomic_write
from ..tensor import Tensor, wrap
from . import _records
from ._records import MAGIC, MAGIC_V1
from ._safetensors import is_safetensors_path, load_safetensors, save_safetensors
from ._unpickler import (
    WeightsOnlyUnpickler, add_safe_globals, clear_safe_globals, get_safe_globals, get_unsafe_globals_in_checkpoint,
    safe_globals, weights_only_message,
)

__all__ = ["save", "load", "add_safe_globals", "clear_safe_globals", "get_safe_globals",
           "get_unsafe_globals_in_checkpoint", "safe_globals", "DEFAULT_PROTOCOL"]

DEFAULT_PROTOCOL = 2
_TRUE = ("1", "y", "yes", "true")

from .options import SourceChangeWarning, get_default_mmap_options, set_default_mmap_options  # noqa: E402,F401

# --- save ----------------------------------------------------------------------------------


def _root(buf):
    from ..tensor import root  # noqa: PLC0415

    return root(buf)


def _addr(a):
    return a.__array_interface__["data"][0]


class _Pickler(pickle.Pickler):
    def __init__(self, file, protocol):
        super().__init__(file, protocol)
        self.storages = {}  # storage key -> its (contiguous) root array
        self._keys = {}
        self._keep = []  # the roots stay alive while pickling, so their ids stay unique
        self._device_roots = {}  # (device, address, bytes) of a device storage -> its host copy

    def _host_view(self, buf):
        """A host array with ``buf``'s values; device views of one storage view one host copy of it
        (copied once per save), so the file keeps them sharing, as numpy views do."""
        if isinstance(buf, np.ndarray):
            return buf
        from ..tensor import _addr as dev_addr, root  # noqa: PLC0415

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
            self.storages[key] = root
            self._keep.append(root)
        return key, _addr(host) - _addr(root), host

    def persistent_id(self, obj):
        if not isinstance(obj, Tensor):
            return None
        key, offset, host = self._storage(self._host_view(obj._value), True)
        kind = "param" if obj._is_param else "tensor"
        dt = host.dtype.name if host.dtype in backend.ML_FLOATS else host.dtype.str  # '<V2' would be void
        return (kind, key, dt, tuple(host.shape), tuple(host.strides), offset, bool(obj.requires_grad),
                str(obj.device))


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Write ``obj`` (tensors, state_dicts, optimizer state, whole modules) to a path or a binary file.

    A path ending in ``.safetensors`` writes a state_dict (a dict of str -> Tensor) in the
    safetensors format instead (needs the ``safetensors`` package).
    """
    if pickle_module is not pickle:
        raise ValueError(f"torch.save: funcgrad.compat pickles with the standard pickle module only, got "
                         f"pickle_module={getattr(pickle_module, '__name__', pickle_module)!r}")
    if is_safetensors_path(f):
        save_safetensors(obj, os.fspath(f))
        return
    body = io.BytesIO()
    p = _Pickler(body, pickle_protocol)
    p.dump(obj)
    if hasattr(f, "write"):
        _records.write_container(f, p.storages, body.getvalue())
        return
    with atomic_write(os.fspath(f)) as out:
        _records.write_container(out, p.storages, body.getvalue())


# --- load -------------------------------------------------------------------------------

def _target_device(location, map_location):
    if map_location is None:
        return location
    if isinstance(map_location, dict):
        return map_location.get(location, location)
    return str(map_location)


def _on_device(t, container, key, offset, dev, cache):
    """The tensor as a view of its storage copied once to ``dev``: views saved together stay views."""
    from ..device import device as _device, xp_of  # noqa: PLC0415

    d = _device(dev)._backend_device()
    raw = cache.get((key, str(d)))
    if raw is None:
        raw = cache[(key, str(d))] = backend.put_buffer(container.storage(key), d)
    buf = t._value
    if not buf.size or offset % buf.dtype.itemsize or (raw.size - offset) % buf.dtype.itemsize:
        return t.to(dev)
    flat = raw[offset:].view(buf.dtype)
    return wrap(xp_of(flat).lib.stride_tricks.as_strided(flat, buf.shape, buf.strides))


def _tensor(pid, container, map_location, cache):
    kind, key, dtype, shape, strides, offset, req, location = _records.check_record(pid, container)
    if 0 in shape:
        buf = np.empty(shape, dtype)
    else:
        buf = np.ndarray(shape, dtype, buffer=container.storage(key), offset=offset, strides=strides)
    t = wrap(buf)
    if callable(map_location) and not isinstance(map_location, (dict, str)):
        r = map_location(t, location)
        t = t if r is None else r
    else:
        dev = _target_device(location, map_location)
        if dev != "cpu":
            t = _on_device(t, container, key, offset, dev, cache)
    if req and not (kind_of(dtype) in "fc"):
        raise _records.CorruptFileError(f"a {dtype} tensor in this file is marked requires_grad; only floating "
                                     "point and complex tensors can require gradients")
    if kind == "param":
        from ..nn.parameter import Parameter  # noqa: PLC0415

        return Parameter(t, req)
    if req:
        t.requires_grad_(True)
    return t


def _make_unpickler(file, container, weights_only, map_location, pickle_load_args):
    cache = {}

    def persistent_load(pid):
        return _tensor(pid, container, map_location, cache)

    if weights_only:
        u = WeightsOnlyUnpickler(file, encoding="utf-8")
    else:
        u = pickle.Unpickler(file, **{"encoding": "utf-8", **pickle_load_args})
    u.persistent_load = persistent_load
    return u


def _weights_only_mode(weights_only, pickle_module):
    """PyTorch's rules for the weights_only default, its two environment variables and pickle_module."""
    not_set = weights_only is None
    if not_set:
        weights_only = pickle_module is None
    force = os.getenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "0").lower() in _TRUE
    force_no = os.getenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0").lower() in _TRUE
    if force and force_no:
        raise RuntimeError("Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD` or `TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` "
                           "should be set, but both were set.")
    if force:
        weights_only = True
    elif force_no and not_set:
        warnings.warn("Environment variable TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected, since the `weights_only` "
                      "argument was not explicitly passed to `torch.load`, forcing weights_only=False.",
                      UserWarning, stacklevel=3)
        weights_only = False
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    if not weights_only and pickle_module not in (None, pickle):
        raise ValueError(f"torch.load: funcgrad.compat unpickles with the standard pickle module only, got "
                         f"pickle_module={getattr(pickle_module, '__name__', pickle_module)!r}")
    return bool(weights_only)


def _read_bytes(f, use_mmap):
    """The file's contents: a copy-on-write map of it (``mmap=True``, paths only) or a bytearray."""
    if hasattr(f, "read"):
        if use_mmap:
            raise ValueError("f must be a file path in order to use the mmap argument")
        return bytearray(f.read())
    shared = use_mmap and get_default_mmap_options() == _mmap.MAP_SHARED  # writes go to the file
    with open(os.fspath(f), "r+b" if shared else "rb") as fh:
        if use_mmap:
            size = os.fstat(fh.fileno()).st_size
            if size == 0:
                return bytearray()
            return _mmap.mmap(fh.fileno(), size, access=_mmap.ACCESS_WRITE if shared else _mmap.ACCESS_COPY)
        return bytearray(fh.read())


def read_payload(f):
    """The payload pickle of a save file (or the whole file, for a plain pickle)."""
    data = _read_bytes(f, False)
    if bytes(data[:len(MAGIC)]) in (MAGIC, MAGIC_V1):
        return _records.read_container(data).payload
    return bytes(data)


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Read what :func:`save` wrote.  ``map_location``: a device/str, a dict ``{'cuda:1': 'cpu'}``, or
    ``fn(tensor, location)``.  ``weights_only`` (default: True, see the module docstring) refuses
    anything but tensors, plain containers and allowlisted globals with ``pickle.UnpicklingError``,
    running nothing from the file.  ``mmap=True`` maps the file's storages copy-on-write instead of
    reading them (writes to the tensors do not reach the file).  A path ending in ``.safetensors``
    reads a safetensors state_dict (which can hold no code)."""
    weights_only = _weights_only_mode(weights_only, pickle_module)
    if pickle_load_args and weights_only:
        warnings.warn("pickle_load_args only works if `weights_only=False`.", stacklevel=2)
    if is_safetensors_path(f):
        if mmap:
            raise ValueError("torch.load: mmap=True applies to files written by torch.save; read .safetensors "
                             "files with mmap=None/False")
        return load_safetensors(os.fspath(f), map_location)
    data = _read_bytes(f, bool(mmap))
    head = bytes(data[:len(MAGIC)])
    if head in (MAGIC, MAGIC_V1):
        container = _records.read_container(data)
    elif mmap:
        raise RuntimeError("mmap can only be used with files saved with `torch.save`; this file is a plain pickle")
    else:  # a plain pickle (not written by save): only with weights_only=False does any of it run
        container = _records.Container(bytes(data), {})
    u = _make_unpickler(io.BytesIO(container.payload), container, weights_only, map_location, pickle_load_args)
    if not weights_only:
        return u.load()
    try:
        return u.load()
    except _records.CorruptFileError:
        raise
    except pickle.UnpicklingError as e:
        raise pickle.UnpicklingError(weights_only_message(e)) from None
    except Exception as e:  # a malformed pickle: whatever the opcode machine tripped on
        raise pickle.UnpicklingError(weights_only_message(f"{type(e).__name__}: {e}")) from None
