"""torch.optim on compat Tensors: stateful optimizers over funcgrad.optim's rules (docs/compat-nn.md)."""

from . import lr_scheduler  # noqa: F401
from .optimizer import Optimizer  # noqa: F401
from .lbfgs import LBFGS  # noqa: F401
from .rules import ASGD, SGD, Adadelta, Adagrad, Adam, Adamax, AdamW, NAdam, RAdam, RMSprop  # noqa: F401
from .rprop import Rprop  # noqa: E402,F401
from .adafactor import Adafactor  # noqa: E402,F401
from . import swa_utils  # noqa: E402,F401
