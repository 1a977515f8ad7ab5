"""Lazy modules: shapes inferred on the first call, placeholders, state_dict loading."""

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import nn


@pytest.mark.parametrize("lazy, eager, x, weight", [
    (lambda: nn.LazyConv1d(4, 3), nn.Conv1d, (2, 3, 9), (4, 3, 3)),
    (lambda: nn.LazyConv2d(4, 3, padding=1, groups=3 * 0 + 1), nn.Conv2d, (2, 3, 6, 6), (4, 3, 3, 3)),
    (lambda: nn.LazyConv2d(6, 3, groups=3), nn.Conv2d, (2, 3, 6, 6), (6, 1, 3, 3)),
    (lambda: nn.LazyConv3d(2, 2, bias=False), nn.Conv3d, (1, 3, 4, 4, 4), (2, 3, 2, 2, 2)),
    (lambda: nn.LazyConvTranspose1d(5, 3, stride=2), nn.ConvTranspose1d, (2, 3, 8), (3, 5, 3)),
    (lambda: nn.LazyConvTranspose2d(4, 2, groups=2), nn.ConvTranspose2d, (2, 6, 5, 5), (6, 2, 2, 2)),
    (lambda: nn.LazyConvTranspose3d(2, 2), nn.ConvTranspose3d, (1, 3, 3, 3, 3), (3, 2, 2, 2, 2)),
    (lambda: nn.LazyConv2d(4, 3), nn.Conv2d, (3, 6, 6), (4, 3, 3, 3)),  # unbatched: channels are shape[0]
])
def test_lazy_conv_infers_in_channels(lazy, eager, x, weight):
    m = lazy()
    assert isinstance(m.weight, nn.UninitializedParameter) and m.has_uninitialized_params()
    assert repr(m.weight) == "<UninitializedParameter>"
    inp = torch.randn(*x)
    y = m(inp)
    assert type(m) is eager and tuple(m.weight.shape) == weight
    assert type(m.weight) is nn.Parameter and m.weight.requires_grad
    assert m.in_channels == (x[1] if len(x) == len(weight) else x[0])
    ref = eager.forward(m, inp)
    np.testing.assert_allclose(y.detach().numpy(), ref.detach().numpy())
    y.sum().backward()
    assert m.weight.grad.shape == m.weight.shape


def test_lazy_conv_init_is_kaiming_uniform_over_the_inferred_fan_in():
    torch.manual_seed(0)
    m = nn.LazyConv2d(64, 3)
    m(torch.randn(1, 16, 5, 5))
    bound = 1 / np.sqrt(16 * 9)  # kaiming_uniform(a=sqrt(5)) bound = 1 / sqrt(fan_in)
    w = m.weight.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
    assert np.abs(m.bias.detach().numpy()).max() <= bound


@pytest.mark.parametrize("lazy, eager, x", [
    (nn.LazyBatchNorm1d, nn.BatchNorm1d, (4, 3)), (nn.LazyBatchNorm1d, nn.BatchNorm1d, (4, 3, 5)),
    (nn.LazyBatchNorm2d, nn.BatchNorm2d, (4, 3, 2, 2)), (nn.LazyBatchNorm3d, nn.BatchNorm3d, (2, 3, 2, 2, 2)),
    (lambda: nn.LazyInstanceNorm1d(affine=True, track_running_stats=True), nn.InstanceNorm1d, (2, 3, 5)),
    (nn.LazyInstanceNorm2d, nn.InstanceNorm2d, (2, 3, 4, 4)), (nn.LazyInstanceNorm3d, nn.InstanceNorm3d, (2, 3, 2, 2, 2)),
])
def test_lazy_norms_infer_num_features(lazy, eager, x):
    m = lazy()
    inp = torch.randn(*x)
    y = m(inp)
    c = x[1]
    assert type(m) is eager and m.num_features == c
    if m.affine:
        assert tuple(m.weight.shape) == (c,) and np.all(m.weight.detach().numpy() == 1)
        assert np.all(m.bias.detach().numpy() == 0)
    if m.track_running_stats:
        assert type(m.running_mean) is torch.Tensor and tuple(m.running_var.shape) == (c,)
        assert int(m.num_batches_tracked) == 1
    fresh = eager(c, affine=m.affine, track_running_stats=m.track_running_stats)
    np.testing.assert_allclose(y.detach().numpy(), fresh(inp).detach().numpy(), rtol=1e-6, atol=1e-6)


def test_placeholders():
    p = nn.UninitializedParameter()
    assert p.requires_grad and isinstance(p, nn.Parameter)
    with pytest.raises(RuntimeError, match="Can't access the shape of an uninitialized parameter"):
        p.shape
    p.materialize((2, 3), dtype=torch.float64)
    assert type(p) is nn.Parameter and tuple(p.shape) == (2, 3) and p.dtype == torch.float64
    b = nn.UninitializedBuffer()
    assert not b.requires_grad and repr(b) == "<UninitializedBuffer>"
    b.materialize(4)
    assert type(b) is torch.Tensor and tuple(b.shape) == (4,)
    m = nn.LazyConv1d(3, 2).double()
    assert isinstance(m.weight, nn.UninitializedParameter) and m.weight.dtype == torch.float64
    m(torch.randn(1, 2, 5, dtype=torch.float64))
    assert m.weight.dtype == torch.float64


def test_load_state_dict_materializes():
    src = nn.Sequential(nn.LazyConv1d(4, 3), nn.LazyBatchNorm1d(), nn.LazyLinear(2))
    src(torch.randn(2, 3, 8))
    dst = nn.Sequential(nn.LazyConv1d(4, 3), nn.LazyBatchNorm1d(), nn.LazyLinear(2))
    dst.load_state_dict(src.state_dict())
    assert [type(m) for m in dst] == [nn.Conv1d, nn.BatchNorm1d, nn.Linear]
    assert dst[0].in_channels == 3 and dst[1].num_features == 4 and dst[2].in_features == 6
    x = torch.randn(2, 3, 8)
    src.eval(), dst.eval()
    np.testing.assert_allclose(dst(x).detach().numpy(), src(x).detach().numpy())


def test_errors():
    with pytest.raises(RuntimeError, match=r"Expected 3D \(unbatched\) or 4D \(batched\) input to LazyConv2d"):
        nn.LazyConv2d(4, 3)(torch.randn(5, 5))
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        nn.LazyConv2d(4, 3, groups=2)(torch.randn(1, 3, 5, 5))
    with pytest.raises(ValueError, match="expected at least 2D input"):
        nn.LazyBatchNorm1d()(torch.randn(3))
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        nn.LazyConv2d(4, 3, nope=1)
