"""``funcgrad bench``: run the repository's benchmarks/ package (source checkouts only).

The benchmarks are a top-level package of the repository, next to
``funcgrad/``; an installed wheel does not include them.
"""

from __future__ import annotations

import importlib
import pathlib
import sys

__all__ = ["BenchUnavailable", "benchmarks_dir", "run_benchmarks"]


class BenchUnavailable(Exception):
    """The benchmarks package cannot be found (not a source checkout)."""


def benchmarks_dir() -> pathlib.Path | None:
    """The repository's benchmarks/ folder, or None when funcgrad is not run from a checkout."""
    import funcgrad  # noqa: PLC0415

    root = pathlib.Path(funcgrad.__file__).resolve().parent.parent
    folder = root / "benchmarks"
    return folder if (folder / "__main__.py").is_file() and (folder / "_harness.py").is_file() else None


def _import_benchmarks(folder):
    root = str(folder.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    module = importlib.import_module("benchmarks.__main__")
    if pathlib.Path(module.__file__).resolve().parent != folder:
        raise BenchUnavailable(
            f"another package named 'benchmarks' ({module.__file__}) shadows {folder}; run "
            f"python -m benchmarks from {folder.parent}"
        )
    return module


def run_benchmarks(names=(), list_only=False) -> int:
    folder = benchmarks_dir()
    if folder is None:
        raise BenchUnavailable(
            "the benchmarks are only available from a source checkout of funcgrad (git clone the "
            "repository and pip install -e . there); this funcgrad is installed without them"
        )
    module = _import_benchmarks(folder)
    if list_only:
        print("\n".join(module.ALL))
        return 0
    unknown = [n for n in names if n not in module.ALL]
    if unknown:
        raise BenchUnavailable(f"unknown benchmark(s) {', '.join(unknown)}; available: {', '.join(module.ALL)}")
    print(f"benchmarks from {folder}: each figure is a median of per-round ratios to a reference timed in the same run")
    return module.main(list(names))
