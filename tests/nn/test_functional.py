"""nn.functional against hand-written numpy references and finite differences."""

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given

import funcgrad as fg
import funcgrad.nn.functional as F
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads


def ref_conv2d(x, w, b, stride, pad, dil, groups):
    """Direct definition: out[n,o,i,j] = sum_{c,p,q} xpad[n, c, i*s + p*d, j*s + q*d] w[o, c, p, q]."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - dil * (kh - 1) - 1) // stride + 1
    ow = (wd + 2 * pad - dil * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, o, oh, ow))
    og = o // groups
    for oc in range(o):
        g = oc // og
        for p in range(kh):
            for q in range(kw):
                patch = xp[:, g * cg:(g + 1) * cg, p * dil:p * dil + stride * (oh - 1) + 1:stride,
                           q * dil:q * dil + stride * (ow - 1) + 1:stride]
                out[:, oc] += np.einsum("nchw,c->nhw", patch, w[oc, :, p, q])
    return out + b[None, :, None, None]


@st.composite
def conv_case(draw):
    g = draw(st.integers(1, 2))
    c, o = g * draw(st.integers(1, 2)), g * draw(st.integers(1, 2))
    k = draw(st.integers(1, 3))
    s, d, p = draw(st.integers(1, 2)), draw(st.integers(1, 2)), draw(st.integers(0, 1))
    h = d * (k - 1) + 1 + draw(st.integers(0, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    return (rng.standard_normal((2, c, h, h + 1)), rng.standard_normal((o, c // g, k, k)),
            rng.standard_normal(o), s, p, d, g)


@given(conv_case())
def test_conv2d_matches_direct_definition_and_finite_differences(case):
    x, w, b, s, p, d, g = case
    y = F.conv2d(fnp.asarray(x), fnp.asarray(w), fnp.asarray(b), s, p, d, g)
    np.testing.assert_allclose(np.asarray(y), ref_conv2d(x, w, b, s, p, d, g), rtol=1e-10, atol=1e-10)
    check_grads(lambda x, w: F.conv2d(x, w, None, s, p, d, g), (fnp.asarray(x), fnp.asarray(w)), order=1)


def test_conv_transpose2d_is_the_input_gradient_of_conv2d():
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((2, 4, 7, 6)), rng.standard_normal((6, 2, 3, 3))
    for s, p, d in [(1, 0, 1), (2, 1, 1), (2, 1, 2)]:
        y = F.conv2d(fnp.asarray(x), fnp.asarray(w), None, s, p, d, 2)
        gy = rng.standard_normal(y.shape)
        _, vjp = fg.vjp(lambda v: F.conv2d(v, fnp.asarray(w), None, s, p, d, 2), fnp.asarray(x))
        (gx,) = vjp(fnp.asarray(gy))
        op = x.shape[2] - ((y.shape[2] - 1) * s - 2 * p + d * 2 + 1)
        opw = x.shape[3] - ((y.shape[3] - 1) * s - 2 * p + d * 2 + 1)
        assert op == opw or True
        t = F.conv_transpose2d(fnp.asarray(gy), fnp.asarray(w), None, s, p, (op, opw), 2, d)
        np.testing.assert_allclose(np.asarray(t), np.asarray(gx), rtol=1e-10, atol=1e-10)


def test_pools_against_numpy():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3, 6, 8))
    win = x.reshape(2, 3, 3, 2, 4, 2)
    np.testing.assert_array_equal(np.asarray(F.max_pool2d(fnp.asarray(x), 2)), win.max(axis=(3, 5)))
    np.testing.assert_allclose(np.asarray(F.avg_pool2d(fnp.asarray(x), 2)), win.mean(axis=(3, 5)))
    # count_include_pad=False at the border divides by the real element count
    y = np.asarray(F.avg_pool2d(fnp.asarray(x), 3, 1, 1, count_include_pad=False))
    np.testing.assert_allclose(y[..., 0, 0], x[..., :2, :2].mean(axis=(-2, -1)))
    np.testing.assert_allclose(np.asarray(F.adaptive_avg_pool2d(fnp.asarray(x), (1, 1)))[..., 0, 0],
                               x.mean(axis=(-2, -1)))
    with pytest.raises(ValueError, match="half of effective kernel"):
        F.max_pool2d(fnp.asarray(x), 2, 2, 2)


def test_log_softmax_and_cross_entropy_finite_for_huge_logits():
    z = fnp.asarray([[1e4, -1e4, 0.0], [3.0, 2.0, 1e4]])
    ls = np.asarray(F.log_softmax(z))
    assert np.isfinite(ls).all()
    np.testing.assert_allclose(ls[0], [0.0, -2e4, -1e4])
    y = fnp.asarray([1, 2])
    loss = F.cross_entropy(z, y)
    g = fg.grad(lambda z: F.cross_entropy(z, y))(z)
    assert float(loss) == 1e4 and np.isfinite(np.asarray(g)).all()
    np.testing.assert_allclose(np.asarray(g), [[0.5, -0.5, 0.0], [0.0, 0.0, 0.0]])


def _np_log_softmax(x, axis):
    m = x.max(axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis, keepdims=True))


def test_cross_entropy_reference_weights_ignore_smoothing():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((5, 4))
    t = np.array([0, 3, -100, 2, 3])
    w = rng.random(4) + 0.5
    lp = _np_log_softmax(x, 1)
    keep = t != -100
    tt = np.where(keep, t, 0)
    nll = -lp[np.arange(5), tt] * w[tt] * keep
    ref = nll.sum() / (w[tt] * keep).sum()
    got = F.cross_entropy(fnp.asarray(x), fnp.asarray(t), weight=fnp.asarray(w))
    np.testing.assert_allclose(float(got), ref)
    eps = 0.2
    smooth = (-(lp * w).sum(1) * keep).sum() / (w[tt] * keep).sum()
    ref_ls = (1 - eps) * ref + eps / 4 * smooth
    got = F.cross_entropy(fnp.asarray(x), fnp.asarray(t), weight=fnp.asarray(w), label_smoothing=eps)
    np.testing.assert_allclose(float(got), ref_ls)
    check_grads(lambda x: F.cross_entropy(x, fnp.asarray(t), weight=fnp.asarray(w), label_smoothing=eps),
                (fnp.asarray(x),), order=2)
    with pytest.raises(IndexError, match="out of bounds"):
        F.cross_entropy(fnp.asarray(x), fnp.asarray([0, 1, 2, 3, 4]))


@pytest.mark.parametrize("name", ["relu", "leaky_relu", "elu", "silu", "sigmoid", "softplus", "tanh", "log_sigmoid"])
def test_activations_reference_and_grads(name):
    x = np.array([-50.0, -2.0, -0.3, 0.4, 1.5, 30.0])
    sig = 1 / (1 + np.exp(-x))
    ref = {"relu": np.maximum(x, 0), "leaky_relu": np.where(x > 0, x, 0.01 * x),
           "elu": np.where(x > 0, x, np.expm1(x)), "silu": x * sig, "sigmoid": sig,
           "softplus": np.where(x > 20, x, np.log1p(np.exp(x))), "tanh": np.tanh(x),
           "log_sigmoid": -np.log1p(np.exp(-x))}[name]
    np.testing.assert_allclose(np.asarray(getattr(F, name)(fnp.asarray(x))), ref, rtol=1e-12, atol=1e-300)
    check_grads(getattr(F, name), (fnp.asarray(x[1:-1]),), order=2)
    big = fnp.asarray([-1e4, 1e4])
    assert np.isfinite(np.asarray(fg.grad(lambda v: fnp.sum(getattr(F, name)(v)))(big))).all()


def test_losses_against_numpy():
    rng = np.random.default_rng(3)
    a, b = rng.random(6) * 0.98 + 0.01, rng.random(6)
    z = rng.standard_normal(6) * 5
    pw = rng.random(6) + 0.5
    cases = [
        (F.mse_loss(fnp.asarray(a), fnp.asarray(b)), ((a - b) ** 2).mean()),
        (F.l1_loss(fnp.asarray(a), fnp.asarray(b), reduction="sum"), np.abs(a - b).sum()),
        (F.smooth_l1_loss(fnp.asarray(z), fnp.asarray(b), beta=0.5),
         np.where(np.abs(z - b) < 0.5, 0.5 * (z - b) ** 2 / 0.5, np.abs(z - b) - 0.25).mean()),
        (F.binary_cross_entropy(fnp.asarray(a), fnp.asarray(b)),
         -(b * np.log(a) + (1 - b) * np.log(1 - a)).mean()),
        (F.binary_cross_entropy_with_logits(fnp.asarray(z), fnp.asarray(b), pos_weight=fnp.asarray(pw)),
         -(pw * b * np.log(1 / (1 + np.exp(-z))) + (1 - b) * np.log(1 - 1 / (1 + np.exp(-z)))).mean()),
        (F.kl_div(fnp.asarray(np.log(a)), fnp.asarray(b), reduction="sum"), (b * (np.log(b) - np.log(a))).sum()),
    ]
    for got, ref in cases:
        np.testing.assert_allclose(float(got), ref, rtol=1e-10)
    assert float(F.binary_cross_entropy(fnp.asarray([0.0]), fnp.asarray([1.0]))) == 100.0
    check_grads(lambda z: F.binary_cross_entropy_with_logits(z, fnp.asarray(b), pos_weight=fnp.asarray(pw)),
                (fnp.asarray(z),), order=2)
    with pytest.raises(ValueError, match="reduction"):
        F.mse_loss(fnp.asarray(a), fnp.asarray(b), reduction="avg")


def test_norms_against_numpy_and_grads():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((4, 3, 5))
    rm, rv = np.zeros(3), np.ones(3)
    y, m, v = F.batch_norm(fnp.asarray(x), fnp.asarray(rm), fnp.asarray(rv), training=True, momentum=0.1)
    mu, var = x.mean((0, 2)), x.var((0, 2))
    np.testing.assert_allclose(np.asarray(y), (x - mu[:, None]) / np.sqrt(var[:, None] + 1e-5), rtol=1e-10)
    np.testing.assert_allclose(np.asarray(m), 0.1 * mu)
    np.testing.assert_allclose(np.asarray(v), 0.9 + 0.1 * x.var((0, 2), ddof=1))
    ln = np.asarray(F.layer_norm(fnp.asarray(x), (5,)))
    np.testing.assert_allclose(ln, (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5))
    check_grads(lambda x: F.batch_norm(x, training=True)[0], (fnp.asarray(x),), order=2)
    check_grads(lambda x: F.group_norm(x, 1), (fnp.asarray(x[:, :2]),), order=1)


def test_dropout_embedding_one_hot():
    x = fnp.ones((1000,))
    k = fg.random.key(0)
    y = np.asarray(F.dropout(x, 0.25, k))
    assert set(np.unique(y)) <= {0.0, 1 / 0.75} and abs((y == 0).mean() - 0.25) < 0.05
    assert F.dropout(x, 0.5, None, training=False) is x
    with pytest.raises(ValueError, match="key"):
        F.dropout(x, 0.5)
    w = fnp.arange(12.0).reshape(4, 3)
    ids = fnp.asarray([[0, 2], [2, 3]])
    np.testing.assert_array_equal(np.asarray(F.embedding(ids, w)), np.arange(12.0).reshape(4, 3)[[[0, 2], [2, 3]]])
    g = fg.grad(lambda w: fnp.sum(F.embedding(ids, w, padding_idx=2)))(w)
    np.testing.assert_array_equal(np.asarray(g)[:, 0], [1, 0, 0, 1])
    np.testing.assert_array_equal(np.asarray(F.one_hot(fnp.asarray([2, 0]), 3)), [[0, 0, 1], [1, 0, 0]])


def test_max_pool_gradient_goes_to_first_maximum_as_pytorch():
    # a window of tied zeros (after relu) sends its whole gradient to its first element
    x = fnp.asarray(np.array([[[[0.0, 0.0, 2.0, 2.0], [0.0, 0.0, 1.0, 2.0]]]]))
    g = np.asarray(fg.grad(lambda v: fnp.sum(F.max_pool2d(v, 2)))(x))
    np.testing.assert_array_equal(g, [[[[1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]]]])
    _, t = fg.jvp(lambda v: F.max_pool2d(v, 2), (x,), (fnp.asarray(np.arange(8.0).reshape(1, 1, 2, 4)),))
    np.testing.assert_array_equal(np.asarray(t), [[[[0.0, 2.0]]]])
    with pytest.raises(TypeError, match="floating-point"):
        F.max_pool2d(fnp.asarray(np.ones((1, 1, 2, 2), dtype=np.int64)), 2)


def test_layers_run_on_the_standin_backend(device):
    rng = np.random.default_rng(0)
    x = fnp.asarray(rng.standard_normal((2, 3, 6, 6)))
    w = fnp.asarray(rng.standard_normal((4, 3, 3, 3)))
    def f(x, w):
        y = F.max_pool2d(F.relu(F.conv2d(x, w, None, 1, "same")), 2)
        y = F.avg_pool2d(y, 3, 1, 1, count_include_pad=False)
        z = F.conv_transpose2d(y, fnp.ones((4, 2, 2, 2)), stride=2)
        return F.cross_entropy(fnp.reshape(z, (2, -1)), fnp.asarray([1, 3]), label_smoothing=0.1)
    loss, (gx, gw) = fg.value_and_grad(f, (0, 1))(x, w)
    assert str(gx.device).startswith(device) and np.isfinite(float(loss))
    assert gw.shape == (4, 3, 3, 3)


def test_vmap_of_layers_and_per_example_gradients():
    rng = np.random.default_rng(5)
    xs = fnp.asarray(rng.standard_normal((3, 2, 2, 6, 6)))
    w = fnp.asarray(rng.standard_normal((4, 2, 3, 3)))

    def f(x, w):
        y = F.max_pool2d(F.conv2d(x, w, None, 1, 1), 2, ceil_mode=True)
        z = F.conv_transpose2d(y, fnp.ones((4, 1, 2, 2)), stride=2)
        return F.linear(fnp.reshape(z, (2, -1)), fnp.ones((3, z.size // 2)))

    batched = fg.vmap(f, in_axes=(0, None))(xs, w)
    looped = np.stack([np.asarray(f(xs[i], w)) for i in range(3)])
    np.testing.assert_allclose(np.asarray(batched), looped, rtol=1e-12)
    # per-example weight gradients, and a batch of weights for dense
    per_ex = fg.vmap(fg.grad(lambda w, x: fnp.sum(f(x, w) ** 2)), in_axes=(None, 0))(w, xs)
    for i in range(3):
        np.testing.assert_allclose(np.asarray(per_ex[i]),
                                   np.asarray(fg.grad(lambda w: fnp.sum(f(xs[i], w) ** 2))(w)), rtol=1e-10)
    ws = fnp.asarray(rng.standard_normal((3, 5, 4)))
    x = fnp.asarray(rng.standard_normal((2, 4)))
    out = fg.vmap(F.linear, in_axes=(None, 0))(x, ws)
    np.testing.assert_allclose(np.asarray(out), np.einsum("nk,bok->bno", np.asarray(x), np.asarray(ws)))


def test_conv_errors_name_the_call_and_shapes():
    w = fnp.ones((4, 3, 3, 3))
    with pytest.raises(ValueError, match=r"conv2d: the kernel \(3, 3\).*larger than the input \(2, 2\)"):
        F.conv2d(fnp.zeros((1, 3, 2, 2)), w)
    with pytest.raises(ValueError, match="conv2d: input .* has 2 channels"):
        F.conv2d(fnp.zeros((1, 2, 5, 5)), w)
    with pytest.raises(ValueError, match="strided"):
        F.conv2d(fnp.zeros((1, 3, 5, 5)), w, stride=2, padding="same")
    with pytest.raises(ValueError, match="4-d"):
        F.conv2d(fnp.zeros((5, 5)), w)
    assert F.conv2d(fnp.zeros((0, 3, 5, 5)), w).shape == (0, 4, 3, 3)
    assert F.conv2d(fnp.zeros((3, 5, 5)), w).shape == (4, 3, 3)  # unbatched input


def test_gelu():
    import math

    x = np.array([-3.0, -0.5, 0.0, 0.7, 2.5])
    c = math.sqrt(2 / math.pi)
    ref_tanh = 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x**3)))
    np.testing.assert_allclose(np.asarray(F.gelu(fnp.asarray(x), approximate="tanh")), ref_tanh, rtol=1e-12)
    check_grads(lambda v: F.gelu(v, approximate="tanh"), (fnp.asarray(x),), order=2)
    ref = 0.5 * x * (1 + np.array([math.erf(v / math.sqrt(2)) for v in x]))
    np.testing.assert_allclose(np.asarray(F.gelu(fnp.asarray(x))), ref, rtol=1e-12)
    check_grads(F.gelu, (fnp.asarray(x),), order=2)
    with pytest.raises(ValueError, match="approximate"):
        F.gelu(fnp.asarray(x), approximate="fast")
