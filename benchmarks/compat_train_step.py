"""LeNet-5 SGD training step through funcgrad.compat (nn.Module + optim.SGD) vs the functional path.

The same float32 LeNet-5 (batch 64, 3x32x32) as benchmarks/train_step.py, three ways:
the functional path (``fg.value_and_grad`` + ``funcgrad.optim.sgd``, the reference),
the compat layer written as PyTorch code (``zero_grad``, ``loss.backward()``,
``opt.step()``), and the hand-written numpy step.  Budget: compat <= 1.15x the
functional path.  All three are checked to produce the same parameters first.
"""

from __future__ import annotations

import numpy as np

from ._harness import compare, print_table
from .train_step import LR, F32, _fg_step, _leaves_np, _models, numpy_lenet_step

BUDGET = 1.15


def _compat_lenet(params):
    import funcgrad.compat as torch
    from funcgrad.compat import nn

    m = nn.Sequential(nn.Conv2d(3, 6, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU(),
                      nn.MaxPool2d(2), nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84),
                      nn.ReLU(), nn.Linear(84, 10))
    with torch.no_grad():
        for p, v in zip(m.parameters(), params):
            p.copy_(torch.from_numpy(v))
    return m


def run(rounds=8):
    import funcgrad as fg
    import funcgrad.compat as torch
    from funcgrad import optim

    rng = np.random.default_rng(0)
    lenet, _ = _models()
    opt = optim.sgd(LR)
    step = _fg_step(opt)
    xn = rng.standard_normal((64, 3, 32, 32)).astype(F32)
    yn = rng.integers(0, 10, 64)
    x, y = fg.asarray(xn), fg.asarray(yn)
    st = opt.init(lenet)
    params = _leaves_np(lenet)
    model = _compat_lenet(params)
    copt = torch.optim.SGD(model.parameters(), lr=LR)
    crit = torch.nn.CrossEntropyLoss()
    xt, yt = torch.from_numpy(xn), torch.from_numpy(yn)

    def compat_step():
        copt.zero_grad()
        loss = crit(model(xt), yt)
        loss.backward()
        copt.step()
        return loss

    new_fg, _, _ = step(lenet, st, x, y)
    compat_step()
    new_np, _ = numpy_lenet_step([p.copy() for p in params], xn, yn)
    for a, b, c in zip(_leaves_np(new_fg), [p.detach().numpy() for p in model.parameters()], new_np):
        np.testing.assert_allclose(b, a, rtol=2e-3, atol=1e-5)
        np.testing.assert_allclose(b, c, rtol=2e-3, atol=1e-5)
    cmodel = _compat_lenet(params)
    compiled = torch.compile(cmodel)
    cc_opt = torch.optim.SGD(compiled.parameters(), lr=LR)

    def compiled_step():
        cc_opt.zero_grad()
        loss = crit(compiled(xt), yt)
        loss.backward()
        cc_opt.step()
        return loss

    compiled_step()
    for a, b in zip(model.parameters(), cmodel.parameters()):
        np.testing.assert_allclose(b.detach().numpy(), a.detach().numpy(), rtol=1e-4, atol=1e-6)
    jstep = fg.jit(step)
    res = compare(lambda: step(lenet, st, x, y),
                  {"funcgrad.compat (Module + optim.SGD)": compat_step,
                   "functional fg.jit(step)": lambda: jstep(lenet, st, x, y),
                   "funcgrad.compat torch.compile(model)": compiled_step,
                   "numpy by hand": lambda: numpy_lenet_step(params, xn, yn)}, rounds=rounds, repeat=2)
    rows = [("functional (fg.value_and_grad + optim.sgd)", f"{res['reference_s'] * 1e3:.2f}", "1.00x")]
    for k, r in res["ratio"].items():
        rows.append((k, f"{res['seconds'][k] * 1e3:.2f}", f"{r:.2f}x"))
    print_table(f"compat_train_step: LeNet-5, batch 64, float32 (median of {rounds} rounds; "
                f"budget compat <= {BUDGET}x)", rows, ["", "ms/step", "vs functional"])
    res["compile_vs_jit"] = res["ratio"]["funcgrad.compat torch.compile(model)"] / res["ratio"]["functional fg.jit(step)"]
    print(f"torch.compile(model) step / fg.jit(step): {res['compile_vs_jit']:.2f}x (budget 1.15x)")
    return res


if __name__ == "__main__":
    run()
