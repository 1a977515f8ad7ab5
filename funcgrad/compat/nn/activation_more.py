"""More activations (PyTorch's formulas on compat tensors): Mish, Hardswish, Hardsigmoid, Softsign,
Tanhshrink, Threshold, GLU, CELU, SELU, RReLU, Hardshrink, Softshrink, Softmax2d; F.* and modules."""

from __future__ import annotations

from . import functional as F
from .activation import _Inplace
from .module import Module

__all__ = ["Mish", "Hardswish", "Hardsigmoid", "Softsign", "Tanhshrink", "Threshold", "GLU", "CELU", "SELU",
           "RReLU", "Hardshrink", "Softshrink", "Softmax2d"]

FUNCTIONS = ["mish", "hardswish", "hardsigmoid", "softsign", "tanhshrink", "threshold", "threshold_", "glu", "celu",
             "celu_", "selu", "selu_", "rrelu", "rrelu_", "hardshrink", "softshrink"]

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def mish(input, inplace=False):
    """x tanh(softplus(x))."""
    return F._written(input, input * F.softplus(input).tanh(), inplace)


def hardsigmoid(input, inplace=False):
    """relu6(x + 3) / 6."""
    return F._written(input, F.relu6(input + 3.0) / 6.0, inplace)


def hardswish(input, inplace=False):
    """x relu6(x + 3) / 6."""
    return F._written(input, input * (F.relu6(input + 3.0) / 6.0), inplace)


def softsign(input):
    """x / (1 + |x|)."""
    return input / (input.abs() + 1.0)


def tanhshrink(input):
    """x - tanh(x)."""
    return input - input.tanh()


def threshold(input, threshold, value, inplace=False):
    """x where x > threshold, else ``value``."""
    return F._written(input, input.masked_fill(input <= threshold, value), inplace)


_threshold = threshold


def threshold_(input, threshold, value):
    return _threshold(input, threshold, value, True)


def glu(input, dim=-1):
    """a sigmoid(b), a and b the halves of ``input`` along ``dim``."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    n = input.shape[dim]
    if n % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim % input.dim()} is size {n}")
    a, b = input.chunk(2, dim)
    return a * b.sigmoid()


def celu(input, alpha=1.0, inplace=False):
    """max(0, x) + min(0, alpha (exp(x / alpha) - 1))."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: celu's alpha must not be 0")
    out = F.relu(input) + (alpha * ((input / alpha).clamp_max(0.0).exp() - 1.0)).clamp_max(0.0)
    return F._written(input, out, inplace)


def celu_(input, alpha=1.0):
    return celu(input, alpha, True)


def selu(input, inplace=False):
    """scale (max(0, x) + min(0, alpha (exp(x) - 1))) with the self-normalising constants."""
    return F._written(input, _SELU_SCALE * F.elu(input, _SELU_ALPHA), inplace)


def selu_(input):
    return selu(input, True)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Leaky ReLU whose negative slope is drawn from U(lower, upper) per element in training (compat
    generator), and is (lower + upper) / 2 otherwise."""
    if not training:
        return F.leaky_relu(input, (lower + upper) / 2, inplace)
    from ..creation import rand  # noqa: PLC0415

    slope = rand(tuple(input.shape), dtype=input.dtype, device=input.device) * (upper - lower) + lower
    return F._written(input, F.relu(input) - slope * F.relu(-input), inplace)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, True)


def hardshrink(input, lambd=0.5):
    """x where |x| > lambd, else 0."""
    return input.masked_fill(input.abs() <= lambd, 0.0)


def softshrink(input, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, else 0."""
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    return (input - lambd * input.sign()).masked_fill(input.abs() <= lambd, 0.0)


class Mish(_Inplace):
    def forward(self, input):
        return mish(input, self.inplace)


class Hardswish(_Inplace):
    def forward(self, input):
        return hardswish(input, self.inplace)


class Hardsigmoid(_Inplace):
    def forward(self, input):
        return hardsigmoid(input, self.inplace)


class SELU(_Inplace):
    def forward(self, input):
        return selu(input, self.inplace)


class Softsign(Module):
    def forward(self, input):
        return softsign(input)


class Tanhshrink(Module):
    def forward(self, input):
        return tanhshrink(input)


class Threshold(Module):
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):
        return _threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}" + (", inplace=True" if self.inplace else "")


class GLU(Module):
    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class CELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class RReLU(Module):
    """Random slopes in training, the mean slope (lower + upper) / 2 in eval mode."""

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return f"lower={self.lower}, upper={self.upper}" + (", inplace=True" if self.inplace else "")


class Hardshrink(Module):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return hardshrink(input, self.lambd)

    def extra_repr(self):
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    def forward(self, input):
        return softshrink(input, self.lambd)


class Softmax2d(Module):
    """softmax over the channels (dim -3) of (N, C, H, W) or (C, H, W)."""

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3)
