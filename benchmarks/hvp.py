"""Hessian-vector product of f(x) = sum(tanh(W @ x)), W 256x256, float64: forward-over-reverse
(jvp of grad), eager and jitted, against the closed form in numpy (budget jitted: <= 2.5x).

Closed form: z = W x, t = tanh z, H v = W^T (-2 t (1 - t^2) * (W v)).
"""

from __future__ import annotations

import numpy as np

from ._harness import compare, optional, print_ratios

N = 256


def closed_form(w, x, v):
    t = np.tanh(w @ x)
    return w.T @ (-2.0 * t * (1.0 - t * t) * (w @ v))


def run(rounds=20):
    import funcgrad as fg
    import funcgrad.numpy as fnp

    rng = np.random.default_rng(0)
    w = rng.standard_normal((N, N)) / np.sqrt(N)
    x, v = rng.standard_normal(N), rng.standard_normal(N)
    wa, xa, va = fg.asarray(w), fg.asarray(x), fg.asarray(v)

    def f(w, x):
        return fnp.sum(fnp.tanh(w @ x))

    def hvp(w, x, v):
        return fg.jvp(lambda x: fg.grad(f, argnums=1)(w, x), (x,), (v,))[1]

    hvp_jit = fg.jit(hvp)
    want = closed_form(w, x, v)
    np.testing.assert_allclose(hvp(wa, xa, va), want, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hvp_jit(wa, xa, va), want, rtol=1e-10, atol=1e-12)
    candidates = {"funcgrad jvp(grad) eager": lambda: hvp(wa, xa, va),
                  "funcgrad fg.jit(jvp(grad))": lambda: hvp_jit(wa, xa, va)}
    torch = optional("torch")
    if torch is not None:
        torch.set_num_threads(1)
        wt, xt, vt = (torch.tensor(a) for a in (w, x, v))

        def torch_hvp():
            return torch.func.jvp(torch.func.grad(lambda x: torch.tanh(wt @ x).sum()), (xt,), (vt,))[1]

        candidates["torch.func jvp(grad) eager (1 thread)"] = torch_hvp
    jax = optional("jax")
    if jax is not None:
        import jax.numpy as jnp

        wj = jnp.asarray(w)
        jh = jax.jit(lambda x, v: jax.jvp(jax.grad(lambda x: jnp.sum(jnp.tanh(wj @ x))), (x,), (v,))[1])
        xj, vj = jnp.asarray(x), jnp.asarray(v)
        candidates["jax jit(jvp(grad))"] = lambda: jh(xj, vj).block_until_ready()
    res = compare(lambda: closed_form(w, x, v), candidates, rounds=rounds, repeat=20)
    print_ratios(f"hvp: Hessian-vector product, {N}x{N} float64 (median of {rounds} rounds)", res,
                 "closed form in numpy (reference)", 1e6, "us/call", time_fmt="{:.1f}")
    return res
