"""torch.get_device_module: the torch.<type> module of a device (torch.cpu, torch.cuda)."""

from __future__ import annotations

from .device import device as _device


def get_device_module(device=None):
    """``torch.cpu`` or ``torch.cuda`` for ``device`` (a torch.device or a string); by default the current
    accelerator's module, else torch.cpu."""
    from .. import compat  # noqa: PLC0415

    if device is None:
        name = compat.accelerator.current_accelerator().type if compat.accelerator.is_available() else "cpu"
    elif isinstance(device, _device):
        name = device.type
    elif isinstance(device, str):
        name = _device(device).type
    else:
        raise RuntimeError(f"Invalid value of device '{device}', expect torch.device, str, or None")
    module = getattr(compat, name, None)
    if module is None:
        raise RuntimeError(f"Device '{name}' does not have a corresponding module registered as 'torch.{name}'.")
    return module
