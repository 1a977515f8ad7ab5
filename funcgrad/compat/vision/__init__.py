"""torchvision over funcgrad.compat: ``import funcgrad.compat.vision as torchvision``.

Under ``python -m funcgrad.compat SCRIPT.py`` a script's ``import torchvision`` (and
every ``torchvision.*``) resolves here. Submodules load on first use, as torchvision's
do: ``transforms``, ``datasets``, ``utils`` (make_grid, save_image), ``io`` (read_image, ...) and ``models``.
"""

from __future__ import annotations

import importlib

__version__ = "0.26.0+funcgrad"
SUBMODULES = ("datasets", "io", "models", "transforms", "tv_tensors", "utils")


def __getattr__(name):
    if name in SUBMODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(SUBMODULES))
