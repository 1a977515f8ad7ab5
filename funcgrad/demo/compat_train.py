"""The demo's training loop written as PyTorch code, for ``funcgrad demo --api compat``.

``train_compat(torch, ...)`` takes the torch-like module to use — funcgrad.compat
in the demo — and runs the same model, initial parameters, data and optimizer
as the functional loop, the PyTorch way: an ``nn.Sequential``, ``DataLoader``,
``optim.Adam``, ``loss.backward()``.  It returns the trained parameters in the
functional layout (so checkpoints and evaluation are shared) and the History.
"""

from __future__ import annotations

import math
import sys

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp

from . import models
from .train import Tracker, standardize

__all__ = ["train_compat"]


def _layers(torch, model, image_shape, num_classes):
    """The model as (functional parameter name or None, torch layer) pairs, in order."""
    nn = torch.nn
    if model == "mlp":
        n_in = int(np.prod(image_shape))
        return [
            (None, nn.Flatten()), ("fc1", nn.Linear(n_in, 256)), (None, nn.ReLU()),
            ("fc2", nn.Linear(256, 128)), (None, nn.ReLU()), ("fc3", nn.Linear(128, num_classes)),
        ]
    k, pad, flat = models._lenet_geometry(image_shape)
    return [
        ("conv1", nn.Conv2d(image_shape[0], 6, k, padding=pad)), (None, nn.ReLU()), (None, nn.MaxPool2d(2)),
        ("conv2", nn.Conv2d(6, 16, k, padding=pad)), (None, nn.ReLU()), (None, nn.MaxPool2d(2)),
        (None, nn.Flatten()), ("fc1", nn.Linear(flat, 120)), (None, nn.ReLU()),
        ("fc2", nn.Linear(120, 84)), (None, nn.ReLU()), ("fc3", nn.Linear(84, num_classes)),
    ]


def _torch_layout(name, w):
    # functional dense weights are (in, out); torch.nn.Linear's are (out, in); conv weights agree
    return w.T if name.startswith("fc") else w


def train_compat(torch, model, data, *, epochs, batch_size, lr, device="cpu", seed=0, quiet=False,
                 out=sys.stderr):
    """Train with the PyTorch-style API of ``torch``; returns (functional params, History)."""
    init = models.init_model(model, data.image_shape, data.num_classes, seed=seed)
    layers = _layers(torch, model, data.image_shape, data.num_classes)
    with torch.no_grad():
        for name, layer in layers:
            if name is not None:
                layer.weight.copy_(torch.tensor(np.array(_torch_layout(name, np.asarray(init[name]["w"])))))
                layer.bias.copy_(torch.tensor(np.array(init[name]["b"])))
    net = torch.nn.Sequential(*(layer for _, layer in layers)).to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    x_train, x_test = standardize(data, np.float32)
    torch.manual_seed(seed)
    loader = torch.utils.data.DataLoader(
        torch.utils.data.TensorDataset(torch.from_numpy(x_train), torch.from_numpy(data.y_train)),
        batch_size=batch_size, shuffle=True,
    )
    x_test_t, y_test_t = torch.from_numpy(x_test), torch.from_numpy(data.y_test)
    tracker = Tracker(epochs, math.ceil(len(x_train) / batch_size), quiet, out)
    try:
        for _ in range(epochs):
            tracker.start_epoch()
            net.train()
            for xb, yb in loader:
                xb, yb = xb.to(device), yb.to(device)
                logits = net(xb)
                loss = torch.nn.functional.cross_entropy(logits, yb)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                correct = int((logits.argmax(dim=1) == yb).sum().item())
                tracker.step(loss.item(), correct, len(yb))
            net.eval()
            with torch.no_grad():
                correct = total_loss = 0.0
                for i in range(0, len(x_test_t), 1000):
                    xb, yb = x_test_t[i:i + 1000].to(device), y_test_t[i:i + 1000].to(device)
                    logits = net(xb)
                    total_loss += torch.nn.functional.cross_entropy(logits, yb, reduction="sum").item()
                    correct += (logits.argmax(dim=1) == yb).sum().item()
            tracker.end_epoch(correct / len(x_test_t), total_loss / len(x_test_t))
    finally:
        hist = tracker.close()
    params = {}
    for name, layer in layers:
        if name is not None:
            w = layer.weight.detach().cpu().numpy()
            params[name] = {"w": fnp.asarray(np.ascontiguousarray(_torch_layout(name, w))),
                            "b": fnp.asarray(layer.bias.detach().cpu().numpy().copy())}
    return fg.device_put(params, "cpu"), hist
