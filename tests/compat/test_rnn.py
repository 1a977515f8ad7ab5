"""RNN / LSTM / GRU and their cells: PyTorch's equations (numpy reference), layouts and names."""

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import nn


def _sig(v):
    return 1 / (1 + np.exp(-v))


def _np(p):
    return p.detach().numpy().astype(np.float64)


def _lstm_ref(x, w_ih, w_hh, b_ih, b_hh, reverse=False):
    steps, batch = x.shape[:2]
    hs = w_hh.shape[1]
    h = np.zeros((batch, hs))
    c = np.zeros((batch, hs))
    out = [None] * steps
    for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
        i, f, g, o = np.split(x[t] @ w_ih.T + b_ih + h @ w_hh.T + b_hh, 4, axis=-1)
        c = _sig(f) * c + _sig(i) * np.tanh(g)
        h = _sig(o) * np.tanh(c)
        out[t] = h
    return np.stack(out), h, c


def _gru_ref(x, h, w_ih, w_hh, b_ih, b_hh):
    xr, xz, xn = np.split(x @ w_ih.T + b_ih, 3, axis=-1)
    hr, hz, hn = np.split(h @ w_hh.T + b_hh, 3, axis=-1)
    r, z = _sig(xr + hr), _sig(xz + hz)
    return (1 - z) * np.tanh(xn + r * hn) + z * h


def test_bidirectional_lstm_matches_the_equations():
    torch.manual_seed(0)
    m = nn.LSTM(3, 4, bidirectional=True).double()
    x = np.random.default_rng(0).standard_normal((5, 2, 3))
    out, (h_n, c_n) = m(torch.tensor(x))
    fwd = _lstm_ref(x, *(_np(getattr(m, f"{n}_l0")) for n in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")))
    bwd = _lstm_ref(x, *(_np(getattr(m, f"{n}_l0_reverse")) for n in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")),
                    reverse=True)
    np.testing.assert_allclose(out.detach().numpy(), np.concatenate([fwd[0], bwd[0]], -1), rtol=1e-10)
    np.testing.assert_allclose(h_n.detach().numpy(), np.stack([fwd[1], bwd[1]]), rtol=1e-10)
    np.testing.assert_allclose(c_n.detach().numpy(), np.stack([fwd[2], bwd[2]]), rtol=1e-10)
    assert [n for n, _ in m.named_parameters()][:4] == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"]
    assert tuple(m.weight_ih_l0.shape) == (16, 3)


def test_gru_cell_and_batch_first_gru():
    torch.manual_seed(1)
    cell = nn.GRUCell(3, 4).double()
    x = np.random.default_rng(1).standard_normal((2, 3))
    h = np.random.default_rng(2).standard_normal((2, 4))
    got = cell(torch.tensor(x), torch.tensor(h)).detach().numpy()
    want = _gru_ref(x, h, _np(cell.weight_ih), _np(cell.weight_hh), _np(cell.bias_ih), _np(cell.bias_hh))
    np.testing.assert_allclose(got, want, rtol=1e-10)
    gru = nn.GRU(3, 5, num_layers=2, batch_first=True)
    out, h_n = gru(torch.randn(2, 7, 3))
    assert tuple(out.shape) == (2, 7, 5) and tuple(h_n.shape) == (2, 2, 5)
    assert repr(gru) == "GRU(3, 5, num_layers=2, batch_first=True)"


def test_unbatched_input_and_errors():
    rnn = nn.RNN(3, 4, nonlinearity="relu")
    out, h = rnn(torch.randn(6, 3))
    assert tuple(out.shape) == (6, 4) and tuple(h.shape) == (1, 4)
    with pytest.raises(RuntimeError, match="input_size"):
        rnn(torch.randn(6, 2, 5))
    with pytest.raises(RuntimeError, match="Expected hidden size"):
        rnn(torch.randn(6, 2, 3), torch.zeros(2, 2, 4))
    with pytest.raises(ValueError, match="nonlinearity"):
        nn.RNN(3, 4, nonlinearity="sigmoid")


def test_flatten_parameters_and_all_weights():
    lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    x = torch.randn(5, 2, 3)
    before = lstm(x)[0]
    assert lstm.flatten_parameters() is None  # word_language_model calls it after torch.load
    assert torch.equal(lstm(x)[0], before)
    w = lstm.all_weights
    assert len(w) == 4 and all(len(ws) == 4 for ws in w)
    assert w[1][0] is lstm.weight_ih_l0_reverse and w[2][3] is lstm.bias_hh_l1
    assert [len(ws) for ws in nn.GRU(3, 4, bias=False).all_weights] == [2]


def test_an_lstm_learns_to_predict_a_sine():
    torch.manual_seed(0)
    t = np.linspace(0, 8 * np.pi, 201)
    seq = torch.tensor(np.sin(t), dtype=torch.float32).view(-1, 1, 1)
    model = nn.LSTM(1, 16)
    head = nn.Linear(16, 1)
    opt = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), lr=0.02)
    losses = []
    for _ in range(60):
        opt.zero_grad()
        out, _ = model(seq[:-1])
        loss = nn.functional.mse_loss(head(out), seq[1:])
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.1 * losses[0]
