"""SVHN (MATLAB files written here with scipy) and STL10 (raw binaries written here)."""

import numpy as np
import pytest
from PIL import Image

from funcgrad.compat.utils.data import DataLoader
from funcgrad.compat.vision import datasets
from funcgrad.compat.vision import transforms as T


def write_svhn(root, split="train", n=4, seed=0):
    sio = pytest.importorskip("scipy.io")
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 256, (32, 32, 3, n), dtype=np.uint8)
    y = rng.integers(1, 11, (n, 1)).astype(np.uint8)
    y[0] = 10  # the digit 0
    sio.savemat(root / f"{split}_32x32.mat", {"X": x, "y": y})
    return x, y


def test_svhn(tmp_path, no_network):
    x, y = write_svhn(tmp_path)
    ds = datasets.SVHN(str(tmp_path), split="train", download=True, transform=T.ToTensor())
    assert len(ds) == 4 and ds.data.shape == (4, 3, 32, 32)
    np.testing.assert_array_equal(ds.data[2], x[:, :, :, 2].transpose(2, 0, 1))
    assert ds.labels.tolist() == [0] + [int(v) % 10 for v in y[1:, 0]]
    img, label = ds[2]
    np.testing.assert_allclose(img.numpy(), x[:, :, :, 2].transpose(2, 0, 1) / np.float32(255))
    assert label == int(y[2, 0]) % 10 and "Split: train" in repr(ds)
    xb, yb = next(iter(DataLoader(ds, batch_size=4)))
    assert tuple(xb.shape) == (4, 3, 32, 32) and yb.tolist() == ds.labels.tolist()
    with pytest.raises(RuntimeError, match=r"Dataset not found\. SVHN expects .*test_32x32\.mat"):
        datasets.SVHN(tmp_path, split="test")
    with pytest.raises(ValueError, match="Unknown value 'valid' for argument split"):
        datasets.SVHN(tmp_path, split="valid")


def write_stl10(root, n_train=3, n_test=2, n_unlabeled=2):
    folder = root / "stl10_binary"
    folder.mkdir()
    rng = np.random.default_rng(0)
    images = {}
    for part, n in (("train", n_train), ("test", n_test), ("unlabeled", n_unlabeled)):
        images[part] = rng.integers(0, 256, (n, 3, 96, 96), dtype=np.uint8)
        # the files store each channel column-major: write the transposed planes
        images[part].transpose(0, 1, 3, 2).tofile(folder / f"{part}_X.bin")
    labels = {"train": np.array([1, 10, 4], np.uint8), "test": np.array([2, 3], np.uint8)}
    for part, y in labels.items():
        y.tofile(folder / f"{part}_y.bin")
    (folder / "class_names.txt").write_text("\n".join(f"c{k}" for k in range(10)) + "\n")
    (folder / "fold_indices.txt").write_text("2 0\n1\n")
    return images, labels


def test_stl10(tmp_path):
    images, labels = write_stl10(tmp_path)
    ds = datasets.STL10(tmp_path, split="train")
    assert ds.data.shape == (3, 3, 96, 96) and ds.labels.tolist() == [0, 9, 3] and ds.classes[9] == "c9"
    np.testing.assert_array_equal(ds.data, images["train"])
    img, label = ds[1]
    assert isinstance(img, Image.Image) and img.size == (96, 96) and label == 9
    np.testing.assert_array_equal(np.asarray(img), images["train"][1].transpose(1, 2, 0))
    both = datasets.STL10(tmp_path, split="train+unlabeled", folds=0)  # fold 0: training images 2 and 0
    assert both.labels.tolist() == [3, 0, -1, -1]
    np.testing.assert_array_equal(both.data[0], images["train"][2])
    assert datasets.STL10(tmp_path, split="unlabeled")[1][1] == -1
    assert datasets.STL10(tmp_path, split="test").labels.tolist() == [1, 2]
    with pytest.raises(ValueError, match=r"folds should be in the range \[0, 10\)"):
        datasets.STL10(tmp_path, folds=10)
    (tmp_path / "stl10_binary" / "test_y.bin").unlink()
    with pytest.raises(RuntimeError, match="missing: test_y.bin.*stl10_binary.tar.gz"):
        datasets.STL10(tmp_path, split="test")
