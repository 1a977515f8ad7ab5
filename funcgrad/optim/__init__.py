"""funcgrad.optim: optimizers as pure (init, update) pairs (optax-style), PyTorch's rules.

    opt = fg.optim.sgd(0.1, momentum=0.9)
    state = opt.init(params)
    updates, state = opt.update(grads, state, params)
    params = fg.optim.apply_updates(params, updates)
"""

from . import schedules
from .optimizers import *  # noqa: F401,F403
from .optimizers import __all__ as _opt
from .adam_variants import *  # noqa: F401,F403
from .adam_variants import __all__ as _variants
from .averaged import asgd  # noqa: F401
from .sign_based import rprop  # noqa: F401
from .adafactor import adafactor  # noqa: F401

__all__ = ["schedules"] + _opt + _variants + ["asgd", "rprop", "adafactor"]
