"""The save file's container and its tensor records, read as untrusted input.

Layout (version 2)::

    b"FUNCGRAD-COMPAT-SAVE 2\\n"
    header length H (8 bytes, little-endian)
    header: a pickle of {"storages": {key: (offset, nbytes)}, "payload": bytes}, built only
            from dicts, tuples, ints and bytes (read by an unpickler that resolves no global)
    padding to a 64-byte boundary, then each storage's raw bytes at its offset (64-aligned)

``payload`` is the saved object's pickle, in which every tensor is a persistent id
``(kind, storage key, dtype str, shape, strides, byte offset, requires_grad, location)``.
Because the raw bytes sit in the file as they are, ``load(..., mmap=True)`` maps them
(copy-on-write) instead of reading them.  Version 1 files (storages pickled inline as
bytes) are still read.

Everything taken from a file is checked before numpy sees it: the dtype must be one of
the numeric dtypes tensors have (bool, int, uint, float, complex, and bfloat16/float8 named
as such: never object, string, void or structured, whose "values" would be pointers or
arbitrary records), the shape
and strides integers, and the view inside its storage.
"""

from __future__ import annotations

import io
import pickle
import re

import numpy as np

from ...backend import ML_FLOATS

__all__ = ["MAGIC", "MAGIC_V1", "Container", "CorruptFileError", "check_record", "read_container", "write_container"]

MAGIC_V1 = b"FUNCGRAD-COMPAT-SAVE 1\n"
MAGIC = b"FUNCGRAD-COMPAT-SAVE 2\n"
_ALIGN = 64
_DTYPE_STR = re.compile(r"[<>|=](b1|[iu][1248]|f[248]|c(8|16))")
# ml_dtypes' floats are recorded by name: their numpy dtype strings ('<V2', '<V1') are void's
ML_FLOAT_NAMES = {d.name: d for d in ML_FLOATS}
_MAX_NDIM = 64


class CorruptFileError(pickle.UnpicklingError):
    """A file that is not a well-formed save file (truncated, damaged or crafted)."""


def _corrupt(msg):
    return CorruptFileError(f"corrupt funcgrad.compat save file: {msg}")


def _align(n):
    return -(-n // _ALIGN) * _ALIGN


class _NoGlobals(pickle.Unpickler):
    def find_class(self, module, name):
        raise CorruptFileError(f"not a funcgrad.compat save file (its header refers to {module}.{name})")


def write_container(f, roots, payload):
    """Write the version-2 layout to the binary file ``f``; ``roots`` maps storage key -> contiguous array."""
    table, pos = {}, 0
    for key, root in roots.items():
        pos = _align(pos)
        table[key] = (pos, root.nbytes)
        pos += root.nbytes
    header = pickle.dumps({"storages": table, "payload": payload}, protocol=4)
    start = _align(len(MAGIC) + 8 + len(header))
    f.write(MAGIC + len(header).to_bytes(8, "little") + header)
    written = len(MAGIC) + 8 + len(header)
    for key, root in roots.items():
        at = start + table[key][0]
        f.write(b"\0" * (at - written))
        f.write(root.tobytes(order="A"))
        written = at + root.nbytes


def _is_int(v):
    return type(v) is int


class Container:
    """The storages and payload of a file: ``storage(key)`` is a uint8 array over the file's bytes."""

    def __init__(self, payload, storages):
        self.payload = payload
        self._storages = storages  # key -> () -> uint8 array
        self._cache = {}

    def __contains__(self, key):
        return key in self._storages

    def storage(self, key):
        if key not in self._cache:
            self._cache[key] = self._storages[key]()
        return self._cache[key]


def _header(buf):
    if len(buf) < len(MAGIC) + 8:
        raise _corrupt(f"it ends after {len(buf)} bytes, inside its header")
    n = int.from_bytes(bytes(buf[len(MAGIC):len(MAGIC) + 8]), "little")
    end = len(MAGIC) + 8 + n
    if end > len(buf):
        raise _corrupt(f"its header claims {n} bytes but the file has {len(buf) - len(MAGIC) - 8} after it")
    try:
        header = _NoGlobals(io.BytesIO(bytes(buf[len(MAGIC) + 8:end]))).load()
    except Exception as e:
        raise _corrupt(f"unreadable header ({type(e).__name__}: {e})") from None
    if not (isinstance(header, dict) and isinstance(header.get("storages"), dict)
            and isinstance(header.get("payload"), bytes)):
        raise _corrupt("its header is not {'storages': {...}, 'payload': bytes}")
    return header, _align(end)


def read_container(buf):
    """Parse a file's bytes (bytes, bytearray or mmap) into a :class:`Container`."""
    head = bytes(buf[:len(MAGIC)])
    if head == MAGIC_V1:
        return _read_v1(bytes(buf[len(MAGIC_V1):]))
    header, start = _header(buf)
    storages = {}
    for key, entry in header["storages"].items():
        if not (_is_int(key) and isinstance(entry, tuple) and len(entry) == 2 and all(map(_is_int, entry))):
            raise _corrupt(f"storage entry {key!r:.40}: {entry!r:.60} is not (offset, nbytes)")
        off, n = entry
        if off < 0 or n < 0 or start + off + n > len(buf):
            raise _corrupt(f"storage {key} spans bytes {start + off}..{start + off + n} of a {len(buf)}-byte file")
        storages[key] = (lambda a=start + off, n=n: np.frombuffer(buf, np.uint8, count=n, offset=a)
                         if n else np.empty(0, np.uint8))
    return Container(header["payload"], storages)


def _read_v1(body):
    try:
        storages, payload = _NoGlobals(io.BytesIO(body)).load()
    except Exception as e:
        raise _corrupt(f"{type(e).__name__}: {e}") from None
    if not (isinstance(storages, dict) and isinstance(payload, bytes)
            and all(_is_int(k) and isinstance(v, bytes) for k, v in storages.items())):
        raise _corrupt("its body is not ({key: bytes}, payload bytes)")
    return Container(payload, {k: (lambda v=v: np.frombuffer(bytearray(v), np.uint8)) for k, v in storages.items()})


def check_record(pid, container):
    """Validate a tensor's persistent id; returns (kind, key, dtype, shape, strides, offset, requires_grad,
    location) with the dtype as a numpy dtype, or raises UnpicklingError saying what is wrong."""
    if not (isinstance(pid, tuple) and len(pid) == 8 and pid[0] in ("tensor", "param")):
        raise _corrupt(f"unknown persistent id {pid!r:.80}")
    kind, key, dt, shape, strides, offset, req, location = pid
    if not _is_int(key) or key not in container:
        raise _corrupt(f"a tensor refers to the missing storage {key!r:.40}")
    if isinstance(dt, str) and dt in ML_FLOAT_NAMES:
        dtype = ML_FLOAT_NAMES[dt]
    elif isinstance(dt, str) and _DTYPE_STR.fullmatch(dt):
        dtype = np.dtype(dt)
    else:
        raise CorruptFileError(
            f"a tensor in this file declares the dtype {dt!r:.40}; only bool, integer, floating (bfloat16 and "
            "float8 by name) and complex tensors can be loaded (object, string and structured dtypes are refused)")
    if not (isinstance(shape, tuple) and isinstance(strides, tuple) and len(shape) == len(strides) <= _MAX_NDIM
            and all(_is_int(d) and d >= 0 for d in shape) and all(map(_is_int, strides))):
        raise _corrupt(f"a tensor has shape {shape!r:.60} and strides {strides!r:.60}")
    if not (_is_int(offset) and offset >= 0 and type(req) is bool and isinstance(location, str)
            and len(location) <= 64):
        raise _corrupt(f"a tensor record {pid!r:.120} has a bad offset, requires_grad or location")
    nbytes = container.storage(key).nbytes
    if all(shape):
        lo = offset + sum((d - 1) * s for d, s in zip(shape, strides) if s < 0)
        hi = offset + sum((d - 1) * s for d, s in zip(shape, strides) if s > 0) + dtype.itemsize
        if lo < 0 or hi > nbytes:
            raise _corrupt(f"a {dtype} tensor of shape {shape} and strides {strides} at byte {offset} reaches "
                           f"outside its {nbytes}-byte storage")
    return kind, key, dtype, shape, strides, offset, req, location
