"""Per-op overhead: a chain of 300 elementwise ops on a 10-element float64 vector,
forward + backward, as microseconds per op and as a ratio to the same forward
chain in plain numpy (the core issue's budget: at most 12x)."""

from __future__ import annotations

import numpy as np

from ._harness import compare, optional, print_table

N_OPS = 300


def chain(mod, x):
    # six ops per round: transcendental, scale, transcendental, shift, ...
    for _ in range(N_OPS // 6):
        x = mod.sin(x)
        x = x * 1.01
        x = mod.tanh(x)
        x = x + 0.5
        x = mod.exp(x)
        x = mod.cos(x)
    return x


def add_torch_candidate(candidates, x):
    """The chain's forward + backward in eager PyTorch (one thread), when torch is installed."""
    torch = optional("torch")
    if torch is None:
        return
    torch.set_num_threads(1)
    xt = torch.tensor(x)

    def torch_step():
        v = xt.detach().requires_grad_()
        chain(torch, v).sum().backward()
        return v.grad

    candidates["torch eager (fwd+backward)"] = torch_step


def run(rounds=20):
    import funcgrad as fg
    import funcgrad.numpy as fnp

    x = np.linspace(0.1, 1.0, 10)
    xa = fg.asarray(x)
    grad_fg = fg.grad(lambda v: fnp.sum(chain(fnp, v)))
    fwd_jit = fg.jit(lambda v: chain(fnp, v))
    grad_jit = fg.jit(grad_fg)
    candidates = {
        "funcgrad eager forward": lambda: chain(fnp, xa),
        "funcgrad grad (fwd+bwd)": lambda: grad_fg(xa),
        "funcgrad jit(forward)": lambda: fwd_jit(xa),
        "funcgrad jit(grad) (fwd+bwd)": lambda: grad_jit(xa),
    }
    add_torch_candidate(candidates, x)
    autograd = optional("autograd")
    if autograd is not None:
        import autograd.numpy as anp

        ag = autograd.grad(lambda v: anp.sum(chain(anp, v)))
        candidates["HIPS autograd grad"] = lambda: ag(x)
    jax = optional("jax")
    if jax is not None:
        import jax.numpy as jnp

        jg = jax.grad(lambda v: jnp.sum(chain(jnp, v)))
        xj = jnp.asarray(x)
        candidates["jax eager grad"] = lambda: jg(xj).block_until_ready()
        jjg = jax.jit(jg)
        candidates["jax jit(grad)"] = lambda: jjg(xj).block_until_ready()
    res = compare(lambda: chain(np, x), candidates, rounds=rounds, repeat=5)
    ref_us = res["reference_s"] / N_OPS * 1e6
    rows = [("numpy forward (reference)", f"{ref_us:.2f}", "1.0x")]
    for name, ratio in res["ratio"].items():
        rows.append((name, f"{res['seconds'][name] / N_OPS * 1e6:.2f}", f"{ratio:.1f}x"))
    print_table(f"op_overhead: {N_OPS} elementwise ops on float64[10] (median of {rounds} rounds)",
                rows, ["", "us/op", "vs numpy fwd"])
    return res
