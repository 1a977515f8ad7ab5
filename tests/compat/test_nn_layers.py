"""compat nn layers, losses, functional, init, utils (PyTorch's behaviours and defaults)."""

import math

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import nn
from funcgrad.compat.nn import functional as F
from funcgrad.compat.nn import init


def test_linear_and_conv_default_init_bounds():
    torch.manual_seed(0)
    lin = nn.Linear(400, 50)
    bound = 1 / math.sqrt(400)
    for p in (lin.weight, lin.bias):
        v = p.detach().numpy()
        assert v.dtype == np.float32 and np.abs(v).max() <= bound and np.abs(v).max() > 0.9 * bound
    conv = nn.Conv2d(3, 8, 5)
    assert conv.weight.shape == (8, 3, 5, 5)
    assert np.abs(conv.weight.detach().numpy()).max() <= 1 / math.sqrt(75)
    torch.manual_seed(1)
    a = nn.Linear(3, 3).weight.detach().numpy().copy()
    torch.manual_seed(1)
    np.testing.assert_array_equal(a, nn.Linear(3, 3).weight.detach().numpy())


def test_conv_pool_shapes_and_gradients():
    x = torch.randn(2, 3, 8, 8, requires_grad=True)
    y = nn.Conv2d(3, 4, 3, padding=1)(x)
    y = nn.MaxPool2d(2)(y)
    y = nn.AvgPool2d(2)(y)
    y = nn.AdaptiveAvgPool2d(1)(y)
    assert y.shape == (2, 4, 1, 1)
    y.sum().backward()
    assert x.grad.shape == x.shape
    z = nn.AvgPool1d(2)(nn.MaxPool1d(2)(nn.Conv1d(2, 3, 3)(torch.randn(1, 2, 10))))
    assert z.shape == (1, 3, 2)
    assert nn.Flatten()(torch.ones(2, 3, 4)).shape == (2, 12)
    assert F.max_pool2d(torch.ones(1, 1, 4, 4), (2, 2)).shape == (1, 1, 2, 2)


def test_batchnorm_running_stats_unbiased_var_and_eval():
    bn = nn.BatchNorm1d(2)
    x = torch.tensor([[1.0, 2.0], [3.0, 6.0], [5.0, 10.0]])
    y = bn(x)
    np.testing.assert_allclose(y.detach().numpy().mean(0), 0, atol=1e-6)
    np.testing.assert_allclose(y.detach().numpy().var(0), 1, atol=1e-4)  # biased variance normalises
    np.testing.assert_allclose(bn.running_mean.numpy(), 0.1 * np.array([3.0, 6.0]), rtol=1e-6)
    np.testing.assert_allclose(bn.running_var.numpy(), 0.9 + 0.1 * np.array([4.0, 16.0]), rtol=1e-6)  # unbiased
    assert bn.num_batches_tracked.dtype == torch.int64 and bn.num_batches_tracked.item() == 1
    assert list(bn.state_dict()) == ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    bn.eval()
    y = bn(x)
    expect = (x.numpy() - bn.running_mean.numpy()) / np.sqrt(bn.running_var.numpy() + 1e-5)
    np.testing.assert_allclose(y.detach().numpy(), expect, rtol=1e-5)
    assert bn.num_batches_tracked.item() == 1


def test_batchnorm_cumulative_average_and_batch_of_one():
    bn = nn.BatchNorm1d(1, momentum=None)
    bn(torch.tensor([[0.0], [2.0]]))
    bn(torch.tensor([[4.0], [6.0]]))
    np.testing.assert_allclose(bn.running_mean.numpy(), [3.0])  # mean of the batch means
    with pytest.raises(ValueError, match="Expected more than 1 value per channel when training"):
        nn.BatchNorm1d(3)(torch.randn(1, 3))
    with pytest.raises(ValueError, match="expected 4D input"):
        nn.BatchNorm2d(3)(torch.randn(2, 3))
    bn2 = nn.BatchNorm2d(3)
    bn2.weight.data = torch.ones(3) * 4
    out = bn2(torch.randn(4, 3, 2, 2))
    assert abs(out.detach().numpy().std() - 4) < 0.1


def test_layernorm_dropout_embedding_relu_inplace():
    ln = nn.LayerNorm(4)
    assert repr(ln) == "LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)"
    assert repr(nn.LayerNorm(3, elementwise_affine=False)).endswith("elementwise_affine=False, bias=False)")
    bn = nn.BatchNorm1d(3, bias=False)
    assert [n for n, _ in bn.named_parameters()] == ["weight"] and "affine=True, bias=False" in repr(bn)
    y = ln(torch.randn(3, 4)).detach().numpy()
    np.testing.assert_allclose(y.mean(-1), 0, atol=1e-6)
    torch.manual_seed(0)
    d = nn.Dropout(0.5)
    x = torch.ones(1000)
    y = d(x)
    kept = (y != 0).float().mean().item()
    assert 0.4 < kept < 0.6 and set(np.unique(y.numpy())) <= {0.0, 2.0}
    d.eval()
    assert d(x) is x
    emb = nn.Embedding(5, 3, padding_idx=0)
    assert (emb.weight[0] == 0).all()
    out = emb(torch.tensor([[0, 2], [4, 0]]))
    out.sum().backward()
    assert out.shape == (2, 2, 3) and (emb.weight.grad[0] == 0).all() and (emb.weight.grad[2] == 1).all()
    r = torch.tensor([-1.0, 2.0])
    assert nn.ReLU(inplace=True)(r) is r and r.tolist() == [0.0, 2.0]


@pytest.mark.parametrize("mod,fn", [
    (nn.LeakyReLU(0.1), lambda v: np.where(v > 0, v, 0.1 * v)),
    (nn.ELU(), lambda v: np.where(v > 0, v, np.expm1(v))),
    (nn.SiLU(), lambda v: v / (1 + np.exp(-v))),
    (nn.Sigmoid(), lambda v: 1 / (1 + np.exp(-v))),
    (nn.Tanh(), np.tanh),
    (nn.GELU(), lambda v: v * 0.5 * (1 + np.vectorize(math.erf)(v / math.sqrt(2)))),
    (nn.Softmax(dim=1), lambda v: np.exp(v) / np.exp(v).sum(1, keepdims=True)),
    (nn.LogSoftmax(dim=1), lambda v: v - np.log(np.exp(v).sum(1, keepdims=True))),
    (nn.Identity(54, unused="x"), lambda v: v),
])
def test_activations(mod, fn):
    x = torch.randn(3, 4, dtype=torch.float64)
    np.testing.assert_allclose(mod(x).numpy(), fn(x.numpy()), rtol=1e-6, atol=1e-12)


def test_softmax_implicit_dim_rule_warns():
    for shape, dim in (((4,), 0), ((2, 3), 1), ((2, 3, 4), 0), ((2, 3, 4, 5), 1)):
        x = torch.randn(*shape)
        with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
            y = F.softmax(x)
        np.testing.assert_allclose(y.sum(dim).numpy(), 1, rtol=1e-5)


def test_losses_match_pytorch_rules():
    score = torch.tensor([[1.0, 2.0], [0.5, -1.0], [0.0, 0.0]])
    label = torch.Tensor([1, 0, 1]).long()
    logp = score.numpy() - np.log(np.exp(score.numpy()).sum(1, keepdims=True))
    ce = nn.CrossEntropyLoss()(score, label)
    np.testing.assert_allclose(ce.item(), -logp[[0, 1, 2], [1, 0, 1]].mean(), rtol=1e-6)
    w = torch.tensor([1.0, 3.0])
    wce = nn.CrossEntropyLoss(weight=w)(score, label)
    np.testing.assert_allclose(wce.item(), -(3 * logp[0, 1] + logp[1, 0] + 3 * logp[2, 1]) / 7, rtol=1e-6)
    assert math.isnan(nn.CrossEntropyLoss(ignore_index=1)(score, torch.tensor([1, 1, 1])).item())
    np.testing.assert_allclose(nn.NLLLoss()(torch.from_numpy(logp), label).item(), ce.item(), rtol=1e-6)
    assert nn.BCELoss()(torch.tensor([0.0]), torch.tensor([1.0])).item() == 100.0  # log clamped at -100
    x, t = torch.tensor([0.3, -2.0]), torch.tensor([1.0, 0.0])
    np.testing.assert_allclose(nn.BCEWithLogitsLoss()(x, t).item(),
                               nn.BCELoss()(torch.sigmoid(x), t).item(), rtol=1e-6)
    with pytest.warns(UserWarning, match="different to the input size"):
        m = nn.MSELoss(reduction="none")(torch.zeros(3, 1), torch.ones(3))
    assert m.shape == (3, 3)
    a, b = torch.tensor([0.0, 3.0]), torch.tensor([0.5, 0.0])
    assert nn.L1Loss()(a, b).item() == 1.75
    np.testing.assert_allclose(nn.SmoothL1Loss()(a, b).item(), (0.125 + 2.5) / 2)
    assert nn.MSELoss(reduction="sum")(a, b).item() == 9.25
    p = torch.tensor([[0.25, 0.75]])
    with pytest.warns(UserWarning, match="batchmean"):
        kl = nn.KLDivLoss()(p.log(), torch.tensor([[0.5, 0.5]]))
    np.testing.assert_allclose(kl.item(), (0.5 * np.log(2) + 0.5 * np.log(0.5 / 0.75)) / 2, rtol=1e-5)
    with pytest.warns(UserWarning, match="size_average and reduce"):
        assert nn.MSELoss(size_average=False)(a, b).item() == 9.25


def test_init_functions_and_old_names():
    w = torch.empty(30, 20)
    init.xavier_uniform_(w)
    assert np.abs(w.numpy()).max() <= math.sqrt(6 / 50)
    init.constant_(w, 0.1)
    assert (w == 0.1).all()
    with pytest.warns(FutureWarning, match="nn.init.xavier_uniform is now deprecated"):
        init.xavier_uniform(w)
    b = torch.empty(3)
    with pytest.warns(FutureWarning, match="constant"):
        init.constant(b, 0.1)
    np.testing.assert_allclose(b.numpy(), 0.1)
    lin = nn.Linear(20, 30)
    init.xavier_normal_(lin.weight)
    init.kaiming_normal_(lin.weight, mode="fan_out", nonlinearity="relu")
    init.normal_(lin.bias, 0, 0.01)
    init.zeros_(lin.bias)
    init.orthogonal_(w)
    np.testing.assert_allclose(w.numpy().T @ w.numpy(), np.eye(20), atol=1e-5)
    init.trunc_normal_(w, std=1.0, a=-0.5, b=0.5)
    assert np.abs(w.numpy()).max() <= 0.5
    assert lin.weight.requires_grad and lin.weight.is_leaf
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init.xavier_uniform_(torch.empty(3))
    assert init.calculate_gain("relu") == math.sqrt(2)


def test_weights_init_through_apply():
    def weights_init(m):
        if isinstance(m, nn.Conv2d):
            init.xavier_uniform_(m.weight.data)
            init.constant_(m.bias.data, 0.1)

    net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.Conv2d(4, 2, 1))
    net.apply(weights_init)
    assert (net[2].bias == 0.1).all() and net[0].bias.requires_grad


def test_clip_grad_norm_and_vectors():
    a = nn.Parameter(torch.tensor([3.0, 0.0]))
    b = nn.Parameter(torch.tensor([4.0]))
    (a * a / 2).sum().backward()
    (b * b / 2).sum().backward()
    total = nn.utils.clip_grad_norm_([a, b], max_norm=1.0)
    np.testing.assert_allclose(total.item(), 5.0, rtol=1e-6)
    np.testing.assert_allclose(torch.cat([a.grad, b.grad]).numpy(), [0.6, 0.0, 0.8], rtol=1e-5)
    nn.utils.clip_grad_value_([a], 0.1)
    assert a.grad.max().item() == pytest.approx(0.1)
    v = nn.utils.parameters_to_vector([a, b])
    assert v.tolist() == [3.0, 0.0, 4.0]
    nn.utils.vector_to_parameters(torch.tensor([1.0, 2.0, 3.0]), [a, b])
    assert a.tolist() == [1.0, 2.0] and b.tolist() == [3.0]


def test_freezing_layers_keeps_them_fixed():
    net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
    for p in net[0].parameters():
        p.requires_grad = False
    opt = torch.optim.SGD(filter(lambda p: p.requires_grad, net.parameters()), lr=0.1)
    w0 = net[0].weight.detach().clone()
    net(torch.ones(3, 2)).sum().backward()
    opt.step()
    assert net[0].weight.grad is None and torch.equal(net[0].weight, w0)


def test_data_parallel_and_unsupported_embedding_options():
    dp = nn.DataParallel(nn.Linear(2, 1))
    assert list(dp.state_dict()) == ["module.weight", "module.bias"] and dp(torch.ones(3, 2)).shape == (3, 1)
    with pytest.raises(ValueError, match="max_norm"):
        nn.Embedding(3, 2, max_norm=1.0)


def test_more_layers_shapes_reprs_and_math():
    m = nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2)
    assert repr(m) == ("ConvTranspose2d(4, 6, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), "
                       "output_padding=(1, 1), groups=2)")
    assert m.weight.shape == (4, 3, 3, 3) and m(torch.randn(2, 4, 5, 5)).shape == (2, 6, 10, 10)
    assert nn.ConvTranspose1d(2, 3, 3)(torch.randn(1, 2, 5)).shape == (1, 3, 7)
    g = nn.GroupNorm(2, 4)
    assert repr(g) == "GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)"
    y = g.double()(torch.randn(3, 4, 5, dtype=torch.float64)).detach().numpy().reshape(3, 2, -1)
    np.testing.assert_allclose(y.mean(-1), 0, atol=1e-12)
    torch.manual_seed(0)
    out = nn.Dropout2d(0.5)(torch.ones(2, 8, 3, 3)).numpy()
    per_channel = out.reshape(16, 9)
    assert set(np.unique(per_channel)) <= {0.0, 2.0} and (per_channel.std(1) == 0).all()
    p = nn.PReLU()
    assert repr(p) == "PReLU(num_parameters=1)" and p(torch.tensor([-1.0, 2.0])).tolist() == [-0.25, 2.0]
    p3 = nn.PReLU(3, init=0.5)
    assert p3(-torch.ones(2, 3, 2)).tolist() == [[[-0.5] * 2] * 3] * 2
    assert nn.Unflatten(1, (2, 3))(torch.ones(4, 6)).shape == (4, 2, 3)


def test_functional_channel_dropout_and_prelu():
    torch.manual_seed(1)
    x = torch.ones(3, 4, 5)
    y = F.dropout1d(x, 0.5).numpy()
    assert (y.std(-1) == 0).all() and set(np.unique(y)) <= {0.0, 2.0}
    assert F.dropout2d(x, 0.5, training=False) is x
    # PyTorch 2.x reads any input as (N, C, *): 2-D (N, C) drops single elements, with a warning
    # (mnist_rnn's Dropout2d after an LSTM), 3-D is (N, C, L); under 2-D it raises
    with pytest.warns(UserWarning, match="Received a 2-D input to dropout2d"):
        y2 = F.dropout2d(torch.ones(40, 50), 0.5).numpy()
    assert set(np.unique(y2)) == {0.0, 2.0} and 0 < (y2[:, 1:] != y2[:, :-1]).sum()
    with pytest.warns(UserWarning, match="interpreted as shape \\(N, C, L\\)"):
        y3 = F.dropout2d(torch.ones(6, 7, 5), 0.5).numpy()
    assert (y3.std(-1) == 0).all() and 0 < y3[..., 0].std()
    with pytest.raises(RuntimeError, match="at least 2 dimensions"):
        F.dropout2d(torch.ones(3), 0.5)
    w = torch.tensor([0.1, 0.2, 0.3, 0.4])
    out = F.prelu(-torch.ones(2, 4, 3), w)
    np.testing.assert_allclose(out.numpy()[0, :, 0], -w.numpy())


def test_every_dropout_refuses_a_probability_outside_0_1_even_in_eval():
    x = torch.ones(2, 3, 4, 5, 6)
    fns = [F.dropout, F.dropout1d, F.dropout2d, F.dropout3d, F.alpha_dropout, F.feature_alpha_dropout]
    for fn in fns:
        for p in (-0.1, 1.5):
            with pytest.raises(ValueError, match=f"dropout probability has to be between 0 and 1, but got {p}"):
                fn(x[0, 0] if fn is F.dropout1d else x[0] if fn is F.dropout2d else x, p, training=False)
    for layer in (nn.Dropout, nn.Dropout2d, nn.AlphaDropout):
        with pytest.raises(ValueError, match="between 0 and 1, but got 2"):
            layer(2)


def test_pad_sequence():
    pad_sequence = nn.utils.rnn.pad_sequence

    a = torch.ones(3, 2, requires_grad=True)
    b = torch.full((1, 2), 2.0, requires_grad=True)
    p = pad_sequence([a, b], batch_first=True, padding_value=-1.0)
    assert p.shape == (2, 3, 2) and p[1].tolist() == [[2.0, 2.0], [-1.0, -1.0], [-1.0, -1.0]]
    (p * torch.arange(12.0).view(2, 3, 2)).sum().backward()
    assert a.grad.tolist() == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]] and b.grad.tolist() == [[6.0, 7.0]]
    left = pad_sequence([torch.tensor([1, 2, 3]), torch.tensor([4])], padding_side="left")
    assert left.tolist() == [[1, 0], [2, 0], [3, 4]] and left.dtype == torch.int64
    assert pad_sequence(torch.ones(2, 3)).shape == (3, 2)  # a tensor is a batch of sequences
    with pytest.raises(RuntimeError, match="empty"):
        pad_sequence([])
    with pytest.raises(RuntimeError, match="trailing"):
        pad_sequence([torch.ones(2, 3), torch.ones(2, 2)])


@pytest.mark.parametrize("make", [
    lambda ip: nn.LeakyReLU(0.2, inplace=ip), lambda ip: nn.ELU(inplace=ip), lambda ip: nn.SiLU(ip),
    lambda ip: nn.ReLU6(ip), lambda ip: nn.Hardtanh(inplace=ip), lambda ip: nn.ReLU(ip),
    lambda ip: (lambda t: F.leaky_relu(t, 0.2, inplace=ip)), lambda ip: (lambda t: F.elu(t, inplace=ip)),
    lambda ip: (lambda t: F.dropout(t, 0.5, True, inplace=ip))])
def test_inplace_activations_backward_as_out_of_place(make):
    # DCGAN's Discriminator: Conv2d -> BatchNorm2d -> LeakyReLU(0.2, inplace=True)
    x = torch.randn(4, 3, 6, 6)
    grads = []
    for ip in (False, True):
        torch.manual_seed(0)
        conv, bn = nn.Conv2d(3, 5, 3), nn.BatchNorm2d(5)
        y = make(ip)(bn(conv(x)))
        (y * y).sum().backward()
        grads.append(conv.weight.grad.numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-5, atol=1e-6)


def test_inplace_functional_underscore_variants():
    x = torch.tensor([-2.0, 0.5, 3.0])
    assert F.leaky_relu_(x.clone(), 0.5).tolist() == [-1.0, 0.5, 3.0]
    assert F.hardtanh_(x.clone()).tolist() == [-1.0, 0.5, 1.0]
    y = x.clone()
    assert F.elu_(y) is y and y[1].item() == 0.5


def test_pixel_shuffle_and_unshuffle():
    x = torch.arange(2 * 8 * 2 * 3, dtype=torch.float64).view(2, 8, 2, 3).requires_grad_()
    y = nn.PixelShuffle(2)(x)
    # out[n, c, h*r + i, w*r + j] = in[n, c*r*r + i*r + j, h, w]
    want = x.detach().numpy().reshape(2, 2, 2, 2, 2, 3).transpose(0, 1, 4, 2, 5, 3).reshape(2, 2, 4, 6)
    assert y.shape == (2, 2, 4, 6) and np.array_equal(y.detach().numpy(), want)
    assert torch.equal(nn.PixelUnshuffle(2)(y), x) and repr(nn.PixelShuffle(2)) == "PixelShuffle(upscale_factor=2)"
    (y * torch.arange(96.0, dtype=torch.float64).view(2, 2, 4, 6)).sum().backward()
    assert np.array_equal(x.grad.numpy(), np.arange(96.0).reshape(2, 2, 2, 2, 3, 2)
                          .transpose(0, 1, 3, 5, 2, 4).reshape(2, 8, 2, 3))
    assert F.pixel_shuffle(torch.ones(5, 2, 9, 1, 1), 3).shape == (5, 2, 1, 3, 3)  # extra leading dims
    with pytest.raises(RuntimeError, match="divisible"):
        F.pixel_shuffle(torch.ones(1, 3, 2, 2), 2)


def test_interpolate_and_upsample():
    # values checked against PyTorch 2.13: half-pixel source indices, PyTorch's nearest rules
    ramp = torch.arange(4.0).view(1, 1, 4)
    assert F.interpolate(ramp, scale_factor=2, mode="linear").tolist() == [[[0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3]]]
    np.testing.assert_allclose(F.interpolate(ramp, size=7, mode="linear", align_corners=True).numpy()[0, 0],
                               np.linspace(0, 3, 7))
    assert F.interpolate(torch.arange(6.0).view(1, 1, 6), scale_factor=0.5, mode="linear").tolist() == [[[0.5, 2.5, 4.5]]]
    assert F.interpolate(ramp, size=6).tolist() == [[[0, 0, 1, 2, 2, 3]]]  # nearest: floor(dst * in / out)
    assert F.interpolate(ramp, size=6, mode="nearest-exact").tolist() == [[[0, 1, 1, 2, 3, 3]]]
    x = torch.arange(6.0).view(1, 1, 2, 3).requires_grad_()
    up = nn.Upsample(scale_factor=2)(x)
    assert up.shape == (1, 1, 4, 6) and np.array_equal(up.detach().numpy()[0, 0], np.kron(np.arange(6.0).reshape(2, 3),
                                                                                            np.ones((2, 2))))
    up.sum().backward()
    assert (x.grad == 4).all()
    bl = nn.UpsamplingBilinear2d(size=(3, 5))(torch.arange(6.0).view(1, 1, 2, 3))  # align_corners=True
    np.testing.assert_allclose(bl.numpy()[0, 0], np.add.outer(np.linspace(0, 3, 3), np.linspace(0, 2, 5)))
    assert repr(nn.Upsample(scale_factor=2, mode="bilinear")) == "Upsample(scale_factor=2.0, mode='bilinear')"
    with pytest.raises(ValueError, match="only one of size or scale_factor"):
        F.interpolate(ramp, size=2, scale_factor=2)
    with pytest.raises(ValueError, match="align_corners"):
        F.interpolate(ramp, scale_factor=2, align_corners=True)
    with pytest.raises(ValueError, match="bicubic"):
        F.interpolate(x, scale_factor=2, mode="bicubic")
    with pytest.raises(NotImplementedError, match="needs 4D input"):
        F.interpolate(ramp, scale_factor=2, mode="bilinear")
