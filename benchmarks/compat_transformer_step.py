"""A small transformer encoder training step through funcgrad.compat, against PyTorch (CPU, one
thread) when installed: the issue-11 measurement (wall time ratio, same interleaved rounds).

Model: 2 TransformerEncoderLayers (d_model 64, 4 heads, feed-forward 128, batch_first), a linear
head on the mean over the sequence, MSE loss, Adam; batch 32, sequence length 16. Both models
start from the same parameters, and their first step's loss is checked to agree.
"""

from __future__ import annotations

import numpy as np

from ._harness import compare, optional, print_table


def _build(torch_mod):
    torch_mod.manual_seed(0)
    layer = torch_mod.nn.TransformerEncoderLayer(64, 4, dim_feedforward=128, dropout=0.0, batch_first=True)
    enc = torch_mod.nn.TransformerEncoder(layer, 2, **({"enable_nested_tensor": False}))
    head = torch_mod.nn.Linear(64, 1)
    return enc, head


def _step_fn(torch_mod, enc, head, x, y):
    opt = torch_mod.optim.Adam(list(enc.parameters()) + list(head.parameters()), lr=1e-3)

    def step():
        opt.zero_grad()
        loss = torch_mod.nn.functional.mse_loss(head(enc(x).mean(dim=1)), y)
        loss.backward()
        opt.step()
        return loss

    return step


def run(rounds=10):
    import funcgrad.compat as ft

    rng = np.random.default_rng(0)
    xn = rng.standard_normal((32, 16, 64)).astype(np.float32)
    yn = rng.standard_normal((32, 1)).astype(np.float32)
    enc, head = _build(ft)
    fstep = _step_fn(ft, enc, head, ft.from_numpy(xn), ft.from_numpy(yn))
    torch = optional("torch")
    if torch is None:
        res = compare(fstep, {}, rounds=rounds, repeat=2)
        print_table("compat_transformer_step (torch not installed: no comparison)",
                    [("funcgrad.compat", f"{res['reference_s'] * 1e3:.2f}")], ["", "ms/step"])
        return res
    torch.set_num_threads(1)
    tenc, thead = _build(torch)
    state = {k: v.detach().numpy().copy() for k, v in list(tenc.state_dict().items())}
    enc.load_state_dict({k: ft.from_numpy(v.copy()) for k, v in state.items()})
    head.load_state_dict({k: ft.from_numpy(v.detach().numpy().copy()) for k, v in thead.state_dict().items()})
    tstep = _step_fn(torch, tenc, thead, torch.from_numpy(xn), torch.from_numpy(yn))
    np.testing.assert_allclose(float(fstep().item()), float(tstep().item()), rtol=1e-4)
    res = compare(tstep, {"funcgrad.compat": fstep}, rounds=rounds, repeat=2)
    rows = [("torch eager, 1 thread (reference)", f"{res['reference_s'] * 1e3:.2f}", "1.00x"),
            ("funcgrad.compat", f"{res['seconds']['funcgrad.compat'] * 1e3:.2f}", f"{res['ratio']['funcgrad.compat']:.2f}x")]
    print_table(f"compat_transformer_step: 2-layer encoder, d_model 64, batch 32x16 (median of {rounds} rounds)",
                rows, ["", "ms/step", "vs torch"])
    return res
