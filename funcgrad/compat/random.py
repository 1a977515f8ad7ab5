"""``torch.random``: the default generator's seed and state, and ``fork_rng``.

One CPU generator (``torch.default_generator``, numpy's PCG64) serves every compat device, so
``fork_rng`` saves and restores that one stream whatever ``devices`` it is given.
"""

from __future__ import annotations

import contextlib

from .creation import default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state

__all__ = ["manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state", "fork_rng",
           "default_generator"]


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type="cuda"):
    """Run the block on a forked random stream: the generator's state is restored on exit (even on error).

    ``enabled=False`` makes it a no-op, as PyTorch.
    """
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
