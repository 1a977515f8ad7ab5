"""3-d conv/pool/batchnorm, adaptive max pooling, unfold/fold, distances, channel shuffle,
EmbeddingBag: numpy references (PyTorch's definitions), gradcheck, errors."""

import itertools

import numpy as np
import pytest

import funcgrad.compat as torch
import funcgrad.compat.nn.functional as F
from funcgrad.compat import nn

RNG = np.random.default_rng(1)


def _t(a, grad=False):
    return torch.tensor(np.asarray(a), requires_grad=grad)


def _gradcheck(fn, *arrays):
    return torch.autograd.gradcheck(fn, tuple(_t(np.asarray(a, np.float64), True) for a in arrays))


def test_conv3d_matches_a_direct_sum_and_pools_3d():
    x = RNG.standard_normal((2, 3, 4, 5, 3))
    m = nn.Conv3d(3, 2, (2, 3, 1), padding=(0, 1, 0)).double()
    w, b = m.weight.detach().numpy(), m.bias.detach().numpy()
    xp = np.pad(x, ((0, 0), (0, 0), (0, 0), (1, 1), (0, 0)))
    ref = np.zeros((2, 2, 3, 5, 3))
    for i, j, k in itertools.product(range(3), range(5), range(3)):
        ref[:, :, i, j, k] = np.einsum("nckl,ockl->no", xp[:, :, i:i + 2, j:j + 3, k], w[..., 0]) + b
    np.testing.assert_allclose(m(_t(x)).detach().numpy(), ref, atol=1e-12)
    out = nn.MaxPool3d(2)(_t(x)).numpy()
    np.testing.assert_array_equal(out, x[:, :, :4, :4, :2].reshape(2, 3, 2, 2, 2, 2, 1, 2).max((3, 5, 7)))
    out = nn.AvgPool3d(2)(_t(x)).numpy()
    np.testing.assert_allclose(out, x[:, :, :4, :4, :2].reshape(2, 3, 2, 2, 2, 2, 1, 2).mean((3, 5, 7)), atol=1e-12)
    np.testing.assert_allclose(nn.AdaptiveAvgPool3d(1)(_t(x)).numpy()[..., 0, 0, 0], x.mean((2, 3, 4)), atol=1e-12)
    bn = nn.BatchNorm3d(3).double()
    y = bn(_t(x)).detach().numpy()
    ref = (x - x.mean((0, 2, 3, 4), keepdims=True)) / np.sqrt(x.var((0, 2, 3, 4), keepdims=True) + 1e-5)
    np.testing.assert_allclose(y, ref, atol=1e-10)
    np.testing.assert_allclose(bn.running_mean.numpy(), 0.1 * x.mean((0, 2, 3, 4)), atol=1e-12)
    with pytest.raises(ValueError, match="expected 5D input"):
        bn(_t(x[0]))
    from funcgrad.compat.nn.modules.conv import Conv3d

    assert Conv3d is nn.Conv3d


def _adaptive_max_ref(x, out):
    h, w = x.shape[-2:]
    res = np.empty(x.shape[:-2] + out)
    for i, j in itertools.product(range(out[0]), range(out[1])):
        hs, he = i * h // out[0], -(-(i + 1) * h // out[0])
        ws, we = j * w // out[1], -(-(j + 1) * w // out[1])
        res[..., i, j] = x[..., hs:he, ws:we].max((-2, -1))
    return res


@pytest.mark.parametrize("out", [(2, 3), (5, 7), (4, 4), (1, 1)])
def test_adaptive_max_pool2d_windows(out):
    x = RNG.standard_normal((2, 3, 5, 7))
    np.testing.assert_array_equal(nn.AdaptiveMaxPool2d(out)(_t(x)).numpy(), _adaptive_max_ref(x, out))
    np.testing.assert_array_equal(F.adaptive_max_pool1d(_t(x[0]), out[1]).numpy(),
                                  _adaptive_max_ref(x[0][..., None, :], (1, out[1]))[..., 0, :])


def test_adaptive_max_pool_none_keeps_a_size_and_gradcheck():
    x = RNG.standard_normal((2, 5, 6))
    assert F.adaptive_max_pool2d(_t(x), (3, None)).shape == (2, 3, 6)
    assert _gradcheck(lambda a: F.adaptive_max_pool2d(a, (2, 4)), x)
    with pytest.raises(ValueError, match="return_indices"):
        F.adaptive_max_pool2d(_t(x), 2, return_indices=True)


def _unfold_ref(x, k, d, p, s):
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    oh = (h + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (w + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    cols = np.empty((n, c, k[0], k[1], oh, ow))
    for i, j in itertools.product(range(k[0]), range(k[1])):
        cols[:, :, i, j] = xp[:, :, i * d[0]:i * d[0] + s[0] * (oh - 1) + 1:s[0],
                              j * d[1]:j * d[1] + s[1] * (ow - 1) + 1:s[1]]
    return cols.reshape(n, c * k[0] * k[1], oh * ow)


@pytest.mark.parametrize("k,d,p,s", [((2, 2), (1, 1), (0, 0), (1, 1)), ((2, 3), (1, 2), (1, 1), (2, 1))])
def test_unfold_and_fold_are_im2col_and_its_adjoint(k, d, p, s):
    x = RNG.standard_normal((2, 3, 5, 6))
    cols = F.unfold(_t(x), k, d, p, s)
    np.testing.assert_array_equal(cols.numpy(), _unfold_ref(x, k, d, p, s))
    y = RNG.standard_normal(cols.shape)
    back = nn.Fold((5, 6), k, d, p, s)(_t(y)).numpy()
    # <unfold(x), y> == <x, fold(y)>
    np.testing.assert_allclose((cols.numpy() * y).sum(), (x * back).sum(), rtol=1e-12)
    assert nn.Unfold(k, d, p, s)(_t(x[0])).shape == cols.shape[1:]
    assert _gradcheck(lambda a: F.fold(a, (5, 6), k, d, p, s), y[:1])
    with pytest.raises(RuntimeError, match="fold: expected input"):
        F.fold(_t(y[:, :, 1:]), (5, 6), k, d, p, s)


def test_distances_and_channel_shuffle():
    a, b = RNG.standard_normal((2, 4, 5))
    np.testing.assert_allclose(nn.PairwiseDistance(p=1)(_t(a), _t(b)).numpy(), np.abs(a - b + 1e-6).sum(-1),
                               atol=1e-12)
    cos = (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    np.testing.assert_allclose(nn.CosineSimilarity()(_t(a), _t(b)).numpy(), cos, atol=1e-12)
    x = np.arange(2 * 6 * 2).reshape(2, 6, 2)
    out = nn.ChannelShuffle(3)(_t(x)).numpy()
    np.testing.assert_array_equal(out[0, :, 0], x[0, [0, 2, 4, 1, 3, 5], 0])
    with pytest.raises(RuntimeError, match="divisible by groups"):
        F.channel_shuffle(_t(x), 4)


def _bag_ref(ids, w, starts, mode, psw=None, pad=None):
    ends = list(starts[1:]) + [len(ids)]
    out = []
    for s, e in zip(starts, ends):
        rows = [(w[i] * (1.0 if psw is None else psw[j])) for j, i in enumerate(ids) if s <= j < e and i != pad]
        if not rows:
            out.append(np.zeros(w.shape[1]))
        else:
            out.append({"sum": np.sum, "mean": np.mean, "max": np.max}[mode](rows, axis=0))
    return np.array(out)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_with_offsets_padding_and_2d_input(mode):
    w = RNG.standard_normal((10, 4))
    ids = np.array([1, 2, 4, 5, 4, 3, 2, 9, 0])
    starts = np.array([0, 2, 2, 5])  # bag 1 is empty
    out = F.embedding_bag(_t(ids), _t(w), _t(starts), mode=mode).numpy()
    np.testing.assert_allclose(out, _bag_ref(ids, w, starts, mode), atol=1e-12)
    out = F.embedding_bag(_t(ids), _t(w), _t(starts), mode=mode, padding_idx=4).numpy()
    np.testing.assert_allclose(out, _bag_ref(ids, w, starts, mode, pad=4), atol=1e-12)
    out = F.embedding_bag(_t(ids.reshape(3, 3)), _t(w), mode=mode).numpy()
    np.testing.assert_allclose(out, _bag_ref(ids, w, [0, 3, 6], mode), atol=1e-12)
    last = F.embedding_bag(_t(ids), _t(w), _t(np.array([0, 2, 9])), mode=mode, include_last_offset=True).numpy()
    np.testing.assert_allclose(last, _bag_ref(ids, w, [0, 2], mode), atol=1e-12)
    assert _gradcheck(lambda weight: F.embedding_bag(_t(ids), weight, _t(starts), mode=mode), w)


def test_embedding_bag_weights_module_and_errors():
    w = RNG.standard_normal((10, 4))
    ids, starts, psw = np.array([1, 2, 4, 5]), np.array([0, 1]), RNG.random(4)
    out = F.embedding_bag(_t(ids), _t(w), _t(starts), mode="sum", per_sample_weights=_t(psw)).numpy()
    np.testing.assert_allclose(out, _bag_ref(ids, w, starts, "sum", psw), atol=1e-12)
    with pytest.raises(NotImplementedError, match="per_sample_weights"):
        F.embedding_bag(_t(ids), _t(w), _t(starts), mode="mean", per_sample_weights=_t(psw))
    with pytest.raises(ValueError, match="offsets has to be None"):
        F.embedding_bag(_t(ids.reshape(2, 2)), _t(w), _t(starts))
    with pytest.raises(ValueError, match="offsets"):
        F.embedding_bag(_t(ids), _t(w))
    bag = nn.EmbeddingBag(10, 3, mode="max", padding_idx=2)
    assert np.all(bag.weight.detach().numpy()[2] == 0) and bag(_t(ids.reshape(2, 2))).shape == (2, 3)
    assert repr(bag) == "EmbeddingBag(10, 3, mode='max', padding_idx=2)"
    pre = nn.EmbeddingBag.from_pretrained(_t(w), mode="sum")
    assert not pre.weight.requires_grad
    from funcgrad.compat.nn.modules.sparse import EmbeddingBag

    assert EmbeddingBag is nn.EmbeddingBag


def test_the_new_functions_run_on_a_non_numpy_device():
    from funcgrad.backend.standin import StandinArray

    def both(fn, *arrays):
        cpu = fn(*(_t(a) for a in arrays))
        dev = fn(*(_t(a).to("standin") for a in arrays))
        assert type(dev._value) is StandinArray
        np.testing.assert_allclose(dev.cpu().numpy(), cpu.numpy(), atol=1e-12)

    q, k = RNG.standard_normal((2, 3, 4)), RNG.standard_normal((2, 5, 4))
    allowed = RNG.random((3, 5)) > 0.3
    both(lambda a, b, m: F.scaled_dot_product_attention(a, b, b, attn_mask=m), q, k, allowed)
    both(lambda a, b: F.scaled_dot_product_attention(a, b, b, is_causal=True), q, k)
    for mode in ("constant", "reflect", "replicate", "circular"):
        both(lambda a, m=mode: F.pad(a, (1, 2, -1, 1), m), k)
    both(lambda a: F.adaptive_max_pool2d(a, (2, 3)), k)
    both(lambda a: F.fold(F.unfold(a, 2), (5, 4), 2), k)
    both(lambda w: F.embedding_bag(_t(np.array([1, 2, 3, 0])).to(w.device), w,
                                   _t(np.array([0, 1])).to(w.device), mode="max"), RNG.standard_normal((4, 3)))
    both(lambda a, b: F.triplet_margin_loss(a, b, b.flip(0)), q[0], k[0, :3])
    both(lambda a: F.selu(a) + F.mish(a) + F.glu(a, -1).sum(), q)
