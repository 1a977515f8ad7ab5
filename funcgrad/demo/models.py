"""The demo's classifiers as pure functions of a parameter pytree (the functional front door).

``mlp``: a two-hidden-layer perceptron on the flattened pixels.
``lenet``: LeNet-5's shape (conv -> relu -> 2x2 max-pool, twice, then three
fully connected layers), adapted to small inputs: 3 x 3 convolutions with
padding 1 on images smaller than 28 pixels (8 x 8 digits), LeNet's 5 x 5
without padding otherwise.  It needs ``funcgrad.nn.functional.conv2d`` and
``max_pool2d``; :func:`conv_available` says whether this installation has them.
"""

from __future__ import annotations

import math

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp

__all__ = ["MODELS", "conv_available", "init_model", "apply_model", "count_params"]

MODELS = ("mlp", "lenet")


def _conv_ops():
    try:
        from funcgrad.nn import functional as F  # noqa: PLC0415  (lands with funcgrad.nn)
    except ImportError:
        return None
    if not all(hasattr(F, n) for n in ("conv2d", "max_pool2d")):
        return None
    return F


def conv_available() -> bool:
    """True when funcgrad.nn.functional provides conv2d and max_pool2d."""
    return _conv_ops() is not None


def _dense(rng, fan_in, fan_out, dtype):
    # He-uniform weights (ReLU layers), zero biases: the init PyTorch's Linear approximates
    bound = math.sqrt(6.0 / fan_in)
    return {
        "w": rng.uniform(-bound, bound, size=(fan_in, fan_out)).astype(dtype),
        "b": np.zeros(fan_out, dtype),
    }


def _conv(rng, c_in, c_out, k, dtype):
    bound = math.sqrt(6.0 / (c_in * k * k))
    return {
        "w": rng.uniform(-bound, bound, size=(c_out, c_in, k, k)).astype(dtype),
        "b": np.zeros(c_out, dtype),
    }


def _lenet_geometry(image_shape):
    """(kernel, padding, flattened size after the two conv+pool stages)."""
    _, h, w = image_shape
    k, pad = (3, 1) if min(h, w) < 28 else (5, 0)
    for _ in range(2):
        h, w = (h + 2 * pad - k + 1) // 2, (w + 2 * pad - k + 1) // 2
    if h < 1 or w < 1:
        raise ValueError(f"lenet: images of shape {tuple(image_shape)} are too small for two conv+pool stages")
    return k, pad, 16 * h * w


def init_model(name, image_shape, num_classes, seed=0, dtype=np.float32, device=None):
    """Parameters of model ``name`` ('mlp' or 'lenet') as a pytree of funcgrad Arrays."""
    rng = np.random.default_rng(seed)
    c = image_shape[0]
    if name == "mlp":
        n_in = int(np.prod(image_shape))
        params = {
            "fc1": _dense(rng, n_in, 256, dtype),
            "fc2": _dense(rng, 256, 128, dtype),
            "fc3": _dense(rng, 128, num_classes, dtype),
        }
    elif name == "lenet":
        k, _, flat = _lenet_geometry(image_shape)
        params = {
            "conv1": _conv(rng, c, 6, k, dtype),
            "conv2": _conv(rng, 6, 16, k, dtype),
            "fc1": _dense(rng, flat, 120, dtype),
            "fc2": _dense(rng, 120, 84, dtype),
            "fc3": _dense(rng, 84, num_classes, dtype),
        }
    else:
        raise ValueError(f"unknown model {name!r}; choose one of {', '.join(MODELS)}")
    return fg.device_put(params, device)


def _linear(p, x):
    return x @ p["w"] + p["b"]


def _relu(x):
    return fnp.maximum(x, 0.0)


def apply_model(name, params, x):
    """Logits (N x classes) for images ``x`` (N x C x H x W)."""
    if name == "mlp":
        h = fnp.reshape(x, (x.shape[0], -1))
        h = _relu(_linear(params["fc1"], h))
        h = _relu(_linear(params["fc2"], h))
        return _linear(params["fc3"], h)
    F = _conv_ops()
    if F is None:
        raise RuntimeError("lenet needs funcgrad.nn.functional.conv2d and max_pool2d, not in this version")
    _, pad, _ = _lenet_geometry(x.shape[1:])
    h = x
    for layer in ("conv1", "conv2"):
        h = F.conv2d(h, params[layer]["w"], params[layer]["b"], padding=pad)
        h = F.max_pool2d(_relu(h), 2)
    h = fnp.reshape(h, (h.shape[0], -1))
    h = _relu(_linear(params["fc1"], h))
    h = _relu(_linear(params["fc2"], h))
    return _linear(params["fc3"], h)


def count_params(params) -> int:
    return sum(int(np.prod(leaf.shape)) for leaf in fg.tree.tree_leaves(params))
