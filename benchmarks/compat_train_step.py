"""LeNet-5 and MLP SGD training steps through funcgrad.compat (nn.Module + optim.SGD) vs the functional path.

The same float32 models as benchmarks/train_step.py (LeNet-5, batch 64, 3x32x32; MLP
784-512-512-10, batch 128), four ways: the functional path (``fg.value_and_grad`` +
``funcgrad.optim.sgd``, the reference), the compat layer written as PyTorch code
(``zero_grad``, ``loss.backward()``, ``opt.step()``), the same with ``torch.compile(model)``,
the jitted functional step, and the hand-written numpy step.  Budgets: compat <= 1.15x the
functional path; ``torch.compile(model)`` <= 1.15x the jitted functional step.  All are
checked to produce the same parameters first.
"""

from __future__ import annotations

import numpy as np

from ._harness import compare, print_table
from .train_step import LR, F32, _fg_step, _leaves_np, _models, numpy_lenet_step, numpy_mlp_step

BUDGET = 1.15


def _compat_model(name, params):
    import funcgrad.compat as torch
    from funcgrad.compat import nn

    if name == "LeNet-5":
        m = nn.Sequential(nn.Conv2d(3, 6, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU(),
                          nn.MaxPool2d(2), nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84),
                          nn.ReLU(), nn.Linear(84, 10))
    else:
        m = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    with torch.no_grad():
        for p, v in zip(m.parameters(), params):
            p.copy_(torch.from_numpy(v))
    return m


def _run_one(name, model, xshape, n, rounds):
    import funcgrad as fg
    import funcgrad.compat as torch
    from funcgrad import optim

    rng = np.random.default_rng(0)
    opt = optim.sgd(LR)
    step = _fg_step(opt)
    ref_step = numpy_lenet_step if name == "LeNet-5" else numpy_mlp_step
    xn = rng.standard_normal(xshape).astype(F32)
    yn = rng.integers(0, 10, n)
    x, y = fg.asarray(xn), fg.asarray(yn)
    st = opt.init(model)
    params = _leaves_np(model)
    crit = torch.nn.CrossEntropyLoss()
    xt, yt = torch.from_numpy(xn), torch.from_numpy(yn)

    def make_step(m):
        copt = torch.optim.SGD(m.parameters(), lr=LR)

        def compat_step():
            copt.zero_grad()
            loss = crit(m(xt), yt)
            loss.backward()
            copt.step()
            return loss
        return compat_step

    eager_model = _compat_model(name, params)
    compat_step = make_step(eager_model)
    new_fg, _, _ = step(model, st, x, y)
    compat_step()
    new_np, _ = ref_step([p.copy() for p in params], xn, yn)
    for a, b, c in zip(_leaves_np(new_fg), [p.detach().numpy() for p in eager_model.parameters()], new_np):
        np.testing.assert_allclose(b, a, rtol=2e-3, atol=1e-5)
        np.testing.assert_allclose(b, c, rtol=2e-3, atol=1e-5)
    cmodel = _compat_model(name, params)
    compiled_step = make_step(torch.compile(cmodel))
    compiled_step()
    for a, b in zip(eager_model.parameters(), cmodel.parameters()):
        np.testing.assert_allclose(b.detach().numpy(), a.detach().numpy(), rtol=1e-4, atol=1e-6)
    jstep = fg.jit(step)
    res = compare(lambda: step(model, st, x, y),
                  {"funcgrad.compat (Module + optim.SGD)": compat_step,
                   "functional fg.jit(step)": lambda: jstep(model, st, x, y),
                   "funcgrad.compat torch.compile(model)": compiled_step,
                   "numpy by hand": lambda: ref_step(params, xn, yn)}, rounds=rounds, repeat=2)
    rows = [("functional (fg.value_and_grad + optim.sgd)", f"{res['reference_s'] * 1e3:.2f}", "1.00x")]
    for k, r in res["ratio"].items():
        rows.append((k, f"{res['seconds'][k] * 1e3:.2f}", f"{r:.2f}x"))
    print_table(f"compat_train_step: {name}, batch {n}, float32 (median of {rounds} rounds; "
                f"budget compat <= {BUDGET}x)", rows, ["", "ms/step", "vs functional"])
    res["compile_vs_jit"] = res["ratio"]["funcgrad.compat torch.compile(model)"] / res["ratio"]["functional fg.jit(step)"]
    print(f"{name}: torch.compile(model) step / fg.jit(step): {res['compile_vs_jit']:.2f}x (budget {BUDGET}x)")
    return res


def run(rounds=8):
    lenet, mlp = _models()
    return {name: _run_one(name, model, xshape, n, rounds)
            for name, model, xshape, n in (("LeNet-5", lenet, (64, 3, 32, 32), 64),
                                           ("MLP 784-512-512-10", mlp, (128, 784), 128))}


if __name__ == "__main__":
    run()
