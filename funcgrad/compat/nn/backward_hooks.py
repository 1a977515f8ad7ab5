"""Module backward hooks: identity autograd Functions around a module's inputs and outputs.

``register_full_backward_pre_hook(hook(module, grad_output))`` runs when the
gradients of the outputs are known (a returned tuple replaces them);
``register_full_backward_hook(hook(module, grad_input, grad_output))`` runs
when the gradients of the positional Tensor inputs are known (a returned
tuple replaces them; entries of inputs that need no gradient are None).  If no
input requires grad, the full hooks run at the output stage with all-None
``grad_input``, as in PyTorch.
"""

from __future__ import annotations

from ..autograd.function import Function
from ..tensor import Tensor

__all__ = ["BackwardHookState"]


class _Identity(Function):
    @staticmethod
    def forward(ctx, state, stage, *tensors):
        ctx.state, ctx.stage = state, stage
        return tensors

    @staticmethod
    def backward(ctx, *grads):
        return (None, None) + tuple(ctx.state.backward(ctx.stage, grads))


def _fix(name, new, n):
    new = tuple(new) if isinstance(new, (tuple, list)) else (new,)
    if len(new) != n:
        raise RuntimeError(f"Backward hook returned an invalid number of grad_{name}, got {len(new)}, but expected {n}")
    return new


class BackwardHookState:
    """One forward call's hook bookkeeping: wraps the inputs, then the outputs."""

    def __init__(self, module):
        self.module = module
        self.grad_output = None
        self.in_pos = []
        self.n_args = 0

    def setup_inputs(self, args):
        self.n_args = len(args)
        self.in_pos = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad]
        if not self.in_pos:
            return args
        wrapped = _Identity.apply(self, "in", *(args[i] for i in self.in_pos))
        args = list(args)
        for i, w in zip(self.in_pos, wrapped):
            args[i] = w
        return tuple(args)

    def setup_outputs(self, out):
        outs = out if isinstance(out, tuple) else (out,)
        pos = [i for i, o in enumerate(outs) if isinstance(o, Tensor) and o.requires_grad]
        if not pos:
            return out
        wrapped = _Identity.apply(self, "out", *(outs[i] for i in pos))
        outs = list(outs)
        for i, w in zip(pos, wrapped):
            outs[i] = w
        return tuple(outs) if isinstance(out, tuple) else outs[0]

    def backward(self, stage, grads):
        m = self.module
        if stage == "out":
            for hook in tuple(m._backward_pre_hooks):
                r = hook(m, grads)
                if r is not None:
                    grads = _fix("output", r, len(grads))
            self.grad_output = grads
            if not self.in_pos:
                for hook in tuple(m._backward_hooks):
                    hook(m, (None,) * self.n_args, grads)
            return grads
        full = [None] * self.n_args
        for i, g in zip(self.in_pos, grads):
            full[i] = g
        for hook in tuple(m._backward_hooks):
            r = hook(m, tuple(full), self.grad_output)
            if r is not None:
                full = list(_fix("input", r, self.n_args))
        return [full[i] for i in self.in_pos]
