"""Convolution and pooling results do not depend on memory layout, and are laid out as PyTorch's."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.nn.functional as F
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

from .test_functional import ref_conv2d


def ref_max_pool2d(x, k, s, p, d):
    """Direct definition over the -inf padded input."""
    xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)), constant_values=-np.inf)
    oh = (x.shape[2] + 2 * p - d * (k - 1) - 1) // s + 1
    ow = (x.shape[3] + 2 * p - d * (k - 1) - 1) // s + 1
    out = np.full(x.shape[:2] + (oh, ow), -np.inf, dtype=x.dtype)
    for i in range(oh):
        for j in range(ow):
            win = xp[:, :, i * s:i * s + d * (k - 1) + 1:d, j * s:j * s + d * (k - 1) + 1:d]
            out[:, :, i, j] = win.max(axis=(2, 3))
    return out


@pytest.mark.parametrize("k,s,p,d", [(2, 2, 0, 1), (3, 2, 1, 1), (3, 1, 1, 2), (1, 1, 0, 1), (2, 1, 1, 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_max_pool_any_layout_equals_the_definition(k, s, p, d, dtype):
    rng = np.random.default_rng(k * 100 + s * 10 + p + d)
    x = rng.standard_normal((2, 3, 7, 8)).astype(dtype)
    x[0, 1, 2, 3] = np.nan  # NaN propagates to every window holding it, as torch and np.max
    ref = ref_max_pool2d(x, k, s, p, d)
    channels_last = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    for v in (x, channels_last, x[:, ::-1][:, ::-1]):
        y = F.max_pool2d(fnp.asarray(v), k, s, p, d)
        assert y.dtype == dtype
        np.testing.assert_array_equal(np.asarray(y), ref)


def test_max_pool_of_a_one_tap_window_is_a_fresh_tensor_in_compat():
    import funcgrad.compat as torch

    x = torch.arange(16.0).reshape(1, 1, 4, 4)
    y = torch.nn.functional.max_pool2d(x, 1)
    y.add_(1.0)
    assert x[0, 0, 0, 0].item() == 0.0 and y[0, 0, 0, 0].item() == 1.0


def test_max_pool_gradient_on_a_channels_last_input():
    rng = np.random.default_rng(3)
    x = rng.permutation(2 * 3 * 6 * 6).astype(np.float64).reshape(2, 6, 6, 3).transpose(0, 3, 1, 2)
    g = np.asarray(fg.grad(lambda v: fnp.sum(F.max_pool2d(v, 2) ** 2))(fnp.asarray(x)))
    win = x.reshape(2, 3, 3, 2, 3, 2)
    m = win.max(axis=(3, 5), keepdims=True)
    np.testing.assert_array_equal(g, ((win == m) * 2 * m).reshape(x.shape))


@pytest.mark.parametrize("groups", [1, 2])
def test_conv_output_and_weight_gradient_are_c_contiguous(groups):
    # the convolution's matmul produces NCHW directly: no transposed view for the next layer
    # (compat makes its results contiguous: a copy it no longer needs) or for the optimizer
    rng = np.random.default_rng(groups)
    x = fnp.asarray(rng.standard_normal((3, 4, 7, 6)).astype(np.float32))
    w = fnp.asarray(rng.standard_normal((6, 4 // groups, 3, 2)).astype(np.float32))
    b = fnp.asarray(rng.standard_normal(6).astype(np.float32))
    y = F.conv2d(x, w, b, stride=(1, 2), dilation=(2, 1), groups=groups)
    assert y.dtype == np.float32 and np.asarray(y).flags.c_contiguous
    gw, gb = fg.grad(lambda w, b: fnp.sum(F.conv2d(x, w, b, groups=groups) ** 2), (0, 1))(w, b)
    assert np.asarray(gw).flags.c_contiguous and gw.dtype == np.float32 and gb.shape == (6,)


# (out channels, groups, input size s): a 2x2 kernel with padding 1 over (s, s + 1) gives
# P = (s + 1) * (s + 2) output positions. Per-group out channels <= P take the batched NCHW
# product, more out channels than positions the stacked-positions product; both occur here
BRANCHES = [(4, 1, 6), (4, 2, 6), (6, 1, 1), (12, 1, 1), (18, 3, 1), (21, 3, 1), (5, 1, 4)]
assert {o // g <= (s + 1) * (s + 2) for o, g, s in BRANCHES} == {True, False}


@pytest.mark.parametrize("o,g,size", BRANCHES)
def test_both_conv_products_equal_the_definition_with_gradients(o, g, size):
    rng = np.random.default_rng(o * 10 + g)
    x, w, b = rng.standard_normal((2, 6, size, size + 1)), rng.standard_normal((o, 6 // g, 2, 2)), \
        rng.standard_normal(o)
    y = F.conv2d(fnp.asarray(x), fnp.asarray(w), fnp.asarray(b), 1, 1, 1, g)
    np.testing.assert_allclose(np.asarray(y), ref_conv2d(x, w, b, 1, 1, 1, g), rtol=1e-10, atol=1e-10)
    check_grads(lambda x, w, b: F.conv2d(x, w, b, 1, 1, 1, g), tuple(map(fnp.asarray, (x, w, b))), order=2)
    y32 = F.conv2d(*(fnp.asarray(a.astype(np.float32)) for a in (x, w, b)), 1, 1, 1, g)
    assert y32.dtype == np.float32
    np.testing.assert_allclose(np.asarray(y32), np.asarray(y), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("o,size", [(5, 8), (12, 1)])
def test_compat_conv_is_contiguous_and_backward_matches_functional_bitwise(o, size):
    import funcgrad.compat as torch

    rng = np.random.default_rng(7)
    xn = rng.standard_normal((2, 3, size, size)).astype(np.float32)
    conv = torch.nn.Conv2d(3, o, 3, padding=1)
    x = torch.from_numpy(xn).requires_grad_()
    y = conv(x)
    assert y.is_contiguous() and y.grad_fn is not None
    (y ** 2).sum().backward()
    w, b = fnp.asarray(conv.weight.detach().numpy()), fnp.asarray(conv.bias.detach().numpy())
    gx, gw, gb = fg.grad(lambda x, w, b: fnp.sum(F.conv2d(x, w, b, padding=1) ** 2), (0, 1, 2))(
        fnp.asarray(xn), w, b)
    np.testing.assert_array_equal(y.detach().numpy(), np.asarray(F.conv2d(fnp.asarray(xn), w, b, padding=1)))
    np.testing.assert_array_equal(x.grad.numpy(), np.asarray(gx))
    np.testing.assert_array_equal(conv.weight.grad.numpy(), np.asarray(gw))
    np.testing.assert_array_equal(conv.bias.grad.numpy(), np.asarray(gb))
