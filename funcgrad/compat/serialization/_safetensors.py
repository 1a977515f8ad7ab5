"""``.safetensors`` state_dicts, through the safetensors package (its own reader and writer).

A safetensors file holds a JSON header and raw little-endian arrays: it cannot carry
code.  What a damaged or crafted one can do is fail inside the reader or declare a
dtype numpy lacks; both become a clear error naming the file.
"""

from __future__ import annotations

import os

import numpy as np

from ..._atomic_file import atomic_write
from ...backend import BFLOAT16, FLOAT8_E4M3FN, FLOAT8_E5M2
from ..tensor import Tensor

__all__ = ["is_safetensors_path", "load_safetensors", "save_safetensors"]


def is_safetensors_path(f):
    return not hasattr(f, "write") and not hasattr(f, "read") and os.fspath(f).endswith(".safetensors")


def _module():
    try:
        import safetensors.numpy as st  # noqa: PLC0415 - optional dependency
    except ImportError:
        raise ImportError(
            "reading and writing .safetensors files needs the safetensors package: pip install safetensors "
            "(or pip install 'funcgrad[safetensors]')"
        ) from None
    return st


def save_safetensors(obj, path):
    st = _module()
    if not isinstance(obj, dict):
        raise ValueError(f"a .safetensors file holds a state_dict (a dict of str -> Tensor), got {type(obj).__name__}")
    arrays = {}
    for k, v in obj.items():
        if not isinstance(k, str) or not isinstance(v, Tensor):
            raise ValueError(f".safetensors: entry {k!r} is a {type(v).__name__}; only str -> Tensor entries can be saved")
        arrays[k] = np.array(v.detach().cpu().numpy(), order="C")  # (ascontiguousarray makes 0-d 1-d)
    data = st.save(arrays)
    with atomic_write(path) as out:
        out.write(data)


# the format's dtype names -> numpy dtypes (little-endian, as the format stores them); BF16 and F8_*
# are ml_dtypes' (safetensors.numpy's own table stops at C64, so the entries are decoded here)
_DTYPES = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "I64": "<i8", "U64": "<u8", "I32": "<i4", "U32": "<u4",
           "I16": "<i2", "U16": "<u2", "I8": "i1", "U8": "u1", "BOOL": "?", "C64": "<c8"}
_DTYPES = {k: np.dtype(v) for k, v in _DTYPES.items()}
_DTYPES.update(BF16=BFLOAT16, F8_E4M3=FLOAT8_E4M3FN, F8_E5M2=FLOAT8_E5M2)


def _deserialize(raw):
    import safetensors  # noqa: PLC0415 - optional dependency (checked by _module)

    return safetensors.deserialize(raw)


def load_safetensors(path, map_location):
    from ..creation import from_numpy  # noqa: PLC0415

    st = _module()
    with open(path, "rb") as fh:
        raw = fh.read()
    try:
        entries = _deserialize(raw)
    except Exception as e:  # SafetensorError (a bad header, offsets, dtype), or numpy refusing a dtype
        raise RuntimeError(f"{path!r} is not a readable .safetensors file: {type(e).__name__}: {e}") from None
    out = {}
    for k, v in entries:
        dt = _DTYPES.get(v["dtype"])
        if dt is None:
            raise RuntimeError(f"{path!r}: tensor {k!r} has dtype {v['dtype']}, which funcgrad cannot load")
        try:
            a = np.frombuffer(v["data"], dtype=dt).reshape(v["shape"])
        except ValueError as e:
            raise RuntimeError(f"{path!r}: tensor {k!r}: {e}") from None
        out[k] = from_numpy(np.array(a))
    if map_location is not None and not callable(map_location) and not isinstance(map_location, dict):
        out = {k: t.to(map_location) for k, t in out.items()}
    return out
