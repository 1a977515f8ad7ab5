"""torch.func over funcgrad.compat: the two budgets of issue #15, ratios in the same run.

1. Per-example gradients of an MLP (16 -> 64 -> 64 -> 10, tanh, cross-entropy, float32) on a batch
   of 64: ``vmap(grad(loss))`` over ``functional_call`` against the per-example loop it replaces
   (a Python loop over the examples calling ``grad`` on each).  Budget: >= 10x faster.
2. The Jacobian of f: R^4 -> R^2000, f(x) = tanh(W x) * sin(W x) + (W x)^2, float64:
   ``jacfwd`` (4 forward passes, vectorized) against ``jacrev`` (2000 cotangents, vectorized).
   Budget: jacfwd >= 20x faster.

torch.func from a local PyTorch is timed as an extra candidate when importable (never required).
"""

from __future__ import annotations

import numpy as np

from ._harness import compare, optional, print_ratios

BATCH, D_IN, HIDDEN, CLASSES = 64, 16, 64, 10
N_IN, N_OUT = 4, 2000


def _mlp_case(torch):
    """(params, loss(params, x, y), data, targets) for ``torch`` (funcgrad.compat or PyTorch)."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(D_IN, HIDDEN), torch.nn.Tanh(), torch.nn.Linear(HIDDEN, HIDDEN),
                                torch.nn.Tanh(), torch.nn.Linear(HIDDEN, CLASSES))
    rng = np.random.default_rng(0)
    data = torch.tensor(rng.standard_normal((BATCH, D_IN)).astype(np.float32))
    targets = torch.tensor(rng.integers(0, CLASSES, BATCH))
    params = {k: v.detach() for k, v in model.named_parameters()}

    def loss(p, x, y):
        out = torch.func.functional_call(model, p, (x.unsqueeze(0),))
        return torch.nn.functional.cross_entropy(out, y.unsqueeze(0))

    return params, loss, data, targets


def _per_example(torch):
    params, loss, data, targets = _mlp_case(torch)
    g = torch.func.grad(loss)
    vec = torch.func.vmap(g, in_dims=(None, 0, 0))

    def vectorized():
        return vec(params, data, targets)

    def loop():
        per = [g(params, data[i], targets[i]) for i in range(BATCH)]
        return {k: torch.stack([p[k] for p in per]) for k in params}

    return vectorized, loop


def _jacobian_case(torch):
    w = torch.tensor(np.random.default_rng(1).standard_normal((N_OUT, N_IN)))
    x = torch.tensor(np.linspace(-1.0, 1.0, N_IN))

    def f(x):
        z = w @ x
        return torch.tanh(z) * torch.sin(z) + z * z

    return (lambda: torch.func.jacfwd(f)(x)), (lambda: torch.func.jacrev(f)(x))


def _check(fc):
    vectorized, loop = _per_example(fc)
    a, b = vectorized(), loop()
    for k in a:
        np.testing.assert_allclose(a[k].numpy(), b[k].numpy(), rtol=1e-4, atol=1e-6)
    fwd, rev = _jacobian_case(fc)
    np.testing.assert_allclose(fwd().numpy(), rev().numpy(), rtol=1e-10, atol=1e-10)


def run(rounds=10):
    import funcgrad.compat as fc

    _check(fc)
    vectorized, loop = _per_example(fc)
    candidates = {"funcgrad.compat vmap(grad(loss))": vectorized}
    torch = optional("torch")
    if torch is not None:
        torch.set_num_threads(1)
        t_vec, t_loop = _per_example(torch)
        candidates["torch.func vmap(grad(loss)) (1 thread)"] = t_vec
        candidates["torch.func per-example loop (1 thread)"] = t_loop
    res = compare(loop, candidates, rounds=rounds, repeat=1, warmup=1)
    print_ratios(f"torch_func: per-example gradients, MLP {D_IN}-{HIDDEN}-{HIDDEN}-{CLASSES}, batch {BATCH}, float32 "
                 f"(median of {rounds} rounds; budget vmap <= 0.10x the loop)", res,
                 "funcgrad.compat per-example loop of grad (reference)", 1e3, "ms/call")
    fwd, rev = _jacobian_case(fc)
    cands = {"funcgrad.compat jacfwd": fwd}
    if torch is not None:
        t_fwd, t_rev = _jacobian_case(torch)
        cands["torch.func jacfwd (1 thread)"] = t_fwd
        cands["torch.func jacrev (1 thread)"] = t_rev
    res2 = compare(rev, cands, rounds=rounds, repeat=3, warmup=1)
    print_ratios(f"torch_func: Jacobian of R^{N_IN} -> R^{N_OUT}, float64 (median of {rounds} rounds; budget "
                 "jacfwd <= 0.05x jacrev)", res2, "funcgrad.compat jacrev (reference)", 1e3, "ms/call")
    return {"per_example": res, "jacobian": res2}
