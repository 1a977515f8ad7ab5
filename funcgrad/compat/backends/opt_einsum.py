"""torch.backends.opt_einsum: compat's einsum is funcgrad.numpy's (numpy's contraction order), not
opt_einsum's: ``is_available()`` is False and ``enabled`` reports False, as PyTorch does without
the opt_einsum package."""

from __future__ import annotations

__all__ = ["is_available", "get_opt_einsum", "enabled", "strategy"]

enabled = False
strategy = None


def is_available():
    return False


def get_opt_einsum():
    return None
