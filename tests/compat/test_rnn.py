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


@pytest.mark.parametrize("mode", ["LSTM", "GRU", "RNN"])
def test_packed_sequences_equal_each_sequence_alone(mode):
    from funcgrad.compat.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence  # noqa: PLC0415

    torch.manual_seed(0)
    x = torch.randn(3, 4, 2, dtype=torch.float64, requires_grad=True)
    lengths = torch.tensor([2, 4, 1])
    packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
    assert packed.batch_sizes.tolist() == [3, 2, 1, 1] and packed.sorted_indices.tolist() == [1, 0, 2]
    rnn = getattr(nn, mode)(2, 3, num_layers=2, batch_first=True, bidirectional=True).double()
    out, h = rnn(packed)
    assert type(out).__name__ == "PackedSequence" and tuple(out.data.shape) == (7, 6)
    padded, lens = pad_packed_sequence(out, batch_first=True)
    assert lens.tolist() == [2, 4, 1] and (padded[2, 1:] == 0).all()
    h_n = h[0] if mode == "LSTM" else h
    for b in range(3):  # the batch order is the caller's again
        alone, h1 = rnn(x[b:b + 1, :lengths[b]])
        np.testing.assert_allclose(padded[b, :lengths[b]].detach().numpy(), alone[0].detach().numpy(), rtol=1e-12)
        h1 = h1[0] if mode == "LSTM" else h1
        np.testing.assert_allclose(h_n[:, b].detach().numpy(), h1[:, 0].detach().numpy(), rtol=1e-12)
    padded.sum().backward()
    assert (x.grad[0, 2:] == 0).all() and (x.grad[0, :2] != 0).all()  # padding gets no gradient


def test_pack_and_pad_utilities():
    from funcgrad.compat.nn.utils.rnn import (  # noqa: PLC0415
        pack_padded_sequence, pack_sequence, pad_packed_sequence,
    )

    p = pack_sequence([torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, 5.0])])
    assert p.data.tolist() == [1.0, 4.0, 2.0, 5.0, 3.0] and p.batch_sizes.tolist() == [2, 2, 1]
    padded, lens = pad_packed_sequence(p, padding_value=-1.0, total_length=5)
    assert padded.shape == (5, 2) and padded[:, 1].tolist() == [4.0, 5.0, -1.0, -1.0, -1.0]
    with pytest.raises(RuntimeError, match="sorted in decreasing order"):
        pack_padded_sequence(torch.ones(3, 2), [1, 3])
    with pytest.raises(RuntimeError, match="greater than 0"):
        pack_padded_sequence(torch.ones(3, 2), [3, 0])
    with pytest.raises(ValueError, match="total_length"):
        pad_packed_sequence(p, total_length=2)
    h0 = torch.zeros(1, 2, 4)
    out, h = nn.GRU(1, 4)(pack_sequence([torch.ones(1, 1), torch.ones(3, 1)], enforce_sorted=False), h0)
    assert h.shape == (1, 2, 4) and out.unsorted_indices.tolist() == [1, 0]
