"""funcgrad: a functional, immutable-array autodiff framework on NumPy and CuPy.

    import funcgrad as fg
    import funcgrad.numpy as fnp

    fg.grad(lambda x: fnp.sum(fnp.sin(x) ** 2))(fnp.ones(3))

Transformations (grad, vjp, jvp, ...) compose to any order.  The PyTorch-style
stateful API lives in ``funcgrad.compat``.
"""

from . import numpy, primitives, random, tree  # noqa: F401  (numpy attaches Array's operators)
from .backend import Device, DeviceMismatchError, cuda_available, default_device, devices
from .core import (
    Array, ConcretizationTypeError, EscapedTracerError, MissingRuleError, Primitive, ShapedArray, Tracer,
    set_default_device,
)
from .primitives.transfer import device_put_p as _device_put_p
from .transforms import (
    checkpoint, custom_jvp, custom_vjp, grad, hessian, jacfwd, jacobian, jacrev, jit, jvp,
    linearize, make_graph, make_jaxpr, remat, stop_gradient, value_and_grad, vjp, vmap,
)
from . import sparse  # noqa: E402,F401  (funcgrad.sparse: BCOO sparse arrays, docs/sparse.md)
from . import lax  # noqa: E402,F401  (funcgrad.lax: cond, switch, while_loop, fori_loop, scan, map)
from . import backend as _backend

__version__ = "0.1.0"

__all__ = [
    "Array", "ConcretizationTypeError", "Device", "DeviceMismatchError", "EscapedTracerError", "MissingRuleError",
    "Primitive", "ShapedArray", "Tracer", "asarray", "checkpoint", "cuda_available", "custom_jvp",
    "custom_vjp", "default_device", "device_put", "devices", "grad", "hessian", "jacfwd", "jacobian",
    "jacrev", "jit", "jvp", "lax", "linearize", "make_graph", "make_jaxpr", "nn", "numpy", "optim", "random", "remat",
    "set_default_device", "sparse", "stop_gradient", "tree", "value_and_grad", "vjp", "vmap",
]


def asarray(x, dtype=None, device=None):
    """Array-like -> Array on ``device`` (default: the default device)."""
    return numpy.asarray(x, dtype=dtype, device=device)


def device_put(x, device=None):
    """Move every array in the pytree ``x`` to ``device`` ('cpu', 'cuda', 'cuda:1', 'standin').

    Differentiable: gradients flow back to the source device.
    """
    dev = _backend.get_device(device)
    _backend.get_backend(dev)  # a clear error now if the device is unavailable

    def put(leaf):
        if isinstance(leaf, (Array, Tracer)):
            src = leaf.device
            return leaf if src == dev else _device_put_p.bind(leaf, device=dev, src=src)
        return Array(leaf, device=dev)

    return tree.tree_map(put, x)


def __getattr__(name):
    """``fg.nn`` and ``fg.optim`` are imported on first use."""
    if name in ("nn", "optim"):
        import importlib  # noqa: PLC0415

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'funcgrad' has no attribute {name!r}")
