"""torch.nn on compat Tensors: stateful Modules over funcgrad.nn.functional's math.

See docs/compat-nn.md.
"""

from . import functional, init, utils  # noqa: F401
from .activation import *  # noqa: F401,F403
from .containers import *  # noqa: F401,F403
from .layers import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403
from .more_layers import *  # noqa: F401,F403
from . import parallel  # noqa: F401
from .parallel import DataParallel  # noqa: F401
from .rnn import *  # noqa: F401,F403
from .transformer import *  # noqa: F401,F403
from .upsampling import Upsample, UpsamplingBilinear2d, UpsamplingNearest2d  # noqa: F401
from .module import Module  # noqa: F401
from .parameter import Parameter  # noqa: F401
from .padding import *  # noqa: F401,F403
from .loss_more import *  # noqa: F401,F403
from .activation_more import *  # noqa: F401,F403
from .layers_more import *  # noqa: F401,F403
from .ctc import CTCLoss  # noqa: F401
from .layers_extra2 import *  # noqa: F401,F403
from .unpool import *  # noqa: F401,F403
