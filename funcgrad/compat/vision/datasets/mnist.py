"""MNIST, FashionMNIST and KMNIST from their IDX files in torchvision's layout, ``root/<Name>/raw/``.

The files are read by ``funcgrad.datasets.read_idx`` (plain or ``.gz``); nothing is downloaded.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
from PIL import Image

from ....datasets._errors import DatasetError
from ....datasets.mnist import read_idx
from ... import creation
from ...tensor import Tensor
from .vision import SplitDataset, dataset_not_found

__all__ = ["MNIST", "FashionMNIST", "KMNIST"]


def _host(data):
    """A tensor's numpy view (indexing it is much cheaper than indexing the tensor); lists as they are."""
    return data.numpy() if isinstance(data, Tensor) else data


class MNIST(SplitDataset):
    """Handwritten digits: ``data`` (uint8 Tensor N x 28 x 28), ``targets`` (int64 Tensor N).

    ``root/MNIST/raw/`` must hold ``train-images-idx3-ubyte`` and ``train-labels-idx1-ubyte``
    (``train=True``) or ``t10k-images-idx3-ubyte`` and ``t10k-labels-idx1-ubyte``, each plain or
    gzipped (``.gz``, as downloaded). ``download=True`` never uses the network: files already there are
    read, missing ones raise RuntimeError saying what to put where.
    """

    mirrors = ["https://ossci-datasets.s3.amazonaws.com/mnist/", "http://yann.lecun.com/exdb/mnist/"]
    resources = [("train-images-idx3-ubyte.gz", None), ("train-labels-idx1-ubyte.gz", None),
                 ("t10k-images-idx3-ubyte.gz", None), ("t10k-labels-idx1-ubyte.gz", None)]
    classes = ["0 - zero", "1 - one", "2 - two", "3 - three", "4 - four", "5 - five", "6 - six", "7 - seven",
               "8 - eight", "9 - nine"]

    def __init__(self, root, train=True, transform=None, target_transform=None, download=False):
        super().__init__(root, transform=transform, target_transform=target_transform)
        self.train = train
        images, labels = self._files()
        missing = [n for n, p in ((images, self._path(images)), (labels, self._path(labels))) if p is None]
        if missing:
            raise dataset_not_found(type(self).__name__, self.raw_folder, [images, labels],
                                    [f"{n} (or {n}.gz)" for n in missing],
                                    self._how(), download)
        self.data, self.targets = self._load_data()

    def _files(self):
        prefix = "train" if self.train else "t10k"
        return f"{prefix}-images-idx3-ubyte", f"{prefix}-labels-idx1-ubyte"

    def _path(self, name):
        for candidate in (name, name + ".gz"):
            path = os.path.join(self.raw_folder, candidate)
            if os.path.isfile(path):
                return path
        return None

    def _load_data(self):
        images, labels = (self._path(n) for n in self._files())
        try:
            data, targets = read_idx(images), read_idx(labels)
        except DatasetError as e:
            raise RuntimeError(f"Dataset corrupted: {e}") from None
        if data.ndim != 3 or data.dtype != np.uint8 or targets.ndim != 1 or len(targets) != len(data):
            raise RuntimeError(f"{images} and {labels} do not hold N x H x W uint8 images and N labels: got "
                               f"{data.dtype} {data.shape} and {targets.dtype} {targets.shape}")
        return creation.from_numpy(data), creation.from_numpy(targets.astype(np.int64))

    @property
    def raw_folder(self):
        return os.path.join(self.root, self.__class__.__name__, "raw")

    @property
    def processed_folder(self):
        return os.path.join(self.root, self.__class__.__name__, "processed")

    @property
    def class_to_idx(self):
        return {c: i for i, c in enumerate(self.classes)}

    def _check_exists(self):
        return all(self._path(n) is not None for n in self._files())

    def download(self):
        """Nothing to fetch: funcgrad.compat.vision never downloads (see the class docstring)."""
        if not self._check_exists():
            images, labels = self._files()
            raise dataset_not_found(type(self).__name__, self.raw_folder, [images, labels], [images, labels],
                                    self._how(), True)

    def _how(self):
        return (f"download the .gz files from {' or '.join(self.mirrors)} into that folder "
                "(gunzipping them is optional)")

    def _sample(self, index):
        return Image.fromarray(_host(self.data)[index]), int(_host(self.targets)[index])  # mode "L"

    def _renamed(self, old, new):
        warnings.warn(f"{old} has been renamed {new}", stacklevel=3)
        return getattr(self, new)

    train_data = property(lambda self: self._renamed("train_data", "data"))
    test_data = property(lambda self: self._renamed("test_data", "data"))
    train_labels = property(lambda self: self._renamed("train_labels", "targets"))
    test_labels = property(lambda self: self._renamed("test_labels", "targets"))


class FashionMNIST(MNIST):
    """Zalando's article images, MNIST's format; files in ``root/FashionMNIST/raw/``."""

    mirrors = ["http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/"]
    classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
               "Ankle boot"]


class KMNIST(MNIST):
    """Kuzushiji-MNIST (cursive Japanese), MNIST's format; files in ``root/KMNIST/raw/``."""

    mirrors = ["http://codh.rois.ac.jp/kmnist/dataset/kmnist/"]
    classes = ["o", "ki", "su", "tsu", "na", "ha", "ma", "ya", "re", "wo"]
