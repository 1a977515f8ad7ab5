"""MNIST-style IDX files (MNIST, Fashion-MNIST, KMNIST): ``read_idx`` and ``load_mnist``.

The IDX format (http://yann.lecun.com/exdb/mnist/): two zero bytes, a type
code, the number of dimensions, each dimension as a big-endian uint32, then the
values, big-endian, in C order.  Files may be gzip-compressed (``.gz``).
"""

from __future__ import annotations

import gzip
import math
import pathlib

import numpy as np

from ._errors import DatasetError, list_files

__all__ = ["read_idx", "load_mnist", "MNIST_FILES"]

# IDX type code -> big-endian numpy dtype
_IDX_DTYPES = {
    0x08: np.dtype(">u1"), 0x09: np.dtype(">i1"), 0x0B: np.dtype(">i2"),
    0x0C: np.dtype(">i4"), 0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8"),
}

_MAX_BYTES = 16 << 30  # no MNIST-family file is near this; a header claiming more is corrupt

# role -> the file name every MNIST-family mirror uses (also found as "*.gz" and with
# "." for the last "-", e.g. "train-images.idx3-ubyte")
MNIST_FILES = {
    "x_train": "train-images-idx3-ubyte",
    "y_train": "train-labels-idx1-ubyte",
    "x_test": "t10k-images-idx3-ubyte",
    "y_test": "t10k-labels-idx1-ubyte",
}


def _read_bounded(file: pathlib.Path, limit: int) -> bytes:
    """At most ``limit`` bytes of the (possibly gzipped) file: a file whose header promises a small array
    but which is (or decompresses to) gigabytes is not read whole."""
    opener = gzip.open if file.suffix == ".gz" else open
    with opener(file, "rb") as f:
        return f.read(limit)


def read_idx(file) -> np.ndarray:
    """Read one IDX file (optionally gzipped) into a numpy array in native byte order."""
    file = pathlib.Path(file)
    try:
        raw = _read_bounded(file, 4 + 4 * 255)  # the longest header there can be
    except (OSError, EOFError) as e:  # missing, unreadable, or a broken gzip stream
        raise DatasetError(f"cannot read IDX file {str(file)!r}: {e}") from None
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] not in _IDX_DTYPES:
        raise DatasetError(
            f"{str(file)!r} is not an IDX file (its first 4 bytes {raw[:4].hex() or '(empty)'} are not "
            "00 00 <type code> <number of dimensions>)"
        )
    dtype, ndim = _IDX_DTYPES[raw[2]], raw[3]
    header = 4 + 4 * ndim
    if ndim == 0 or len(raw) < header:
        raise DatasetError(f"IDX file {str(file)!r} has a truncated or empty header ({ndim} dimensions)")
    shape = tuple(int(d) for d in np.frombuffer(raw, ">u4", count=ndim, offset=4))
    expected = header + math.prod(shape) * dtype.itemsize  # Python ints: no overflow
    if expected > _MAX_BYTES:
        raise DatasetError(
            f"IDX file {str(file)!r} declares shape {shape} of {dtype.newbyteorder('=')} ({expected} bytes), "
            f"more than the {_MAX_BYTES >> 30} GiB this reader accepts: the header is corrupt"
        )
    try:
        raw = _read_bounded(file, expected + 1)
    except (OSError, EOFError) as e:
        raise DatasetError(f"cannot read IDX file {str(file)!r}: {e}") from None
    if len(raw) != expected:
        raise DatasetError(
            f"IDX file {str(file)!r} is {'more than ' if len(raw) > expected else ''}{min(len(raw), expected)} "
            f"bytes but its header says shape {shape} of {dtype.newbyteorder('=')} ({expected} bytes): the file "
            "is truncated or corrupt"
        )
    return np.frombuffer(raw, dtype, offset=header).reshape(shape).astype(dtype.newbyteorder("="))


def _normalized(name: str) -> str:
    return name.lower().replace(".", "-")


def _find(folder: pathlib.Path, stem: str) -> pathlib.Path | None:
    matches = sorted(
        (p for p in list_files(folder) if _normalized(p.name) in (stem, stem + "-gz")),
        key=lambda p: (p.suffix == ".gz", len(p.parts), str(p)),  # prefer uncompressed, shallow
    )
    return matches[0] if matches else None


def load_mnist(folder, name: str | None = None):
    """Read the four IDX files of an MNIST-family dataset found under ``folder``.

    Returns a :class:`funcgrad.datasets.Dataset` with images scaled to [0, 1]
    as N x 1 x H x W float32 and the dataset's own train/test split.
    """
    from . import Dataset  # noqa: PLC0415  (Dataset lives in the package module)

    folder = pathlib.Path(folder).expanduser()
    if not folder.is_dir():
        raise DatasetError(f"MNIST folder {str(folder)!r} does not exist or is not a folder")
    found = {role: _find(folder, stem) for role, stem in MNIST_FILES.items()}
    missing = [MNIST_FILES[r] for r, p in found.items() if p is None]
    if missing:
        raise DatasetError(
            f"MNIST folder {str(folder)!r} lacks {', '.join(missing)} (plain or .gz); "
            "download all four IDX files into it"
        )
    arrays = {role: read_idx(p) for role, p in found.items()}
    for split in ("train", "test"):
        x, y = arrays[f"x_{split}"], arrays[f"y_{split}"]
        if x.ndim != 3 or y.ndim != 1 or len(x) != len(y) or len(x) == 0:
            raise DatasetError(
                f"MNIST {split} files under {str(folder)!r} do not match: images {x.shape} and labels "
                f"{y.shape} (expected N x H x W images and N labels, N > 0)"
            )
        if y.min() < 0:
            raise DatasetError(f"MNIST {split} labels under {str(folder)!r} include negative values")
    num_classes = int(max(arrays["y_train"].max(), arrays["y_test"].max())) + 1

    def images(a):
        scale = 255.0 if a.dtype == np.uint8 else 1.0
        return (a.astype(np.float32) / np.float32(scale))[:, None, :, :]

    return Dataset(
        name or folder.name or "mnist",
        images(arrays["x_train"]), arrays["y_train"].astype(np.int64),
        images(arrays["x_test"]), arrays["y_test"].astype(np.int64),
        tuple(str(i) for i in range(num_classes)),
    )
