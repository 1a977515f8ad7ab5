"""InstanceNorm1d/2d and F.instance_norm: values, running statistics and gradients (numpy reference)."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.compat as torch
import funcgrad.numpy as fnp
from funcgrad.compat import nn
from funcgrad.testing import check_grads


def _ref(x, eps=1e-5):
    axes = tuple(range(2, x.ndim))
    m = x.mean(axis=axes, keepdims=True)
    v = x.var(axis=axes, keepdims=True)
    return (x - m) / np.sqrt(v + eps)


def test_instance_norm_2d_values_and_affine():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    layer = nn.InstanceNorm2d(3, affine=True)
    with torch.no_grad():
        layer.weight.copy_(torch.tensor([1.0, 2.0, 0.5]))
        layer.bias.copy_(torch.tensor([0.0, 1.0, -1.0]))
    y = layer(torch.from_numpy(x))
    want = _ref(x) * np.array([1.0, 2.0, 0.5]).reshape(1, 3, 1, 1) + np.array([0.0, 1.0, -1.0]).reshape(1, 3, 1, 1)
    np.testing.assert_allclose(y.detach().numpy(), want, rtol=1e-5, atol=1e-5)
    assert repr(layer) == "InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=True, track_running_stats=False)"
    assert layer.running_mean is None and [n for n, _ in layer.named_parameters()] == ["weight", "bias"]
    # as in PyTorch, instance norms are not batch norms (code freezing BatchNorm layers relies on it)
    assert not isinstance(layer, nn.modules.batchnorm._BatchNorm)


def test_running_statistics_as_pytorch():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4, 2, 6)).astype(np.float32) * 3 + 1
    layer = nn.InstanceNorm1d(2, momentum=0.2, track_running_stats=True)
    layer(torch.from_numpy(x))
    inst_mean = x.mean(axis=2).mean(axis=0)
    inst_var = x.var(axis=2, ddof=1).mean(axis=0)
    np.testing.assert_allclose(layer.running_mean.numpy(), 0.8 * 0 + 0.2 * inst_mean, rtol=1e-5)
    np.testing.assert_allclose(layer.running_var.numpy(), 0.8 * 1 + 0.2 * inst_var, rtol=1e-5)
    assert int(layer.num_batches_tracked) == 1
    layer.eval()  # evaluation normalises with the running statistics
    y = layer(torch.from_numpy(x)).numpy()
    rm, rv = layer.running_mean.numpy(), layer.running_var.numpy()
    np.testing.assert_allclose(y, (x - rm[None, :, None]) / np.sqrt(rv[None, :, None] + 1e-5), rtol=1e-5, atol=1e-6)


def test_gradients_match_finite_differences_and_backward():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 3, 5))
    check_grads(lambda a: fg.nn.functional.instance_norm(a)[0] * fnp.arange(5.0), (x,), order=2)
    xt = torch.tensor(x, requires_grad=True)
    (nn.InstanceNorm1d(3)(xt) * torch.arange(5.0)).sum().backward()
    g = fg.grad(lambda a: fnp.sum(fg.nn.functional.instance_norm(a)[0] * fnp.arange(5.0)))(fg.asarray(x))
    np.testing.assert_allclose(xt.grad.numpy(), np.asarray(g), rtol=1e-10, atol=1e-12)


def test_bad_input():
    with pytest.raises(ValueError, match=r"expected 3D or 4D input \(got 2D input\)"):  # (3D: unbatched)
        nn.InstanceNorm2d(3)(torch.ones(3, 4))
    with pytest.raises(ValueError, match="more than 1 spatial element"):
        nn.InstanceNorm1d(3)(torch.ones(2, 3, 1))


@pytest.mark.parametrize("cls, shape", [(torch.nn.InstanceNorm1d, (3, 5)), (torch.nn.InstanceNorm2d, (3, 4, 4)),
                                        (torch.nn.InstanceNorm3d, (3, 2, 3, 4))])
def test_unbatched_input_is_a_batch_of_one(cls, shape):
    m = cls(3, affine=True)
    x = torch.randn(*shape)
    out = m(x)
    assert tuple(out.shape) == shape
    np.testing.assert_allclose(out.detach().numpy(), m(x.unsqueeze(0))[0].detach().numpy(), rtol=1e-6, atol=1e-6)


def test_feature_size_mismatch_and_bad_rank():
    with pytest.raises(ValueError, match=r"size at dim=1 to match num_features \(3\), but got: 4"):
        torch.nn.InstanceNorm2d(3, affine=True)(torch.randn(2, 4, 5, 5))
    with pytest.warns(UserWarning, match="num_features"):
        torch.nn.InstanceNorm2d(3)(torch.randn(2, 4, 5, 5))
    with pytest.raises(ValueError, match=r"expected 3D or 4D input \(got 1D input\)"):
        torch.nn.InstanceNorm2d(3)(torch.randn(3))
