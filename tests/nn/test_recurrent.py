"""funcgrad.nn recurrent layers: cells against funcgrad.compat's PyTorch-layout cells, sequence layers
against a Python loop over the cell, grads through the scan, jit, batch_first, errors."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.compat as torch
import funcgrad.numpy as fnp
from funcgrad import nn


def _copy_to_compat(cell, ref):
    with torch.no_grad():
        for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(ref, name).copy_(torch.tensor(np.asarray(getattr(cell, name))))


@pytest.mark.parametrize("cls, ref_cls", [(nn.RNNCell, torch.nn.RNNCell), (nn.LSTMCell, torch.nn.LSTMCell),
                                          (nn.GRUCell, torch.nn.GRUCell)])
def test_cells_match_pytorch_layout(cls, ref_cls):
    cell = cls(3, 4, key=fg.random.key(0))
    ref = ref_cls(3, 4, dtype=torch.float64)
    _copy_to_compat(cell, ref)
    x = np.random.default_rng(0).normal(size=(2, 3))
    h = np.random.default_rng(1).normal(size=(2, 4))
    if cls is nn.LSTMCell:
        got = cell(fnp.asarray(x), (fnp.asarray(h), fnp.asarray(h * 0.5)))
        want = ref(torch.tensor(x), (torch.tensor(h), torch.tensor(h * 0.5)))
        for a, b in zip(got, want):
            np.testing.assert_allclose(a, b.detach().numpy(), rtol=1e-12)
    else:
        np.testing.assert_allclose(cell(fnp.asarray(x), fnp.asarray(h)),
                                   ref(torch.tensor(x), torch.tensor(h)).detach().numpy(), rtol=1e-12)


@pytest.mark.parametrize("cls", [nn.RNN, nn.LSTM, nn.GRU])
def test_sequence_layers_match_a_python_loop_and_differentiate(cls):
    layer = cls(3, 4, key=fg.random.key(1))
    xs = fnp.asarray(np.random.default_rng(2).normal(size=(6, 2, 3)))

    def loop(layer, xs):
        s = layer.cell.initial_state((2,), xs.dtype)
        outs = []
        for x in xs:
            s = layer.cell(x, s)
            outs.append(s[0] if isinstance(s, tuple) else s)
        return fnp.stack(outs), s

    out, state = layer(xs)
    ref_out, ref_state = loop(layer, xs)
    np.testing.assert_allclose(out, ref_out, rtol=1e-12)
    loss = lambda m, xs: fnp.sum(m(xs)[0] ** 2)  # noqa: E731
    g = fg.grad(loss)(layer, xs)
    g_ref = fg.grad(lambda m, xs: fnp.sum(loop(m, xs)[0] ** 2))(layer, xs)
    for a, b in zip(fg.tree.tree_leaves(g), fg.tree.tree_leaves(g_ref)):
        np.testing.assert_allclose(a, b, rtol=1e-10)
    jg = fg.jit(fg.grad(loss))
    for a, b in zip(fg.tree.tree_leaves(jg(layer, xs)), fg.tree.tree_leaves(g_ref)):
        np.testing.assert_allclose(a, b, rtol=1e-10)
    bf = cls(3, 4, batch_first=True, key=fg.random.key(1))
    np.testing.assert_allclose(bf(fnp.swapaxes(xs, 0, 1))[0], fnp.swapaxes(out, 0, 1), rtol=1e-12)


def test_unbatched_empty_sequence_and_errors():
    layer = nn.LSTM(3, 2, key=fg.random.key(0))
    out, (h, c) = layer(fnp.zeros((0, 3)))
    assert out.shape == (0, 2) and h.tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match=r"expected xs of shape \(T, input\)"):
        layer(fnp.zeros(3))
    with pytest.raises(TypeError, match="key="):
        nn.GRUCell(3, 2)
    with pytest.raises(ValueError, match="nonlinearity"):
        nn.RNNCell(3, 2, nonlinearity="sigmoid", key=fg.random.key(0))
