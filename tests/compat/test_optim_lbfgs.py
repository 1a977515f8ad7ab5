"""compat LBFGS with line_search_fn='strong_wolfe': the line search (cubic interpolation, strong Wolfe
conditions), evaluation budgets, state, and PyTorch's usage patterns."""

import io
import math

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import nn, optim
from funcgrad.compat.optim.line_search import cubic_interpolate, strong_wolfe


def _rosen_np(x):
    f = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
    g = np.array([-2 * (1 - x[0]) - 400 * x[0] * (x[1] - x[0] ** 2), 200 * (x[1] - x[0] ** 2)])
    return f, g


def _rosenbrock(start=(-1.2, 1.0), **kw):
    """A float64 parameter at ``start``, an LBFGS over it and a counting Rosenbrock closure."""
    x = nn.Parameter(torch.tensor(start, dtype=torch.float64))
    opt = optim.LBFGS([x], **kw)
    calls = []

    def closure():
        opt.zero_grad()
        loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
        loss.backward()
        calls.append(x.detach().numpy().copy())
        return loss

    return x, opt, closure, calls


def test_cubic_interpolation_of_a_cubic_is_its_minimiser():
    rng = np.random.default_rng(0)
    for _ in range(20):
        m, a, s = rng.uniform(-3, 3), rng.uniform(0.5, 2), rng.uniform(0.2, 3)
        # p(x) = a (x - m)^3 / 3 - a s^2 (x - m) has its local minimum at x = m + s
        p = lambda x: a * (x - m) ** 3 / 3 - a * s * s * (x - m)  # noqa: E731
        dp = lambda x: a * (x - m) ** 2 - a * s * s  # noqa: E731
        x1, x2 = m + s - rng.uniform(0.1, 1), m + s + rng.uniform(0.1, 2)
        for u, v in ((x1, x2), (x2, x1)):
            assert cubic_interpolate(u, p(u), dp(u), v, p(v), dp(v)) == pytest.approx(m + s, rel=1e-12, abs=1e-12)
    # clamped to the bounds; the interval by default
    p = lambda x: x ** 3 - 3 * x  # noqa: E731
    dp = lambda x: 3 * x * x - 3  # noqa: E731
    assert cubic_interpolate(0.0, p(0.0), dp(0.0), 2.0, p(2.0), dp(2.0)) == pytest.approx(1.0, abs=1e-15)
    assert cubic_interpolate(0.0, p(0.0), dp(0.0), 2.0, p(2.0), dp(2.0), bounds=(1.5, 3.0)) == 1.5
    assert cubic_interpolate(1.5, p(1.5), dp(1.5), 3.0, p(3.0), dp(3.0)) == 1.5
    # no local minimum (monotone cubic): the middle of the bounds
    q = lambda x: x ** 3 + x  # noqa: E731
    assert cubic_interpolate(0.0, q(0.0), 1.0, 1.0, q(1.0), 4.0, bounds=(2.0, 5.0)) == 3.5


def test_rosenbrock_converges_with_fewer_evaluations_than_a_fixed_step():
    evals = {}
    for ls in (None, "strong_wolfe"):
        x, opt, closure, calls = _rosenbrock(line_search_fn=ls, max_iter=200, max_eval=400, tolerance_grad=1e-10,
                                             tolerance_change=1e-14)
        opt.step(closure)
        np.testing.assert_allclose(x.detach().numpy(), [1.0, 1.0], atol=1e-6)
        evals[ls] = opt.state[x]["func_evals"]
        assert evals[ls] == len(calls)
    assert evals["strong_wolfe"] < evals[None]


def test_trajectory_matches_pytorch():
    # observed with torch 2.13 (float64): two step() calls with the default options
    x, opt, closure, calls = _rosenbrock(line_search_fn="strong_wolfe")
    first = opt.step(closure)
    assert first.item() == pytest.approx(24.2)
    opt.step(closure)
    st = opt.state[x]
    assert (st["func_evals"], st["n_iter"], len(calls)) == (44, 35, 44)
    np.testing.assert_allclose(x.detach().numpy(), [0.9999814210791366, 0.9999619651810989], rtol=1e-10)


def test_accepted_steps_satisfy_the_strong_wolfe_conditions():
    c1, c2 = 1e-4, 0.9
    x, opt, closure, _ = _rosenbrock(line_search_fn="strong_wolfe", max_iter=1, max_eval=25, tolerance_change=1e-15)
    checked = 0
    for _ in range(60):
        x0 = x.detach().numpy().copy()
        f0, g0 = _rosen_np(x0)
        if np.abs(g0).max() < 1e-6:
            break
        opt.step(closure)
        st = opt.state[x]
        d, t = st["d"].numpy(), st["t"]
        np.testing.assert_allclose(x.detach().numpy(), x0 + t * d, rtol=1e-14)
        f1, g1 = _rosen_np(x0 + t * d)
        gtd = g0 @ d
        assert gtd < 0 and t > 0
        assert f1 <= f0 + c1 * t * gtd  # sufficient decrease
        assert abs(g1 @ d) <= -c2 * gtd  # curvature
        checked += 1
    assert checked > 10 and np.abs(x.detach().numpy() - 1).max() < 1e-6


def test_strong_wolfe_on_flat_tensors():
    a = np.diag([1.0, 10.0, 100.0])
    f = lambda v: 0.5 * v @ a @ v  # noqa: E731
    x0 = np.array([1.0, 1.0, 1.0])
    g0 = a @ x0
    d = torch.from_numpy(-g0)
    seen = []

    def evaluate(t):
        v = x0 + t * (-g0)
        seen.append(t)
        return f(v), torch.from_numpy(a @ v)

    gtd = float(g0 @ -g0)
    f_new, g_new, t, n = strong_wolfe(evaluate, 1.0, d, f(x0), torch.from_numpy(g0), gtd)
    assert n == len(seen) and t in seen
    assert f_new == f(x0 + t * -g0) and np.array_equal(g_new.numpy(), a @ (x0 + t * -g0))
    assert f_new <= f(x0) + 1e-4 * t * gtd and abs(float(g_new.dot(d))) <= -0.9 * gtd
    # a budget of one evaluation: the better of the start and the trial step
    seen.clear()
    f_new, _, t, n = strong_wolfe(evaluate, 1.0, d, f(x0), torch.from_numpy(g0), gtd, max_ls=0)
    assert n == 1 and (t, f_new) == (0, f(x0))


@pytest.mark.parametrize("ls,max_eval,expected", [
    (None, 3, 3), (None, 7, 7), (None, 30, 30), ("strong_wolfe", 3, 3), ("strong_wolfe", 7, 7),
    ("strong_wolfe", 30, 30),
    # as in PyTorch, an iteration always evaluates its first trial step: a budget of 1 or 2 is exceeded by one
    (None, 1, 2), (None, 2, 2), ("strong_wolfe", 1, 2), ("strong_wolfe", 2, 3)])
def test_max_eval_is_respected(ls, max_eval, expected):
    # (counts observed with torch 2.13 on the same problem)
    x, opt, closure, calls = _rosenbrock(line_search_fn=ls, max_iter=100, max_eval=max_eval)
    opt.step(closure)
    assert len(calls) == opt.state[x]["func_evals"] == expected


def test_default_max_eval_and_first_step_size():
    x, opt, closure, calls = _rosenbrock(line_search_fn="strong_wolfe", max_iter=4)
    assert opt.param_groups[0]["max_eval"] == 5
    opt.step(closure)
    assert len(calls) <= 5
    # the first trial step is min(1, 1/|g|_1) * lr along -g
    g0 = _rosen_np(np.array([-1.2, 1.0]))[1]
    np.testing.assert_allclose(calls[1], np.array([-1.2, 1.0]) - min(1, 1 / np.abs(g0).sum()) * g0, rtol=1e-14)


def test_state_dict_round_trip_continues_the_same_trajectory():
    x, opt, closure, _ = _rosenbrock(line_search_fn="strong_wolfe", max_iter=5, history_size=3)
    opt.step(closure)
    sd = opt.state_dict()
    assert sd["param_groups"][0]["line_search_fn"] == "strong_wolfe"
    assert {"func_evals", "n_iter", "d", "t", "old_dirs", "old_stps", "ro", "H_diag", "prev_flat_grad",
            "prev_loss", "al"} <= set(sd["state"][0])
    buf = io.BytesIO()
    torch.save(sd, buf)
    buf.seek(0)
    loaded = torch.load(buf)
    y, opt2, closure2, _ = _rosenbrock(start=x.detach().numpy().tolist(), line_search_fn=None, max_iter=5,
                                       history_size=3)
    opt2.load_state_dict(loaded)
    assert opt2.param_groups[0]["line_search_fn"] == "strong_wolfe"
    for _ in range(3):
        opt.step(closure)
        opt2.step(closure2)
    np.testing.assert_array_equal(x.detach().numpy(), y.detach().numpy())
    assert opt.state[x]["func_evals"] == opt2.state[y]["func_evals"]


def test_unsupported_line_search_is_rejected():
    p = nn.Parameter(torch.ones(2))
    with pytest.raises(ValueError, match="line_search_fn='armijo'.*only 'strong_wolfe' is supported"):
        optim.LBFGS([p], line_search_fn="armijo")
    opt = optim.LBFGS([p])
    opt.param_groups[0]["line_search_fn"] = "backtracking"
    with pytest.raises(ValueError, match="'backtracking'"):
        opt.step(lambda: (p * p).sum())


class _Sequence(nn.Module):
    """The PyTorch example time_sequence_prediction model, smaller: two LSTMCells and a Linear."""

    def __init__(self, hidden=8):
        super().__init__()
        self.hidden = hidden
        self.lstm1 = nn.LSTMCell(1, hidden)
        self.lstm2 = nn.LSTMCell(hidden, hidden)
        self.linear = nn.Linear(hidden, 1)

    def forward(self, inp):
        n = inp.size(0)
        h_t = torch.zeros(n, self.hidden, dtype=torch.double)
        c_t = torch.zeros(n, self.hidden, dtype=torch.double)
        h_t2 = torch.zeros(n, self.hidden, dtype=torch.double)
        c_t2 = torch.zeros(n, self.hidden, dtype=torch.double)
        outputs = []
        for input_t in inp.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            outputs.append(self.linear(h_t2))
        return torch.cat(outputs, dim=1)


@pytest.mark.parametrize("ls", [None, "strong_wolfe"])
def test_the_pytorch_lstm_sine_example_trains(ls):
    torch.manual_seed(0)
    t = np.arange(12)[None, :] + np.random.default_rng(0).integers(-4, 4, (3, 1))
    data = np.sin(t / 3.0)
    inp, target = torch.from_numpy(data[:, :-1]), torch.from_numpy(data[:, 1:])
    seq = _Sequence().double()
    criterion = nn.MSELoss()
    optimizer = optim.LBFGS(seq.parameters(), lr=0.8, max_iter=5, line_search_fn=ls)
    losses = []

    def closure():
        optimizer.zero_grad()
        out = seq(inp)
        loss = criterion(out, target)
        loss.backward()
        return loss

    for _ in range(3):
        losses.append(optimizer.step(closure).item())
    with torch.no_grad():
        final = criterion(seq(inp), target).item()
    assert all(math.isfinite(v) for v in losses) and final < 0.5 * losses[0]


@pytest.mark.parametrize("ls", [None, "strong_wolfe"])
def test_float32_parameters_keep_float32_scalars(ls):
    a = torch.tensor([[3.0, 1.0], [1.0, 2.0]])
    b = torch.tensor([1.0, -2.0])
    x = nn.Parameter(torch.zeros(2))
    opt = optim.LBFGS([x], line_search_fn=ls, max_iter=30)

    def closure():
        opt.zero_grad()
        loss = 0.5 * x.dot(a.mv(x)) - b.dot(x)
        loss.backward()
        return loss

    opt.step(closure)
    np.testing.assert_allclose(x.detach().numpy(), np.linalg.solve(a.numpy(), b.numpy()), atol=1e-4)
    st = opt.state[x]
    # as PyTorch's 0-d tensors: the step, the Hessian scale and the curvature ratios are float32
    assert st["H_diag"].dtype == st["ro"][0].dtype == st["al"][0].dtype == torch.float32 and st["H_diag"].dim() == 0
    assert x.dtype == torch.float32
