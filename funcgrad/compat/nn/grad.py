"""torch.nn.grad: gradients of convolutions with respect to their input or weight.

Each is the vjp of the convolution (the conv primitive's own reverse rule, through compat's engine),
so it agrees with what backward gives; with ``grad_output`` or the other operand requiring grad the
result stays differentiable.
"""

from __future__ import annotations

from .. import creation as _c
from ..autograd.engine import grad as _grad
from ..autograd.grad_mode import enable_grad
from . import functional as F

__all__ = ["conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight", "conv3d_input", "conv3d_weight"]


def _vjp(conv, wrt_input, size, other, grad_output, stride, padding, dilation, groups):
    keep = grad_output.requires_grad or other.requires_grad
    x = _c.zeros(tuple(size), dtype=grad_output.dtype, device=grad_output.device, requires_grad=True)
    with enable_grad():
        y = conv(x, other, None, stride, padding, dilation, groups) if wrt_input else \
            conv(other, x, None, stride, padding, dilation, groups)
    if tuple(y.shape) != tuple(grad_output.shape):
        raise RuntimeError(f"{conv.__name__}: grad_output of shape {list(grad_output.shape)} does not match the "
                           f"convolution's output shape {list(y.shape)}")
    (g,) = _grad([y], [x], [grad_output], create_graph=keep)
    return g


def _pair(conv):
    def grad_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
        return _vjp(conv, True, input_size, weight, grad_output, stride, padding, dilation, groups)

    def grad_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
        return _vjp(conv, False, weight_size, input, grad_output, stride, padding, dilation, groups)

    name = conv.__name__
    grad_input.__name__, grad_weight.__name__ = name + "_input", name + "_weight"
    grad_input.__doc__ = f"Gradient of {name} with respect to its input (of shape ``input_size``)."
    grad_weight.__doc__ = f"Gradient of {name} with respect to its weight (of shape ``weight_size``)."
    return grad_input, grad_weight


conv1d_input, conv1d_weight = _pair(F.conv1d)
conv2d_input, conv2d_weight = _pair(F.conv2d)
conv3d_input, conv3d_weight = _pair(F.conv3d)
