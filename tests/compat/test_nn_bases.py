"""nn.Buffer, nn.RNNBase / nn.RNNCellBase, nn.NLLLoss2d."""

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import nn


def test_buffer_registers_on_assignment():
    data = torch.ones(2)
    b = nn.Buffer(data)
    assert type(b) is torch.Tensor and isinstance(b, nn.Buffer) and not isinstance(data, nn.Buffer)
    b[0] = 5.0
    assert float(data[0]) == 5.0  # shares storage
    m = nn.Module()
    m.x = nn.Buffer(torch.ones(2), persistent=False)
    m.y = nn.Buffer(torch.zeros(1))
    assert [n for n, _ in m.named_buffers()] == ["x", "y"]
    assert list(m.state_dict()) == ["y"]
    with pytest.raises(TypeError, match="data must be a Tensor"):
        nn.Buffer([1.0])


def test_rnn_bases():
    lstm = nn.RNNBase("LSTM", 3, 4, num_layers=2)
    assert isinstance(nn.GRU(3, 4), nn.RNNBase) and isinstance(nn.LSTM(3, 4), nn.RNNBase)
    x = torch.randn(5, 2, 3)
    out, (h, c) = lstm(x)
    assert tuple(out.shape) == (5, 2, 4) and tuple(h.shape) == (2, 2, 4)
    ref = nn.LSTM(3, 4, num_layers=2)
    ref.load_state_dict(lstm.state_dict())
    np.testing.assert_allclose(ref(x)[0].detach().numpy(), out.detach().numpy())
    assert isinstance(nn.LSTMCell(3, 4), nn.RNNCellBase) and isinstance(nn.RNNCell(3, 4), nn.RNNCellBase)
    assert tuple(nn.RNNCellBase(3, 4, True, 3).weight_ih.shape) == (12, 3)
    with pytest.raises(ValueError, match="Unrecognized RNN mode"):
        nn.RNNBase("XYZ", 3, 4)
    with pytest.raises(ValueError, match="num_chunks must be 1, 3 or 4"):
        nn.RNNCellBase(3, 4, True, 2)


def test_nllloss2d_is_nllloss_with_a_warning():
    x = torch.randn(2, 3, 4, 4).log_softmax(1)
    t = torch.randint(0, 3, (2, 4, 4))
    with pytest.warns(FutureWarning, match="NLLLoss2d"):
        loss = nn.NLLLoss2d()
    np.testing.assert_allclose(loss(x, t).numpy(), nn.NLLLoss()(x, t).numpy())
