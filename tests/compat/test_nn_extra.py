"""scaled_dot_product_attention, F.pad modes and padding layers, more losses and activations:
values against numpy references (PyTorch's formulas), gradients by gradcheck, errors."""

import math

import numpy as np
import pytest

import funcgrad.compat as torch
import funcgrad.compat.nn.functional as F
from funcgrad.compat import nn

RNG = np.random.default_rng(0)


def _t(a, grad=False):
    return torch.tensor(np.asarray(a), requires_grad=grad)


def _gradcheck(fn, *arrays):
    return torch.autograd.gradcheck(fn, tuple(_t(np.asarray(a, np.float64), True) for a in arrays))


# ---------------------------------------------------------------- attention


def _softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _sdpa_ref(q, k, v, bias=None, scale=None):
    s = q @ np.swapaxes(k, -1, -2) * (1 / math.sqrt(q.shape[-1]) if scale is None else scale)
    if bias is not None:
        s = s + bias
    dead = np.isneginf(s).all(-1, keepdims=True)
    w = np.where(dead, 0.0, _softmax(np.where(dead, 0.0, s)))
    return w @ v


def test_sdpa_matches_the_reference_with_bool_and_float_masks_broadcast_over_batch_and_heads():
    q, k, v = RNG.standard_normal((2, 3, 4, 5)), RNG.standard_normal((2, 3, 6, 5)), RNG.standard_normal((2, 3, 6, 7))
    allowed = RNG.random((4, 6)) > 0.4
    allowed[1] = False  # a query with no key: zeros, not NaN
    out = F.scaled_dot_product_attention(_t(q), _t(k), _t(v), attn_mask=_t(allowed)).numpy()
    ref = _sdpa_ref(q, k, v, np.where(allowed, 0.0, -np.inf))
    np.testing.assert_allclose(out, ref, atol=1e-12)
    assert np.all(out[:, :, 1] == 0)
    fmask = RNG.standard_normal((3, 1, 6))
    out = F.scaled_dot_product_attention(_t(q), _t(k), _t(v), attn_mask=_t(fmask), scale=0.3).numpy()
    np.testing.assert_allclose(out, _sdpa_ref(q, k, v, fmask, 0.3), atol=1e-12)


@pytest.mark.parametrize("lq,lk", [(4, 6), (5, 2), (3, 3)])
def test_sdpa_causal_is_top_left_aligned(lq, lk):
    q, k, v = RNG.standard_normal((lq, 3)), RNG.standard_normal((lk, 3)), RNG.standard_normal((lk, 2))
    out = F.scaled_dot_product_attention(_t(q), _t(k), _t(v), is_causal=True).numpy()
    bias = np.where(np.tril(np.ones((lq, lk), bool)), 0.0, -np.inf)
    np.testing.assert_allclose(out, _sdpa_ref(q, k, v, bias), atol=1e-12)


def test_sdpa_grouped_query_attention_repeats_key_value_heads():
    q, k, v = RNG.standard_normal((2, 4, 3, 5)), RNG.standard_normal((2, 2, 6, 5)), RNG.standard_normal((2, 2, 6, 5))
    out = F.scaled_dot_product_attention(_t(q), _t(k), _t(v), enable_gqa=True).numpy()
    ref = _sdpa_ref(q, np.repeat(k, 2, axis=1), np.repeat(v, 2, axis=1))
    np.testing.assert_allclose(out, ref, atol=1e-12)
    with pytest.raises(RuntimeError, match="divide"):
        F.scaled_dot_product_attention(_t(q[:, :3]), _t(k), _t(v), enable_gqa=True)


def test_sdpa_gradients_and_errors():
    q, k, v = RNG.standard_normal((2, 3, 4)), RNG.standard_normal((2, 5, 4)), RNG.standard_normal((2, 5, 3))
    mask = _t(RNG.random((3, 5)) > 0.3)
    assert _gradcheck(lambda a, b, c: F.scaled_dot_product_attention(a, b, c, attn_mask=mask), q, k, v)
    assert _gradcheck(lambda a, b, c: F.scaled_dot_product_attention(a, b, c, is_causal=True), q, k, v)
    dead = _t(np.zeros((3, 5), bool))
    qq = _t(q, True)
    F.scaled_dot_product_attention(qq, _t(k), _t(v), attn_mask=dead).sum().backward()
    assert np.all(qq.grad.numpy() == 0)
    with pytest.raises(RuntimeError, match="same dtype"):
        F.scaled_dot_product_attention(_t(q), _t(k.astype(np.float32)), _t(v))
    with pytest.raises(RuntimeError, match="is_causal"):
        F.scaled_dot_product_attention(_t(q), _t(k), _t(v), attn_mask=mask, is_causal=True)
    with pytest.raises(RuntimeError, match="do not fit"):
        F.scaled_dot_product_attention(_t(q), _t(k[..., :2]), _t(v))


def test_sdpa_dropout_only_when_p_is_positive():
    q = _t(RNG.standard_normal((2, 8, 4)))
    base = F.scaled_dot_product_attention(q, q, q)
    assert np.array_equal(F.scaled_dot_product_attention(q, q, q, dropout_p=0.0).numpy(), base.numpy())
    torch.manual_seed(0)
    dropped = F.scaled_dot_product_attention(q, q, q, dropout_p=0.5).numpy()
    assert not np.allclose(dropped, base.numpy())
    torch.manual_seed(0)
    assert np.array_equal(F.scaled_dot_product_attention(q, q, q, dropout_p=0.5).numpy(), dropped)


# ---------------------------------------------------------------- padding

_NP_MODE = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
@pytest.mark.parametrize("pad,nd", [((1, 2), 2), ((1, 2), 3), ((2, 1, 0, 3), 4), ((1, 0, 2, 1, 1, 2), 5)])
def test_pad_matches_numpy_in_pytorch_order(mode, pad, nd):
    x = RNG.standard_normal((2, 3, 4, 5, 6)[-nd:])
    widths = [(0, 0)] * nd
    for i in range(len(pad) // 2):
        widths[nd - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    ref = np.pad(x, widths, constant_values=1.5) if mode == "constant" else np.pad(x, widths, _NP_MODE[mode])
    out = F.pad(_t(x), pad, mode, 1.5 if mode == "constant" else None)
    np.testing.assert_array_equal(out.numpy(), ref)


def test_pad_negative_widths_crop_as_pytorch():
    x = _t(np.arange(12.0).reshape(1, 3, 4))
    np.testing.assert_array_equal(F.pad(x, (-1, 2)).numpy()[0, 0], [1, 2, 3, 0, 0])
    np.testing.assert_array_equal(F.pad(x, (-1, 2), "circular").numpy()[0, 0], [1, 2, 3, 1, 2])  # crop, then wrap
    np.testing.assert_array_equal(F.pad(x, (-1, 2), "replicate").numpy()[0, 0], [1, 2, 3, 3, 3])
    np.testing.assert_array_equal(F.pad(x, (0, 0, -2, 2), "reflect").numpy()[0, :, 0], [8, 4, 0])  # reflect, crop
    np.testing.assert_array_equal(F.pad(x, (4, 4), "circular").numpy()[0, 0], list(range(4)) * 3)


def test_pad_errors():
    x = _t(np.zeros((1, 3, 4)))
    with pytest.raises(RuntimeError, match="less than the corresponding input dimension"):
        F.pad(x, (4, 1), "reflect")
    with pytest.raises(RuntimeError, match="wrapping around more than once"):
        F.pad(x, (5, 1), "circular")
    with pytest.raises(NotImplementedError, match="Padding size 2 is not supported for 1D"):
        F.pad(x[0, 0], (1, 1), "reflect")
    with pytest.raises(RuntimeError, match="doesn't take in value"):
        F.pad(x, (1, 1), "reflect", 1.0)
    with pytest.raises(NotImplementedError, match="Unrecognised padding mode"):
        F.pad(x, (1, 1), "foo")
    with pytest.raises(ValueError, match="divisible by 2"):
        F.pad(x, (1,))


def test_pad_gradients_sum_the_copies():
    x = RNG.standard_normal((2, 4, 5))
    for mode in ("reflect", "replicate", "circular", "constant"):
        assert _gradcheck(lambda a, m=mode: F.pad(a, (2, 1, 1, -1), m), x)
    a = _t(np.zeros((1, 1, 3)), True)
    F.pad(a, (2, 2), "replicate").sum().backward()
    np.testing.assert_array_equal(a.grad.numpy()[0, 0], [3, 1, 3])


def test_padding_layers():
    x = _t(RNG.standard_normal((1, 2, 3, 4, 5)))
    assert nn.ZeroPad2d(1)(x[0]).shape == (2, 3, 6, 7)
    assert nn.ConstantPad3d((1, 0, 0, 1, 2, 2), 0.5)(x).shape == (1, 2, 7, 5, 6)
    assert nn.ReflectionPad1d(2)(x[0, 0]).shape == (3, 4, 9)
    assert nn.ReplicationPad3d(1)(x).shape == (1, 2, 5, 6, 7)
    assert nn.CircularPad2d((1, 2, 0, 1))(x[0]).shape == (2, 3, 5, 8)
    assert float(nn.ConstantPad1d(1, 0.5)(x[0, 0])[0, 0, 0]) == 0.5
    assert repr(nn.ZeroPad2d(1)) == "ZeroPad2d((1, 1, 1, 1))"
    assert repr(nn.ConstantPad1d(1, 0.5)) == "ConstantPad1d(padding=(1, 1), value=0.5)"
    assert repr(nn.ReflectionPad2d((1, 0, 2, 0))) == "ReflectionPad2d((1, 0, 2, 0))"
    from funcgrad.compat.nn.modules.padding import CircularPad1d

    assert CircularPad1d is nn.CircularPad1d
    with pytest.raises(ValueError, match="padding"):
        nn.ReflectionPad2d((1, 2))


# ---------------------------------------------------------------- losses

def _reductions(out_fn, ref):
    for red, r in (("none", ref), ("sum", ref.sum()), ("mean", ref.mean())):
        np.testing.assert_allclose(out_fn(red).numpy(), r, atol=1e-12, err_msg=red)


def test_margin_and_embedding_losses_match_the_formulas():
    x1, x2 = RNG.standard_normal((2, 5, 4))
    y = np.array([1.0, -1.0, 0.0, 1.0, 2.0])  # 0 and 2: both terms, as PyTorch
    _reductions(lambda r: F.margin_ranking_loss(_t(x1[:, 0]), _t(x2[:, 0]), _t(y), 0.3, reduction=r),
                np.maximum(0, -y * (x1[:, 0] - x2[:, 0]) + 0.3))
    _reductions(lambda r: F.hinge_embedding_loss(_t(x1[:, 0]), _t(y), 0.5, reduction=r),
                np.where(y == 1, 0, np.maximum(0, 0.5 - x1[:, 0])) + np.where(y == -1, 0, x1[:, 0]))
    _reductions(lambda r: F.soft_margin_loss(_t(x1), _t(np.sign(x2)), reduction=r),
                np.log1p(np.exp(-np.sign(x2) * x1)))
    cos = (x1 * x2).sum(1) / np.sqrt(((x1 ** 2).sum(1) + 1e-12) * ((x2 ** 2).sum(1) + 1e-12))
    _reductions(lambda r: F.cosine_embedding_loss(_t(x1), _t(x2), _t(y), 0.2, reduction=r),
                np.where(y != 1, 0, 1 - cos) + np.where(y != -1, 0, np.maximum(0, cos - 0.2)))
    a, p, n = RNG.standard_normal((3, 5, 4))
    dist = lambda u, w: (np.abs(u - w + 1e-6) ** 1).sum(-1)  # noqa: E731
    ref = np.maximum(0, 2.0 + dist(a, p) - np.minimum(dist(a, n), dist(p, n)))
    _reductions(lambda r: F.triplet_margin_loss(_t(a), _t(p), _t(n), 2.0, 1, swap=True, reduction=r), ref)
    assert float(nn.TripletMarginLoss()(_t(a), _t(p), _t(n))) == pytest.approx(
        np.maximum(0, 1 + np.linalg.norm(a - p + 1e-6, axis=-1) - np.linalg.norm(a - n + 1e-6, axis=-1)).mean())


def test_poisson_and_gaussian_nll():
    x = RNG.standard_normal((5, 4))
    t = RNG.poisson(2.0, (5, 4)).astype(float)
    _reductions(lambda r: F.poisson_nll_loss(_t(x), _t(t), reduction=r), np.exp(x) - t * x)
    st = np.where(t > 1, t * np.log(np.maximum(t, 1)) - t + 0.5 * np.log(2 * np.pi * np.maximum(t, 1)), 0)
    _reductions(lambda r: F.poisson_nll_loss(_t(np.abs(x)), _t(t), False, True, reduction=r),
                np.abs(x) - t * np.log(np.abs(x) + 1e-8) + st)
    mu, var = RNG.standard_normal((5, 4)), RNG.random((5, 4))
    var[0, 0] = 1e-9  # clamped to eps
    v = np.maximum(var, 1e-6)
    _reductions(lambda r: F.gaussian_nll_loss(_t(x), _t(mu), _t(var), reduction=r),
                0.5 * (np.log(v) + (x - mu) ** 2 / v))
    _reductions(lambda r: F.gaussian_nll_loss(_t(x), _t(mu), _t(var[:, 0]), full=True, reduction=r),
                0.5 * (np.log(v[:, :1]) + (x - mu) ** 2 / v[:, :1]) + 0.5 * np.log(2 * np.pi))
    with pytest.raises(ValueError, match="negative"):
        F.gaussian_nll_loss(_t(x), _t(mu), _t(-var))
    with pytest.raises(ValueError, match="incorrect size"):
        F.gaussian_nll_loss(_t(x), _t(mu), _t(var[:2]))
    vv = _t(np.full((5, 4), 1e-9), True)  # the clamp passes the gradient through
    F.gaussian_nll_loss(_t(x), _t(mu), vv).backward()
    assert np.all(vv.grad.numpy() != 0)


def test_multilabel_and_multiclass_margin_losses():
    x = RNG.standard_normal((5, 4))
    y = (RNG.random((5, 4)) > 0.5).astype(float)
    w = RNG.random(4)
    ls = lambda z: -np.log1p(np.exp(-z))  # noqa: E731
    ref = (-(y * ls(x) + (1 - y) * ls(-x)) * w).mean(1)
    _reductions(lambda r: F.multilabel_soft_margin_loss(_t(x), _t(y), _t(w), reduction=r), ref)
    c = np.array([0, 3, 1, 1, 2])
    for p, margin, weight in ((1, 1.0, None), (2, 0.5, w)):
        terms = np.maximum(0, margin - x[np.arange(5), c][:, None] + x) ** p
        if weight is not None:
            terms = terms * weight[c][:, None]
        terms[np.arange(5), c] = 0
        _reductions(lambda r, p=p, m=margin, wt=weight: F.multi_margin_loss(
            _t(x), _t(c), p, m, None if wt is None else _t(wt), reduction=r), terms.sum(1) / 4)
    with pytest.raises(RuntimeError, match="out of range"):
        F.multi_margin_loss(_t(x), _t(c + 4))
    with pytest.raises(ValueError, match="p == 1"):
        nn.MultiMarginLoss(p=3)


def test_more_losses_gradients_and_modules():
    x1, x2 = RNG.standard_normal((2, 3, 4))
    y = _t(np.array([1.0, -1.0, 1.0]))
    assert _gradcheck(lambda a, b: F.cosine_embedding_loss(a, b, y, 0.1), x1, x2)
    assert _gradcheck(lambda a, b: F.triplet_margin_loss(a, b, b.flip(0)), x1, x2)
    assert _gradcheck(lambda a: F.multi_margin_loss(a, _t(np.array([0, 2, 3])), 2), x1)
    assert _gradcheck(lambda a, v: F.gaussian_nll_loss(a, a * 0.5, v.abs() + 0.1), x1, x2)
    assert _gradcheck(lambda a: F.poisson_nll_loss(a, _t(np.abs(x2)), full=True), x1)
    assert _gradcheck(lambda a: F.multilabel_soft_margin_loss(a, _t((x2 > 0) * 1.0)), x1)
    loss = nn.MarginRankingLoss(margin=0.2, reduction="sum")
    assert loss(_t(x1[:, 0]), _t(x2[:, 0]), y).shape == ()
    assert nn.HingeEmbeddingLoss(reduction="none")(_t(x1[:, 0]), y).shape == (3,)
    assert nn.GaussianNLLLoss(full=True)(_t(x1), _t(x2), _t(np.ones((3, 1)))).shape == ()
    from funcgrad.compat.nn.modules.loss import MultiLabelSoftMarginLoss, PoissonNLLLoss

    assert MultiLabelSoftMarginLoss is nn.MultiLabelSoftMarginLoss and PoissonNLLLoss is nn.PoissonNLLLoss
    with pytest.raises(ValueError, match="not a valid value"):
        F.soft_margin_loss(_t(x1), _t(x2), reduction="avg")


def test_multilabel_margin_and_triplet_with_distance():
    x = RNG.standard_normal((3, 5))
    y = np.array([[3, 0, -1, 1, 1], [1, 2, 4, 3, 0], [-1, 2, 3, 0, 0]])  # each list ends at the first -1
    ref = np.zeros(3)
    for r in range(3):
        targets = list(y[r][:list(y[r]).index(-1)]) if -1 in y[r] else list(y[r])
        for j in targets:
            for i in range(5):
                if i not in targets:
                    ref[r] += max(0.0, 1 - (x[r, j] - x[r, i]))
    _reductions(lambda r: F.multilabel_margin_loss(_t(x), _t(y), reduction=r), ref / 5)
    assert _gradcheck(lambda a: F.multilabel_margin_loss(a, _t(y)), x)
    with pytest.raises(RuntimeError, match="out of range"):
        F.multilabel_margin_loss(_t(x), _t(y + 5))
    a, p, n = RNG.standard_normal((3, 4, 5))
    cos = lambda u, v: 1 - (u * v).sum(-1) / np.linalg.norm(u, axis=-1) / np.linalg.norm(v, axis=-1)  # noqa: E731
    ref = np.maximum(0, 0.5 + cos(a, p) - np.minimum(cos(a, n), cos(p, n)))
    loss = nn.TripletMarginWithDistanceLoss(distance_function=lambda u, v: 1 - F.cosine_similarity(u, v), margin=0.5,
                                            swap=True, reduction="none")
    np.testing.assert_allclose(loss(_t(a), _t(p), _t(n)).numpy(), ref, atol=1e-12)
    with pytest.raises(ValueError, match="greater than 0"):
        F.triplet_margin_with_distance_loss(_t(a), _t(p), _t(n), margin=0.0)


# ---------------------------------------------------------------- activations

_SELU_A, _SELU_S = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _sp(z):
    return np.logaddexp(0, z)


ACTIVATIONS = [
    ("mish", (), lambda x: x * np.tanh(_sp(x))),
    ("hardswish", (), lambda x: x * np.clip(x + 3, 0, 6) / 6),
    ("hardsigmoid", (), lambda x: np.clip(x + 3, 0, 6) / 6),
    ("softsign", (), lambda x: x / (1 + np.abs(x))),
    ("tanhshrink", (), lambda x: x - np.tanh(x)),
    ("threshold", (0.5, -2.0), lambda x: np.where(x > 0.5, x, -2.0)),
    ("celu", (0.7,), lambda x: np.maximum(0, x) + np.minimum(0, 0.7 * (np.exp(x / 0.7) - 1))),
    ("selu", (), lambda x: _SELU_S * np.where(x > 0, x, _SELU_A * (np.exp(x) - 1))),
    ("rrelu", (0.1, 0.3), lambda x: np.where(x >= 0, x, 0.2 * x)),
    ("hardshrink", (1.0,), lambda x: np.where(np.abs(x) > 1.0, x, 0)),
    ("softshrink", (1.0,), lambda x: np.where(x > 1, x - 1, np.where(x < -1, x + 1, 0))),
]


@pytest.mark.parametrize("name,args,ref", ACTIVATIONS, ids=[a[0] for a in ACTIVATIONS])
def test_activations_match_the_formulas_and_gradcheck(name, args, ref):
    x = RNG.standard_normal((3, 4)) * 3
    x[0, :3] = [-3.0, 3.0, 1.0]
    fn = getattr(F, name)
    np.testing.assert_allclose(fn(_t(x), *args).numpy(), ref(x), atol=1e-12)
    np.testing.assert_allclose(fn(_t(x.astype(np.float32)), *args).numpy(), ref(x), atol=1e-5)
    smooth = x[1:] + 0.05  # away from the kinks
    smooth = np.where(np.abs(np.abs(smooth) - 1) < 0.05, smooth + 0.2, smooth)
    assert _gradcheck(lambda a: fn(a, *args), smooth)


def test_glu_softmax2d_rrelu_training_and_modules():
    x = RNG.standard_normal((2, 6, 3))
    np.testing.assert_allclose(F.glu(_t(x), 1).numpy(), x[:, :3] / (1 + np.exp(-x[:, 3:])), atol=1e-12)
    with pytest.raises(RuntimeError, match="Halving dimension must be even"):
        F.glu(_t(x), -1)
    np.testing.assert_allclose(nn.Softmax2d()(_t(x[None])).numpy()[0], np.exp(x) / np.exp(x).sum(0), atol=1e-12)
    with pytest.raises(ValueError, match="3D or 4D"):
        nn.Softmax2d()(_t(x[0]))
    m = nn.RReLU(0.1, 0.3)
    torch.manual_seed(0)
    out = m(_t(-np.ones((100,)))).numpy()
    assert np.all((out <= -0.1) & (out >= -0.3)) and out.std() > 0.01
    m.eval()
    np.testing.assert_allclose(m(_t(-np.ones(3))).numpy(), -0.2)
    a = _t(x.copy())
    assert nn.SELU(inplace=True)(a) is a
    np.testing.assert_allclose(a.numpy(), _SELU_S * np.where(x > 0, x, _SELU_A * (np.exp(x) - 1)), atol=1e-12)
    assert repr(nn.Threshold(0.1, 20)) == "Threshold(threshold=0.1, value=20)"
    from funcgrad.compat.nn.modules.activation import Hardswish

    assert Hardswish is nn.Hardswish
