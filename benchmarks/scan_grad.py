"""grad of a 1,000-step lax.scan over a small recurrent cell (h = tanh(W h + x), 16 units), jitted,
against the same loop hand-written in numpy (forward storing the states + hand-written backward).
Budget (issue 17): within 1.5x of the numpy version."""

from __future__ import annotations

import numpy as np

from ._harness import compare, print_ratios

STEPS, UNITS = 1000, 16


def numpy_grad(w, h0, xs):
    hs = [h0]
    h = h0
    for x in xs:
        h = np.tanh(w @ h + x)
        hs.append(h)
    gw = np.zeros_like(w)
    gh = np.zeros_like(h0)
    for t in range(len(xs), 0, -1):  # loss = sum of all states after step t
        gh = gh + 1.0
        gz = gh * (1.0 - hs[t] ** 2)
        gw += np.outer(gz, hs[t - 1])
        gh = w.T @ gz
    return gw


def run(rounds=10):
    import funcgrad as fg
    import funcgrad.numpy as fnp

    rng = np.random.default_rng(0)
    w = rng.normal(size=(UNITS, UNITS)) / 4
    h0, xs = rng.normal(size=UNITS), rng.normal(size=(STEPS, UNITS))

    def loss(w, h0, xs):
        def step(h, x):
            h = fnp.tanh(w @ h + x)
            return h, h
        return fnp.sum(fg.lax.scan(step, h0, xs)[1])

    g = fg.jit(fg.grad(loss))
    fw, fh0, fxs = fnp.asarray(w), fnp.asarray(h0), fnp.asarray(xs)
    np.testing.assert_allclose(g(fw, fh0, fxs), numpy_grad(w, h0, xs), rtol=1e-9)
    res = compare(lambda: numpy_grad(w, h0, xs), {
        "fg.jit(fg.grad(loss)) with lax.scan": lambda: g(fw, fh0, fxs),
    }, rounds=rounds, repeat=3)
    print_ratios(f"scan_grad: {STEPS} steps, {UNITS} units (median of {rounds} rounds)", res,
                 "numpy forward + hand-written backward", 1e3, "ms/call")
    return res
