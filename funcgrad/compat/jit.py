"""torch.jit: TorchScript is not there; ``script`` and ``trace`` return their argument unchanged.

``torch.jit.script(module_or_fn)`` and ``torch.jit.trace(fn, example_inputs)``
warn (UserWarning) and return the module/function itself, so it still runs
eagerly; the decorators ``ignore``, ``unused``, ``export`` and ``is_scripting()``
behave as in eager PyTorch. Serializing or loading TorchScript
(``torch.jit.save``, ``torch.jit.load``, ...) raises RuntimeError naming the
function; use ``torch.save`` / ``torch.load``.
"""

from __future__ import annotations

import warnings


def _unchanged(name, obj):
    warnings.warn(f"torch.jit.{name}: funcgrad.compat has no TorchScript; returning {obj!r} unchanged "
                  "(it runs eagerly)", UserWarning, stacklevel=3)
    return obj


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    return _unchanged("script", obj)


def trace(func, example_inputs=None, *args, **kwargs):
    return _unchanged("trace", func)


def trace_module(mod, inputs, *args, **kwargs):
    return _unchanged("trace_module", mod)


def ignore(drop=False, **kwargs):
    """``@torch.jit.ignore`` / ``@torch.jit.ignore(drop=True)``: eager code is unaffected."""
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn):
    return fn


def export(fn):
    return fn


def is_scripting():
    return False


def is_tracing():
    return False


def _unsupported(name):
    def fn(*args, **kwargs):
        raise RuntimeError(f"torch.jit.{name} is not supported by funcgrad.compat (there is no TorchScript); "
                           "use torch.save / torch.load for modules and tensors")
    fn.__name__ = fn.__qualname__ = name
    return fn


save = _unsupported("save")
load = _unsupported("load")
freeze = _unsupported("freeze")
optimize_for_inference = _unsupported("optimize_for_inference")


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(f"torch.jit.{name} is not supported by funcgrad.compat (there is no TorchScript)")
