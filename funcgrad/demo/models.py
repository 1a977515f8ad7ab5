"""The demo's classifiers, described once and built with either API.

``mlp``: two hidden layers (256, 128) on the flattened pixels.
``lenet``: LeNet-5's shape — conv -> relu -> 2x2 max-pool, twice (6 then 16
channels), then fully connected 120 -> 84 -> classes — adapted to small inputs:
3 x 3 convolutions with padding 1 on images under 28 pixels (the 8 x 8 digits),
LeNet's own 5 x 5 without padding otherwise (MNIST, CIFAR-10).

:func:`architecture` lists the layers; :func:`build_model` makes a
``funcgrad.nn.Sequential`` of them (the functional API) and
``compat_train`` makes the same ``torch.nn.Sequential`` from the same list,
with the same initial parameters.
"""

from __future__ import annotations

import numpy as np

import funcgrad as fg
import funcgrad.nn as nn
import funcgrad.numpy as fnp
from funcgrad.nn import functional as F

__all__ = ["MODELS", "architecture", "build_model", "count_params", "lenet_geometry", "named_leaves"]

MODELS = ("lenet", "mlp")


def lenet_geometry(image_shape):
    """(kernel, padding, flattened size after the two conv+pool stages) for C x H x W images."""
    _, h, w = image_shape
    k, pad = (3, 1) if min(h, w) < 28 else (5, 0)
    for _ in range(2):
        h, w = (h + 2 * pad - k + 1) // 2, (w + 2 * pad - k + 1) // 2
    if h < 1 or w < 1:
        raise ValueError(f"lenet: images of shape {tuple(image_shape)} are too small for two conv+pool stages")
    return k, pad, 16 * h * w


def architecture(name, image_shape, num_classes):
    """The layers of model ``name``: ("linear", in, out), ("conv", in, out, k, pad), ("relu",),
    ("pool",) (2 x 2 max-pool) or ("flatten",)."""
    if name == "mlp":
        n_in = int(np.prod(image_shape))
        return [("flatten",), ("linear", n_in, 256), ("relu",), ("linear", 256, 128), ("relu",),
                ("linear", 128, num_classes)]
    if name == "lenet":
        k, pad, flat = lenet_geometry(image_shape)
        return [("conv", image_shape[0], 6, k, pad), ("relu",), ("pool",),
                ("conv", 6, 16, k, pad), ("relu",), ("pool",), ("flatten",),
                ("linear", flat, 120), ("relu",), ("linear", 120, 84), ("relu",),
                ("linear", 84, num_classes)]
    raise ValueError(f"unknown model {name!r}; choose one of {', '.join(MODELS)}")


def _flatten(x):
    return fnp.reshape(x, (x.shape[0], -1))


def _pool(x):
    return F.max_pool2d(x, 2)


def build_model(name, image_shape, num_classes, seed=0, dtype=np.float32, device=None):
    """Model ``name`` as a funcgrad.nn.Sequential (PyTorch's default initialization), on ``device``."""
    spec = architecture(name, image_shape, num_classes)
    keys = fg.random.split(fg.random.key(seed), len(spec))
    layers = []
    for (kind, *args), key in zip(spec, keys):
        if kind == "linear":
            layers.append(nn.Linear(*args, key=key, dtype=dtype))
        elif kind == "conv":
            c_in, c_out, k, pad = args
            layers.append(nn.Conv2d(c_in, c_out, k, padding=pad, key=key, dtype=dtype))
        else:
            layers.append({"relu": F.relu, "pool": _pool, "flatten": _flatten}[kind])
    return fg.device_put(nn.Sequential(*layers), device)


def named_leaves(tree):
    """[(dotted name, leaf)] in tree order: ``layers.0.weight``, as PyTorch's state_dict names."""
    return [(".".join(str(k) for k in path), leaf) for path, leaf in fg.tree.tree_flatten_with_path(tree)[0]]


def count_params(model) -> int:
    return sum(int(np.prod(leaf.shape)) for leaf in fg.tree.tree_leaves(model))
