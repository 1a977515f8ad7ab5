"""Autocast's cost: the compat_overhead chain (300 element-wise ops, forward + ``.backward()``)
outside any autocast region (the reference), outside again after a region was entered and left
(the policy wrappers are removed: it must be 1.0x), and inside ``autocast('cpu', float16)`` (the
chain's ``exp`` is a float32-policy op, so its wrapper runs; float32 data: no cast needed);
plus the cost of entering and leaving one region, timed in the same run."""

from __future__ import annotations

import time

import numpy as np

from ._harness import compare, print_table
from .op_overhead import N_OPS, chain


def run(rounds=20):
    import funcgrad.compat as torch

    xc = torch.tensor(np.linspace(0.1, 1.0, 10, dtype=np.float32))

    def step():
        v = xc.detach().requires_grad_()
        chain(torch, v).sum().backward()
        return v.grad

    def step_in_autocast():
        with torch.autocast("cpu", dtype=torch.float16):
            v = xc.detach().requires_grad_()
            out = chain(torch, v).sum()
        out.backward()
        return v.grad

    before = compare(step, {"outside (before any region)": step}, rounds=rounds, repeat=5)
    with torch.autocast("cpu", dtype=torch.float16):
        pass
    res = compare(step, {"outside, after a region": step, "inside autocast(cpu, float16)": step_in_autocast},
                  rounds=rounds, repeat=5)
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        with torch.autocast("cpu", dtype=torch.float16):
            pass
    enter_exit_us = (time.perf_counter() - t0) / n * 1e6
    ref_us = res["reference_s"] / N_OPS * 1e6
    rows = [("compat fwd+backward, no autocast (reference)", f"{ref_us:.2f}", "1.00x"),
            ("same, reference vs itself", "", f"{before['ratio']['outside (before any region)']:.2f}x")]
    for name, ratio in res["ratio"].items():
        rows.append((name, f"{res['seconds'][name] / N_OPS * 1e6:.2f}", f"{ratio:.2f}x"))
    print_table(f"amp_overhead: {N_OPS} element-wise ops on float32[10] (median of {rounds} rounds)",
                rows, ["", "us/op", "vs reference"])
    print(f"entering + leaving one autocast region: {enter_exit_us:.1f} us")
    res["enter_exit_us"] = enter_exit_us
    return res
