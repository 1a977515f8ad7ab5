"""nn.DataParallel: scatter the batch over devices, run a replica of the module on each, gather the outputs.

The machinery works on any list of devices (``'cuda:N'``, and ``'cpu'``/``'standin'`` given explicitly):
inputs are chunked along ``dim`` and moved with the differentiable ``Tensor.to``; each replica holds
``param.to(device)`` in place of each parameter, so the replicas' gradients flow back into the original
module's ``.grad``; the outputs are moved to ``output_device`` and concatenated.  The replicas run one
after the other (no threads): the result and the gradients are DataParallel's, the speed is one device's.
"""

from __future__ import annotations

import contextlib
import warnings

from ..device import device as _device
from ..autograd.grad_mode import is_grad_enabled
from ..tensor import Tensor
from .module import Module

__all__ = ["DataParallel", "data_parallel", "scatter", "scatter_kwargs", "replicate", "parallel_apply", "gather"]


def _visible_device_ids():
    """``device_ids`` when none are given: every visible CUDA device."""
    from .. import cuda  # noqa: PLC0415

    return list(range(cuda.device_count())) if cuda.is_available() else []


def _device_of_id(i):
    """The device an integer device id names."""
    return _device("cuda", i)


def _resolve(d):
    """A device id (int, -1 for the CPU, str or torch.device) -> a torch.device with its index."""
    if isinstance(d, bool):
        raise TypeError(f"DataParallel: a device id must be an int, str or torch.device, got {d!r}")
    if isinstance(d, int):
        return _device("cpu") if d == -1 else _device_of_id(d)
    dev = _device(d)
    if dev.type != "cpu" and dev.index is None:
        dev = _device(dev.type, 0)
    return dev


def _as_id(d):
    """PyTorch's stored form of a device id: the index of a CUDA device, the device otherwise."""
    if isinstance(d, int):
        return d
    dev = _resolve(d)
    return dev.index if dev.type == "cuda" else dev


def _scope(dev):
    """Make ``dev`` cupy's current device while a replica runs (nothing to do for other devices)."""
    if dev.type != "cuda":
        return contextlib.nullcontext()
    from ... import backend  # noqa: PLC0415

    return backend.get_backend(dev._backend_device()).xp.cuda.Device(dev.index)


def _is_namedtuple(obj):
    return isinstance(obj, tuple) and hasattr(obj, "_fields")


def scatter(inputs, devices, dim=0):
    """Split tensors in ``inputs`` into ``len(devices)`` chunks along ``dim`` (``Tensor.chunk``: fewer when
    the batch is small), chunk ``i`` on ``devices[i]``; containers are recursed, other objects repeated.
    Returns one entry per chunk."""
    devices = [_resolve(d) for d in devices]

    def scatter_map(obj):
        if isinstance(obj, Tensor):
            return [c.to(dev) for c, dev in zip(obj.chunk(len(devices), dim), devices)]
        if _is_namedtuple(obj):
            return [type(obj)(*args) for args in zip(*map(scatter_map, obj))]
        if isinstance(obj, tuple) and obj:
            return list(zip(*map(scatter_map, obj)))
        if isinstance(obj, list) and obj:
            return [list(x) for x in zip(*map(scatter_map, obj))]
        if isinstance(obj, dict) and obj:
            return [type(obj)(x) for x in zip(*map(scatter_map, obj.items()))]
        return [obj for _ in devices]

    return scatter_map(inputs)


def scatter_kwargs(inputs, kwargs, devices, dim=0):
    """``scatter`` of the positional and keyword arguments, padded to the same number of chunks."""
    inputs = scatter(inputs, devices, dim) if inputs else []
    kwargs = scatter(kwargs, devices, dim) if kwargs else []
    inputs.extend(() for _ in range(len(kwargs) - len(inputs)))
    kwargs.extend({} for _ in range(len(inputs) - len(kwargs)))
    return tuple(inputs), tuple(kwargs)


def _shallow_copy(module):
    """A replica of one module: its own parameter/buffer/child tables, the rest of its state shared."""
    replica = module.__new__(type(module))
    d = replica.__dict__
    d.update(module.__dict__)
    d["_parameters"] = {}  # a replica's parameters are plain (non-leaf) attributes, as in PyTorch
    d["_buffers"] = dict(module._buffers)
    d["_modules"] = dict(module._modules)
    d["_is_replica"] = True
    return replica


def replicate(network, devices, detach=False):
    """One copy of ``network`` per device.  Each replica's parameters are ``param.to(device)`` (recorded,
    so gradients reach the original parameters unless ``detach``); buffers are copied, except on a device
    the module is already on for the first replica, which shares the module's buffers (so in-place
    updates there, e.g. BatchNorm's running statistics, are kept, as in PyTorch)."""
    devices = [_resolve(d) for d in devices]
    modules = list(network.modules())
    copies = [[_shallow_copy(m) for m in modules] for _ in devices]
    index = {id(m): i for i, m in enumerate(modules)}
    for j, dev in enumerate(devices):
        for i, m in enumerate(modules):
            replica = copies[j][i]
            for key, child in m._modules.items():
                replica._modules[key] = None if child is None else copies[j][index[id(child)]]
            for key, p in m._parameters.items():
                if p is None:
                    replica.__dict__[key] = None
                else:
                    replica.__dict__[key] = (p.detach() if detach else p).to(dev)
            for key, b in m._buffers.items():
                if b is None:
                    continue
                if b.device == dev:
                    replica._buffers[key] = b if j == 0 else b.detach().clone()
                else:
                    replica._buffers[key] = (b if b.requires_grad and not detach else b.detach()).to(dev)
    return [c[0] for c in copies]


def parallel_apply(modules, inputs, kwargs_tup=None, devices=None):
    """Run ``modules[i](*inputs[i], **kwargs_tup[i])`` on ``devices[i]``, one after the other.

    An exception names the replica and device it came from (same type where it can be rebuilt)."""
    kwargs_tup = kwargs_tup if kwargs_tup is not None else ({},) * len(modules)
    devices = [_resolve(d) for d in devices] if devices is not None else [None] * len(modules)
    outputs = []
    for i, (m, inp, kw, dev) in enumerate(zip(modules, inputs, kwargs_tup, devices)):
        if not isinstance(inp, (list, tuple)):
            inp = (inp,)
        try:
            with _scope(dev) if dev is not None else contextlib.nullcontext():
                outputs.append(m(*inp, **kw))
        except Exception as e:
            msg = f"Caught {type(e).__name__} in replica {i} on device {dev}: {e}"
            try:
                err = type(e)(msg)
            except Exception:  # an exception type that takes other arguments
                err = RuntimeError(msg)
            raise err from e
    return outputs


def gather(outputs, target_device, dim=0):
    """Concatenate the replicas' outputs on ``target_device`` along ``dim`` (recorded, so the gradient is
    scattered back); dicts, lists and (named) tuples are gathered per entry; 0-d tensors become a vector."""
    target = _resolve(target_device)

    def gather_map(outs):
        out = outs[0]
        if isinstance(out, Tensor):
            from .. import cat  # noqa: PLC0415

            if dim == 0 and all(o.dim() == 0 for o in outs):
                warnings.warn("Was asked to gather along dimension 0, but all input tensors were scalars; will "
                              "instead unsqueeze and return a vector.", UserWarning, stacklevel=4)
                outs = [o.reshape(1) for o in outs]
            return cat([o.to(target) for o in outs], dim)
        if out is None:
            return None
        if isinstance(out, dict):
            if not all(len(out) == len(o) for o in outs):
                raise ValueError("All dicts must have the same number of keys")
            return type(out)((k, gather_map([o[k] for o in outs])) for k in out)
        if _is_namedtuple(out):
            return type(out)._make(map(gather_map, zip(*outs)))
        if isinstance(out, (list, tuple)):
            return type(out)(map(gather_map, zip(*outs)))
        raise TypeError(f"DataParallel cannot gather outputs of type {type(out).__name__}: a module's output "
                        "must be tensors, None, or dicts, lists and tuples of them")

    return gather_map(outputs)


def _usable(device_ids):
    """The devices ``device_ids`` name, or [] where PyTorch runs the module itself: no ids, or CUDA ids on
    a machine without a GPU (what PyTorch's CPU build does)."""
    from .. import cuda  # noqa: PLC0415

    devices = [_resolve(d) for d in device_ids]
    if not cuda.is_available() and any(d.type == "cuda" for d in devices):
        return []
    return devices


def _check_on(module, src):
    for t in list(module.parameters()) + list(module.buffers()):
        if t.device != src:
            raise RuntimeError(f"module must have its parameters and buffers on device {src} (device_ids[0]) "
                               f"but found one of them on device: {t.device}")


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    """The functional form of ``DataParallel``: one call of ``module`` on ``inputs`` over ``device_ids``."""
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    module_kwargs = module_kwargs or {}
    devices = _usable(_visible_device_ids() if device_ids is None else device_ids)
    if not devices:
        return module(*inputs, **module_kwargs)
    _check_on(module, devices[0])
    output = devices[0] if output_device is None else _resolve(output_device)
    inputs, kwargs = scatter_kwargs(inputs, module_kwargs, devices, dim)
    if not inputs and not kwargs:
        inputs, kwargs = ((),), ({},)
    if len(devices) == 1:
        with _scope(devices[0]):
            return module(*inputs[0], **kwargs[0])
    used = devices[:len(inputs)]
    outputs = parallel_apply(replicate(module, used, not is_grad_enabled()), inputs, kwargs, used)
    return gather(outputs, output, dim)


class DataParallel(Module):
    """``nn.DataParallel(module, device_ids=None, output_device=None, dim=0)``.

    ``device_ids`` defaults to every visible CUDA device; with none (no GPU: integer ids are then ignored,
    as by PyTorch on a CPU-only build) the module is called directly.  With one device, inputs are moved
    there and the module (moved there at construction) is called.  With several, each call scatters the
    inputs along ``dim``, replicates the module onto the devices that got a chunk, runs the replicas (one
    after the other) and gathers the outputs on ``output_device`` (default ``device_ids[0]``).  The module
    must live on ``device_ids[0]``.  ``device_ids`` may also name non-CUDA devices (``'cpu'``,
    ``'standin'``, ``torch.device``), which are used as given.  ``scatter``, ``replicate``,
    ``parallel_apply`` and ``gather`` are methods, so subclasses can override them as in PyTorch.
    """

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.dim = dim
        if device_ids is None:
            device_ids = _visible_device_ids()
        devices = _usable(device_ids)
        if not devices:
            self.device_ids, self.output_device = [], None
            return
        self.device_ids = [_as_id(d) for d in device_ids]
        self.output_device = _as_id(device_ids[0] if output_device is None else output_device)
        self.src_device_obj = devices[0]
        if len(devices) == 1:
            self.module.to(self.src_device_obj)

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        _check_on(self.module, self.src_device_obj)
        inputs, kwargs = self.scatter(inputs, kwargs, self.device_ids)
        if not inputs and not kwargs:
            inputs, kwargs = ((),), ({},)
        if len(self.device_ids) == 1:
            with _scope(self.src_device_obj):
                return self.module(*inputs[0], **kwargs[0])
        replicas = self.replicate(self.module, self.device_ids[:len(inputs)])
        outputs = self.parallel_apply(replicas, inputs, kwargs)
        return self.gather(outputs, self.output_device)

    def scatter(self, inputs, kwargs, device_ids):
        return scatter_kwargs(inputs, kwargs, device_ids, dim=self.dim)

    def replicate(self, module, device_ids):
        return replicate(module, device_ids, not is_grad_enabled())

    def parallel_apply(self, replicas, inputs, kwargs):
        return parallel_apply(replicas, inputs, kwargs, self.device_ids[:len(replicas)])

    def gather(self, outputs, output_device):
        return gather(outputs, output_device, dim=self.dim)
