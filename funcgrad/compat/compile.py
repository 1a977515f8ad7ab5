"""``torch.compile``: a module or function compiled by ``fg.jit``, with PyTorch's guards and fallbacks.

``torch.compile(model)`` returns an :class:`OptimizedModule` (``_orig_mod`` is the model) whose
call runs ``fg.jit`` over a pure version of the forward: the module's parameters and buffers are
inputs of the traced graph (``torch.func.functional_call`` puts the traced values in their
place), so one compiled graph serves every step while the optimizer changes the weights.
Through compat's one dispatch path the jitted call is one ``jit`` operation in compat's autograd
graph: its backward is the compiled vjp of the same trace (a forward and a backward graph, as
AOTAutograd makes), so ``loss.backward()`` reaches the parameters' ``.grad``.

Guards: a new input shape, dtype or device (fg.jit's cache key), a module's training mode or
the grad mode retraces (``torch._dynamo`` recompiles on the same changes).  ``dynamic=`` is
accepted; shapes are always specialised (each new shape compiles once).

Graph breaks: what cannot be traced — ``.item()``/``float()``/``bool()`` of a traced value, data-
dependent Python control flow, random numbers (``dropout`` in training, ``torch.rand``), in-place
updates of buffers (BatchNorm's running statistics in training) — makes that call run eagerly,
with a warning the first time for that signature; ``fullgraph=True`` raises instead, naming what
could not be traced.  A Python side effect (``print``) inside a traced function runs when it is
traced, not on later calls.
"""

from __future__ import annotations

import functools
import warnings

from .. import tree
from ..transforms.jit import Jitted
from ..transforms.jit_trace import JitTracer
from . import creation
from .autograd.grad_mode import is_grad_enabled

__all__ = ["compile", "OptimizedModule", "CompiledFunction"]


class GraphBreak(RuntimeError):
    """Something in the compiled function cannot be traced into a graph."""


class _Tracing:
    """While a compiled function is traced: random number draws raise GraphBreak."""

    def __init__(self, state):
        self.state = state

    def __enter__(self):
        creation._NO_RANDOM.append(GraphBreak)

    def __exit__(self, exc_type, exc, tb):
        creation._NO_RANDOM.pop()
        self.state["trace_failed"] = exc_type is not None  # the error came from tracing the function
        return False


class _Compiler:
    """The shared machinery: a jitted pure function, the guard key, graph breaks."""

    def __init__(self, fn, name, fullgraph):
        self.fn = fn
        self.name = name
        self.fullgraph = fullgraph
        self.state = {"trace_failed": False}
        self.eager_keys = set()  # signatures that could not be traced: they run eagerly

        def pure(params, args, kwargs, guards):
            with _Tracing(self.state):
                params, args, kwargs = tree.tree_map(_as_tensor, (params, args, kwargs))
                return tree.tree_map(_unwrap, fn(params, args, kwargs))

        pure.__name__ = name
        # Python numbers stay static (specialized, as torch.compile does), not weakly typed inputs
        self.jitted = Jitted(pure, (3,), (), (), weak_numbers=False)

    def __call__(self, params, args, kwargs, guards, eager):
        if self.eager_keys and self._key(params, args, kwargs, guards) in self.eager_keys:
            return eager()
        self.state["trace_failed"] = False
        try:
            return self.jitted(params, args, kwargs, guards)
        except Exception as e:
            if not self.state["trace_failed"]:
                raise  # raised while running the compiled graph (or by the arguments): the user's error
            self.state["trace_failed"] = False
            if self.fullgraph:
                raise RuntimeError(f"torch.compile(fullgraph=True): {self.name} cannot be traced into one graph: "
                                   f"{type(e).__name__}: {e}") from e
            result = eager()  # a mistake in the model raises here, as in eager PyTorch (no graph break to report)
            warnings.warn(f"torch.compile: {self.name} cannot be traced ({type(e).__name__}: {str(e)[:200]}); "
                          "running it eagerly for inputs like these (graph break)", UserWarning, stacklevel=3)
            self.eager_keys.add(self._key(params, args, kwargs, guards))
            return result

    @staticmethod
    def _key(params, args, kwargs, guards):
        """The signature a graph break is remembered under (computed only once one happened: the compiled
        path's own cache key is fg.jit's)."""
        return guards, tuple(_signature(x) for x in tree.tree_leaves((params, args, kwargs)))


def _as_tensor(x):
    """A traced value as a Tensor (module code calls Tensor methods: view, flatten(1), size(0), ...)."""
    from .autograd.graph import TracedTensor  # noqa: PLC0415

    if isinstance(x, JitTracer):
        t = object.__new__(TracedTensor)
        t._value = x
        return t
    return x


def _unwrap(x):
    from .autograd.graph import TracedTensor  # noqa: PLC0415

    return x._value if type(x) is TracedTensor else x


def _signature(x):
    shape = getattr(x, "shape", None)
    if shape is None:
        return (type(x), x if isinstance(x, (int, float, bool, str, type(None))) else id(type(x)))
    return (tuple(shape), str(getattr(x, "dtype", "")), str(getattr(x, "device", "")),
            bool(getattr(x, "requires_grad", False)))


class CompiledFunction:
    """What ``torch.compile(fn)`` returns for a function: call it like ``fn``."""

    def __init__(self, fn, fullgraph):
        self._orig_fn = fn
        functools.update_wrapper(self, fn)
        self._compiler = _Compiler(lambda params, args, kwargs: fn(*args, **kwargs),
                                   getattr(fn, "__name__", "function"), fullgraph)

    def __call__(self, *args, **kwargs):
        guards = (is_grad_enabled(),)
        return self._compiler((), args, kwargs, guards, lambda: self._orig_fn(*args, **kwargs))

    def __get__(self, obj, objtype=None):
        return self if obj is None else functools.partial(self, obj)


def _module_class():
    from .nn.module import Module  # noqa: PLC0415 - nn imports much of compat

    return Module


def _optimized_module(model, fullgraph):
    Module = _module_class()

    class OptimizedModule(Module):
        """``torch.compile(module)``: ``_orig_mod`` is the module; calls run its compiled forward."""

        def __init__(self, mod):
            super().__init__()
            self._orig_mod = mod
            object.__setattr__(self, "_compiler", _Compiler(self._pure, type(mod).__name__ + ".forward", fullgraph))

        def _pure(self, params, args, kwargs):
            from .func import functional_call  # noqa: PLC0415

            names = [n for n, _ in self._named_state()]
            return functional_call(self._orig_mod, dict(zip(names, params)), args, kwargs)

        def _named_state(self):
            named = list(self._orig_mod.named_parameters(remove_duplicate=True))
            named += [(n, b) for n, b in self._orig_mod.named_buffers(remove_duplicate=True) if b is not None]
            return named

        def forward(self, *args, **kwargs):
            params = tuple(t for _, t in self._named_state())
            guards = (is_grad_enabled(), tuple(m.training for m in self._orig_mod.modules()))
            return self._compiler(params, args, kwargs, guards, lambda: self._orig_mod(*args, **kwargs))

        def __getattr__(self, name):
            try:
                return super().__getattr__(name)
            except AttributeError:
                if name == "_orig_mod":
                    raise
                return getattr(self._orig_mod, name)  # as PyTorch's OptimizedModule: the model's attributes

        def __repr__(self):
            return f"OptimizedModule({self._orig_mod!r})"

    OptimizedModule.__module__ = __name__
    return OptimizedModule(model)


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None,
            disable=False):
    """``torch.compile(model_or_fn)``: compiled by fg.jit (see the module docstring).  Usable as
    ``@torch.compile`` and ``@torch.compile(fullgraph=True)``; ``disable=True`` returns the argument."""
    if model is None:
        return lambda m: compile(m, fullgraph=fullgraph, dynamic=dynamic, backend=backend, mode=mode,
                                 options=options, disable=disable)
    if disable:
        return model
    if backend not in ("inductor", "eager", "aot_eager", "funcgrad") and not callable(backend):
        raise RuntimeError(f"torch.compile: unknown backend {backend!r} (funcgrad.compat compiles with fg.jit "
                           "whatever backend names a PyTorch backend: 'inductor', 'eager', 'aot_eager')")
    if isinstance(model, _module_class()):
        return _optimized_module(model, fullgraph)
    if not callable(model):
        raise RuntimeError(f"torch.compile expects a Module or a callable, got {type(model).__name__}")
    return CompiledFunction(model, fullgraph)
