"""CIFAR10 and CIFAR100 from their python batches in torchvision's layout (``root/cifar-10-batches-py/``,
``root/cifar-100-python/``), read by ``funcgrad.datasets``' restricted unpickler: loading never runs code
from the files, and nothing is downloaded."""

from __future__ import annotations

import os
import tarfile

import numpy as np
from PIL import Image

from ....datasets._errors import DatasetError
from ....datasets.cifar import CIFAR10_CLASSES, read_cifar_batch, read_cifar_meta
from .vision import SplitDataset, dataset_not_found

__all__ = ["CIFAR10", "CIFAR100"]


class CIFAR10(SplitDataset):
    """32 x 32 colour images of 10 classes: ``data`` (numpy uint8 N x 32 x 32 x 3), ``targets`` (list of int).

    ``root/cifar-10-batches-py/`` (what ``cifar-10-python.tar.gz`` extracts to) must hold
    ``data_batch_1`` ... ``data_batch_5`` (``train=True``) or ``test_batch``, and normally
    ``batches.meta`` (the class names; the standard ones are used without it). With ``download=True``
    an archive ``root/cifar-10-python.tar.gz`` is extracted if the batches are missing, as torchvision
    does; nothing is ever fetched from the network.
    """

    base_folder = "cifar-10-batches-py"
    url = "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"
    filename = "cifar-10-python.tar.gz"
    train_list = [["data_batch_1", None], ["data_batch_2", None], ["data_batch_3", None], ["data_batch_4", None],
                  ["data_batch_5", None]]
    test_list = [["test_batch", None]]
    meta = {"filename": "batches.meta", "key": "label_names", "md5": None}
    labels_key, default_classes = "labels", CIFAR10_CLASSES

    def __init__(self, root, train=True, transform=None, target_transform=None, download=False):
        super().__init__(root, transform=transform, target_transform=target_transform)
        self.train = train
        if download and not self._check_integrity():
            self._extract_archive()
        files = [name for name, _ in (self.train_list if train else self.test_list)]
        missing = [name for name in files if not os.path.isfile(self._file(name))]
        if missing:
            how = (f"download {self.url} and extract it in {os.path.abspath(self.root)} (or put it there and "
                   "pass download=True to have it extracted)")
            raise dataset_not_found(type(self).__name__, os.path.join(self.root, self.base_folder),
                                    files + [self.meta["filename"]], missing, how, download)
        num_classes = len(self.default_classes)
        try:
            parts = [read_cifar_batch(self._file(name), self.labels_key, num_classes) for name in files]
        except DatasetError as e:
            raise RuntimeError(f"Dataset corrupted: {e}") from None
        self.data = np.vstack([x for x, _ in parts]).transpose((0, 2, 3, 1))  # N x 32 x 32 x 3, as torchvision
        self.targets = np.concatenate([y for _, y in parts]).tolist()  # a list of Python ints
        self._load_meta()

    def _file(self, name):
        return os.path.join(self.root, self.base_folder, name)

    def _load_meta(self):
        path = self._file(self.meta["filename"])
        names = None
        if os.path.isfile(path):
            try:
                names = read_cifar_meta(path, self.meta["key"])
            except DatasetError as e:
                raise RuntimeError(f"Dataset metadata file corrupted: {e}") from None
        self.classes = list(names if names is not None else self.default_classes)
        self.class_to_idx = {c: i for i, c in enumerate(self.classes)}

    def _check_integrity(self):
        return all(os.path.isfile(self._file(name)) for name, _ in self.train_list + self.test_list)

    def _extract_archive(self):
        archive = os.path.join(self.root, self.filename)
        if not os.path.isfile(archive):
            return
        try:
            with tarfile.open(archive, "r:gz") as tar:
                if hasattr(tarfile, "data_filter"):  # Python >= 3.12 (and recent 3.10/3.11 releases)
                    tar.extractall(self.root, filter="data")
                else:
                    for m in tar.getmembers():
                        if not (m.isfile() or m.isdir()) or os.path.isabs(m.name) or ".." in m.name.split("/"):
                            raise tarfile.TarError(f"refusing the archive member {m.name!r}")
                    tar.extractall(self.root)
        except (tarfile.TarError, OSError, EOFError) as e:
            raise RuntimeError(f"cannot extract {archive}: {e}; download it again from {self.url}") from None

    def download(self):
        """Extract ``root/<filename>`` if the batches are missing; never uses the network."""
        if not self._check_integrity():
            self._extract_archive()

    def _sample(self, index):
        return Image.fromarray(self.data[index]), self.targets[index]


CIFAR100_CLASSES = tuple(
    "apple aquarium_fish baby bear beaver bed bee beetle bicycle bottle bowl boy bridge bus butterfly camel can "
    "castle caterpillar cattle chair chimpanzee clock cloud cockroach couch crab crocodile cup dinosaur dolphin "
    "elephant flatfish forest fox girl hamster house kangaroo keyboard lamp lawn_mower leopard lion lizard lobster "
    "man maple_tree motorcycle mountain mouse mushroom oak_tree orange orchid otter palm_tree pear pickup_truck "
    "pine_tree plain plate poppy porcupine possum rabbit raccoon ray road rocket rose sea seal shark shrew skunk "
    "skyscraper snail snake spider squirrel streetcar sunflower sweet_pepper table tank telephone television tiger "
    "tractor train trout tulip turtle wardrobe whale willow_tree wolf woman worm".split())


class CIFAR100(CIFAR10):
    """CIFAR-100 (fine labels): ``root/cifar-100-python/`` holds ``train``, ``test`` and ``meta``."""

    base_folder = "cifar-100-python"
    url = "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz"
    filename = "cifar-100-python.tar.gz"
    train_list = [["train", None]]
    test_list = [["test", None]]
    meta = {"filename": "meta", "key": "fine_label_names", "md5": None}
    labels_key, default_classes = "fine_labels", CIFAR100_CLASSES
