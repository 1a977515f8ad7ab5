"""``torch.multinomial``: category draws from (unnormalized) weight rows, on the compat generator."""

from __future__ import annotations

import numpy as np

from ..backend import kind_of
from .. import backend
from .creation import _finish, _rng


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """Indices drawn from each row of ``input`` (1-d or 2-d non-negative weights), int64.

    Without ``replacement`` each row's draws are distinct, drawn in turn with
    probabilities proportional to the remaining weights (as PyTorch does).
    """
    w = backend.to_numpy(input.detach()._value)
    if w.ndim not in (1, 2):
        raise RuntimeError(f"prob_dist must be 1 or 2 dim, got a {w.ndim}-d tensor of shape {tuple(w.shape)}")
    if kind_of(w.dtype) != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: {input.dtype}")
    n = int(num_samples)
    if n <= 0:
        raise RuntimeError(f"cannot sample n_sample <= 0 samples (got num_samples={n})")
    rows = w.reshape(-1, w.shape[-1]).astype(np.float64)
    if not replacement and n > rows.shape[1]:
        raise RuntimeError(f"cannot sample n_sample > prob_dist.size(-1) samples without replacement "
                           f"(num_samples={n}, prob_dist.size(-1)={rows.shape[1]})")
    if not np.all(np.isfinite(rows)) or np.any(rows < 0):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    totals = rows.sum(axis=1)
    if np.any(totals <= 0):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    if not replacement and np.any(np.count_nonzero(rows, axis=1) < n):
        raise RuntimeError(f"invalid multinomial distribution (with replacement=False, not enough non-negative "
                           f"category to sample): fewer than {n} categories have a positive weight")
    rng = _rng(generator)
    picks = np.stack([rng.choice(rows.shape[1], size=n, replace=bool(replacement), p=r / t)
                      for r, t in zip(rows, totals)]).astype(np.int64)
    return _finish(picks.reshape(w.shape[:-1] + (n,)), device=input.device)
