"""funcgrad.nn.functional: layers, activations and losses as pure functions.

Names, arguments, defaults and formulas follow ``torch.nn.functional``
(NCHW layouts, PyTorch's reduction rules); randomness takes an explicit key;
batch_norm returns its updated running statistics instead of mutating them.
"""

from ._activations import *  # noqa: F401,F403
from ._activations import __all__ as _a
from ._conv import *  # noqa: F401,F403
from ._conv import __all__ as _c
from ._losses import *  # noqa: F401,F403
from ._losses import __all__ as _l
from ._normalization import *  # noqa: F401,F403
from ._normalization import __all__ as _n
from ._distance import *  # noqa: F401,F403
from ._distance import __all__ as _d

__all__ = _a + _c + _l + _n + _d
