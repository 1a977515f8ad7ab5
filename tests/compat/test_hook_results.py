"""Tensor hooks that return a gradient of another size or type are PyTorch's RuntimeError, not a silent
.grad of the wrong shape; hooks that keep both work (also under create_graph)."""

import numpy as np
import pytest

import funcgrad.compat as torch


def test_a_hook_changing_the_size_is_refused():
    x = torch.ones(3, requires_grad=True)
    x.register_hook(lambda g: torch.ones(2))
    with pytest.raises(RuntimeError, match="hook '<lambda>' has changed the size of value"):
        (x * 2).sum().backward()
    assert x.grad is None


def test_a_hook_changing_the_type_is_refused():
    y_leaf = torch.ones(3, requires_grad=True)
    y = y_leaf * 3
    y.register_hook(lambda g: g.double())
    with pytest.raises(RuntimeError, match=r"changed the type of value \(was torch.FloatTensor got torch.DoubleTensor\)"):
        y.sum().backward()


def test_hooks_that_keep_size_and_type_work_with_and_without_create_graph():
    x = torch.ones(3, requires_grad=True)
    y = x * 3
    y.register_hook(lambda g: g * 2)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 6.0, 6.0])
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: g + 1)
    (gx,) = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
    np.testing.assert_allclose(gx.detach().numpy(), [4.0, 13.0])
