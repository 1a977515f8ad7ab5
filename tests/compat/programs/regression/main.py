"""Fit a degree-4 polynomial with a single linear layer and hand-written SGD.

Structure of pytorch/examples/regression: random target weights, polynomial
features, ``fc = torch.nn.Linear``, ``F.smooth_l1_loss``, ``param.data.add_``.
"""
import argparse
from itertools import count

import torch
import torch.nn.functional as F

DEGREE = 4


def features(x):
    """Columns x, x^2, x^3, x^4 of a batch of scalars."""
    x = x.unsqueeze(1)
    return torch.cat([x ** k for k in range(1, DEGREE + 1)], 1)


def describe(w, b):
    terms = " ".join(f"{v:+.2f} x^{k}" for k, v in enumerate(w.view(-1).tolist(), 1))
    return f"y = {terms} {b.item():+.2f}"


def main():
    parser = argparse.ArgumentParser(description="polynomial regression")
    parser.add_argument("--max-batches", type=int, default=1000)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.1)
    args = parser.parse_args()

    torch.manual_seed(0)
    w_target = torch.randn(DEGREE, 1) * 0.5
    b_target = torch.randn(1) * 0.5

    def target(x):
        return x.mm(w_target) + b_target.item()

    def batch(size):
        x = features(torch.randn(size))
        return x, target(x)

    fc = torch.nn.Linear(w_target.size(0), 1)
    first = None
    for batch_idx in count(1):
        batch_x, batch_y = batch(args.batch_size)
        fc.zero_grad()
        output = F.smooth_l1_loss(fc(batch_x), batch_y)
        loss = output.item()
        output.backward()
        for param in fc.parameters():
            param.data.add_(-args.lr * param.grad)
        if first is None:
            first = loss
            print(f"first loss {loss:.6f}")
        if loss < 1e-3 or batch_idx >= args.max_batches:
            break
    print(f"final loss {loss:.6f} after {batch_idx} batches")
    print("learned:", describe(fc.weight, fc.bias))
    print("actual: ", describe(w_target, b_target))


if __name__ == "__main__":
    main()
