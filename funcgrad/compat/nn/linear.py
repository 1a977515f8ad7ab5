"""Linear layers: Identity, Linear, Bilinear (and F.bilinear), LazyLinear with its
UninitializedParameter."""

from __future__ import annotations

import math

from ...nn import functional as _F
from .. import creation as _c
from . import functional as F
from . import init
from ._construction import _factory, _fan_in_uniform_
from .module import Module
from .parameter import Parameter
from .lazy import LazyModuleMixin, UninitializedParameter

__all__ = ["Identity", "Linear", "Bilinear", "UninitializedParameter", "LazyLinear"]
# the torch.nn.functional names defined here
FUNCTIONS = ["bilinear"]


class Identity(Module):
    """Returns its input (accepts and ignores any constructor arguments)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    """``y = x W^T + b``; W (out, in) and b drawn from U(-1/sqrt(in), 1/sqrt(in)) (PyTorch's default)."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = Parameter(_c.empty((out_features, in_features), **_factory(device, dtype)))
        if bias:
            self.bias = Parameter(_c.empty(out_features, **_factory(device, dtype)))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            _fan_in_uniform_(self.bias, self.in_features)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Bilinear(Module):
    """``y = x1^T A x2 + b`` with A (out, in1, in2)."""

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features, self.in2_features, self.out_features = in1_features, in2_features, out_features
        self.weight = Parameter(_c.empty((out_features, in1_features, in2_features), **_factory(device, dtype)))
        if bias:
            self.bias = Parameter(_c.empty(out_features, **_factory(device, dtype)))
        else:
            self.register_parameter("bias", None)
        bound = 1 / math.sqrt(in1_features)
        init.uniform_(self.weight, -bound, bound)
        if bias:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        from ... import numpy as fnp  # noqa: PLC0415

        y = fnp.einsum("...i,oij,...j->...o", input1, self.weight, input2)
        return y if self.bias is None else y + self.bias

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


class LazyLinear(LazyModuleMixin, Linear):
    """``Linear`` whose ``in_features`` is read from the first input (``input.shape[-1]``); it then becomes a
    ``Linear`` (its class changes, as PyTorch's ``cls_to_become``)."""

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Module.__init__(self)
        self.in_features, self.out_features = 0, out_features
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        else:
            self.register_parameter("bias", None)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            Linear.reset_parameters(self)

    def _sizes_from_parameters(self):
        self.in_features = self.weight._value.shape[1]

    def initialize_parameters(self, input, *args, **kwargs):
        if not self.has_uninitialized_params():
            return
        if input.dim() < 1:
            raise RuntimeError("LazyLinear: the input needs at least one dimension to infer in_features")
        self.in_features = int(input.shape[-1])
        self.weight.materialize((self.out_features, self.in_features))
        if self.bias is not None:
            self.bias.materialize((self.out_features,))
        self.reset_parameters()


def bilinear(input1, input2, weight, bias=None):
    """``input1^T weight[o] input2 + bias[o]`` for each output feature o."""
    return _F.bilinear(input1, input2, weight, bias)
