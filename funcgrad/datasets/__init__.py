"""Small image-classification datasets as numpy arrays, with no network access.

``load_digits()`` returns the 8x8 optical-digits set embedded in this package
(1,797 images; UCI, Alpaydin & Kaynak, CC BY 4.0: see LICENSE-digits.txt).
``load_mnist(folder)`` and ``load_cifar10(folder)`` read the standard files
you have downloaded yourself (MNIST/Fashion-MNIST IDX files, CIFAR-10 python
batches); ``load(folder)`` tells the two apart.

Every loader returns a :class:`Dataset`: float32 images in [0, 1] laid out
N x C x H x W, int64 labels, and a fixed train/test split.  Nothing here needs
scikit-learn, torchvision or the network, and loading never executes code from
a file (CIFAR-10's pickles go through a restricted unpickler).
"""

from __future__ import annotations

import dataclasses
import pathlib

import numpy as np

from ._errors import DatasetError, list_files
from .cifar import load_cifar10
from .mnist import load_mnist, read_idx

__all__ = [
    "Dataset", "DatasetError", "DIGITS_PATH", "load", "load_cifar10", "load_digits", "load_mnist",
    "read_idx",
]

DIGITS_PATH = pathlib.Path(__file__).resolve().parent / "digits.npz"
DIGITS_TEST_SIZE = 360  # 20% of 1,797, held out by a fixed permutation (seed 0)


@dataclasses.dataclass(frozen=True)
class Dataset:
    """A train/test split of images (float32, N x C x H x W, in [0, 1]) and int64 labels."""

    name: str
    x_train: np.ndarray
    y_train: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray
    classes: tuple

    @property
    def image_shape(self) -> tuple:
        """(C, H, W) of one image."""
        return tuple(self.x_train.shape[1:])

    @property
    def num_classes(self) -> int:
        return len(self.classes)

    def __repr__(self):
        return (
            f"Dataset({self.name!r}: {len(self.x_train)} train / {len(self.x_test)} test images of "
            f"shape {self.image_shape}, {self.num_classes} classes)"
        )


def load_digits(test_size: int = DIGITS_TEST_SIZE, seed: int = 0) -> Dataset:
    """The embedded 8x8 digits: 1,797 images (1 x 8 x 8, pixel counts 0..16 scaled to [0, 1]).

    The split is a permutation drawn from ``numpy.random.default_rng(seed)``:
    its last ``test_size`` images are the test set, so the default split is the
    same on every machine.
    """
    try:
        with np.load(DIGITS_PATH, allow_pickle=False) as f:
            images, labels = f["images"], f["labels"]
    except (OSError, KeyError, ValueError) as e:
        raise DatasetError(
            f"the embedded digits file {DIGITS_PATH} is missing or damaged ({e}); "
            "reinstall funcgrad (pip install --force-reinstall funcgrad)"
        ) from None
    n = len(labels)
    if not 0 < test_size < n:
        raise ValueError(f"load_digits: test_size must be between 1 and {n - 1}, got {test_size}")
    x = (images.astype(np.float32) / 16.0)[:, None, :, :]
    y = labels.astype(np.int64)
    order = np.random.default_rng(seed).permutation(n)
    train, test = order[:-test_size], order[-test_size:]
    return Dataset("digits", x[train], y[train], x[test], y[test], tuple(str(i) for i in range(10)))


def load(folder) -> Dataset:
    """Read a dataset folder: MNIST-style IDX files or CIFAR-10 python batches (detected)."""
    path = pathlib.Path(folder).expanduser()
    if not path.exists():
        raise DatasetError(
            f"data folder {str(path)!r} does not exist; pass the folder holding the MNIST IDX files or "
            "the CIFAR-10 python batches (omit --data to use the embedded digits)"
        )
    if not path.is_dir():
        raise DatasetError(
            f"--data expects a folder (MNIST IDX files or CIFAR-10 python batches), got the file {str(path)!r}"
        )
    names = {p.name for p in list_files(path)}
    if any("idx3-ubyte" in n for n in names):
        return load_mnist(path)
    if any(n.startswith(("data_batch_", "test_batch")) for n in names):
        return load_cifar10(path)
    raise DatasetError(
        f"{str(path)!r} holds neither MNIST IDX files (train-images-idx3-ubyte, ...) nor CIFAR-10 "
        "python batches (data_batch_1 ... test_batch); point it at the folder you extracted"
    )
