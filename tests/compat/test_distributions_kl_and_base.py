"""torch.distributions.kl (closed forms against Monte Carlo estimates and the Bregman identity,
dispatch, infinities, gradients) and the Distribution base (validation switches, expand,
sample_n, perplexity, ExponentialFamily's entropy, the torch.distributions.<module> aliases)."""

import math
import warnings

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import distributions as D
from tests.compat._distribution_checks import check_grad, t64

PAIRS = {
    "Normal-Gumbel": (lambda: D.Normal(t64([0.0, 1.0]), t64([1.0, 2.0])), lambda: D.Gumbel(t64([0.5, 0.0]), t64(1.5))),
    "Gamma-Normal": (lambda: D.Gamma(t64([2.0, 5.0]), t64([1.0, 3.0])), lambda: D.Normal(t64(1.0), t64(2.0))),
    "Beta-Uniform": (lambda: D.Beta(t64([2.0, 0.7]), t64([3.0, 1.5])), lambda: D.Uniform(t64(0.0), t64(1.0))),
    "Uniform-Gamma": (lambda: D.Uniform(t64([0.5, 1.0]), t64([1.5, 4.0])), lambda: D.Gamma(t64(2.0), t64(1.0))),
    "Pareto-Exponential": (lambda: D.Pareto(t64([1.0, 2.0]), t64([3.0, 2.5])), lambda: D.Exponential(t64(0.7))),
    "Laplace-Normal": (lambda: D.Laplace(t64([0.0, 1.0]), t64([1.0, 2.0])), lambda: D.Normal(t64(0.5), t64(1.5))),
    "CB-Normal": (lambda: D.ContinuousBernoulli(t64([0.3, 0.8])), lambda: D.Normal(t64(0.5), t64(1.5))),
    "Cauchy-Cauchy": (lambda: D.Cauchy(t64([0.0, 1.0]), t64([1.0, 2.0])), lambda: D.Cauchy(t64(0.5), t64(1.5))),
    "LowRank-MVN": (lambda: D.LowRankMultivariateNormal(t64([0.0, 1.0]), t64([[1.0], [0.5]]), t64([1.0, 2.0])),
                    lambda: D.MultivariateNormal(t64([0.5, 0.0]), t64([[2.0, 0.3], [0.3, 1.0]]))),
    "MVN-LowRank": (lambda: D.MultivariateNormal(t64([0.5, 0.0]), t64([[2.0, 0.3], [0.3, 1.0]])),
                    lambda: D.LowRankMultivariateNormal(t64([0.0, 1.0]), t64([[1.0], [0.5]]), t64([1.0, 2.0]))),
    "Binomial-Binomial": (lambda: D.Binomial(5, t64([0.2, 0.7])), lambda: D.Binomial(5, t64([0.5, 0.4]))),
    "Geometric-Geometric": (lambda: D.Geometric(t64([0.3, 0.6])), lambda: D.Geometric(t64([0.5, 0.2]))),
}


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_kl_matches_a_monte_carlo_estimate(name):
    p, q = PAIRS[name][0](), PAIRS[name][1]()
    torch.manual_seed(0)
    x = p.sample((200000,))
    mc = (p.log_prob(x) - q.log_prob(x)).mean(0).numpy()
    kl = D.kl_divergence(p, q).numpy()
    np.testing.assert_allclose(kl, mc, rtol=0.03, atol=0.01)


def test_kl_infinite_off_support_and_dispatch_errors():
    assert D.kl_divergence(D.Normal(t64(0.0), t64(1.0)), D.Exponential(t64(1.0))).item() == math.inf
    assert D.kl_divergence(D.Uniform(t64(-1.0), t64(1.0)), D.Exponential(t64(1.0))).item() == math.inf
    assert D.kl_divergence(D.Uniform(t64(0.0), t64(2.0)), D.Uniform(t64(0.5), t64(3.0))).item() == math.inf
    with pytest.raises(NotImplementedError, match="No KL\\(p \\|\\| q\\) is implemented for p type Cauchy and q type "
                                                  "Normal"):
        D.kl_divergence(D.Cauchy(t64(0.0), t64(1.0)), D.Normal(t64(0.0), t64(1.0)))
    with pytest.raises(NotImplementedError):  # two TransformedDistributions with different transforms
        D.kl_divergence(D.Gumbel(t64(0.0), t64(1.0)), D.HalfNormal(t64(1.0)))
    with pytest.raises(NotImplementedError, match="between different exponential families cannot +be computed"):
        D.kl_divergence(D.Poisson(t64(1.0)), D.Normal(t64(0.0), t64(1.0)))
    with pytest.raises(NotImplementedError, match="q.total_count > p.total_count"):
        D.kl_divergence(D.Binomial(3, t64(0.5)), D.Binomial(5, t64(0.5)))
    with pytest.raises(TypeError, match="Expected type_p to be a Distribution subclass"):
        D.register_kl(int, D.Normal)


def test_kl_expfamily_bregman_matches_the_closed_form():
    from funcgrad.compat.distributions.kl import _kl_expfamily_expfamily

    p = D.ContinuousBernoulli(t64([0.2, 0.7]))
    q = D.ContinuousBernoulli(t64([0.6, 0.3]))
    np.testing.assert_allclose(_kl_expfamily_expfamily(p, q).detach().numpy(), D.kl_divergence(p, q).numpy(),
                               rtol=1e-6)
    w1 = D.Wishart(t64(4.0), covariance_matrix=t64([[2.0, 0.5], [0.5, 1.0]]))
    w2 = D.Wishart(t64(5.0), covariance_matrix=t64([[1.0, 0.2], [0.2, 1.5]]))
    torch.manual_seed(0)
    x = w1.sample((20000,))
    mc = (w1.log_prob(x) - w2.log_prob(x)).mean().item()
    np.testing.assert_allclose(D.kl_divergence(w1, w2).item(), mc, rtol=0.05)


def test_kl_gradients_and_registration():
    check_grad(lambda a, b: D.kl_divergence(D.Gamma(a, b), D.Normal(t64(1.0), t64(2.0))), [2.0, 5.0], [1.0, 3.0])
    check_grad(lambda m, s: D.kl_divergence(D.Normal(m, s), D.Gumbel(t64(0.5), t64(1.5))), [0.0, 1.0], [1.0, 2.0])

    class MyNormal(D.Normal):
        pass

    @D.register_kl(MyNormal, D.Normal)
    def _mine(p, q):
        return p.loc * 0 + 42.0

    try:
        assert D.kl_divergence(MyNormal(t64(0.0), t64(1.0)), D.Normal(t64(0.0), t64(1.0))).item() == 42.0
        assert D.kl_divergence(D.Normal(t64(0.0), t64(1.0)), D.Normal(t64(0.0), t64(1.0))).item() == 0.0
    finally:
        from funcgrad.compat.distributions import kl as _kl
        del _kl._KL_REGISTRY[MyNormal, D.Normal]
        _kl._KL_MEMOIZE.clear()
    np.testing.assert_allclose(D.kl_divergence(D.LogNormal(t64(0.0), t64(1.0)), D.LogNormal(t64(1.0), t64(2.0))).item(),
                               math.log(2) + 2 / 8 - 0.5, rtol=1e-6)


def test_validate_args_switches():
    with pytest.raises(ValueError):
        D.Normal(t64(0.0), t64(-1.0))
    assert D.Normal(t64(0.0), t64(-1.0), validate_args=False).scale.item() == -1.0
    D.Distribution.set_default_validate_args(False)
    try:
        d = D.Exponential(t64(-1.0))
        assert d.log_prob(t64(-2.0)).shape == ()
    finally:
        D.Distribution.set_default_validate_args(True)
    with pytest.raises(ValueError):
        D.Distribution.set_default_validate_args("yes")
    with pytest.raises(ValueError, match="Value is not broadcastable with batch_shape\\+event_shape: "
                                         "torch.Size\\(\\[2\\]\\) vs torch.Size\\(\\[3\\]\\)."):
        D.Normal(t64([0.0, 0.0, 0.0]), t64(1.0)).log_prob(t64([0.0, 0.0]))
    with pytest.raises(ValueError, match=r"Expected parameter low \(Tensor of shape \(\)\) of distribution "
                                         r"Uniform\(low: 1.0, high: 0.0\) to satisfy the constraint "
                                         r"LessThan\(upper_bound=0.0\)"):
        D.Uniform(1.0, 0.0)


def test_expand_sample_n_perplexity_and_means():
    d = D.Normal(t64([0.0, 1.0]), t64(2.0))
    e = d.expand((3, 2))
    assert e.batch_shape == (3, 2) and e.loc.shape == (3, 2) and e.sample((4,)).shape == (4, 3, 2)
    with pytest.raises(RuntimeError):
        d.expand((3,))
    with pytest.warns(UserWarning, match="sample_n will be deprecated"):
        assert d.sample_n(5).shape == (5, 2)
    np.testing.assert_allclose(d.perplexity().numpy(), np.exp(d.entropy().numpy()))
    with pytest.raises(NotImplementedError, match="does not implement mean"):
        _ = D.LKJCholesky(3).mean
    ind = D.Independent(D.Normal(t64(np.zeros((4, 2))), t64(1.0)), 1).expand((5, 4))
    assert ind.batch_shape == (5, 4) and ind.event_shape == (2,) and ind.log_prob(t64(np.zeros(2))).shape == (5, 4)
    assert repr(D.Independent(D.Normal(t64(np.zeros(2)), t64(1.0)), 1)) == \
        "Independent(Normal(loc: torch.Size([2]), scale: torch.Size([2])), 1)"


def test_exponential_family_entropy_by_bregman_divergence():
    from funcgrad.compat.distributions.exp_family import ExponentialFamily

    cb = D.ContinuousBernoulli(t64([0.2, 0.7]))
    np.testing.assert_allclose(ExponentialFamily.entropy(cb).detach().numpy(), cb.entropy().numpy(), rtol=1e-6)
    w = D.Wishart(t64(4.0), covariance_matrix=t64([[2.0, 0.5], [0.5, 1.0]]))
    np.testing.assert_allclose(ExponentialFamily.entropy(w).detach().numpy(), w.entropy().numpy(), rtol=1e-6)
    for d in [D.Normal(t64([0.0, 1.0]), t64([1.0, 2.0])), D.Exponential(t64([0.5, 2.0])),
              D.Gamma(t64([2.0, 0.5]), t64([1.0, 3.0])), D.Bernoulli(t64([0.3, 0.8]))]:
        np.testing.assert_allclose(ExponentialFamily.entropy(d).detach().numpy(), d.entropy().numpy(), rtol=1e-6)
    for d in [D.Beta(t64([2.0, 0.7]), t64([3.0, 1.5])), D.Dirichlet(t64([[1.0, 2.0], [0.5, 3.0]])),
              D.Poisson(t64([1.0, 2.0]))]:  # Bregman KL of the family with itself: the closed forms
        q = type(d)(*[getattr(d, n) * 1.3 for n in d.arg_constraints])
        from funcgrad.compat.distributions.kl import _kl_expfamily_expfamily
        np.testing.assert_allclose(_kl_expfamily_expfamily(d, q).detach().numpy(), D.kl_divergence(d, q).numpy(),
                                   rtol=1e-6)
    with pytest.raises(NotImplementedError, match="does not define _mean_carrier_measure"):
        ExponentialFamily.entropy(D.ExponentialFamily(validate_args=False))


def test_module_aliases():
    import funcgrad.compat.distributions.normal as normal_module
    from funcgrad.compat.distributions.von_mises import VonMises

    assert normal_module.Normal is D.Normal and VonMises is D.VonMises
    assert D.wishart.Wishart is D.Wishart and D.transformed_distribution.TransformedDistribution is \
        D.TransformedDistribution
    assert D.exp_family.ExponentialFamily is D.ExponentialFamily and D.constraint_registry.biject_to is D.biject_to


def test_no_warnings_for_ordinary_use():
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        D.Normal(t64(0.0), t64(1.0)).log_prob(t64(0.5))
        D.Categorical(logits=t64([0.0, 1.0])).sample((3,))


@pytest.mark.parametrize("make", [
    lambda a, b: D.Gamma(a, b), lambda a, b: D.Weibull(a, b), lambda a, b: D.Kumaraswamy(a, b),
    lambda a, b: D.FisherSnedecor(a, b), lambda a, b: D.InverseGamma(a, b), lambda a, b: D.Pareto(a, b),
])
def test_float32_and_non_contiguous_parameters(make):
    base = np.array([[0.5, 1.5, 2.5], [3.0, 1.0, 0.7]], dtype=np.float32)
    a = torch.tensor(base).t()  # a non-contiguous (3, 2) view
    b = torch.tensor(base[::-1].copy()).t()
    assert not a.is_contiguous()
    d = make(a, b)
    ref = make(a.contiguous(), b.contiguous())
    torch.manual_seed(0)
    s = d.sample((4,))
    assert s.dtype == torch.float32 and s.shape == (4, 3, 2)
    x = ref.sample()
    np.testing.assert_allclose(d.log_prob(x).numpy(), ref.log_prob(x).numpy(), rtol=1e-6)
    assert d.log_prob(x).dtype == torch.float32
    assert make(a[0, 0], b[0, 0]).sample().shape == ()  # 0-d parameters
    assert make(a[:0], b[:0]).sample((2,)).shape == (2, 0, 2)  # empty batch
