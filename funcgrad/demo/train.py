"""The demo's training loop on the functional API: fg.value_and_grad, Adam, a tqdm bar."""

from __future__ import annotations

import dataclasses
import math
import sys
import time

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp

from . import models

__all__ = ["History", "adam", "cross_entropy", "evaluate", "train"]


@dataclasses.dataclass
class History:
    """What a run measured: per-step training loss, per-epoch accuracies, wall time."""

    step_loss: list = dataclasses.field(default_factory=list)
    train_acc: list = dataclasses.field(default_factory=list)  # running accuracy over each epoch
    test_acc: list = dataclasses.field(default_factory=list)
    test_loss: list = dataclasses.field(default_factory=list)
    seconds: float = 0.0
    steps: int = 0


def cross_entropy(logits, onehot):
    """Mean softmax cross-entropy; the max shift is a constant (stop_gradient), as in logsumexp."""
    shift = fg.stop_gradient(fnp.max(logits, axis=1, keepdims=True))
    z = logits - shift
    log_probs = z - fnp.log(fnp.sum(fnp.exp(z), axis=1, keepdims=True))
    return -fnp.mean(fnp.sum(onehot * log_probs, axis=1))


def adam(lr, b1=0.9, b2=0.999, eps=1e-8):
    """Adam (Kingma & Ba) as a pure (init, update) pair over parameter pytrees."""
    tmap = fg.tree.tree_map

    def init(params):
        zeros = tmap(fnp.zeros_like, params)
        return {"count": 0, "mu": zeros, "nu": zeros}

    def update(grads, state, params=None):
        count = state["count"] + 1
        mu = tmap(lambda m, g: b1 * m + (1 - b1) * g, state["mu"], grads)
        nu = tmap(lambda v, g: b2 * v + (1 - b2) * (g * g), state["nu"], grads)
        step = lr * math.sqrt(1 - b2**count) / (1 - b1**count)
        updates = tmap(lambda m, v: -step * m / (fnp.sqrt(v) + eps), mu, nu)
        return updates, {"count": count, "mu": mu, "nu": nu}

    return init, update


def apply_updates(params, updates):
    return fg.tree.tree_map(lambda p, u: (p + u).astype(p.dtype), params, updates)


def _onehot(labels, num_classes, dtype):
    return np.eye(num_classes, dtype=dtype)[labels]


def evaluate(model, params, x, y, num_classes, device=None, batch_size=1000):
    """(accuracy, mean loss) of the model on numpy images ``x`` and labels ``y``."""
    correct, total_loss = 0, 0.0
    dtype = fg.tree.tree_leaves(params)[0].dtype
    for i in range(0, len(x), batch_size):
        xb = fnp.asarray(x[i:i + batch_size], device=device)
        logits = models.apply_model(model, params, xb)
        onehot = fnp.asarray(_onehot(y[i:i + batch_size], num_classes, dtype), device=device)
        total_loss += float(cross_entropy(logits, onehot)) * len(xb)
        correct += int(np.sum(np.asarray(fnp.argmax(logits, axis=1)) == y[i:i + batch_size]))
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


def train(model, data, *, epochs, batch_size, lr, device=None, seed=0, quiet=False, out=sys.stderr):
    """Train ``model`` on ``data`` (a funcgrad.datasets.Dataset); returns (params, History)."""
    params = models.init_model(model, data.image_shape, data.num_classes, seed=seed, device=device)
    dtype = fg.tree.tree_leaves(params)[0].dtype
    opt_init, opt_update = adam(lr)
    opt_state = opt_init(params)

    def loss_fn(p, xb, onehot):
        logits = models.apply_model(model, p, xb)
        return cross_entropy(logits, onehot), logits

    step_fn = fg.value_and_grad(loss_fn, has_aux=True)
    x_train, x_test = standardize(data, dtype)
    y_train, n = data.y_train, len(data.x_train)
    rng = np.random.default_rng(seed)
    tracker = Tracker(epochs, math.ceil(n / batch_size), quiet, out)
    try:
        for _ in range(epochs):
            tracker.start_epoch()
            order = rng.permutation(n)
            for i in range(0, n, batch_size):
                idx = order[i:i + batch_size]
                xb = fnp.asarray(x_train[idx], device=device)
                onehot = fnp.asarray(_onehot(y_train[idx], data.num_classes, dtype), device=device)
                (loss, logits), grads = step_fn(params, xb, onehot)
                updates, opt_state = opt_update(grads, opt_state, params)
                params = apply_updates(params, updates)
                correct = int(np.sum(np.asarray(fnp.argmax(logits, axis=1)) == y_train[idx]))
                tracker.step(float(loss), correct, len(idx))
            tracker.end_epoch(*evaluate(model, params, x_test, data.y_test, data.num_classes, device))
    finally:
        hist = tracker.close()
    return params, hist
