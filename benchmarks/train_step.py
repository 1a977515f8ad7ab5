"""One SGD training step (forward + backward + update), float32, against hand-written numpy.

- LeNet-5 (batch 64, 3x32x32): conv(3,6,5)-relu-maxpool2-conv(6,16,5)-relu-maxpool2-
  fc(400,120)-relu-fc(120,84)-relu-fc(84,10), cross entropy;
- MLP 784-512-512-10 (batch 128), cross entropy.

The reference is a hand-written numpy step (im2col via stride tricks for the
convolutions, one BLAS product per layer and gradient); budgets: MLP <= 1.15x,
LeNet <= 1.3x.
Before timing, the funcgrad step is checked against the reference (same loss,
same updated parameters).  On a shared machine, run with
``OPENBLAS_NUM_THREADS=1`` (both sides use the same BLAS): multithreaded BLAS
on busy cores makes every figure noise.
"""

from __future__ import annotations

import time

import numpy as np

from ._harness import compare, optional, print_table

F32 = np.float32
LR = 0.01


# --- hand-written numpy reference -----------------------------------------------------------

def _im2col(x, k):
    n, c, h, w = x.shape
    oh, ow = h - k + 1, w - k + 1
    s = x.strides
    win = np.lib.stride_tricks.as_strided(x, (n, oh, ow, c, k, k), (s[0], s[2], s[3], s[1], s[2], s[3]))
    return win.reshape(n * oh * ow, c * k * k), (n, oh, ow)


def _col2im(dcols, shape, k):
    n, c, h, w = shape
    oh, ow = h - k + 1, w - k + 1
    d = dcols.reshape(n, oh, ow, c, k, k).transpose(0, 3, 1, 2, 4, 5)
    dx = np.zeros(shape, dcols.dtype)
    for i in range(k):
        for j in range(k):
            dx[:, :, i:i + oh, j:j + ow] += d[..., i, j]
    return dx


def _conv_fwd(x, w, b):
    cols, (n, oh, ow) = _im2col(x, w.shape[-1])
    y = cols @ w.reshape(w.shape[0], -1).T + b
    return y.reshape(n, oh, ow, -1).transpose(0, 3, 1, 2), cols


def _conv_bwd(g, cols, w, x_shape, need_dx):
    o = w.shape[0]
    g2 = g.transpose(0, 2, 3, 1).reshape(-1, o)
    dw = (g2.T @ cols).reshape(w.shape)
    db = g2.sum(0)
    dx = _col2im(g2 @ w.reshape(o, -1), x_shape, w.shape[-1]) if need_dx else None
    return dx, dw, db


def _pool_fwd(x):
    n, c, h, w = x.shape
    win = x.reshape(n, c, h // 2, 2, w // 2, 2)
    y = win.max(axis=(3, 5))
    mask = win == y[:, :, :, None, :, None]
    return y, mask


def _pool_bwd(g, mask):
    n, c, h2, _, w2, _ = mask.shape
    return (mask * g[:, :, :, None, :, None]).reshape(n, c, h2 * 2, w2 * 2)


def _softmax_ce_grad(logits, y):
    m = logits.max(1, keepdims=True)
    e = np.exp(logits - m)
    p = e / e.sum(1, keepdims=True)
    n = logits.shape[0]
    loss = -np.log(p[np.arange(n), y]).mean()
    p[np.arange(n), y] -= 1
    return loss, p / n


def numpy_lenet_step(params, x, y):
    w1, b1, w2, b2, w3, b3, w4, b4, w5, b5 = params
    z1, c1 = _conv_fwd(x, w1, b1)
    a1 = np.maximum(z1, 0)
    p1, m1 = _pool_fwd(a1)
    z2, c2 = _conv_fwd(p1, w2, b2)
    a2 = np.maximum(z2, 0)
    p2, m2 = _pool_fwd(a2)
    f = p2.reshape(x.shape[0], -1)
    h3 = np.maximum(f @ w3.T + b3, 0)
    h4 = np.maximum(h3 @ w4.T + b4, 0)
    logits = h4 @ w5.T + b5
    loss, g = _softmax_ce_grad(logits, y)
    dw5, db5 = g.T @ h4, g.sum(0)
    g = (g @ w5) * (h4 > 0)
    dw4, db4 = g.T @ h3, g.sum(0)
    g = (g @ w4) * (h3 > 0)
    dw3, db3 = g.T @ f, g.sum(0)
    g = (g @ w3).reshape(p2.shape)
    g = _pool_bwd(g, m2) * (z2 > 0)
    g, dw2, db2 = _conv_bwd(g, c2, w2, p1.shape, True)
    g = _pool_bwd(g, m1) * (z1 > 0)
    _, dw1, db1 = _conv_bwd(g, c1, w1, x.shape, False)
    grads = (dw1, db1, dw2, db2, dw3, db3, dw4, db4, dw5, db5)
    return [p - LR * d for p, d in zip(params, grads)], loss


def numpy_mlp_step(params, x, y):
    w1, b1, w2, b2, w3, b3 = params
    h1 = np.maximum(x @ w1.T + b1, 0)
    h2 = np.maximum(h1 @ w2.T + b2, 0)
    loss, g = _softmax_ce_grad(h2 @ w3.T + b3, y)
    dw3, db3 = g.T @ h2, g.sum(0)
    g = (g @ w3) * (h2 > 0)
    dw2, db2 = g.T @ h1, g.sum(0)
    g = (g @ w2) * (h1 > 0)
    dw1, db1 = g.T @ x, g.sum(0)
    grads = (dw1, db1, dw2, db2, dw3, db3)
    return [p - LR * d for p, d in zip(params, grads)], loss


# --- funcgrad -------------------------------------------------------------------------------

def _models():
    import funcgrad as fg
    import funcgrad.nn as nn
    import funcgrad.nn.functional as F

    k = fg.random.split(fg.random.key(0), 8)

    class LeNet(nn.Module):
        c1: nn.Conv2d
        c2: nn.Conv2d
        f3: nn.Linear
        f4: nn.Linear
        f5: nn.Linear

        def __init__(self):
            self.c1 = nn.Conv2d(3, 6, 5, key=k[0], dtype=F32)
            self.c2 = nn.Conv2d(6, 16, 5, key=k[1], dtype=F32)
            self.f3 = nn.Linear(400, 120, key=k[2], dtype=F32)
            self.f4 = nn.Linear(120, 84, key=k[3], dtype=F32)
            self.f5 = nn.Linear(84, 10, key=k[4], dtype=F32)

        def __call__(self, x):
            x = F.max_pool2d(F.relu(self.c1(x)), 2)
            x = F.max_pool2d(F.relu(self.c2(x)), 2)
            x = x.reshape(x.shape[0], -1)
            return self.f5(F.relu(self.f4(F.relu(self.f3(x)))))

    mlp = nn.MLP(784, 10, 512, 2, key=k[5], dtype=F32)
    return LeNet(), mlp


def _fg_step(opt):
    import funcgrad as fg
    import funcgrad.nn.functional as F
    from funcgrad import optim

    grad = fg.value_and_grad(lambda m, x, y: F.cross_entropy(m(x), y))

    def step(model, state, x, y):
        loss, g = grad(model, x, y)
        upd, state = opt.update(g, state, model)
        return optim.apply_updates(model, upd), state, loss

    return step


def _leaves_np(model):
    import funcgrad as fg

    return [np.array(a) for a in fg.tree.tree_leaves(model)]


def run(rounds=10):
    import funcgrad as fg
    from funcgrad import optim

    rng = np.random.default_rng(0)
    lenet, mlp = _models()
    opt = optim.sgd(LR)
    step = _fg_step(opt)
    results = {}
    torch = optional("torch")
    for name, model, xshape, n in (("LeNet-5", lenet, (64, 3, 32, 32), 64), ("MLP 784-512-512-10", mlp, (128, 784), 128)):
        xn = rng.standard_normal(xshape).astype(F32)
        yn = rng.integers(0, 10, n)
        x, y = fg.asarray(xn), fg.asarray(yn)
        st = opt.init(model)
        # numpy params in the order of the model's leaves: (weight, bias) per layer, as the reference
        leaves = _leaves_np(model)
        params = [leaves[i] for i in range(len(leaves))]
        ref_fn = numpy_lenet_step if name.startswith("LeNet") else numpy_mlp_step
        ref_params = [p.copy() for p in params]
        new_np, loss_np = ref_fn(ref_params, xn, yn)
        new_fg, _, loss_fg = step(model, st, x, y)
        np.testing.assert_allclose(float(loss_fg), loss_np, rtol=1e-4)
        for a, b in zip(_leaves_np(new_fg), new_np):
            np.testing.assert_allclose(a, b, rtol=2e-3, atol=1e-5)
        jstep = fg.jit(step)
        t0 = time.perf_counter()
        new_jit, _, loss_jit = jstep(model, st, x, y)  # the first call traces and compiles
        compile_s = time.perf_counter() - t0
        np.testing.assert_allclose(float(loss_jit), float(loss_fg), rtol=1e-5)
        for a, b in zip(_leaves_np(new_jit), _leaves_np(new_fg)):
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)
        cands = {"funcgrad (fg.grad + optim.sgd)": lambda: step(model, st, x, y),
                 "funcgrad fg.jit(step)": lambda: jstep(model, st, x, y)}
        if torch is not None:
            torch.set_num_threads(1)
            tm = _torch_model(torch, name, params)
            topt = torch.optim.SGD(tm.parameters(), lr=LR)
            xt, yt = torch.tensor(xn), torch.tensor(yn)

            def tstep():
                topt.zero_grad()
                torch.nn.functional.cross_entropy(tm(xt), yt).backward()
                topt.step()

            cands["torch eager (1 thread)"] = tstep
        res = compare(lambda: ref_fn(ref_params, xn, yn), cands, rounds=rounds, repeat=3)
        rows = [("numpy by hand (reference)", f"{res['reference_s'] * 1e3:.2f}", "1.00x")]
        for k, r in res["ratio"].items():
            rows.append((k, f"{res['seconds'][k] * 1e3:.2f}", f"{r:.2f}x"))
        rows.append(("fg.jit(step): first call (trace + compile + run)", f"{compile_s * 1e3:.1f}", ""))
        print_table(f"train_step: {name}, float32 (median of {rounds} rounds)", rows, ["", "ms/step", "vs numpy"])
        results[name] = res
    return results


def _torch_model(torch, name, params):
    nn = torch.nn
    if name.startswith("LeNet"):
        m = nn.Sequential(nn.Conv2d(3, 6, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU(),
                          nn.MaxPool2d(2), nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84),
                          nn.ReLU(), nn.Linear(84, 10))
    else:
        m = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    with torch.no_grad():
        for p, v in zip(m.parameters(), params):
            p.copy_(torch.tensor(v))
    return m
