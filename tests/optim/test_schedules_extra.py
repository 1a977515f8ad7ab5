"""schedules.polynomial, cosine_warm_restarts, cyclic: PyTorch's PolynomialLR, CosineAnnealingWarmRestarts and
CyclicLR as functions of the step count."""

import math

import numpy as np
import pytest

from funcgrad import optim

s = optim.schedules


def test_polynomial():
    f = s.polynomial(0.5, 8, power=2.0)
    assert [f(t) for t in (0, 4, 8, 20)] == [0.5, 0.5 * 0.25, 0.0, 0.0]
    assert s.polynomial(1.0, 4)(1) == 0.75


def test_cosine_warm_restarts():
    f = s.cosine_warm_restarts(1.0, 2, T_mult=3, eta_min=0.1)  # cycles [0, 2), [2, 8), [8, 26)
    expect = {0: 1.0, 1: 0.55, 2: 1.0, 5: 0.1 + 0.9 * (1 + math.cos(math.pi * 3 / 6)) / 2, 8: 1.0,
              17: 0.1 + 0.9 * (1 + math.cos(math.pi * 9 / 18)) / 2, 9.5: 0.1 + 0.9 * (1 + math.cos(math.pi * 1.5 / 18)) / 2}
    for t, want in expect.items():
        assert math.isclose(f(t), want, rel_tol=1e-14), t
    assert s.warm_restart_position(7, 3) == (1, 3)
    g = s.cosine_warm_restarts(2.0, 5)
    np.testing.assert_allclose([g(t) for t in range(12)], [g(t % 5) for t in range(12)], rtol=1e-15)


def test_cyclic():
    tri = s.cyclic(1.0, 3.0, step_size_up=2, step_size_down=4)
    np.testing.assert_allclose([tri(t) for t in range(8)], [1.0, 2.0, 3.0, 2.5, 2.0, 1.5, 1.0, 2.0], rtol=1e-14, atol=1e-15)
    tri2 = s.cyclic(0.0, 8.0, step_size_up=1, mode="triangular2")
    np.testing.assert_allclose([tri2(t) for t in range(7)], [0.0, 8.0, 0.0, 4.0, 0.0, 2.0, 0.0], rtol=1e-14, atol=1e-15)
    exp = s.cyclic(0.0, 1.0, step_size_up=1, mode="exp_range", gamma=0.5)
    np.testing.assert_allclose([exp(t) for t in range(4)], [0.0, 0.5, 0.0, 0.125], rtol=1e-14, atol=1e-15)
    custom = s.cyclic(0.0, 1.0, step_size_up=1, scale_fn=lambda c: 1 / c)  # scale by the cycle number
    np.testing.assert_allclose([custom(t) for t in range(4)], [0.0, 1.0, 0.0, 0.5], rtol=1e-14, atol=1e-15)
    with pytest.raises(ValueError, match="mode is invalid"):
        s.cyclic(0.0, 1.0, mode="sine")


def test_schedules_drive_the_new_optimizers():
    opt = optim.adamax(s.cyclic(0.0, 1.0, step_size_up=1))
    st = opt.init([np.zeros(2)])
    upd, st = opt.update([np.ones(2)], st, [np.zeros(2)])
    assert np.all(np.asarray(upd[0]) == 0.0)  # lr(0) = base = 0
    upd, st = opt.update([np.ones(2)], st, [np.zeros(2)])
    assert np.all(np.asarray(upd[0]) < 0)
