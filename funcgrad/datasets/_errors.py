"""What the dataset readers share: their one error type and a bounded folder listing."""

import os
import pathlib

from ..errors import DatasetError  # noqa: F401  (the readers' one error type)

MAX_DEPTH = 3  # FOLDER/MNIST/raw/train-images-idx3-ubyte (torchvision's layout) is depth 3




def list_files(folder, max_depth=MAX_DEPTH):
    """The files under ``folder`` at most ``max_depth`` levels down, sorted (a mistaken
    ``--data ~`` is not a walk of the whole home folder)."""
    folder = pathlib.Path(folder)
    found = []
    for root, dirs, files in os.walk(folder):
        depth = len(pathlib.Path(root).relative_to(folder).parts)
        if depth + 1 >= max_depth:
            dirs[:] = []
        dirs.sort()
        found.extend(pathlib.Path(root) / f for f in files)
    return sorted(found)
