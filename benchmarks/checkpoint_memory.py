"""Checkpointing: peak memory of the gradient of a 200-layer tanh MLP chain, with the
chain split into checkpointed segments (``fg.checkpoint``) vs plain, measured with
tracemalloc in the same run; both gradients must agree."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np

from ._harness import print_table

N_LAYERS = 200
WIDTH = 64
BATCH = 512


def _peak(fn):
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    out = fn()
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return out, peak


def run(n_layers=N_LAYERS, width=WIDTH, batch=BATCH):
    import funcgrad as fg
    import funcgrad.numpy as fnp

    rng = np.random.default_rng(0)
    ws = [fnp.asarray(rng.standard_normal((width, width)) / math.sqrt(width)) for _ in range(n_layers)]
    x = fnp.asarray(rng.standard_normal((batch, width)))
    seg = max(1, round(math.sqrt(n_layers)))

    def layers(ws, h):
        for w in ws:
            h = fnp.tanh(h @ w)
        return h

    segment = fg.checkpoint(layers)

    def plain_loss(ws, h):
        return fnp.sum(layers(ws, h) ** 2)

    def ckpt_loss(ws, h):
        for i in range(0, len(ws), seg):
            h = segment(ws[i:i + seg], h)
        return fnp.sum(h ** 2)

    g_plain, peak_plain = _peak(lambda: fg.grad(plain_loss)(ws, x))
    g_ckpt, peak_ckpt = _peak(lambda: fg.grad(ckpt_loss)(ws, x))
    err = max(float(np.max(np.abs(np.asarray(a) - np.asarray(b)))) for a, b in zip(g_plain, g_ckpt))
    scale = max(float(np.max(np.abs(np.asarray(a)))) for a in g_plain)
    assert err <= 1e-12 * max(scale, 1.0), f"checkpointed gradient differs by {err}"
    act = batch * width * 8
    rows = [
        ["grad(plain)", f"{peak_plain / 2**20:.1f}", f"{peak_plain / act:.0f}"],
        [f"grad(checkpoint, {seg}-layer segments)", f"{peak_ckpt / 2**20:.1f}", f"{peak_ckpt / act:.0f}"],
    ]
    print_table(f"checkpoint_memory: {n_layers}-layer tanh MLP, batch {batch}, width {width} "
                f"(one activation = {act / 2**10:.0f} KiB); max gradient difference {err:.1e}",
                rows, ["gradient", "peak MiB (tracemalloc)", "peak in activations"])
    ratio = peak_plain / peak_ckpt
    print(f"peak memory ratio plain / checkpointed: {ratio:.2f}x")
    return {"peak_plain": peak_plain, "peak_checkpoint": peak_ckpt, "ratio": ratio, "max_abs_diff": err}


if __name__ == "__main__":
    run()
