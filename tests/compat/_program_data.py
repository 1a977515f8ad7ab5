"""Data files the example programs read, written where a test (or a person) asks.

``write_mnist(root)`` writes ``root/MNIST/raw/*-ubyte`` in the IDX layout torchvision
reads: funcgrad's embedded 8x8 digits blown up to 28x28 (3x3 pixel blocks, a 2-pixel
border), so a classifier has something real to learn. ``write_corpus(folder)`` writes
``train.txt``/``valid.txt``/``test.txt`` of sentences from a small grammar.
``write_cifar10(root)`` writes ``root/cifar-10-batches-py/`` (python batches): each class a
colour of its own under noise, so the blitz tutorial's small net learns it in an epoch.
``write_bsds(root)`` writes ``root/BSDS300/images/{train,test}/*.jpg``: smooth random colour
images (bilinear blow-ups of 6x6 noise) for the super-resolution example.

``python tests/compat/_program_data.py mnist|corpus FOLDER`` writes them by hand
(to run the programs under real PyTorch for comparison).
"""

import os
import random
import struct
import sys

import numpy as np

from funcgrad.datasets import load_digits

MNIST_FILES = {"train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
               "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")}


def _idx(path, array):
    with open(path, "wb") as f:
        f.write(struct.pack(">BBBB", 0, 0, 0x08, array.ndim))
        f.write(struct.pack(f">{array.ndim}I", *array.shape))
        f.write(np.ascontiguousarray(array, dtype=np.uint8).tobytes())


def digits_28x28(n_train=512, n_test=256):
    """(train images, train labels, test images, test labels): uint8 images N x 28 x 28."""
    d = load_digits()

    def grow(x):
        x = np.kron(x[:, 0], np.ones((3, 3), np.float32))  # N x 24 x 24
        x = np.pad(x, ((0, 0), (2, 2), (2, 2)))
        return np.round(x * 255).astype(np.uint8)

    return grow(d.x_train[:n_train]), d.y_train[:n_train], grow(d.x_test[:n_test]), d.y_test[:n_test]


def write_mnist(root, n_train=512, n_test=256):
    """torchvision's MNIST layout under ``root``: ``root/MNIST/raw/{train,t10k}-{images-idx3,labels-idx1}-ubyte``."""
    raw = os.path.join(root, "MNIST", "raw")
    os.makedirs(raw, exist_ok=True)
    x_train, y_train, x_test, y_test = digits_28x28(n_train, n_test)
    for split, (x, y) in {"train": (x_train, y_train), "test": (x_test, y_test)}.items():
        images, labels = MNIST_FILES[split]
        _idx(os.path.join(raw, images), x)
        _idx(os.path.join(raw, labels), y)
    return root


SUBJECTS = ["the cat", "the dog", "a bird", "my friend", "the old man", "her sister", "a small child"]
VERBS = ["sees", "likes", "finds", "follows", "paints", "remembers"]
OBJECTS = ["the red ball", "a green apple", "the big house", "a quiet river", "the yellow car", "an old book"]
ENDINGS = ["today", "again", "at night", "in the garden", "every morning"]


def sentences(n, seed):
    rng = random.Random(seed)
    return [f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.choice(ENDINGS)} ."
            for _ in range(n)]


def write_corpus(folder, n_train=400, n_eval=60):
    """train/valid/test.txt: lines of two or three grammar sentences; every word appears in train."""
    os.makedirs(folder, exist_ok=True)
    for i, (name, n) in enumerate({"train.txt": n_train, "valid.txt": n_eval, "test.txt": n_eval}.items()):
        lines = sentences(n, seed=i)
        with open(os.path.join(folder, name), "w", encoding="utf8") as f:
            f.writelines(" ".join(lines[j:j + 3]) + "\n" for j in range(0, n, 3))
    return folder


def write_cifar10(root, n_train=500, n_test=200):
    """torchvision's CIFAR-10 layout: ``data_batch_1..5``, ``test_batch``, ``batches.meta`` (pickled dicts)."""
    import pickle  # noqa: PLC0415

    folder = os.path.join(root, "cifar-10-batches-py")
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(0)
    palette = rng.uniform(30, 225, (10, 3))

    def batch(n):
        labels = rng.integers(0, 10, n)
        images = palette[labels][:, :, None, None] + rng.normal(0, 40, (n, 3, 32, 32))
        return {b"data": np.clip(images, 0, 255).astype(np.uint8).reshape(n, 3072), b"labels": labels.tolist()}

    for i in range(5):
        with open(os.path.join(folder, f"data_batch_{i + 1}"), "wb") as f:
            pickle.dump(batch(n_train // 5), f)
    with open(os.path.join(folder, "test_batch"), "wb") as f:
        pickle.dump(batch(n_test), f)
    names = [b"airplane", b"automobile", b"bird", b"cat", b"deer", b"dog", b"frog", b"horse", b"ship", b"truck"]
    with open(os.path.join(folder, "batches.meta"), "wb") as f:
        pickle.dump({b"label_names": names}, f)
    return root


def write_bsds(root, n_train=32, n_test=8, size=64):
    """BSDS300's layout with small smooth JPEGs (``size`` x ``size``): learnable by a super-resolution net."""
    from PIL import Image  # noqa: PLC0415

    rng = np.random.default_rng(0)
    for split, n in (("train", n_train), ("test", n_test)):
        folder = os.path.join(root, "BSDS300", "images", split)
        os.makedirs(folder, exist_ok=True)
        for i in range(n):
            small = Image.fromarray(rng.integers(0, 256, (6, 6, 3), dtype=np.uint8))
            small.resize((size, size), Image.BILINEAR).save(os.path.join(folder, f"{i:03d}.jpg"), quality=95)
    return root


if __name__ == "__main__":
    kind, folder = sys.argv[1:3]
    {"mnist": write_mnist, "corpus": write_corpus, "bsds": write_bsds, "cifar10": write_cifar10}[kind](folder)
