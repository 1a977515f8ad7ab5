"""CIFAR-10 "python version" batches (data_batch_1 ... data_batch_5, test_batch, batches.meta).

Each batch is a pickled dict: ``data`` (N x 3072 uint8: 1024 red, then green,
then blue values of a 32 x 32 image, row-major) and ``labels`` (N ints, 0..9).
A pickle can run arbitrary code, so these are read with an unpickler that only
rebuilds dicts, lists, strings, numbers and numpy arrays, and refuses anything
else.
"""

from __future__ import annotations

import io
import pathlib
import pickle
import re

import numpy as np

from ._errors import DatasetError, list_files

__all__ = ["load_cifar10", "read_cifar_batch", "read_cifar_meta", "CIFAR10_CLASSES"]

CIFAR10_CLASSES = (
    "airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck",
)

# the only globals a CIFAR batch (pickled by Python 2 or 3, any protocol) refers to
_ALLOWED = {
    ("numpy._core.multiarray", "_reconstruct"),
    ("numpy._core.numeric", "_frombuffer"),
    ("numpy", "ndarray"),
    ("numpy", "dtype"),
    ("_codecs", "encode"),  # how protocol 2 pickles bytes under Python 3
}


class _RestrictedUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        module = module.replace("numpy.core", "numpy._core")  # files written by numpy < 2
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"refusing to load the global {module}.{name}")
        return super().find_class(module, name)


def _unpickle(file: pathlib.Path):
    try:
        data = file.read_bytes()
        obj = _RestrictedUnpickler(io.BytesIO(data), encoding="bytes").load()
    except OSError as e:
        raise DatasetError(f"cannot read CIFAR-10 batch {str(file)!r}: {e}") from None
    except Exception as e:  # any unpickling failure: truncated, not a pickle, a refused global
        raise DatasetError(
            f"{str(file)!r} is not a CIFAR-10 python batch ({type(e).__name__}: {e})"
        ) from None
    if not isinstance(obj, dict):
        raise DatasetError(f"{str(file)!r} is not a CIFAR-10 python batch (it holds a {type(obj).__name__})")
    return {k.decode("latin1") if isinstance(k, bytes) else k: v for k, v in obj.items()}


def read_cifar_batch(file, labels_key: str = "labels", num_classes: int = 10) -> tuple[np.ndarray, np.ndarray]:
    """One batch file -> (images N x 3 x 32 x 32 uint8, labels N int64).

    CIFAR-100's ``train``/``test`` files keep their labels under ``fine_labels`` (100 classes)."""
    file = pathlib.Path(file)
    d = _unpickle(file)
    if "data" not in d or labels_key not in d:
        raise DatasetError(
            f"{str(file)!r} is not a CIFAR python batch (keys {sorted(map(str, d))}, "
            f"expected 'data' and {labels_key!r})"
        )
    data, labels = d["data"], np.asarray(d[labels_key])
    if (
        not isinstance(data, np.ndarray) or data.dtype != np.uint8 or data.ndim != 2
        or data.shape[1] != 3 * 32 * 32 or labels.shape != (len(data),) or labels.dtype.kind not in "iu"
    ):
        raise DatasetError(
            f"CIFAR batch {str(file)!r} holds data {getattr(data, 'shape', type(data).__name__)} "
            f"{getattr(data, 'dtype', '')} and {labels.shape} labels; expected N x 3072 uint8 and N integer labels"
        )
    if labels.size and (labels.min() < 0 or labels.max() >= num_classes):
        raise DatasetError(f"CIFAR batch {str(file)!r} has labels outside 0..{num_classes - 1}")
    return data.reshape(-1, 3, 32, 32), labels.astype(np.int64)


def read_cifar_meta(file, key: str = "label_names") -> tuple | None:
    """The class names stored under ``key`` in a ``batches.meta`` / ``meta`` file (None if absent)."""
    names = _unpickle(pathlib.Path(file)).get(key)
    if not isinstance(names, list) or not names:
        return None
    return tuple(n.decode("latin1") if isinstance(n, bytes) else str(n) for n in names)


def _batch_files(folder: pathlib.Path):
    files = list_files(folder)
    train = sorted(
        (p for p in files if re.fullmatch(r"data_batch_\d+", p.name)),
        key=lambda p: int(p.name.rsplit("_", 1)[1]),
    )
    test = [p for p in files if p.name == "test_batch"]
    meta = [p for p in files if p.name == "batches.meta"]
    return train, test[:1], meta[:1]


def load_cifar10(folder, name: str = "cifar10"):
    """Read CIFAR-10's python batches under ``folder`` (e.g. ``cifar-10-batches-py``).

    Returns a :class:`funcgrad.datasets.Dataset` of N x 3 x 32 x 32 float32
    images in [0, 1]; every ``data_batch_*`` found is training data and
    ``test_batch`` is the test set.
    """
    from . import Dataset  # noqa: PLC0415

    folder = pathlib.Path(folder).expanduser()
    if not folder.is_dir():
        raise DatasetError(f"CIFAR-10 folder {str(folder)!r} does not exist or is not a folder")
    train, test, meta = _batch_files(folder)
    if not train or not test:
        raise DatasetError(
            f"CIFAR-10 folder {str(folder)!r} lacks "
            f"{'data_batch_1 ... data_batch_5' if not train else 'test_batch'}; extract "
            "cifar-10-python.tar.gz into it"
        )
    parts = [read_cifar_batch(p) for p in train]
    x_test, y_test = read_cifar_batch(test[0])
    classes = CIFAR10_CLASSES
    if meta:
        names = read_cifar_meta(meta[0])
        if names is not None and len(names) == 10:
            classes = names

    def images(a):
        return a.astype(np.float32) / np.float32(255.0)

    return Dataset(
        name,
        images(np.concatenate([x for x, _ in parts])), np.concatenate([y for _, y in parts]),
        images(x_test), y_test, classes,
    )
