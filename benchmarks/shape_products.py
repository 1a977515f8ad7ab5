"""Large-array cost of the shape/index/product families: funcgrad forward + backward
against a hand-written numpy forward + backward of the same function (ratio ~1 means
no hidden copies or slow paths; the two must make the same BLAS/gather calls)."""

from __future__ import annotations

import numpy as np

from ._harness import compare, print_table


def _cases(rng):
    import funcgrad as fg
    import funcgrad.numpy as fnp

    a, b = rng.standard_normal((300, 400)), rng.standard_normal((400, 200))
    x = rng.standard_normal((200, 500))
    v = rng.standard_normal(100_000)
    idx = rng.integers(0, v.size, 50_000)
    w_sort, w_idx = rng.standard_normal(v.size), rng.standard_normal(idx.size)

    def einsum_np():  # out = a @ b; grads g @ b.T, a.T @ g with g = ones
        g = np.ones((300, 200))
        return a @ b, g @ b.T, a.T @ g

    def sort_np():  # sum(sort(v) * w); gradient scattered back through the permutation
        i = np.argsort(v)
        total = np.sum(v[i] * w_sort)
        gv = np.zeros_like(v)
        gv[i] = np.ones(v.size) * w_sort
        return total, gv

    def gather_np():  # the same arithmetic: sum(v[idx] * w), then its gradient
        total = np.sum(v[idx] * w_idx)
        gv = np.zeros_like(v)
        np.add.at(gv, idx, np.ones(idx.size) * w_idx)
        return total, gv

    def pad_np():  # reflect pad and its gradient (sum of the padded result)
        p = np.pad(x, 16, mode="reflect")
        i0 = np.pad(np.arange(x.shape[0]), 16, mode="reflect")
        i1 = np.pad(np.arange(x.shape[1]), 16, mode="reflect")
        g = np.zeros_like(x)
        np.add.at(g, np.ix_(i0, i1), np.ones_like(p))
        return g

    fa, fb, fv, fx = (fg.asarray(t) for t in (a, b, v, x))
    return [
        ("einsum ij,jk->ik + grads", einsum_np,
         lambda: fg.grad(lambda p, q: fnp.sum(fnp.einsum("ij,jk->ik", p, q)), argnums=(0, 1))(fa, fb)),
        ("sort + grad", sort_np, lambda: fg.grad(lambda t: fnp.sum(fnp.sort(t) * w_sort))(fv)),
        ("gather (repeats) + grad", gather_np, lambda: fg.grad(lambda t: fnp.sum(t[idx] * w_idx))(fv)),
        ("pad reflect + grad", pad_np, lambda: fg.grad(lambda t: fnp.sum(fnp.pad(t, 16, mode="reflect")))(fx)),
    ]


def run(rounds=7):
    rows, out = [], {}
    for name, ref, cand in _cases(np.random.default_rng(0)):
        res = compare(ref, {"funcgrad": cand}, rounds=rounds, repeat=3)
        ratio = res["ratio"]["funcgrad"]
        out[name] = ratio
        rows.append((name, f"{res['reference_s'] * 1e3:.2f} ms", f"{ratio:.2f}x"))
    print_table("shape/index/products: funcgrad fwd+bwd vs hand-written numpy", rows,
                ["case", "numpy", "funcgrad / numpy"])
    return out
