"""The demo's training loop written as PyTorch code, for ``funcgrad demo --api compat``.

``train_compat(torch, ...)`` takes the torch-like module to use — funcgrad.compat
in the demo — and runs the same model (the same layer list, the same initial
parameters), data, optimizer and schedule as the functional loop, the PyTorch
way: an ``nn.Sequential``, a ``DataLoader``, ``optim.Adam`` with
``CosineAnnealingLR``, ``loss.backward()``.  It returns the trained parameters
as the functional ``funcgrad.nn`` model (so checkpoints and evaluation are
shared) and the History.
"""

from __future__ import annotations

import math
import sys

import numpy as np

import funcgrad as fg

from . import models
from .train import Tracker, standardize

__all__ = ["train_compat"]


def _torch_layers(torch, spec):
    nn = torch.nn
    make = {
        "linear": lambda n_in, n_out: nn.Linear(n_in, n_out),
        "conv": lambda c_in, c_out, k, pad: nn.Conv2d(c_in, c_out, k, padding=pad),
        "relu": nn.ReLU, "pool": lambda: nn.MaxPool2d(2), "flatten": nn.Flatten,
    }
    return [make[kind](*args) for kind, *args in spec]


def _EpochPermutations(torch, n, seed):
    """A sampler shuffling like the functional path (numpy's Generator, one permutation per
    epoch), so that both APIs see the same batches for the same seed."""
    class EpochPermutations(torch.utils.data.Sampler):
        def __init__(self):
            self.rng = np.random.default_rng(seed)

        def __iter__(self):
            return iter(self.rng.permutation(n).tolist())

        def __len__(self):
            return n

    return EpochPermutations()


def train_compat(torch, model_name, data, *, epochs, batch_size, lr, device="cpu", seed=0, quiet=False,
                 out=sys.stderr):
    """Train with the PyTorch-style API of ``torch``; returns (funcgrad.nn model, History)."""
    start = models.build_model(model_name, data.image_shape, data.num_classes, seed=seed)
    spec = models.architecture(model_name, data.image_shape, data.num_classes)
    net = torch.nn.Sequential(*_torch_layers(torch, spec))
    # the functional model's parameters, by name: "layers.0.weight" is torch's "0.weight"
    # (both use PyTorch's (out, in[, kh, kw]) layouts)
    named = {name.removeprefix("layers."): leaf for name, leaf in models.named_leaves(start)}
    with torch.no_grad():
        for name, param in net.named_parameters():
            param.copy_(torch.tensor(np.array(named[name])))
    net = net.to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    steps_per_epoch = math.ceil(len(data.x_train) / batch_size)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs * steps_per_epoch)
    x_train, x_test = standardize(data, np.float32)
    torch.manual_seed(seed)
    loader = torch.utils.data.DataLoader(
        torch.utils.data.TensorDataset(torch.from_numpy(x_train), torch.from_numpy(data.y_train)),
        batch_size=batch_size, sampler=_EpochPermutations(torch, len(x_train), seed),
    )
    x_test_t, y_test_t = torch.from_numpy(x_test), torch.from_numpy(data.y_test)
    tracker = Tracker(epochs, steps_per_epoch, quiet, out)
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
                schedule.step()
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
    trained = {name: p.detach().cpu().numpy() for name, p in net.named_parameters()}
    leaves = [fg.asarray(trained[name]) for name in named]
    return fg.tree.tree_unflatten(fg.tree.tree_structure(start), leaves), hist
