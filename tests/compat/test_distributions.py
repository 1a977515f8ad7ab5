"""torch.distributions (Categorical, Normal, Bernoulli, kl_divergence): PyTorch's formulas and shapes."""

import math

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat.distributions import Bernoulli, Categorical, Normal, kl_divergence


def test_categorical():
    c = Categorical(probs=torch.tensor([[0.2, 0.8], [1.0, 1.0]]))  # rows are normalised
    assert c.batch_shape == (2,) and c.event_shape == () and c.param_shape == (2, 2)
    np.testing.assert_allclose(c.probs.numpy(), [[0.2, 0.8], [0.5, 0.5]], rtol=1e-6)
    np.testing.assert_allclose(c.log_prob(torch.tensor([1, 0])).numpy(), np.log([0.8, 0.5]), rtol=1e-6)
    np.testing.assert_allclose(c.entropy().numpy(), [-(0.2 * math.log(0.2) + 0.8 * math.log(0.8)), math.log(2)],
                               rtol=1e-6)
    s = c.sample((3,))
    assert s.shape == (3, 2) and s.dtype == torch.int64
    torch.manual_seed(0)
    draws = Categorical(logits=torch.tensor([0.0, math.log(2), math.log(7)])).sample((20000,))
    np.testing.assert_allclose([(draws == k).float().mean().item() for k in range(3)], [0.1, 0.2, 0.7], atol=0.02)
    logits = torch.zeros(3, requires_grad=True)
    Categorical(logits=logits).log_prob(torch.tensor(2)).backward()  # REINFORCE's gradient
    np.testing.assert_allclose(logits.grad.numpy(), [-1 / 3, -1 / 3, 2 / 3], rtol=1e-6)
    with pytest.raises(ValueError, match="constraint Simplex"):
        Categorical(probs=torch.tensor([0.5, -0.1]))
    with pytest.raises(ValueError, match="Either `probs` or `logits`"):
        Categorical()


def test_normal_and_rsample_gradient():
    n = Normal(torch.tensor([0.0, 1.0]), 2.0)
    assert n.batch_shape == (2,) and n.sample((3,)).shape == (3, 2) and n.variance.tolist() == [4.0, 4.0]
    want = -0.5 ** 2 / 8 - math.log(2) - 0.5 * math.log(2 * math.pi)
    np.testing.assert_allclose(n.log_prob(torch.tensor([0.5, 1.5])).numpy(), [want, want], rtol=1e-6)
    np.testing.assert_allclose(n.entropy().numpy(), 0.5 + 0.5 * math.log(2 * math.pi) + math.log(2), rtol=1e-6)
    mu = torch.tensor([0.5], requires_grad=True)
    Normal(mu, 1.0).rsample((100,)).mean().backward()
    np.testing.assert_allclose(mu.grad.numpy(), [1.0], rtol=1e-6)
    assert not Normal(mu, 1.0).sample().requires_grad
    with pytest.raises(ValueError, match="GreaterThan"):
        Normal(torch.zeros(2), torch.tensor([1.0, -1.0]))


def test_bernoulli_and_kl():
    b = Bernoulli(logits=torch.tensor([0.0, 2.0]))
    np.testing.assert_allclose(b.probs.numpy(), [0.5, 1 / (1 + math.exp(-2))], rtol=1e-6)
    np.testing.assert_allclose(b.log_prob(torch.tensor([1.0, 0.0])).numpy(), [math.log(0.5), -2 - math.log1p(math.exp(-2))],
                               rtol=1e-5)
    assert b.sample((4,)).dtype == torch.float32 and set(b.sample((50,)).unique().tolist()) <= {0.0, 1.0}
    np.testing.assert_allclose(kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0)).item(),
                               math.log(2) + (1 + 1) / 8 - 0.5, rtol=1e-6)
    p = Categorical(probs=torch.tensor([0.2, 0.8]))
    np.testing.assert_allclose(kl_divergence(p, Categorical(logits=torch.zeros(2))).item(),
                               0.2 * math.log(0.4) + 0.8 * math.log(1.6), rtol=1e-6)
    np.testing.assert_allclose(kl_divergence(Bernoulli(probs=0.3), Bernoulli(probs=0.6)).item(),
                               0.3 * math.log(0.5) + 0.7 * math.log(0.7 / 0.4), rtol=1e-5)
    with pytest.raises(NotImplementedError, match="No KL"):
        kl_divergence(p, Normal(0.0, 1.0))
