"""``funcgrad info``: what funcgrad found on this machine."""

from __future__ import annotations

import importlib.metadata
import platform
import sys

import numpy as np

__all__ = ["report"]


def _version(dist):
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _blas_lines():
    """numpy's BLAS: the loaded library and its threads (threadpoolctl), else numpy's build record."""
    try:
        import threadpoolctl  # noqa: PLC0415  (optional)
    except ImportError:
        threadpoolctl = None
    if threadpoolctl is not None:
        libs = [i for i in threadpoolctl.threadpool_info() if i.get("user_api") == "blas"]
        if libs:
            return [
                f"  BLAS: {i.get('internal_api')} {i.get('version') or ''} ({i.get('num_threads')} threads"
                f"{', ' + i['architecture'] if i.get('architecture') else ''})"
                for i in libs
            ]
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        return [f"  BLAS: {blas.get('name')} {blas.get('version', '')} (numpy build configuration)"]
    except Exception:  # older numpy without mode="dicts", or an unexpected layout
        return ["  BLAS: unknown (numpy.show_config() prints the details)"]


def _gpu_lines():
    from .. import backend  # noqa: PLC0415

    version = _version("cupy") or next(
        (v for v in (_version(f"cupy-cuda{s}") for s in ("12x", "11x", "13x")) if v), None
    )
    if version is None:
        return ["cupy: not installed (GPU support: pip install 'funcgrad[gpu]')"]
    try:
        cupy = backend._cupy().xp
    except RuntimeError as e:
        return [f"cupy {version}: no usable GPU ({e})"]
    lines = [f"cupy {version}: CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()}"]
    for i in range(cupy.cuda.runtime.getDeviceCount()):
        props = cupy.cuda.runtime.getDeviceProperties(i)
        name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
        lines.append(f"  cuda:{i}: {name}, {props['totalGlobalMem'] / 2**30:.1f} GiB")
    return lines


def report():
    """The lines ``funcgrad info`` prints."""
    import funcgrad as fg  # noqa: PLC0415
    import funcgrad.numpy as fnp  # noqa: PLC0415
    from funcgrad import datasets  # noqa: PLC0415

    lines = [
        f"funcgrad {fg.__version__} ({fg.__file__.rsplit('/', 1)[0]})",
        f"python {platform.python_version()} ({sys.executable}), {platform.platform()}",
        f"numpy {np.__version__}",
        *_blas_lines(),
        *_gpu_lines(),
        f"devices: {', '.join(str(d) for d in fg.devices())}",
        f"default device: {fg.default_device()}",
        f"default dtype: {fnp.asarray(1.0).dtype} (float32 inputs stay float32)",
        f"demo dataset: {datasets.DIGITS_PATH} ({datasets.DIGITS_PATH.stat().st_size / 1024:.0f} KiB)"
        if datasets.DIGITS_PATH.exists() else f"demo dataset: MISSING at {datasets.DIGITS_PATH}; reinstall funcgrad",
    ]
    extras = [f"{d} {_version(d)}" if _version(d) else f"{d} (not installed)" for d in ("tqdm", "matplotlib")]
    lines.append(f"demo extras: {', '.join(extras)}")
    found = [f"{d} {_version(d)}" for d in ("torch", "jax", "autograd") if _version(d)]
    lines.append(f"benchmark comparisons: {', '.join(found) if found else 'none installed'}")
    return lines
