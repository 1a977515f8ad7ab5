"""Fit a small MLP to a noisy sine with fg.grad and plain SGD (the functional front door).

    python examples/fit_mlp.py
"""

import time

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp


def init_params(rng, sizes):
    return [
        {"w": fnp.asarray(rng.standard_normal((m, n)) * np.sqrt(2.0 / (m + n))), "b": fnp.zeros(n)}
        for m, n in zip(sizes[:-1], sizes[1:])
    ]


def predict(params, x):
    for layer in params[:-1]:
        x = fnp.tanh(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def loss(params, x, y):
    return fnp.mean((predict(params, x) - y) ** 2)


def main(steps=2000, lr=0.02, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-3, 3, size=(256, 1))
    y = np.sin(x) + 0.05 * rng.standard_normal(x.shape)
    x, y = fg.asarray(x), fg.asarray(y)
    params = init_params(rng, [1, 32, 32, 1])
    step = fg.value_and_grad(loss)
    t0 = time.perf_counter()
    for i in range(steps + 1):
        value, grads = step(params, x, y)
        params = fg.tree.tree_map(lambda p, g: p - lr * g, params, grads)
        if i % 500 == 0:
            print(f"step {i:5d}  loss {float(value):.5f}")
    print(f"trained {steps} steps in {time.perf_counter() - t0:.1f}s; final loss {float(loss(params, x, y)):.5f}")


if __name__ == "__main__":
    main()
