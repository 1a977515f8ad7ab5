"""SVHN (``root/{train,test,extra}_32x32.mat``, read with scipy.io.loadmat) and STL10
(``root/stl10_binary/*.bin``), in torchvision's layouts; nothing is downloaded."""

from __future__ import annotations

import os

import numpy as np
from PIL import Image

from .vision import SplitDataset, dataset_not_found

__all__ = ["SVHN", "STL10"]


class _LabelledSplit(SplitDataset):
    """``data`` N x 3 x H x W uint8 and ``labels`` (torchvision's name for these two); items are
    (RGB PIL image, int)."""

    def _sample(self, index):
        label = self.labels[index] if self.labels is not None else -1
        return Image.fromarray(np.ascontiguousarray(self.data[index].transpose(1, 2, 0))), int(label)

    def extra_repr(self):
        return f"Split: {self.split}"


class SVHN(_LabelledSplit):
    """Street View House Numbers: ``root/<split>_32x32.mat`` for split ``train``, ``test`` or ``extra``
    (``scipy`` reads the MATLAB files). Label 10 (the digit 0) becomes 0, as in torchvision."""

    url = "http://ufldl.stanford.edu/housenumbers/"
    split_list = {"train": "train_32x32.mat", "test": "test_32x32.mat", "extra": "extra_32x32.mat"}

    def __init__(self, root, split="train", transform=None, target_transform=None, download=False):
        super().__init__(root, transform=transform, target_transform=target_transform)
        if split not in self.split_list:
            raise ValueError(f"Unknown value '{split}' for argument split. Valid values are "
                             f"{{{', '.join(repr(s) for s in self.split_list)}}}.")
        self.split = split
        self.filename = self.split_list[split]
        path = os.path.join(self.root, self.filename)
        if not os.path.isfile(path):
            raise dataset_not_found("SVHN", self.root, [self.filename], [self.filename],
                                    f"download {self.url}{self.filename} into that folder", download)
        try:
            import scipy.io as sio  # noqa: PLC0415
        except ImportError:
            raise ImportError("SVHN reads MATLAB files with scipy: pip install scipy") from None
        try:
            mat = sio.loadmat(path)
            x, y = mat["X"], mat["y"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise RuntimeError(f"Dataset corrupted: {path} is not SVHN's MATLAB file ({e})") from None
        if x.ndim != 4 or x.shape[2] != 3 or x.dtype != np.uint8 or y.size != x.shape[3]:
            raise RuntimeError(f"Dataset corrupted: {path} holds X {x.dtype} {x.shape} and y {y.shape}; expected "
                               "X uint8 32 x 32 x 3 x N and N labels")
        self.data = np.transpose(x, (3, 2, 0, 1))
        self.labels = y.astype(np.int64).squeeze(axis=tuple(range(1, y.ndim)))
        np.place(self.labels, self.labels == 10, 0)


class STL10(_LabelledSplit):
    """STL-10 (96 x 96): ``root/stl10_binary/`` as ``stl10_binary.tar.gz`` extracts; split ``train``,
    ``test``, ``unlabeled`` (labels -1) or ``train+unlabeled``; ``folds`` 0-9 keeps the training images
    listed on that line of ``fold_indices.txt``."""

    base_folder = "stl10_binary"
    url = "http://ai.stanford.edu/~acoates/stl10/stl10_binary.tar.gz"
    splits = ("train", "train+unlabeled", "unlabeled", "test")

    def __init__(self, root, split="train", folds=None, transform=None, target_transform=None, download=False):
        super().__init__(root, transform=transform, target_transform=target_transform)
        if split not in self.splits:
            raise ValueError(f"Unknown value '{split}' for argument split. Valid values are "
                             f"{{{', '.join(repr(s) for s in self.splits)}}}.")
        if folds is not None and not (isinstance(folds, int) and 0 <= folds < 10):
            raise ValueError(f"Value for argument folds should be in the range [0, 10), but got {folds}.")
        self.split, self.folds = split, folds
        needed = {"train": ["train_X.bin", "train_y.bin"], "test": ["test_X.bin", "test_y.bin"],
                  "unlabeled": ["unlabeled_X.bin"]}
        files = [f for part in split.split("+") for f in needed[part]] + ["class_names.txt"]
        if folds is not None and split.startswith("train"):
            files.append("fold_indices.txt")
        folder = os.path.join(self.root, self.base_folder)
        missing = [f for f in files if not os.path.isfile(os.path.join(folder, f))]
        if missing:
            raise dataset_not_found("STL10", folder, files, missing,
                                    f"download {self.url} and extract it in {os.path.abspath(self.root)}", download)
        parts = []
        for part in split.split("+"):
            x = self._images(os.path.join(folder, f"{part}_X.bin"))
            y = (np.fromfile(os.path.join(folder, f"{part}_y.bin"), np.uint8).astype(np.int64) - 1
                 if part != "unlabeled" else np.full(len(x), -1, np.int64))
            if len(y) != len(x):
                raise RuntimeError(f"Dataset corrupted: {part}_X.bin holds {len(x)} images but {part}_y.bin "
                                   f"{len(y)} labels")
            if part == "train" and folds is not None:  # the fold selects training images only
                with open(os.path.join(folder, "fold_indices.txt")) as f:
                    idx = np.array(f.read().splitlines()[folds].split(), dtype=np.int64)
                x, y = x[idx], y[idx]
            parts.append((x, y))
        self.data = np.concatenate([x for x, _ in parts])
        self.labels = np.concatenate([y for _, y in parts])
        with open(os.path.join(folder, "class_names.txt")) as f:
            self.classes = f.read().splitlines()

    @staticmethod
    def _images(path):
        raw = np.fromfile(path, np.uint8)
        if raw.size % (3 * 96 * 96):
            raise RuntimeError(f"Dataset corrupted: {path} is {raw.size} bytes, not a multiple of 3 x 96 x 96")
        return np.transpose(raw.reshape(-1, 3, 96, 96), (0, 1, 3, 2))  # stored column-major

    def extra_repr(self):
        return f"Split: {self.split}" + (f"\nFold: {self.folds}" if self.folds is not None else "")
