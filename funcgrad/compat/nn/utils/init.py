"""torch.nn.utils.init: ``skip_init``."""

from __future__ import annotations

__all__ = ["skip_init"]


def skip_init(module_cls, *args, **kwargs):
    """The module, constructed (compat has no meta device, so the parameters are initialised; PyTorch
    leaves them uninitialised, i.e. of unspecified value, so callers overwrite them either way)."""
    if "device" not in module_cls.__init__.__code__.co_varnames:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    return module_cls(*args, **kwargs)
