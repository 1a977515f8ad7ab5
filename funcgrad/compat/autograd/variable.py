"""torch.autograd.variable: the legacy ``Variable``."""

from . import Variable  # noqa: F401

__all__ = ["Variable"]
