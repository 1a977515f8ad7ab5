"""torch.autograd.forward_ad: tangents against closed forms and finite differences; levels; errors."""

import numpy as np
import pytest

import funcgrad.compat as torch
import funcgrad.compat.autograd.forward_ad as fwAD


def test_tangent_of_elementwise_and_reductions():
    x = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64)
    t = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        y = (d * d).sin()
        p, tan = fwAD.unpack_dual(y)
        np.testing.assert_allclose(p.detach().numpy(), np.sin(x.numpy() ** 2))
        np.testing.assert_allclose(tan.numpy(), np.cos(x.numpy() ** 2) * 2 * x.numpy() * t.numpy())
        s = fwAD.unpack_dual(y.sum()).tangent
        np.testing.assert_allclose(s.numpy(), tan.numpy().sum())
        assert fwAD.unpack_dual(d).tangent is not None
        np.testing.assert_array_equal(fwAD.unpack_dual(d).tangent.numpy(), t.numpy())
        assert fwAD.unpack_dual(x).tangent is None  # the primal itself carries no tangent
        assert fwAD.unpack_dual(torch.ones(3)).tangent is None
        z = fwAD.unpack_dual(d * 0.0).tangent
        np.testing.assert_array_equal(z.numpy(), np.zeros(3))
    assert fwAD.unpack_dual(d).tangent is None  # the level is closed


def test_module_and_two_duals_against_finite_differences():
    rng = np.random.default_rng(0)
    lin = torch.nn.Linear(3, 2).double()
    a, b = (torch.tensor(rng.standard_normal(3)) for _ in range(2))
    ta, tb = (torch.tensor(rng.standard_normal(3)) for _ in range(2))

    def f(x, y):
        return torch.tanh(lin(x * y)) + x.exp().sum()

    with fwAD.dual_level():
        got = fwAD.unpack_dual(f(fwAD.make_dual(a, ta), fwAD.make_dual(b, tb))).tangent
    eps = 1e-6
    with torch.no_grad():
        fd = (f(a + eps * ta, b + eps * tb) - f(a - eps * ta, b - eps * tb)) / (2 * eps)
    np.testing.assert_allclose(got.numpy(), fd.numpy(), rtol=1e-6, atol=1e-8)


def test_primal_keeps_reverse_mode():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with fwAD.dual_level() as level:
        assert level == 0
        d = fwAD.make_dual(x, torch.ones(2))
        p, tan = fwAD.unpack_dual((d ** 3).sum(), level=level)
        np.testing.assert_allclose(tan.numpy(), 3 * (1 + 4))
        p.backward()
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 12.0])


def test_enter_exit_and_errors():
    with pytest.raises(RuntimeError, match="no level exists"):
        fwAD.make_dual(torch.randn(3), torch.randn(3))
    lvl = fwAD.enter_dual_level()
    try:
        with pytest.raises(RuntimeError, match="Nested forward mode AD is not supported"):
            fwAD.enter_dual_level()
        with pytest.raises(RuntimeError, match="different size than that of the original Tensor"):
            fwAD.make_dual(torch.randn(3), torch.randn(2))
        with pytest.raises(ValueError, match="Expected primal to be floating point or complex"):
            fwAD.make_dual(torch.arange(3), torch.randn(3))
    finally:
        fwAD.exit_dual_level(level=lvl)
    t = torch.randn(2)
    assert fwAD.unpack_dual(t) == (t, None)


def test_multithreading_flag():
    assert torch.autograd.is_multithreading_enabled()
    with torch.autograd.set_multithreading_enabled(False):
        assert not torch.autograd.is_multithreading_enabled()
    assert torch.autograd.is_multithreading_enabled()
    with pytest.raises(TypeError, match="must be bool"):
        torch.autograd.set_multithreading_enabled(1)
