"""What the demo writes: the loss/accuracy curve (PNG) and checkpoints (npz), both atomically."""

from __future__ import annotations

import zipfile

import numpy as np

import funcgrad as fg
from funcgrad._atomic_file import atomic_write

from .models import named_leaves

__all__ = ["atomic_write", "load_checkpoint", "plot_history", "save_checkpoint"]


def save_checkpoint(path, params, **metadata):
    """Write the parameter pytree to ``path`` with ``numpy.savez`` (atomically).

    Each leaf is stored under its dotted pytree path (``layers.0.weight``, as PyTorch names it);
    ``metadata`` values (strings, numbers) are stored under ``meta.<key>``.
    Read it back with :func:`load_checkpoint` or plain ``numpy.load`` (no pickle).
    """
    arrays = {name: np.asarray(leaf) for name, leaf in named_leaves(params)}
    arrays.update({f"meta.{k}": np.asarray(v) for k, v in metadata.items()})
    with atomic_write(path) as f:
        np.savez(f, **arrays)


def _read_npz(path):
    """Every array of an ``.npz`` file; object arrays are refused (``allow_pickle=False``)."""
    f = np.load(path, allow_pickle=False)
    if not hasattr(f, "files"):
        raise ValueError("it holds a single array, not named parameters")
    with f:
        return {key: f[key] for key in f.files}


def load_checkpoint(path, like=None):
    """``path`` -> (parameters, dict of metadata).

    The parameters are a nested dict of numpy arrays (``{"layers": {"0": {"weight": ...}}}``),
    or, given ``like`` (a model of the same architecture, e.g. from ``build_model``), that
    model with the checkpoint's arrays in place of its own.
    """
    params, meta = {}, {}
    try:
        stored = _read_npz(path)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:  # missing, truncated, not an npz
        raise ValueError(f"load_checkpoint: {str(path)!r} is not a checkpoint written by save_checkpoint "
                         f"(a numpy .npz file): {type(e).__name__}: {e}") from None
    for key, value in stored.items():
        if key.startswith("meta."):
            meta[key[5:]] = value.item() if value.ndim == 0 else value
            continue
        *parents, leaf = key.split(".")
        d = params
        for part in parents:
            d = d.setdefault(part, {})
            if not isinstance(d, dict):
                raise ValueError(f"load_checkpoint: {str(path)!r} stores both {part!r} and entries under it")
        if isinstance(d.get(leaf), dict):
            raise ValueError(f"load_checkpoint: {str(path)!r} stores both {key!r} and entries under it")
        if value.dtype.kind not in "biufc":
            raise ValueError(f"load_checkpoint: {str(path)!r} stores {key!r} as {value.dtype}, not numbers")
        d[leaf] = value
    if like is None:
        return params, meta
    flat = {}
    for name, old in named_leaves(like):
        node = params
        for part in name.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, np.ndarray) or node.shape != tuple(old.shape):
            raise ValueError(
                f"load_checkpoint: {str(path)!r} has no parameter {name!r} of shape {tuple(old.shape)} "
                f"(found {getattr(node, 'shape', None)}); was it saved from another model?"
            )
        flat[name] = fg.asarray(node.astype(old.dtype), device=old.device)
    return fg.tree.tree_unflatten(fg.tree.tree_structure(like), list(flat.values())), meta


def plot_history(path, hist, title):
    """Training loss per step and accuracy per epoch, as a PNG at ``path`` (matplotlib, Agg)."""
    import matplotlib  # noqa: PLC0415  (optional at import time: the demo trains without it)

    matplotlib.use("Agg", force=True)
    from matplotlib.figure import Figure  # noqa: PLC0415

    fig = Figure(figsize=(10, 4), layout="constrained")
    ax_loss, ax_acc = fig.subplots(1, 2)
    steps = np.arange(1, len(hist.step_loss) + 1)
    ax_loss.plot(steps, hist.step_loss, lw=0.6, alpha=0.4, label="train (per step)")
    window = max(1, len(steps) // 50)
    if window > 1:
        smooth = np.convolve(hist.step_loss, np.ones(window) / window, mode="valid")
        ax_loss.plot(steps[window - 1:], smooth, lw=1.5, label=f"train ({window}-step mean)")
    per_epoch = len(steps) / max(1, len(hist.test_loss))
    epoch_ends = per_epoch * np.arange(1, len(hist.test_loss) + 1)
    ax_loss.plot(epoch_ends, hist.test_loss, "o-", label="test (per epoch)")
    ax_loss.set(xlabel="step", ylabel="cross-entropy", yscale="log", title="loss")
    ax_loss.legend()
    epochs = np.arange(1, len(hist.test_acc) + 1)
    ax_acc.plot(epochs, 100 * np.asarray(hist.train_acc), "o-", label="train (running)")
    ax_acc.plot(epochs, 100 * np.asarray(hist.test_acc), "o-", label="test")
    ax_acc.set(xlabel="epoch", ylabel="accuracy (%)", title="accuracy")
    ax_acc.grid(alpha=0.3)
    ax_acc.legend()
    fig.suptitle(title)
    with atomic_write(path) as f:
        fig.savefig(f, format="png", dpi=110)
