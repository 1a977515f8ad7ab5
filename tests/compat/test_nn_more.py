"""RMSNorm, LocalResponseNorm, Dropout3d, AlphaDropout, InstanceNorm3d, LPPool, ConvTranspose3d, LazyLinear,
gumbel_softmax: numpy references (PyTorch's definitions), gradcheck, statistics, errors."""

import numpy as np
import pytest

import funcgrad.compat as torch
import funcgrad.compat.nn.functional as F
from funcgrad.compat import nn

RNG = np.random.default_rng(3)


def _t(a, grad=False):
    return torch.tensor(np.asarray(a), requires_grad=grad)


def _gradcheck(fn, *arrays):
    return torch.autograd.gradcheck(fn, tuple(_t(np.asarray(a, np.float64), True) for a in arrays))


def test_rms_norm_reference_default_eps_and_grad():
    x = RNG.standard_normal((2, 3, 4))
    w = RNG.standard_normal(4)
    ref = x / np.sqrt((x * x).mean(-1, keepdims=True) + np.finfo(np.float64).eps) * w
    np.testing.assert_allclose(F.rms_norm(_t(x), [4], _t(w)).numpy(), ref, rtol=1e-12)
    ref2 = x / np.sqrt((x * x).mean((-2, -1), keepdims=True) + 0.1)
    np.testing.assert_allclose(F.rms_norm(_t(x), (3, 4), eps=0.1).numpy(), ref2, rtol=1e-12)
    x32 = _t(x.astype(np.float32))
    m = nn.RMSNorm(4)
    assert m(x32).dtype == torch.float32 and list(dict(m.named_parameters())) == ["weight"]
    assert nn.RMSNorm([3, 4], elementwise_affine=False).weight is None
    assert _gradcheck(lambda a, b: F.rms_norm(a, (4,), b, 1e-3), x, w)
    with pytest.raises(RuntimeError, match="normalized_shape"):
        F.rms_norm(_t(x), (5,))


def _lrn_ref(x, size, alpha, beta, k):
    c = x.shape[1]
    sq = x * x
    div = np.zeros_like(x)
    for ch in range(c):
        lo, hi = max(0, ch - size // 2), min(c, ch + (size - 1) // 2 + 1)
        div[:, ch] = sq[:, lo:hi].sum(1)
    return x / (k + alpha / size * div) ** beta


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_local_response_norm_reference(size):
    x = RNG.standard_normal((2, 5, 3, 2))
    np.testing.assert_allclose(F.local_response_norm(_t(x), size, 0.1, 0.6, 1.5).numpy(),
                               _lrn_ref(x, size, 0.1, 0.6, 1.5), rtol=1e-12)
    np.testing.assert_allclose(nn.LocalResponseNorm(size)(_t(x[..., 0])).numpy(),
                               _lrn_ref(x[..., 0], size, 1e-4, 0.75, 1.0), rtol=1e-12)
    assert _gradcheck(lambda a: F.local_response_norm(a, size, 0.1, 0.6, 1.5), x[:1, :, :2, :1])
    with pytest.raises(ValueError, match="3D or higher"):
        F.local_response_norm(_t(x[0, 0]), 2)


def test_lp_pool_reference_and_grad():
    x = np.abs(RNG.standard_normal((1, 2, 6))) + 0.1
    ref = ((x ** 3).reshape(1, 2, 3, 2).sum(-1)) ** (1 / 3)
    np.testing.assert_allclose(F.lp_pool1d(_t(x), 3, 2).numpy(), ref, rtol=1e-12)
    np.testing.assert_allclose(nn.LPPool1d(3, 2)(_t(x)).numpy(), ref, rtol=1e-12)
    x2 = np.abs(RNG.standard_normal((1, 1, 4, 4))) + 0.1
    ref2 = np.sqrt((x2 ** 2).reshape(1, 1, 2, 2, 2, 2).sum((3, 5)))
    np.testing.assert_allclose(nn.LPPool2d(2, 2)(_t(x2)).numpy(), ref2, rtol=1e-12)
    ref3 = np.sqrt(np.array([[(x2[0, 0, i:i + 3, j:j + 3] ** 2).sum() for j in range(2)] for i in range(2)]))
    np.testing.assert_allclose(F.lp_pool2d(_t(x2), 2, 3, 1)[0, 0].numpy(), ref3, rtol=1e-12)
    assert _gradcheck(lambda a: F.lp_pool2d(a, 2, 2), x2)


def test_conv_transpose3d_is_the_input_gradient_of_conv3d():
    x = _t(RNG.standard_normal((1, 3, 3, 4, 3)), True)
    w = RNG.standard_normal((4, 3, 2, 3, 2))
    y = F.conv3d(x, _t(w), stride=(1, 2, 1), padding=(0, 1, 1), groups=1)
    g = _t(RNG.standard_normal(tuple(y.shape)))
    (gx,) = torch.autograd.grad((y * g).sum(), x)
    # conv3d weight (out=4, in=3, ...) is conv_transpose3d's (in=4, out=3, ...)
    back = F.conv_transpose3d(g, _t(w), stride=(1, 2, 1), padding=(0, 1, 1), output_padding=(0, 1, 0))
    np.testing.assert_allclose(back.numpy(), gx.numpy(), rtol=1e-10, atol=1e-12)
    m = nn.ConvTranspose3d(4, 6, 2, stride=2, groups=2)
    assert m.weight.shape == (4, 3, 2, 2, 2)
    assert m(torch.randn(2, 4, 2, 3, 1)).shape == (2, 6, 4, 6, 2)
    assert m(torch.randn(4, 2, 3, 1)).shape == (6, 4, 6, 2)


def test_instance_norm3d():
    x = RNG.standard_normal((2, 3, 2, 3, 2))
    m = nn.InstanceNorm3d(3, affine=True).double()
    mean = x.mean((2, 3, 4), keepdims=True)
    ref = (x - mean) / np.sqrt(x.var((2, 3, 4), keepdims=True) + 1e-5)
    np.testing.assert_allclose(m(_t(x)).detach().numpy(), ref, rtol=1e-10)
    np.testing.assert_allclose(m(_t(x[0])).detach().numpy(), ref[0], rtol=1e-10)  # unbatched (C, D, H, W)
    with pytest.raises(ValueError, match=r"expected 4D or 5D input \(got 3D input\)"):
        m(_t(x[0, 0]))


def test_dropout3d_zeroes_whole_channels():
    torch.manual_seed(0)
    y = F.dropout3d(torch.ones(4, 16, 2, 2, 2), 0.5)
    per_channel = y.reshape(4, 16, -1).numpy()
    assert set(np.unique(per_channel)) <= {0.0, 2.0}
    assert np.all(per_channel.min(-1) == per_channel.max(-1))  # a channel is all kept or all dropped
    m = nn.Dropout3d(0.5)
    assert m(torch.ones(3, 2, 2, 2)).shape == (3, 2, 2, 2)
    m.eval()
    x = torch.ones(1, 2, 1, 1, 1)
    assert m(x) is x
    with pytest.raises(ValueError, match="4D or 5D"):
        F.dropout3d(torch.ones(2, 3))


def test_alpha_dropout_keeps_mean_and_variance():
    torch.manual_seed(1)
    z = torch.randn(100_000, dtype=torch.float64)
    y = F.alpha_dropout(z, 0.3, training=True)
    assert abs(float(y.mean())) < 0.02 and abs(float(y.std()) - 1) < 0.02
    alpha_p = -1.7580993408473766
    a = ((1 - 0.3) * (1 + 0.3 * alpha_p ** 2)) ** -0.5
    dropped = np.isclose(y.numpy(), a * alpha_p - a * alpha_p * 0.3)  # SELU's saturation, mapped
    assert 0.28 < dropped.mean() < 0.32
    assert F.alpha_dropout(z, 0.3) is z  # training defaults to False in the functional form
    assert nn.AlphaDropout(0.2).eval()(z) is z
    assert float(F.alpha_dropout(z, 1.0, True).abs().sum()) == 0
    with pytest.raises(ValueError, match="between 0 and 1"):
        F.alpha_dropout(z, 1.5, True)


def test_gumbel_softmax_soft_hard_and_straight_through():
    torch.manual_seed(2)
    logits = torch.tensor([[1.0, 2.0, 3.0]], dtype=torch.float64, requires_grad=True)
    soft = F.gumbel_softmax(logits.expand(4, 3), tau=0.7)
    np.testing.assert_allclose(soft.sum(-1).detach().numpy(), 1.0)
    hard = F.gumbel_softmax(logits.expand(20_000, 3), tau=0.5, hard=True)
    h = hard.detach().numpy()
    assert set(np.unique(h)) == {0.0, 1.0} and np.all(h.sum(-1) == 1)
    p = np.exp([1.0, 2.0, 3.0]) / np.exp([1.0, 2.0, 3.0]).sum()
    np.testing.assert_allclose(h.mean(0), p, atol=0.02)  # Gumbel-max samples the softmax distribution
    (hard[:, 2]).sum().backward()
    assert logits.grad is not None and float(logits.grad.abs().sum()) > 0  # gradient of the soft sample
    assert F.gumbel_softmax(torch.zeros(2, 3, 4), dim=1).shape == (2, 3, 4)


def test_lazy_linear_infers_in_features():
    m = nn.LazyLinear(3)
    assert isinstance(m.weight, nn.UninitializedParameter) and m.in_features == 0
    y = m(torch.ones(2, 5))
    assert y.shape == (2, 3) and type(m) is nn.Linear and m.in_features == 5
    assert m.weight.shape == (3, 5) and m.bias.shape == (3,)
    assert not isinstance(m.weight, nn.UninitializedParameter)
    bound = 1 / np.sqrt(5)
    assert float(m.bias.abs().max()) <= bound
    seq = nn.Sequential(nn.LazyLinear(4, bias=False), nn.ReLU(), nn.LazyLinear(2))
    out = seq(torch.randn(7, 6))
    assert out.shape == (7, 2) and seq[0].bias is None and seq[2].weight.shape == (2, 4)
    opt = torch.optim.SGD(seq.parameters(), lr=0.1)
    out.sum().backward()
    opt.step()


def test_modules_in_torch_layout():
    from funcgrad.compat.nn.modules import dropout, normalization, pooling

    assert normalization.RMSNorm is nn.RMSNorm and dropout.AlphaDropout is nn.AlphaDropout
    assert pooling.LPPool2d is nn.LPPool2d


def _reflect_ref(c, lo2, hi2):
    if lo2 == hi2:
        return 0.0
    lo, span = lo2 / 2, (hi2 - lo2) / 2
    c = abs(c - lo)
    extra, flips = np.fmod(c, span), np.floor(c / span)
    return extra + lo if flips % 2 == 0 else span - extra + lo


def _coord_ref(g, size, pm, ac):
    c = (g + 1) / 2 * (size - 1) if ac else ((g + 1) * size - 1) / 2
    if pm == "reflection":
        c = _reflect_ref(c, 0, 2 * (size - 1)) if ac else _reflect_ref(c, -1, 2 * size - 1)
    return min(max(c, 0), size - 1) if pm != "zeros" else c


def _grid_sample_ref(x, grid, mode, pm, ac):
    n, ch, h, w = x.shape
    out = np.zeros((n, ch) + grid.shape[1:3])

    def at(b, yi, xi):
        return x[b, :, yi, xi] if 0 <= yi < h and 0 <= xi < w else np.zeros(ch)

    for b in range(n):
        for i in range(grid.shape[1]):
            for j in range(grid.shape[2]):
                cx, cy = _coord_ref(grid[b, i, j, 0], w, pm, ac), _coord_ref(grid[b, i, j, 1], h, pm, ac)
                if mode == "nearest":
                    out[b, :, i, j] = at(b, int(np.rint(cy)), int(np.rint(cx)))
                    continue
                x0, y0 = int(np.floor(cx)), int(np.floor(cy))
                fx, fy = cx - x0, cy - y0
                out[b, :, i, j] = ((1 - fx) * (1 - fy) * at(b, y0, x0) + fx * (1 - fy) * at(b, y0, x0 + 1)
                                   + (1 - fx) * fy * at(b, y0 + 1, x0) + fx * fy * at(b, y0 + 1, x0 + 1))
    return out


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_matches_reference(mode, padding_mode, align_corners):
    x = RNG.standard_normal((2, 2, 3, 4))
    grid = RNG.uniform(-1.7, 1.7, (2, 3, 2, 2))
    got = F.grid_sample(_t(x), _t(grid), mode, padding_mode, align_corners).numpy()
    np.testing.assert_allclose(got, _grid_sample_ref(x, grid, mode, padding_mode, align_corners), atol=1e-12)


@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_grid_sample_gradcheck_input_and_grid(padding_mode):
    x = RNG.standard_normal((1, 2, 3, 3))
    grid = RNG.uniform(-1.3, 1.3, (1, 2, 2, 2))
    assert _gradcheck(lambda a, g: F.grid_sample(a, g, "bilinear", padding_mode, False), x, grid)


def test_affine_grid_identity_and_3d():
    theta = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], dtype=torch.float64)
    g = F.affine_grid(theta, (1, 1, 2, 3), align_corners=False)
    np.testing.assert_allclose(g[0, :, :, 0].numpy(), [[-2 / 3, 0, 2 / 3]] * 2, atol=1e-15)
    np.testing.assert_allclose(g[0, :, :, 1].numpy(), [[-0.5] * 3, [0.5] * 3], atol=1e-15)
    x = RNG.standard_normal((1, 2, 4, 5))
    for ac in (False, True):  # the identity transform samples every pixel centre exactly
        out = F.grid_sample(_t(x), F.affine_grid(theta, (1, 2, 4, 5), align_corners=ac), align_corners=ac)
        np.testing.assert_allclose(out.numpy(), x, atol=1e-12)
    t3 = RNG.standard_normal((2, 3, 4))
    g3 = F.affine_grid(_t(t3), (2, 1, 2, 3, 4), align_corners=True)
    assert g3.shape == (2, 2, 3, 4, 3)
    corner = t3[:, :, :3] @ np.ones(3) + t3[:, :, 3]  # the output corner (x=1, y=1, z=1), align_corners
    np.testing.assert_allclose(g3[:, -1, -1, -1].numpy(), corner, atol=1e-12)
    assert _gradcheck(lambda t: F.affine_grid(t, (1, 1, 2, 2), align_corners=False), t3[:1, :2, :3])
    with pytest.raises(ValueError, match="Nx2x3"):
        F.affine_grid(_t(t3), (2, 1, 4, 4))


def test_grid_sample_errors():
    x, g = torch.zeros(1, 1, 2, 2), torch.zeros(1, 2, 2, 2)
    with pytest.raises(ValueError, match="mode"):
        F.grid_sample(x, g, mode="bicubic")
    with pytest.raises(ValueError, match="padding_mode"):
        F.grid_sample(x, g, padding_mode="wrap")
    with pytest.raises(RuntimeError, match="grid"):
        F.grid_sample(x, torch.zeros(1, 2, 2, 3))


def _pool_indices_ref(x, k, s, p):
    """(values, flat indices) of 2-d max pooling by direct search (first maximum of each window)."""
    n, c, h, w = x.shape
    oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    vals, idx = np.zeros((n, c, oh, ow)), np.zeros((n, c, oh, ow), dtype=np.int64)
    for b, ch, i, j in np.ndindex(n, c, oh, ow):
        best = None
        for di, dj in np.ndindex(k, k):
            y, xx = i * s - p + di, j * s - p + dj
            if 0 <= y < h and 0 <= xx < w and (best is None or x[b, ch, y, xx] > best):
                best, idx[b, ch, i, j] = x[b, ch, y, xx], y * w + xx
        vals[b, ch, i, j] = best
    return vals, idx


def test_max_pool_return_indices_and_unpool():
    x = RNG.standard_normal((2, 2, 5, 6))
    x[..., 1] = x[..., 0]  # ties: the first maximum wins
    vals, idx = F.max_pool2d(_t(x), 3, 2, 1, return_indices=True)
    rv, ri = _pool_indices_ref(x, 3, 2, 1)
    np.testing.assert_array_equal(vals.numpy(), rv)
    np.testing.assert_array_equal(idx.numpy(), ri)
    assert idx.dtype == torch.int64
    src = _t(vals.numpy(), True)
    up = F.max_unpool2d(src, idx, 3, 2, 1, output_size=(5, 6))
    ref = np.zeros((2, 2, 30))
    np.put_along_axis(ref, ri.reshape(2, 2, -1), rv.reshape(2, 2, -1), axis=2)
    np.testing.assert_array_equal(up.detach().numpy(), ref.reshape(2, 2, 5, 6))
    (up * _t(np.arange(60.0).reshape(2, 1, 5, 6).repeat(2, 1))).sum().backward()
    np.testing.assert_array_equal(src.grad.numpy(), (ri + 30 * np.arange(2)[:, None, None, None]).astype(float))
    pool, unpool = nn.MaxPool1d(2, return_indices=True), nn.MaxUnpool1d(2)
    y = torch.tensor([[[1.0, 5.0, 3.0, 2.0, 7.0]]])
    o, i = pool(y)
    assert i.tolist() == [[[1, 2]]]
    assert unpool(o, i).tolist() == [[[0.0, 5.0, 3.0, 0.0]]]
    assert unpool(o, i, output_size=y.size()).shape == (1, 1, 5)
    o3, i3 = F.max_pool3d(torch.randn(1, 1, 2, 2, 2), 2, return_indices=True)
    assert i3.shape == (1, 1, 1, 1, 1) and 0 <= int(i3) < 8
    with pytest.raises(RuntimeError, match="invalid max index"):
        F.max_unpool1d(o, i + 10, 2)


def test_feature_alpha_dropout_drops_whole_channels():
    torch.manual_seed(4)
    x = torch.randn(50, 8, 3, 2, dtype=torch.float64)
    y = F.feature_alpha_dropout(x, 0.5, training=True).numpy()
    alpha_p = -1.7580993408473766
    a = (0.5 * (1 + 0.5 * alpha_p ** 2)) ** -0.5
    dropped = np.isclose(y, a * alpha_p - a * alpha_p * 0.5).reshape(50, 8, -1)
    assert np.all(dropped.all(-1) == dropped.any(-1))  # each channel entirely kept or dropped
    assert 0.35 < dropped.all(-1).mean() < 0.65
    kept = ~dropped.all(-1)
    expected = (a * x.numpy() - a * alpha_p * 0.5).reshape(50, 8, -1)
    np.testing.assert_allclose(y.reshape(50, 8, -1)[kept], expected[kept])
    assert nn.FeatureAlphaDropout(0.3).eval()(x) is x and F.feature_alpha_dropout(x, 0.3) is x
