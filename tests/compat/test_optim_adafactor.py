"""torch.optim.Adafactor: the compat shell equals funcgrad.optim.adafactor; PyTorch's state and checks."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.compat as torch
from funcgrad import optim


def test_shell_matches_functional_rule():
    rng = np.random.default_rng(1)
    init = [rng.standard_normal((3, 4)), rng.standard_normal(5), rng.standard_normal(())]
    ps = [torch.tensor(a.copy(), requires_grad=True) for a in init]
    opt = torch.optim.Adafactor(ps, lr=0.05, weight_decay=0.01, maximize=True)
    rule = optim.adafactor(0.05, weight_decay=0.01, maximize=True)
    xs = [fg.numpy.asarray(a) for a in init]
    state = rule.init(xs)
    for _ in range(4):
        opt.zero_grad()
        sum((p.sin() * (i + 1)).sum() for i, p in enumerate(ps)).backward()
        opt.step()
        gs = fg.grad(lambda xs: sum(fg.numpy.sum(fg.numpy.sin(x) * (i + 1)) for i, x in enumerate(xs)))(xs)
        updates, state = rule.update(gs, state, xs)
        xs = optim.apply_updates(xs, updates)
    for p, x in zip(ps, xs):
        np.testing.assert_allclose(p.detach().numpy(), np.asarray(x), rtol=1e-12, atol=1e-14)
    assert sorted(opt.state[ps[0]]) == ["col_var", "row_var", "step"]
    assert sorted(opt.state[ps[1]]) == ["step", "variance"]
    assert float(opt.state[ps[0]]["step"]) == 4.0
    assert tuple(opt.state[ps[0]]["row_var"].shape) == (3, 1)
    assert tuple(opt.state[ps[0]]["col_var"].shape) == (1, 4)


def test_constructor_checks():
    p = [torch.zeros(2, requires_grad=True)]
    for kw, msg in [(dict(lr=-1.0), "Learning rate should be >= 0"), (dict(beta2_decay=0.1), "beta2_decay"),
                    (dict(eps=(-1.0, 1e-3)), "epsilon1"), (dict(eps=(None, -1.0)), "epsilon2"),
                    (dict(d=0.5), "Clipping threshold d"), (dict(weight_decay=-1.0), "weight_decay")]:
        with pytest.raises(ValueError, match=msg):
            torch.optim.Adafactor(p, **kw)
    opt = torch.optim.Adafactor(p)
    assert opt.defaults["eps"] == (None, 1e-3) and opt.defaults["lr"] == 1e-2
