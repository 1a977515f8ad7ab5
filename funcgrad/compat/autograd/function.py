"""Custom autograd Functions: ``class F(torch.autograd.Function)`` with static forward/backward.

``F.apply(*args)`` runs ``forward(ctx, *args)`` without recording, then gives
its outputs a grad_fn node (``FBackward``) that calls ``backward(ctx, *grads)``
with Tensors; under ``create_graph`` that backward is recorded like any other
Tensor code, so double backward through a Function works.
"""

from __future__ import annotations

import numpy as np

from ...backend import kind_of
from ...core import Array
from ..device import like, xp_of
from .grad_mode import STATE
from .graph import _SEQ, Node, _Aval, edge_of
from ..tensor import Tensor, wrap

__all__ = ["Function", "FunctionCtx", "FunctionNode", "once_differentiable"]


class FunctionCtx:
    """The ``ctx`` of a custom Function: save_for_backward, saved_tensors, needs_input_grad, ..."""

    def __init__(self):
        self.needs_input_grad = ()
        self._saved = None
        self._vers = None
        self._non_diff = set()
        self._dirty = ()
        self.materialize_grads = True
        self._released = False

    def save_for_backward(self, *tensors):
        for t in tensors:
            if t is not None and not isinstance(t, Tensor):
                raise TypeError("save_for_backward can only save variables, but argument "
                                f"{tensors.index(t)} is of type {type(t).__name__}")
        self._saved = tensors
        self._vers = tuple(None if t is None else t._version for t in tensors)

    def save_for_forward(self, *tensors):
        self._saved_forward = tensors

    @property
    def saved_tensors(self):
        if self._released:
            from .engine import SECOND_TIME  # noqa: PLC0415

            raise RuntimeError(SECOND_TIME)
        if self._saved is None:
            return ()
        for i, (t, v) in enumerate(zip(self._saved, self._vers)):
            if t is not None and t._version != v:
                raise RuntimeError(
                    "one of the variables needed for gradient computation has been modified by an inplace "
                    f"operation: [torch.{t.dtype.legacy} {list(t.shape)}] is at version {t._version}; expected "
                    f"version {v} instead.")
        return self._saved

    saved_variables = saved_tensors

    def mark_non_differentiable(self, *tensors):
        self._non_diff.update(id(t) for t in tensors)

    def mark_dirty(self, *tensors):
        self._dirty = tensors

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)


class FunctionNode(Node):
    """The grad_fn of a custom Function's outputs."""

    def name(self):
        return self.fn_cls.__name__ + "Backward"

    def out_meta(self, nr):
        return self.out_metas[nr]

    def run(self, grads, create_graph, release):
        """grads: per output (Tensor/Array/None) -> per-input gradients (Tensors or Arrays)."""
        ctx = self.ctx
        gs = []
        ref = next((g._value for g in grads if g is not None), np.zeros(0))  # on the outputs' device
        xp = xp_of(ref)
        for g, (shape, dtype) in zip(grads, self.out_metas):
            if g is None:
                gs.append(wrap(xp.zeros(shape, dtype)) if ctx.materialize_grads else None)
            elif isinstance(g, Tensor):
                gs.append(g)
            else:
                gs.append(wrap(g._value))
        res = self.fn_cls.backward(ctx, *gs)
        if release:
            ctx._released = True
            ctx._saved = None
        if not isinstance(res, tuple):
            res = (res,)
        n = len(self.edges)
        if len(res) != n:
            if len(res) > n and all(r is None for r in res[n:]):
                res = res[:n]
            else:
                raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                                   f"(expected {n}, got {len(res)})")
        out = []
        for i, (r, e) in enumerate(zip(res, self.edges)):
            if r is None or e is None:
                out.append(None)
                continue
            if not isinstance(r, Tensor):
                r = wrap(like(np.asarray(r), ref))
            shape, dtype = e[0].out_meta(e[1])
            if tuple(r.shape) != tuple(shape):
                try:
                    np.broadcast_shapes(tuple(shape), tuple(r.shape))
                    ok = np.broadcast_shapes(tuple(shape), tuple(r.shape)) == tuple(r.shape)
                except ValueError:
                    ok = False
                if not ok:
                    raise RuntimeError(f"Function {self.name()} returned an invalid gradient at index {i} - got "
                                       f"{list(r.shape)} but expected shape compatible with {list(shape)}")
                from ...transforms.reverse import fit_cotangent  # noqa: PLC0415

                r = fit_cotangent(r, tuple(shape), dtype, self, i)
            if r._value.dtype != dtype:
                from .._dispatch import cast  # noqa: PLC0415

                r = cast(r, dtype)
            out.append(r if create_graph else _arr(r._value))
        return out

    def apply(self, *grads):
        res = self.fn_cls.backward(self.ctx, *grads)
        return res


def _arr(buf):
    a = object.__new__(Array)
    a._value = buf
    return a


class _FunctionMeta(type):
    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        cls._backward_cls = cls


class Function(metaclass=_FunctionMeta):
    """Base class of custom autograd operations (static ``forward(ctx, ...)``/``backward(ctx, ...)``)."""

    def __init__(self, *args, **kwargs):
        import warnings  # noqa: PLC0415

        warnings.warn(f"{type(self).__name__} should not be instantiated. Methods on autograd functions are all "
                      "static, so you should invoke them on the class itself.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd "
            "function with static forward method. (Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = FunctionCtx()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        prev = STATE.enabled
        STATE.enabled = False
        try:
            if cls.setup_context is not Function.setup_context:
                out = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, out)
            else:
                out = cls.forward(ctx, *args, **kwargs)
        finally:
            STATE.enabled = prev
        single = not isinstance(out, tuple)
        outs = (out,) if single else out
        record = prev and any(ctx.needs_input_grad)
        arg_ids = {id(a) for a in args if isinstance(a, Tensor)}
        res = []
        for o in outs:
            if isinstance(o, Tensor) and id(o) in arg_ids and not any(o is d for d in ctx._dirty):
                o = o.detach()  # an input returned as is: a new tensor on the same storage
            res.append(o)
        if record:
            node = object.__new__(FunctionNode)
            node.seq = next(_SEQ)
            node.prim = None
            node.fn_cls = cls
            node.ctx = ctx
            node.edges = [edge_of(a) if isinstance(a, Tensor) else None for a in args]
            node.args = ()
            node.saved_any = False
            node.out_metas = [(tuple(o.shape), o._value.dtype) if isinstance(o, Tensor) else ((), np.dtype(float))
                              for o in res]
            node.shape, node.dtype = node.out_metas[0]
            node.outs = [_Aval(*m) for m in node.out_metas] if len(res) > 1 else None
            for k, o in enumerate(res):
                if isinstance(o, Tensor) and id(o) not in ctx._non_diff and kind_of(o._value.dtype) in "fc":
                    if (o.grad_fn is None and not o._req) or any(o is d for d in ctx._dirty):
                        o.grad_fn = node
                        o._output_nr = k
                    else:
                        o = res[k] = o.detach()
                        o.grad_fn = node
                        o._output_nr = k
        return res[0] if single else tuple(res)


def once_differentiable(fn):
    """Decorator for backward: runs it without recording (no double backward through it)."""
    import functools  # noqa: PLC0415

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        prev = STATE.enabled
        STATE.enabled = False
        try:
            return fn(ctx, *args)
        finally:
            STATE.enabled = prev
    return wrapper


class InplaceFunction(Function):
    def __init__(self, inplace=False):
        self.inplace = inplace


class NestedIOFunction(Function):
    pass
