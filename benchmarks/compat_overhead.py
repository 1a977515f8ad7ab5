"""funcgrad.compat per-op overhead: the op_overhead chain (300 element-wise ops on a
float64[10] vector) as PyTorch-style eager code with ``.backward()``, against the
functional ``fg.grad`` path and the numpy forward chain, timed in the same run.
The dispatch-path issue's budget: at most 1.15x the fg.grad path (the compat issue's was 1.3x)."""

from __future__ import annotations

import numpy as np

from ._harness import compare, print_table
from .op_overhead import N_OPS, add_torch_candidate, chain


def run(rounds=20):
    import funcgrad as fg
    import funcgrad.compat as ctorch
    import funcgrad.numpy as fnp

    x = np.linspace(0.1, 1.0, 10)
    xa = fg.asarray(x)
    grad_fg = fg.grad(lambda v: fnp.sum(chain(fnp, v)))
    xc = ctorch.tensor(x)

    def compat_step():
        v = xc.detach().requires_grad_()
        chain(ctorch, v).sum().backward()
        return v.grad

    def compat_forward():
        return chain(ctorch, xc)

    compiled_loss = ctorch.compile(lambda v: chain(ctorch, v).sum())

    def compiled_step():
        v = xc.detach().requires_grad_()
        compiled_loss(v).backward()
        return v.grad

    compiled_forward = ctorch.compile(lambda v: chain(ctorch, v))
    np.testing.assert_allclose(compiled_step().numpy(), compat_step().numpy(), rtol=1e-12)

    candidates = {
        "funcgrad grad (fwd+bwd)": lambda: grad_fg(xa),
        "compat eager (fwd+backward)": compat_step,
        "compat forward only": compat_forward,
        "compat torch.compile (fwd+backward)": compiled_step,
        "compat torch.compile forward": lambda: compiled_forward(xc),
    }
    add_torch_candidate(candidates, x)
    res = compare(lambda: chain(np, x), candidates, rounds=rounds, repeat=5)
    ref_us = res["reference_s"] / N_OPS * 1e6
    fg_s = res["seconds"]["funcgrad grad (fwd+bwd)"]
    rows = [("numpy forward (reference)", f"{ref_us:.2f}", "1.0x", f"{res['reference_s'] / fg_s:.2f}x")]
    for name, ratio in res["ratio"].items():
        rows.append((name, f"{res['seconds'][name] / N_OPS * 1e6:.2f}", f"{ratio:.1f}x",
                     f"{res['seconds'][name] / fg_s:.2f}x"))
    res["compat_vs_fg_grad"] = res["ratio"]["compat eager (fwd+backward)"] / res["ratio"]["funcgrad grad (fwd+bwd)"]
    print_table(f"compat_overhead: {N_OPS} elementwise ops on float64[10] (median of {rounds} rounds)",
                rows, ["", "us/op", "vs numpy fwd", "vs fg.grad"])
    print(f"compat fwd+backward / fg.grad: {res['compat_vs_fg_grad']:.2f}x (budget 1.15x)")
    return res
