"""torch.nn on compat Tensors: stateful Modules over funcgrad.nn.functional's math.

See docs/compat-nn.md.
"""

from . import functional, grad, init, utils  # noqa: F401
from .activation import *  # noqa: F401,F403
from .containers import *  # noqa: F401,F403
from .linear import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .normalization import *  # noqa: F401,F403
from .dropout import *  # noqa: F401,F403
from .sparse import *  # noqa: F401,F403
from .distance import *  # noqa: F401,F403
from .shape_layers import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403
from . import parallel  # noqa: F401
from .parallel import DataParallel  # noqa: F401
from .rnn import *  # noqa: F401,F403
from .transformer import *  # noqa: F401,F403
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d  # noqa: F401
from .module import Module  # noqa: F401
from .parameter import Buffer, Parameter  # noqa: F401
from .padding import *  # noqa: F401,F403
from .ctc import CTCLoss  # noqa: F401
from .unpool import *  # noqa: F401,F403
from .lazy import *  # noqa: F401,F403
