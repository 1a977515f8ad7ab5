"""funcgrad.nn: functional layers (immutable pytree Modules), losses, initializers.

    import funcgrad as fg, funcgrad.nn as nn
    model = nn.MLP(784, 10, width=512, depth=2, key=fg.random.key(0))
    grads = fg.grad(lambda m, x, y: nn.functional.cross_entropy(m(x), y))(model, x, y)
"""

from . import functional, init
from .layers import *  # noqa: F401,F403
from .layers import __all__ as _layers
from .module import *  # noqa: F401,F403
from .module import __all__ as _module
from .recurrent import *  # noqa: F401,F403
from .recurrent import __all__ as _recurrent

__all__ = ["functional", "init"] + _layers + _module + _recurrent
