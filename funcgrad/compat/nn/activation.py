"""Activation modules and the activation functions PyTorch's formulas define on compat tensors: ReLU,
ReLU6, LeakyReLU, ELU, GELU, SiLU, Sigmoid, Tanh, Softmax, LogSoftmax, Softmin, Hardtanh, Softplus,
LogSigmoid, PReLU, Mish, Hardswish, Hardsigmoid, Softsign, Tanhshrink, Threshold, GLU, CELU, SELU,
RReLU, Hardshrink, Softshrink, Softmax2d (and their F.* forms, F.gumbel_softmax)."""

from __future__ import annotations

from .. import creation as _c
from . import functional as F
from ._construction import _factory
from .module import Module
from .parameter import Parameter

__all__ = ["ReLU", "ReLU6", "SiLU", "LeakyReLU", "ELU", "Hardtanh", "GELU", "Softplus", "Sigmoid", "Tanh",
           "LogSigmoid", "Softmax", "LogSoftmax", "Softmin", "PReLU", "Mish", "Hardswish", "Hardsigmoid", "SELU",
           "Softsign", "Tanhshrink", "Threshold", "GLU", "CELU", "RReLU", "Hardshrink", "Softshrink", "Softmax2d"]
# the torch.nn.functional names defined here
FUNCTIONS = ["gumbel_softmax", "mish", "hardsigmoid", "hardswish", "softsign", "tanhshrink", "threshold",
             "threshold_", "glu", "celu", "celu_", "selu", "selu_", "rrelu", "rrelu_", "hardshrink", "softshrink"]


class _Inplace(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class ReLU(_Inplace):
    """max(x, 0); ``inplace=True`` overwrites the input (``relu_``)."""

    def forward(self, input):
        return F.relu(input, self.inplace)


class ReLU6(_Inplace):
    def forward(self, input):
        return F.relu6(input, self.inplace)


class SiLU(_Inplace):
    def forward(self, input):
        return F.silu(input, self.inplace)


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class ELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + (", inplace=True" if self.inplace else "")


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Sigmoid(Module):
    def forward(self, input):
        return F.sigmoid(input)


class Tanh(Module):
    def forward(self, input):
        return F.tanh(input)


class LogSigmoid(Module):
    def forward(self, input):
        return F.log_sigmoid(input)


class Softmax(Module):
    """softmax along ``dim`` (None: PyTorch's implicit-dim rule, with a warning)."""

    _fn = staticmethod(F.softmax)

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return type(self)._fn(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    _fn = staticmethod(F.log_softmax)


class Softmin(Softmax):
    _fn = staticmethod(F.softmin)


class PReLU(Module):
    """max(0, x) + a * min(0, x) with a learnable slope (one, or one per channel), initially ``init``."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.weight = Parameter(_c.full((num_parameters,), float(init), **_factory(device, dtype)))

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


def gumbel_softmax(logits, tau=1.0, hard=False, eps=1e-10, dim=-1):
    """Softmax of ``(logits + Gumbel noise) / tau`` along ``dim``; ``hard=True`` returns one-hot samples
    whose gradient is the soft sample's (straight-through), as PyTorch."""
    u = _c.rand(tuple(logits.shape), dtype=logits.dtype, device=logits.device)
    gumbels = -(-(-u).log1p()).log()  # -log(Exp(1)) with Exp(1) = -log(1 - U)
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.argmax(dim, keepdim=True)
    y_hard = _c.zeros_like(logits).scatter(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


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
