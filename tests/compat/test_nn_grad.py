"""torch.nn.grad conv*_input / conv*_weight against backward; torch.get_device_module."""

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat.nn import functional as F


@pytest.mark.parametrize("nd, conv", [(1, F.conv1d), (2, F.conv2d), (3, F.conv3d)])
def test_conv_grads_match_backward(nd, conv):
    rng = np.random.default_rng(nd)
    x = torch.tensor(rng.standard_normal((2, 4) + (7,) * nd), requires_grad=True)
    w = torch.tensor(rng.standard_normal((6, 2) + (3,) * nd), requires_grad=True)
    y = conv(x, w, None, 2, 1, 1, 2)
    go = torch.tensor(rng.standard_normal(tuple(y.shape)))
    y.backward(go)
    gi = getattr(torch.nn.grad, f"conv{nd}d_input")(x.shape, w.detach(), go, 2, 1, 1, 2)
    gw = getattr(torch.nn.grad, f"conv{nd}d_weight")(x.detach(), w.shape, go, 2, 1, 1, 2)
    np.testing.assert_allclose(gi.numpy(), x.grad.numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(gw.numpy(), w.grad.numpy(), rtol=1e-12, atol=1e-12)
    assert not gi.requires_grad


def test_conv_grad_shape_mismatch():
    with pytest.raises(RuntimeError, match="does not match the convolution's output shape"):
        torch.nn.grad.conv2d_input((1, 1, 5, 5), torch.ones(1, 1, 3, 3), torch.ones(1, 1, 4, 4))


def test_get_device_module():
    assert torch.get_device_module("cpu") is torch.cpu
    assert torch.get_device_module(torch.device("cpu")) is torch.cpu
    assert torch.get_device_module("cuda") is torch.cuda
    with pytest.raises(RuntimeError):
        torch.get_device_module(3.5)
