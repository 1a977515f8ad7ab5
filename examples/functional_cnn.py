"""Train a small CNN on synthetic 8x8 "digits" with fg.grad, funcgrad.nn and funcgrad.optim.

    python examples/functional_cnn.py

The data are seven-segment digits drawn on an 8x8 grid, randomly shifted by a
pixel, with stroke-intensity jitter and noise (a stand-in for the 8x8 digits
dataset).  Everything is functional: the model is an immutable pytree, the
optimizer state is returned by each step, and randomness comes from explicit keys.
"""

import time

import numpy as np

import funcgrad as fg
import funcgrad.nn as nn
import funcgrad.nn.functional as F
import funcgrad.numpy as fnp
from funcgrad import optim

# segments: top, upper-left, upper-right, middle, lower-left, lower-right, bottom
_SEGMENTS = {
    0: "abcefg", 1: "cf", 2: "acdeg", 3: "acdfg", 4: "bcdf",
    5: "abdfg", 6: "abdefg", 7: "acf", 8: "abcdefg", 9: "abcdfg",
}


_STROKES = {  # segment -> (rows, columns) it covers on the 8x8 grid
    "a": (1, slice(2, 6)), "b": (slice(1, 5), 1), "c": (slice(1, 5), 6), "d": (4, slice(2, 6)),
    "e": (slice(4, 8), 1), "f": (slice(4, 8), 6), "g": (7, slice(2, 6)),
}


def _template(digit):
    img = np.zeros((8, 8))
    for s in _SEGMENTS[digit]:
        img[_STROKES[s]] = 1
    return img


def make_digits(n, seed):
    """n noisy, shifted 8x8 digits (float32, N x 1 x 8 x 8) and their labels."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 10, n)
    images = np.empty((n, 1, 8, 8), np.float32)
    for i, d in enumerate(labels):
        img = _template(d) * rng.uniform(0.6, 1.0)
        img = np.roll(img, (rng.integers(-1, 1), rng.integers(-1, 2)), axis=(0, 1))
        images[i, 0] = img + rng.normal(0, 0.25, (8, 8))
    return images, labels


class CNN(nn.Module):
    conv1: nn.Conv2d
    conv2: nn.Conv2d
    head: nn.Linear
    dropout: nn.Dropout

    def __init__(self, key):
        k1, k2, k3 = fg.random.split(key, 3)
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1, key=k1, dtype=np.float32)
        self.conv2 = nn.Conv2d(16, 32, 3, padding="same", key=k2, dtype=np.float32)
        self.head = nn.Linear(32 * 2 * 2, 10, key=k3, dtype=np.float32)
        self.dropout = nn.Dropout(0.2)

    def __call__(self, x, key=None, training=False):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)           # 16 x 4 x 4
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)           # 32 x 2 x 2
        x = self.dropout(fnp.reshape(x, (x.shape[0], -1)), key, training)
        return self.head(x)


def loss_fn(model, x, y, key):
    return F.cross_entropy(model(x, key, training=True), y, label_smoothing=0.05)


def accuracy(model, x, y):
    return float(fnp.mean(fnp.argmax(model(x), axis=1) == y))


def main(epochs=5, batch=64):
    xtr, ytr = make_digits(2000, seed=0)
    xte, yte = make_digits(1000, seed=1)
    xtr, ytr, xte, yte = (fg.asarray(a) for a in (xtr, ytr, xte, yte))
    key = fg.random.key(0)
    key, init_key = fg.random.split(key)
    model = CNN(init_key)
    steps_per_epoch = xtr.shape[0] // batch
    schedule = optim.schedules.warmup_cosine(3e-3, steps_per_epoch, epochs * steps_per_epoch)
    opt = optim.chain(optim.clip_by_global_norm(5.0), optim.adamw(schedule, weight_decay=1e-4))
    state = opt.init(model)
    grad_fn = fg.value_and_grad(loss_fn)
    print(f"chance accuracy 0.10; test accuracy before training {accuracy(model, xte, yte):.3f}")
    t0 = time.perf_counter()
    for epoch in range(epochs):
        key, perm_key = fg.random.split(key)
        perm = fg.random.permutation(perm_key, xtr.shape[0])
        total = 0.0
        for i in range(steps_per_epoch):
            idx = perm[i * batch:(i + 1) * batch]
            key, drop_key = fg.random.split(key)
            loss, grads = grad_fn(model, xtr[idx], ytr[idx], drop_key)
            updates, state = opt.update(grads, state, model)
            model = optim.apply_updates(model, updates)
            total += float(loss)
        print(f"epoch {epoch + 1}: loss {total / steps_per_epoch:.4f}, "
              f"test accuracy {accuracy(model, xte, yte):.3f} ({time.perf_counter() - t0:.1f}s)")
    return accuracy(model, xte, yte)


if __name__ == "__main__":
    main()
