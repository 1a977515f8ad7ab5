"""``funcgrad demo``: train a small classifier on real data, with a progress bar and a plot.

    from funcgrad.demo import run
    result = run(epochs=3, plot="curves.png")    # LeNet on the embedded 8x8 digits, functional API

The default data is the 8x8 optical-digits set embedded in funcgrad
(funcgrad.datasets.load_digits); ``data=FOLDER`` trains on MNIST IDX files or
CIFAR-10 python batches instead.  Everything a user can get wrong (a bad
folder, an unknown device, a bad number) raises :class:`DemoError` or
:class:`funcgrad.datasets.DatasetError` before training starts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import pathlib

from .. import datasets
from . import models

__all__ = ["DEFAULTS", "DemoError", "DemoResult", "run"]

# per model: (epochs, batch size, Adam's initial learning rate; cosine-decayed to 0)
DEFAULTS = {"lenet": (15, 32, 3e-3), "mlp": (10, 32, 3e-3)}
APIS = ("functional", "compat")


class DemoError(ValueError):
    """A demo option that cannot work; the message says what to do instead."""


@dataclasses.dataclass
class DemoResult:
    model: str
    dataset: str
    test_accuracy: float
    history: object
    plot: pathlib.Path | None
    checkpoint: pathlib.Path | None
    trained: object = None  # the trained funcgrad.nn model


def _check_positive(name, value, integer):
    if integer:
        ok = isinstance(value, int) and not isinstance(value, bool) and value > 0
    else:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < math.inf
    if not ok:
        raise DemoError(f"{name} must be a positive {'integer' if integer else 'finite number'}, got {value!r}")


def _check_output(option, path):
    path = pathlib.Path(path).expanduser()
    if path.is_dir():
        raise DemoError(f"{option} {str(path)!r} is a folder; give a file name, e.g. {str(path / 'out')!r}")
    if not path.parent.is_dir():
        raise DemoError(f"{option}: the folder {str(path.parent)!r} does not exist; create it or choose another path")
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise DemoError(f"{option}: cannot write in the folder {str(path.parent)!r}; choose another path")
    return path.resolve()


# what the compat path of the demo uses (funcgrad/demo/compat_train.py), by model
_COMPAT_NEEDS = (
    "tensor", "from_numpy", "no_grad", "manual_seed", "nn.Module", "nn.Sequential", "nn.Linear", "nn.ReLU",
    "nn.Flatten", "nn.functional.cross_entropy", "optim.Adam", "optim.lr_scheduler.CosineAnnealingLR",
    "utils.data.DataLoader", "utils.data.TensorDataset",
)
_COMPAT_NEEDS_LENET = ("nn.Conv2d", "nn.MaxPool2d")


def compat_training_missing(model="lenet") -> str | None:
    """None when funcgrad.compat has what the demo's PyTorch-style loop uses; else what is missing."""
    try:
        import funcgrad.compat as torch  # noqa: PLC0415
    except ImportError:
        return "funcgrad.compat"
    missing = []
    for name in _COMPAT_NEEDS + (_COMPAT_NEEDS_LENET if model == "lenet" else ()):
        obj = torch
        try:
            for part in name.split("."):
                obj = getattr(obj, part)
        except AttributeError:
            missing.append(f"funcgrad.compat.{name}")
    return ", ".join(missing) or None


def _check_device(device):
    import funcgrad as fg  # noqa: PLC0415
    from funcgrad import backend  # noqa: PLC0415

    if not isinstance(device, str) or not (
        device == "cpu" or device == "cuda" or (device.startswith("cuda:") and device[5:].isdigit())
    ):
        raise DemoError(f"unknown device {device!r}; use cpu, cuda or cuda:N")
    if device.startswith("cuda"):
        try:
            dev = backend.get_device(device)
            backend.get_backend(dev)
        except (RuntimeError, ValueError) as e:
            raise DemoError(f"--device {device}: {e}") from None
        if dev not in fg.devices():
            raise DemoError(f"--device {device}: no such GPU; found {', '.join(map(str, fg.devices()))}")
    return device


def _blas_threads(n):
    """numpy's BLAS limited to ``n`` threads inside the block (threadpoolctl; a no-op without it)."""
    try:
        from threadpoolctl import threadpool_limits  # noqa: PLC0415
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(limits=n, user_api="blas")


def run(*, api="functional", model="lenet", epochs=None, batch_size=None, lr=None, device="cpu",
        data=None, save=None, plot="funcgrad-demo.png", quiet=False, seed=0, threads=1, echo=print):
    """Train, evaluate, plot and (optionally) save; ``echo`` receives the lines to show."""
    from . import outputs, train  # noqa: PLC0415

    if api not in APIS:
        raise DemoError(f"unknown api {api!r}; use functional or compat")
    if model not in models.MODELS:
        raise DemoError(f"unknown model {model!r}; use {' or '.join(models.MODELS)}")
    if api == "compat":
        missing = compat_training_missing(model)
        if missing:
            raise DemoError(
                f"--api compat: the compat training API is not available yet (missing {missing}); "
                "use --api functional"
            )
    d_epochs, d_batch, d_lr = DEFAULTS[model]
    epochs = d_epochs if epochs is None else epochs
    batch_size = d_batch if batch_size is None else batch_size
    lr = d_lr if lr is None else lr
    _check_positive("--epochs", epochs, integer=True)
    _check_positive("--batch-size", batch_size, integer=True)
    _check_positive("--lr", lr, integer=False)
    _check_positive("--threads", threads, integer=True)
    _check_device(device)
    plot_path = _check_output("--plot", plot) if plot else None
    save_path = _check_output("--save", save) if save else None
    dataset = datasets.load_digits() if data is None else datasets.load(data)
    try:
        models.architecture(model, dataset.image_shape, dataset.num_classes)
    except ValueError as e:
        raise DemoError(f"{e}; use --model mlp") from None

    if not quiet:
        n_params = models.count_params(models.build_model(model, dataset.image_shape, dataset.num_classes))
        echo(
            f"funcgrad demo: {model} ({n_params:,} parameters) on {dataset.name} "
            f"({len(dataset.x_train)} train / {len(dataset.x_test)} test images, "
            f"{'x'.join(map(str, dataset.image_shape))}), device {device}, {api} API, "
            f"{epochs} epochs, batch {batch_size}, Adam lr {lr:g} (cosine decay)"
        )
    options = dict(epochs=epochs, batch_size=batch_size, lr=float(lr), device=device, seed=seed, quiet=quiet)
    with _blas_threads(threads):
        if api == "compat":
            import funcgrad.compat as torch  # noqa: PLC0415

            from .compat_train import train_compat  # noqa: PLC0415

            trained, hist = train_compat(torch, model, dataset, **options)
        else:
            trained, hist = train.train(model, dataset, **options)
    acc = hist.test_acc[-1]
    echo(
        f"test accuracy {100 * acc:.1f}% ({round(acc * len(dataset.y_test))}/{len(dataset.y_test)}) "
        f"after {epochs} epochs: {hist.steps} steps in {hist.seconds:.1f} s ({hist.steps / hist.seconds:.0f} steps/s)"
    )
    if plot_path is not None:
        try:
            outputs.plot_history(plot_path, hist, f"funcgrad demo: {model} on {dataset.name}, {api} API")
            echo(f"loss/accuracy curves: {plot_path}")
        except ImportError:
            plot_path = None
            echo("no plot: matplotlib is not installed (pip install matplotlib)")
    if save_path is not None:
        outputs.save_checkpoint(
            save_path, trained, model=model, dataset=dataset.name, test_accuracy=acc, epochs=epochs,
        )
        echo(f"checkpoint: {save_path}")
    return DemoResult(model, dataset.name, acc, hist, plot_path, save_path, trained)
