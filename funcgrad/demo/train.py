"""The demo's training loop on the functional API: funcgrad.nn, fg.value_and_grad, funcgrad.optim.adam."""

from __future__ import annotations

import dataclasses
import math
import sys
import time

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.nn import functional as F

from . import models

__all__ = ["History", "Tracker", "evaluate", "standardize", "train"]


@dataclasses.dataclass
class History:
    """What a run measured: per-step training loss, per-epoch accuracies, wall time."""

    step_loss: list = dataclasses.field(default_factory=list)
    train_acc: list = dataclasses.field(default_factory=list)  # running accuracy over each epoch
    test_acc: list = dataclasses.field(default_factory=list)
    test_loss: list = dataclasses.field(default_factory=list)
    seconds: float = 0.0
    steps: int = 0


def evaluate(model, x, y, device=None, batch_size=1000):
    """(accuracy, mean cross-entropy) of ``model`` on numpy images ``x`` and int labels ``y``."""
    correct, total_loss = 0, 0.0
    for i in range(0, len(x), batch_size):
        logits = model(fnp.asarray(x[i:i + batch_size], device=device))
        yb = y[i:i + batch_size]
        total_loss += float(F.cross_entropy(logits, fnp.asarray(yb, device=device), reduction="sum"))
        correct += int(np.sum(np.asarray(fnp.argmax(logits, axis=1)) == yb))
    return correct / len(x), total_loss / len(x)


def standardize(data, dtype):
    """Train and test images scaled by the training set's per-channel mean and std, as ``dtype``."""
    mean = data.x_train.mean(axis=(0, 2, 3), keepdims=True)
    std = data.x_train.std(axis=(0, 2, 3), keepdims=True) + 1e-6
    return ((data.x_train - mean) / std).astype(dtype), ((data.x_test - mean) / std).astype(dtype)


class Tracker:
    """The progress bar and the History of a run, fed one step at a time (shared by both APIs)."""

    def __init__(self, epochs, steps_per_epoch, quiet, out):
        from tqdm.auto import tqdm  # noqa: PLC0415  (only the demo needs it)

        self.hist, self.epochs = History(), epochs
        self.bar = tqdm(total=epochs * steps_per_epoch, unit="step", disable=quiet, file=out,
                        dynamic_ncols=True, desc="training")
        self.t0 = time.perf_counter()
        self.epoch = 0

    def start_epoch(self):
        self.epoch += 1
        self.seen = self.correct = 0
        self.bar.set_description(f"epoch {self.epoch}/{self.epochs}")

    def step(self, loss, correct, n):
        if not math.isfinite(loss):
            raise FloatingPointError(f"the training loss became {loss} at epoch {self.epoch}; try a smaller --lr")
        self.hist.step_loss.append(loss)
        self.hist.steps += 1
        self.seen += n
        self.correct += correct
        self.bar.set_postfix(loss=f"{loss:.3f}", acc=f"{self.correct / self.seen:.3f}", refresh=False)
        self.bar.update(1)

    def end_epoch(self, test_acc, test_loss):
        self.hist.train_acc.append(self.correct / self.seen)
        self.hist.test_acc.append(test_acc)
        self.hist.test_loss.append(test_loss)
        self.bar.set_postfix(loss=f"{self.hist.step_loss[-1]:.3f}", acc=f"{self.correct / self.seen:.3f}",
                             test_acc=f"{test_acc:.3f}")

    def close(self):
        self.bar.close()
        self.hist.seconds = time.perf_counter() - self.t0
        return self.hist


def train(model_name, data, *, epochs, batch_size, lr, device=None, seed=0, quiet=False, out=sys.stderr):
    """Train model ``model_name`` on ``data`` (a funcgrad.datasets.Dataset) with funcgrad.nn and
    funcgrad.optim's Adam, its learning rate decayed from ``lr`` to 0 along a cosine; returns
    (trained model, History)."""
    model = models.build_model(model_name, data.image_shape, data.num_classes, seed=seed, device=device)
    n = len(data.x_train)
    steps_per_epoch = math.ceil(n / batch_size)
    optimizer = fg.optim.adam(fg.optim.schedules.cosine(lr, epochs * steps_per_epoch))
    opt_state = optimizer.init(model)

    def loss_fn(m, xb, yb):
        logits = m(xb)
        return F.cross_entropy(logits, yb), logits

    step_fn = fg.value_and_grad(loss_fn, has_aux=True)
    x_train, x_test = standardize(data, np.float32)
    y_train = data.y_train
    rng = np.random.default_rng(seed)
    tracker = Tracker(epochs, steps_per_epoch, quiet, out)
    try:
        for _ in range(epochs):
            tracker.start_epoch()
            order = rng.permutation(n)
            for i in range(0, n, batch_size):
                idx = order[i:i + batch_size]
                xb = fnp.asarray(x_train[idx], device=device)
                yb = fnp.asarray(y_train[idx], device=device)
                (loss, logits), grads = step_fn(model, xb, yb)
                updates, opt_state = optimizer.update(grads, opt_state, model)
                model = fg.optim.apply_updates(model, updates)
                correct = int(np.sum(np.asarray(fnp.argmax(logits, axis=1)) == y_train[idx]))
                tracker.step(float(loss), correct, len(idx))
            tracker.end_epoch(*evaluate(model, x_test, data.y_test, device))
    finally:
        hist = tracker.close()
    return model, hist
