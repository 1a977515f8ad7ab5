"""MultiheadAttention and TransformerEncoder(Layer): PyTorch's equations (numpy reference),
parameter names, masks, and training."""

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import nn


def _np(p):
    return p.detach().numpy().astype(np.float64)


def _softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _mha_ref(m, q, k, v, add_mask=None):
    e, h = m.embed_dim, m.num_heads
    hd = e // h
    w, b = _np(m.in_proj_weight), _np(m.in_proj_bias)
    Q, K, V = (x @ w[i * e:(i + 1) * e].T + b[i * e:(i + 1) * e] for i, x in enumerate((q, k, v)))
    L, N, _ = q.shape
    S = k.shape[0]
    outs, weights = np.zeros((L, N, e)), np.zeros((N, h, L, S))
    for n in range(N):
        for j in range(h):
            sl = slice(j * hd, (j + 1) * hd)
            s = Q[:, n, sl] @ K[:, n, sl].T / np.sqrt(hd)
            if add_mask is not None:
                s = s + add_mask
            a = _softmax(s)
            weights[n, j] = a
            outs[:, n, sl] = a @ V[:, n, sl]
    return outs @ _np(m.out_proj.weight).T + _np(m.out_proj.bias), weights.mean(1)


def test_multihead_attention_matches_the_equations_with_a_causal_mask():
    torch.manual_seed(0)
    m = nn.MultiheadAttention(8, 2).double()
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((5, 3, 8)), rng.standard_normal((4, 3, 8))
    causal = np.triu(np.ones((5, 4), bool), 1)
    out, w = m(torch.tensor(q), torch.tensor(k), torch.tensor(k), attn_mask=torch.tensor(causal))
    want, want_w = _mha_ref(m, q, k, k, np.where(causal, -np.inf, 0.0))
    np.testing.assert_allclose(out.detach().numpy(), want, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(w.detach().numpy(), want_w, rtol=1e-10, atol=1e-12)
    assert list(m.state_dict()) == ["in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"]


def test_key_padding_mask_ignores_padded_keys():
    torch.manual_seed(1)
    m = nn.MultiheadAttention(4, 1, batch_first=True)
    x = torch.randn(2, 3, 4)
    pad = torch.tensor([[False, False, True], [False, False, False]])
    _, w = m(x, x, x, key_padding_mask=pad)
    assert np.allclose(w.detach().numpy()[0, :, 2], 0.0)
    changed = x.clone()
    changed[0, 2] = 100.0  # a padded key: no effect on sample 0's outputs for its other queries
    out1, _ = m(x, x, x, key_padding_mask=pad)
    out2, _ = m(changed, changed, changed, key_padding_mask=pad)
    assert np.allclose(out1.detach().numpy()[0, :2], out2.detach().numpy()[0, :2])


def test_encoder_layout_names_and_training():
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True)
    enc = nn.TransformerEncoder(layer, 2)
    names = list(enc.state_dict())
    assert names[0] == "layers.0.self_attn.in_proj_weight" and "layers.1.norm2.bias" in names
    assert enc.layers[0].linear1.weight is not enc.layers[1].linear1.weight
    head = nn.Linear(8, 1)
    x = torch.randn(16, 5, 8)
    y = x.sum(dim=(1, 2)).unsqueeze(1) * 0.1
    opt = torch.optim.Adam(list(enc.parameters()) + list(head.parameters()), lr=0.01)
    losses = []
    for _ in range(40):
        opt.zero_grad()
        loss = nn.functional.mse_loss(head(enc(x).mean(dim=1)), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.3 * losses[0]


def test_errors():
    with pytest.raises(AssertionError, match="divisible"):
        nn.MultiheadAttention(6, 4)
    with pytest.raises(RuntimeError, match="relu/gelu"):
        nn.TransformerEncoderLayer(8, 2, activation="swish")


def test_decoder_layer_uses_memory_and_masks_and_names():
    torch.manual_seed(0)
    layer = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, dropout=0.0)
    assert [n for n in layer.state_dict()][:2] == ["self_attn.in_proj_weight", "self_attn.in_proj_bias"]
    assert "multihead_attn.out_proj.weight" in layer.state_dict() and "norm3.bias" in layer.state_dict()
    tgt, mem = torch.randn(4, 2, 8), torch.randn(5, 2, 8)
    mask = nn.Transformer.generate_square_subsequent_mask(4)
    assert np.array_equal(np.isinf(mask.numpy()), np.triu(np.ones((4, 4), bool), 1))
    out = layer(tgt, mem, tgt_mask=mask)
    # causal: changing a later target position leaves the earlier outputs unchanged
    changed = tgt.clone()
    changed[3] = 5.0
    out2 = layer(changed, mem, tgt_mask=mask)
    assert np.allclose(out.detach().numpy()[:3], out2.detach().numpy()[:3], atol=1e-6)
    assert not np.allclose(out.detach().numpy()[3], out2.detach().numpy()[3])
    # and the memory matters
    assert not np.allclose(out.detach().numpy(), layer(tgt, mem * 2, tgt_mask=mask).detach().numpy())


def test_transformer_learns_to_copy():
    torch.manual_seed(0)
    model = nn.Transformer(16, 2, 1, 1, 32, dropout=0.0, batch_first=True)
    src = torch.randn(8, 5, 16)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    losses = []
    for _ in range(30):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(src, src), src)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.3 * losses[0]
