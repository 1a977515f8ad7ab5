"""Sparse @ dense on a graph: a 10,000-node adjacency with 50,000 edges (float32) times a
(10000, 64) feature matrix, as a graph-convolution layer computes it, against the dense
product of the same matrices (numpy's BLAS).  Budget: the sparse product >= 20x faster."""

from __future__ import annotations

import numpy as np

from ._harness import compare, print_table, optional

NODES, EDGES, FEATURES = 10_000, 50_000, 64
BUDGET = 20.0


def _graph(rng):
    rows = rng.integers(0, NODES, EDGES)
    cols = rng.integers(0, NODES, EDGES)
    vals = rng.random(EDGES, dtype=np.float32)
    x = rng.standard_normal((NODES, FEATURES), dtype=np.float32)
    return rows, cols, vals, x


def _candidates(rows, cols, vals, x):
    import funcgrad as fg
    import funcgrad.compat as torch
    import funcgrad.numpy as fnp
    from funcgrad import sparse

    idx = fnp.asarray(np.stack([rows, cols], 1).astype(np.int32))
    data, fx = fg.asarray(vals), fg.asarray(x)
    a = sparse.BCOO((data, idx), shape=(NODES, NODES))
    grad = fg.grad(lambda d, f: fnp.sum(sparse.BCOO((d, idx), shape=(NODES, NODES)) @ f), argnums=(0, 1))
    ta = torch.sparse_coo_tensor(torch.from_numpy(np.stack([rows, cols])), torch.from_numpy(vals.copy()),
                                 (NODES, NODES), requires_grad=True)
    tx = torch.from_numpy(x.copy()).requires_grad_()

    def compat_step():
        ta.grad = None
        tx.grad = None
        torch.sparse.mm(ta, tx).sum().backward()

    out = {
        "funcgrad.sparse BCOO @ x": lambda: a @ fx,
        "funcgrad.sparse grad (data, x)": lambda: grad(data, fx),
        "compat torch.sparse.mm fwd+bwd": compat_step,
    }
    sp = optional("scipy.sparse")
    if sp is not None:
        m = sp.coo_matrix((vals, (rows, cols)), shape=(NODES, NODES))
        out["scipy.sparse coo @ x (by hand)"] = lambda: m @ x
    return out, a, fx


def run(rounds=5):
    rng = np.random.default_rng(0)
    rows, cols, vals, x = _graph(rng)
    dense = np.zeros((NODES, NODES), np.float32)
    np.add.at(dense, (rows, cols), vals)
    cands, a, fx = _candidates(rows, cols, vals, x)
    err = float(np.max(np.abs(np.asarray(a @ fx) - dense @ x)))
    res = compare(lambda: dense @ x, cands, rounds=rounds, repeat=1, warmup=1)
    rows_out = [["dense numpy A @ x (reference)", f"{res['reference_s'] * 1e3:.2f}", "1.0x"]]
    for name, r in res["ratio"].items():
        rows_out.append([name, f"{res['seconds'][name] * 1e3:.2f}", f"{1 / r:.0f}x"])
    print_table(f"sparse_matmul: {NODES}-node graph, {EDGES} edges, x float32[{NODES}, {FEATURES}] "
                f"(median of {rounds} rounds; max |sparse - dense| = {err:.1e})", rows_out,
                ["product", "ms", "faster than dense"])
    speedup = 1 / res["ratio"]["funcgrad.sparse BCOO @ x"]
    print(f"funcgrad.sparse BCOO @ x vs the dense product: {speedup:.0f}x faster (budget >= {BUDGET:.0f}x)")
    return {"speedup": speedup, **{k: 1 / v for k, v in res["ratio"].items()}}
