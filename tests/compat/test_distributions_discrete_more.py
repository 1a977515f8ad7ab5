"""torch.distributions' count laws and the probs/logits plumbing: Multinomial, NegativeBinomial,
OneHotCategoricalStraightThrough, and the lazy probs/logits, modes, enumerate_support and expand
of Bernoulli, Binomial, Categorical, Geometric, Poisson."""

import math

import numpy as np
import pytest
import scipy.stats as st

import funcgrad.compat as torch
from funcgrad.compat import distributions as D
from tests.compat._distribution_checks import check_grad, t64


def test_multinomial_log_prob_entropy_moments_and_samples():
    p = np.array([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]])
    m = D.Multinomial(4, probs=t64(p))
    assert m.batch_shape == (2,) and m.event_shape == (3,)
    x = np.array([[1.0, 1.0, 2.0], [4.0, 0.0, 0.0]])
    np.testing.assert_allclose(m.log_prob(t64(x)).numpy(), [st.multinomial(4, p[i]).logpmf(x[i]) for i in range(2)],
                               rtol=1e-6)
    np.testing.assert_allclose(m.entropy().numpy(), [st.multinomial(4, p[i]).entropy() for i in range(2)], rtol=1e-6)
    np.testing.assert_allclose(m.mean.numpy(), 4 * p, rtol=1e-6)
    np.testing.assert_allclose(m.variance.numpy(), 4 * p * (1 - p), rtol=1e-6)
    torch.manual_seed(0)
    s = m.sample((20000,))
    assert s.shape == (20000, 2, 3) and s.dtype == torch.float64
    assert bool((s.sum(-1) == 4).all())
    np.testing.assert_allclose(s.mean(0).numpy(), 4 * p, atol=0.05)
    with pytest.raises(NotImplementedError, match="inhomogeneous total_count"):
        D.Multinomial(t64([3.0]), probs=t64([0.5, 0.5]))
    with pytest.raises(ValueError, match="to be within the support"):
        m.log_prob(t64([[1.0, 1.0, 3.0], [4.0, 0.0, 0.0]]))  # 5 > total_count


def test_multinomial_logits_gradient():
    x = t64([1.0, 0.0, 3.0])
    check_grad(lambda lg: D.Multinomial(4, logits=lg).log_prob(x), [0.1, -0.4, 0.7])


def test_negative_binomial_against_scipy():
    r, p = np.array([3.0, 2.5]), np.array([0.2, 0.7])
    d = D.NegativeBinomial(t64(r), probs=t64(p))
    k = np.array([1.0, 4.0])
    # PyTorch's probs is the success probability of each trial counted; scipy's p is the other one
    np.testing.assert_allclose(d.log_prob(t64(k)).numpy(), st.nbinom(r, 1 - p).logpmf(k), rtol=1e-6)
    np.testing.assert_allclose(d.mean.numpy(), st.nbinom(r, 1 - p).mean(), rtol=1e-6)
    np.testing.assert_allclose(d.variance.numpy(), st.nbinom(r, 1 - p).var(), rtol=1e-6)
    np.testing.assert_allclose(d.mode.numpy(), np.floor(np.maximum((r - 1) * p / (1 - p), 0)), rtol=1e-6)
    torch.manual_seed(0)
    s = d.sample((100000,))
    np.testing.assert_allclose(s.mean(0).numpy(), d.mean.numpy(), rtol=0.03)
    check_grad(lambda tc, lg: D.NegativeBinomial(tc, logits=lg).log_prob(t64(k)), r, [0.3, -1.0])
    with pytest.raises(ValueError, match=r"HalfOpenInterval\(lower_bound=0.0, upper_bound=1.0\)"):
        D.NegativeBinomial(t64(2.0), probs=t64(1.0))


def test_one_hot_straight_through_gradient():
    logits = t64([0.2, -0.3, 1.0]).requires_grad_()
    d = D.OneHotCategoricalStraightThrough(logits=logits)
    torch.manual_seed(0)
    s = d.rsample((7,))
    assert s.shape == (7, 3) and bool((s.detach().sum(-1) == 1).all())
    w = t64([1.0, 2.0, 3.0])
    (s * w).sum().backward()
    probs = np.exp([0.2, -0.3, 1.0]) / np.exp([0.2, -0.3, 1.0]).sum()
    jac = np.diag(probs) - np.outer(probs, probs)  # d probs / d logits
    np.testing.assert_allclose(logits.grad.numpy(), 7 * jac @ w.numpy(), rtol=1e-6)
    assert D.OneHotCategoricalStraightThrough.has_rsample and not D.OneHotCategorical.has_rsample


def test_lazy_probs_logits_and_repr():
    b = D.Bernoulli(logits=t64([0.0, 2.0]))
    assert "logits" in b.__dict__ and "probs" not in b.__dict__
    assert repr(b) == "Bernoulli(logits: torch.Size([2]))"
    np.testing.assert_allclose(b.probs.numpy(), [0.5, 1 / (1 + math.exp(-2))])
    assert repr(D.Categorical(probs=t64([0.3, 0.7]))) == "Categorical(probs: torch.Size([2]))"
    assert repr(D.Normal(0.0, 1.0)) == "Normal(loc: 0.0, scale: 1.0)"
    np.testing.assert_allclose(D.utils.probs_to_logits(t64([0.2, 0.8]), is_binary=True).numpy(),
                               np.log([0.25, 4.0]), rtol=1e-6)


def test_modes_and_enumerate_support():
    b = D.Bernoulli(probs=t64([0.2, 0.5, 0.9]))
    np.testing.assert_array_equal(b.mode.numpy(), [0.0, np.nan, 1.0])
    assert b.enumerate_support().shape == (2, 3) and b.enumerate_support(expand=False).shape == (2, 1)
    bi = D.Binomial(4, probs=t64([0.3, 0.8]))
    np.testing.assert_allclose(bi.mode.numpy(), [1.0, 4.0])
    np.testing.assert_allclose(bi.entropy().numpy(), st.binom(4, [0.3, 0.8]).entropy(), rtol=1e-6)
    assert bi.enumerate_support().shape == (5, 2)
    with pytest.raises(NotImplementedError, match="Inhomogeneous total count"):
        D.Binomial(t64([3.0, 4.0]), probs=t64([0.3, 0.8])).entropy()
    c = D.Categorical(probs=t64([[0.2, 0.8], [0.6, 0.4]]))
    np.testing.assert_array_equal(c.mode.numpy(), [1, 0])
    assert c.enumerate_support().shape == (2, 2) and c.enumerate_support().dtype == torch.int64
    oh = D.OneHotCategorical(probs=t64([0.2, 0.8]))
    np.testing.assert_array_equal(oh.enumerate_support().numpy(), np.eye(2))
    np.testing.assert_array_equal(oh.mode.numpy(), [0.0, 1.0])
    np.testing.assert_allclose(D.Poisson(t64([2.5, 0.4])).mode.numpy(), [2.0, 0.0])
    np.testing.assert_allclose(D.Geometric(t64([0.3])).log_prob(t64([2.0])).numpy(), st.geom(0.3, loc=-1).logpmf(2),
                               rtol=1e-6)


def test_expand_keeps_parameterization():
    c = D.Categorical(logits=t64([0.1, 0.2, 0.7])).expand((4, 2))
    assert c.batch_shape == (4, 2) and c.logits.shape == (4, 2, 3) and c.sample((5,)).shape == (5, 4, 2)
    assert c.log_prob(t64([[0.0, 2.0]] * 4)).shape == (4, 2)
    b = D.Binomial(3, probs=t64([0.2, 0.9])).expand((5, 2))
    assert b.total_count.shape == (5, 2) and b.sample().shape == (5, 2)
    m = D.Multinomial(3, probs=t64([0.2, 0.8])).expand((6,))
    assert m.batch_shape == (6,) and m.sample().shape == (6, 2)
    nb = D.NegativeBinomial(t64(2.0), logits=t64(0.3)).expand((3,))
    assert nb.log_prob(t64([0.0, 1.0, 2.0])).shape == (3,)


def test_validation_errors():
    with pytest.raises(ValueError, match=r"Interval\(lower_bound=0.0, upper_bound=1.0\)"):
        D.Bernoulli(probs=t64([0.5, 1.5]))
    with pytest.raises(ValueError, match="to be positive but found invalid values"):
        D.Geometric(t64([0.0, 0.5]))
    with pytest.raises(ValueError, match=r"support \(IntegerInterval\(lower_bound=0"):
        D.Binomial(t64([10.0, 5.0]), t64([0.2, 0.5])).log_prob(t64([11.0, 2.0]))
    with pytest.raises(ValueError, match=r"support \(IntegerGreaterThan\(lower_bound=0\)\)"):
        D.Poisson(t64([2.0])).log_prob(t64([1.5]))
    with pytest.raises(ValueError, match="The right-most size of value must match event_shape"):
        D.Multinomial(3, probs=t64([0.2, 0.8])).log_prob(t64([1.0, 1.0, 1.0]))
    with pytest.raises(ValueError, match="`probs` parameter must be at least one-dimensional."):
        D.Categorical(probs=t64(0.5))
