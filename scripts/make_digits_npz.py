"""Extract scikit-learn's copy of the UCI optical digits (8x8) into funcgrad/datasets/digits.npz.

Run once, from the repository root (needs scikit-learn; funcgrad itself never does):

    python scripts/make_digits_npz.py

The file holds ``images`` (1797, 8, 8) uint8 with values 0..16 and ``labels``
(1797,) uint8 with values 0..9, in scikit-learn's order.  Attribution and
license: funcgrad/datasets/LICENSE-digits.txt.
"""

import pathlib

import numpy as np
from sklearn.datasets import load_digits

OUT = pathlib.Path(__file__).resolve().parent.parent / "funcgrad" / "datasets" / "digits.npz"


def main():
    d = load_digits()
    images = d.images.astype(np.uint8)
    labels = d.target.astype(np.uint8)
    assert np.array_equal(images, d.images) and np.array_equal(labels, d.target)
    assert images.shape == (1797, 8, 8) and images.max() == 16
    np.savez_compressed(OUT, images=images, labels=labels)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes): images {images.shape}, labels {labels.shape}")


if __name__ == "__main__":
    main()
