"""torch.utils: ``data`` (Dataset, DataLoader, ...)."""

from . import data  # noqa: F401
