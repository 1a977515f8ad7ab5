"""Memory formats: channels_last strides are real numpy strides (values checked against numpy)."""

import pickle

import numpy as np
import pytest

import funcgrad.compat as torch


def _x(shape=(2, 3, 4, 5)):
    return torch.tensor(np.arange(np.prod(shape), dtype=np.float32).reshape(shape))


def test_channels_last_strides_and_values():
    x = _x()
    y = x.contiguous(memory_format=torch.channels_last)
    assert y.stride() == (60, 1, 15, 3)
    assert not y.is_contiguous() and y.is_contiguous(memory_format=torch.channels_last)
    np.testing.assert_array_equal(y.numpy(), x.numpy())
    # memory order is N, H, W, C
    np.testing.assert_array_equal(np.asarray(y.numpy()).ravel(order="K"), x.numpy().transpose(0, 2, 3, 1).ravel())
    assert y.contiguous(memory_format=torch.channels_last) is y
    assert x.contiguous() is x
    back = y.contiguous()
    assert back.stride() == (60, 20, 5, 1) and back.is_contiguous()
    np.testing.assert_array_equal(back.numpy(), x.numpy())


def test_channels_last_3d():
    x = _x((2, 3, 4, 5, 6))
    y = x.contiguous(memory_format=torch.channels_last_3d)
    assert y.stride() == (360, 1, 90, 18, 3)
    assert y.is_contiguous(memory_format=torch.channels_last_3d)
    assert not y.is_contiguous(memory_format=torch.channels_last)
    np.testing.assert_array_equal(y.numpy(), x.numpy())


def test_size_one_dims_do_not_count():
    z = torch.randn(2, 1, 4, 1)
    assert z.is_contiguous() and z.is_contiguous(memory_format=torch.channels_last)
    assert z.contiguous(memory_format=torch.channels_last) is z
    assert torch.randn(2, 0, 3, 3).is_contiguous(memory_format=torch.channels_last)


def test_ops_clone_and_like_keep_the_layout():
    y = _x().contiguous(memory_format=torch.channels_last)
    assert (y + 1).stride() == (60, 1, 15, 3)
    assert y.clone().stride() == (60, 1, 15, 3)
    assert y.clone(memory_format=torch.contiguous_format).stride() == (60, 20, 5, 1)
    for fn in (torch.empty_like, torch.zeros_like, torch.ones_like, torch.randn_like, torch.rand_like):
        assert fn(y).stride() == (60, 1, 15, 3), fn
        assert fn(y, memory_format=torch.contiguous_format).stride() == (60, 20, 5, 1)
    assert torch.full_like(y, 2.0).stride() == (60, 1, 15, 3)
    assert torch.empty(2, 3, 4, 5, memory_format=torch.channels_last).stride() == (60, 1, 15, 3)
    p = _x().permute(0, 2, 3, 1)
    assert p.clone().stride() == p.stride() == (60, 5, 1, 20)
    assert torch.empty_like(p).stride() == (60, 5, 1, 20)
    t = _x().transpose(2, 3)
    assert t.clone().stride() == (60, 20, 1, 5)
    assert _x()[:, :, ::2].clone().stride() == (30, 10, 5, 1)  # not dense: contiguous


def test_to_memory_format_and_gradients():
    x = _x().requires_grad_()
    y = x.to(memory_format=torch.channels_last)
    assert y.stride() == (60, 1, 15, 3) and y.grad_fn.name() == "ToCopyBackward0"
    w = x.contiguous(memory_format=torch.channels_last)
    assert w.grad_fn.name() == "CloneBackward0"
    (w * w).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.detach().numpy())
    assert y.to(memory_format=torch.preserve_format) is y


def test_module_to_channels_last():
    m = torch.nn.Conv2d(3, 4, 3).to(memory_format=torch.channels_last)
    assert m.weight.stride() == (27, 1, 9, 3) and m.bias.stride() == (1,)
    assert isinstance(m.weight, torch.nn.Parameter)
    x = torch.randn(2, 3, 8, 8)
    ref = torch.nn.functional.conv2d(x, m.weight.detach().contiguous(), m.bias.detach())
    np.testing.assert_allclose(m(x.to(memory_format=torch.channels_last)).detach().numpy(), ref.numpy(), rtol=1e-5,
                               atol=1e-5)


def test_errors():
    with pytest.raises(RuntimeError, match="required rank 4 tensor to use channels_last format"):
        torch.randn(3).contiguous(memory_format=torch.channels_last)
    with pytest.raises(RuntimeError, match="required rank 5 tensor to use channels_last_3d format"):
        torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last_3d)
    with pytest.raises(RuntimeError, match="channels_last"):
        torch.randn(3).clone(memory_format=torch.channels_last)
    with pytest.raises(RuntimeError, match="unsupported memory format Preserve"):
        torch.empty(2, 3, 4, 5, memory_format=torch.preserve_format)
    with pytest.raises(TypeError, match="must be torch.memory_format, not str"):
        torch.randn(2, 3, 4, 5).contiguous(memory_format="channels_last")
    assert not torch.randn(2, 3, 4).is_contiguous(memory_format=torch.channels_last)


def test_format_and_layout_objects():
    assert repr(torch.channels_last) == "torch.channels_last"
    assert torch.legacy_contiguous_format is torch.contiguous_format
    assert isinstance(torch.preserve_format, torch.memory_format)
    assert pickle.loads(pickle.dumps(torch.channels_last)) is torch.channels_last
    assert isinstance(torch.randn(2).layout, torch.layout) and torch.randn(2).layout == torch.strided
    assert repr(torch.sparse_coo) == "torch.sparse_coo"
    assert pickle.loads(pickle.dumps(torch.strided)) is torch.strided
