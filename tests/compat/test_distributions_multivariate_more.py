"""torch.distributions over vectors and matrices: LowRankMultivariateNormal, MultivariateNormal's
parameterizations, Wishart, LKJCholesky, LogisticNormal, MixtureSameFamily, the relaxed
(Gumbel-softmax) laws, and the reparameterized gamma family (Gamma, Beta, Dirichlet, StudentT)."""

import math

import numpy as np
import pytest
import scipy.special as sp
import scipy.stats as st

import funcgrad.compat as torch
from funcgrad.compat import distributions as D
from tests.compat._distribution_checks import check_grad, t64

LOC = np.array([0.5, -1.0, 2.0])
W = np.array([[1.0, 0.5], [0.2, 1.0], [-0.3, 0.4]])
DIAG = np.array([1.0, 2.0, 0.5])
COV = W @ W.T + np.diag(DIAG)


def test_lowrank_mvn_matches_the_dense_gaussian():
    d = D.LowRankMultivariateNormal(t64(LOC), t64(W), t64(DIAG))
    x = np.array([[0.3, 0.1, 1.0], [1.0, -2.0, 2.5]])
    np.testing.assert_allclose(d.log_prob(t64(x)).numpy(), st.multivariate_normal(LOC, COV).logpdf(x), rtol=1e-6)
    np.testing.assert_allclose(d.entropy().item(), st.multivariate_normal(LOC, COV).entropy(), rtol=1e-6)
    np.testing.assert_allclose(d.covariance_matrix.numpy(), COV, rtol=1e-6)
    np.testing.assert_allclose(d.precision_matrix.numpy(), np.linalg.inv(COV), rtol=1e-6)
    np.testing.assert_allclose((d.scale_tril @ d.scale_tril.mT).numpy(), COV, rtol=1e-6)
    np.testing.assert_allclose(d.variance.numpy(), np.diag(COV), rtol=1e-6)
    torch.manual_seed(0)
    s = d.rsample((100000,)).numpy()
    np.testing.assert_allclose(np.cov(s.T), COV, atol=0.05)
    check_grad(lambda loc, w, dg: D.LowRankMultivariateNormal(loc, w, dg).log_prob(t64(x)), LOC, W, DIAG)
    with pytest.raises(ValueError, match="cov_factor must be a batch of matrices with shape 3 x m"):
        D.LowRankMultivariateNormal(t64(LOC), t64(W[:2]), t64(DIAG))
    with pytest.raises(ValueError, match=r"IndependentConstraint\(GreaterThan\(lower_bound=0.0\), 1\)"):
        D.LowRankMultivariateNormal(t64(LOC), t64(W), t64(DIAG * [0.01, -0.01, 0.01]))


def test_mvn_parameterizations_agree():
    x = t64([[0.3, 0.1, 1.0]])
    ds = [D.MultivariateNormal(t64(LOC), covariance_matrix=t64(COV)),
          D.MultivariateNormal(t64(LOC), precision_matrix=t64(np.linalg.inv(COV))),
          D.MultivariateNormal(t64(LOC), scale_tril=t64(np.linalg.cholesky(COV)))]
    want = st.multivariate_normal(LOC, COV).logpdf(x.numpy())
    assert repr(ds[1]) == "MultivariateNormal(loc: torch.Size([3]), precision_matrix: torch.Size([3, 3]))"
    for d in ds:
        np.testing.assert_allclose(d.log_prob(x).numpy(), np.atleast_1d(want), rtol=1e-6)
        np.testing.assert_allclose(d.covariance_matrix.numpy(), COV, rtol=1e-6)
    with pytest.raises(ValueError, match=r"constraint PositiveDefinite\(\)"):
        D.MultivariateNormal(t64(LOC), t64(-COV))
    with pytest.raises(ValueError, match="Exactly one of covariance_matrix or precision_matrix or scale_tril"):
        D.MultivariateNormal(t64(LOC))


def test_wishart_against_scipy_and_sample_mean():
    S = np.array([[2.0, 0.5], [0.5, 1.0]])
    d = D.Wishart(t64(4.0), covariance_matrix=t64(S))
    X = np.array([[3.0, 1.0], [1.0, 2.0]])
    np.testing.assert_allclose(d.log_prob(t64(X)).item(), st.wishart(4, S).logpdf(X), rtol=1e-6)
    np.testing.assert_allclose(d.entropy().item(), st.wishart(4, S).entropy(), rtol=1e-6)
    np.testing.assert_allclose(d.mean.numpy(), 4 * S, rtol=1e-6)
    np.testing.assert_allclose(d.variance.numpy(), 4 * (S ** 2 + np.outer(np.diag(S), np.diag(S))), rtol=1e-6)
    torch.manual_seed(0)
    s = d.rsample((40000,))
    assert s.shape == (40000, 2, 2)
    np.testing.assert_allclose(s.mean(0).numpy(), 4 * S, rtol=0.03)
    df = t64(5.0).requires_grad_()
    torch.manual_seed(1)
    D.Wishart(df, scale_tril=t64(np.linalg.cholesky(S))).rsample((40000,)).mean(0)[0, 0].backward()
    np.testing.assert_allclose(df.grad.item(), S[0, 0], rtol=0.05)  # d/d df of E[X_00] = df * S_00
    with pytest.raises(ValueError, match="expected to be greater than ndim - 1 = 1"):
        D.Wishart(t64(0.5), covariance_matrix=t64(S))


def test_lkj_cholesky_log_prob_is_a_density_and_samples_are_corr_cholesky():
    d = D.LKJCholesky(2, t64(2.0))
    # for d = 2 the correlation r has density proportional to (1 - r^2)^(eta - 1) on [-1, 1]; the
    # Cholesky factor is [[1, 0], [r, sqrt(1 - r^2)]] and the density of L is that of r times |dr/dL21| = 1
    r = np.linspace(-0.999, 0.999, 7)
    L = np.zeros((7, 2, 2))
    L[:, 0, 0], L[:, 1, 0], L[:, 1, 1] = 1.0, r, np.sqrt(1 - r ** 2)
    beta = st.beta(2.0, 2.0)  # (r + 1) / 2 ~ Beta(eta, eta)
    np.testing.assert_allclose(d.log_prob(t64(L)).numpy(), beta.logpdf((r + 1) / 2) - math.log(2), rtol=1e-6)
    torch.manual_seed(0)
    s = D.LKJCholesky(4, t64(1.5)).sample((2000,))
    assert s.shape == (2000, 4, 4)
    assert bool(D.constraints.corr_cholesky.check(s).all())
    corr = (s @ s.mT).numpy()
    np.testing.assert_allclose(corr.mean(0), np.eye(4), atol=0.05)
    with pytest.raises(ValueError, match="Expected dim to be an integer greater than or equal to 2"):
        D.LKJCholesky(1)


def test_logistic_normal():
    d = D.LogisticNormal(t64([0.0, 1.0]), t64([0.5, 2.0]))
    assert d.event_shape == (3,) and d.batch_shape == ()
    y = np.array([0.2, 0.3, 0.5])
    # the inverse stick breaking: x_i = log y_i - log(1 - y_1 - ... - y_i) + log(K - 1 - i), i < K - 1

    def inverse(yc):
        return np.log(yc) - np.log(1 - np.cumsum(yc)) + np.log(np.arange(len(yc), 0, -1))

    x = inverse(y[:2])
    jac = np.array([(inverse(y[:2] + e) - inverse(y[:2] - e)) / 2e-7 for e in np.eye(2) * 1e-7]).T
    want = st.norm([0.0, 1.0], [0.5, 2.0]).logpdf(x).sum() + np.log(abs(np.linalg.det(jac)))
    np.testing.assert_allclose(d.log_prob(t64(y)).item(), want, rtol=1e-6)
    torch.manual_seed(0)
    s = d.rsample((10,))
    assert s.shape == (10, 3)
    np.testing.assert_allclose(s.sum(-1).detach().numpy(), np.ones(10), rtol=1e-6)
    check_grad(lambda m, sc: D.LogisticNormal(m, sc).log_prob(t64(y)), [0.0, 1.0], [0.5, 2.0])


def test_mixture_same_family():
    w, mu, sd = np.array([0.3, 0.7]), np.array([0.0, 2.0]), np.array([1.0, 0.5])
    d = D.MixtureSameFamily(D.Categorical(probs=t64(w)), D.Normal(t64(mu), t64(sd)))
    x = np.array([0.5, 2.0, -1.0])
    want = np.log((w * st.norm(mu, sd).pdf(x[:, None])).sum(-1))
    np.testing.assert_allclose(d.log_prob(t64(x)).numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(d.cdf(t64(x)).numpy(), (w * st.norm(mu, sd).cdf(x[:, None])).sum(-1), rtol=1e-6)
    mean = (w * mu).sum()
    np.testing.assert_allclose(d.mean.item(), mean, rtol=1e-6)
    np.testing.assert_allclose(d.variance.item(), (w * (sd ** 2 + mu ** 2)).sum() - mean ** 2, rtol=1e-6)
    torch.manual_seed(0)
    s = d.sample((100000,))
    np.testing.assert_allclose([s.mean().item(), s.var().item()], [d.mean.item(), d.variance.item()], rtol=0.03)
    check_grad(lambda lg, m, sc: D.MixtureSameFamily(D.Categorical(logits=lg), D.Normal(m, sc)).log_prob(t64(x)),
               [0.1, 0.5], mu, sd)
    mv = D.MixtureSameFamily(D.Categorical(probs=t64(w)),
                             D.Independent(D.Normal(t64([[0.0, 1.0], [2.0, 3.0]]), t64(1.0)), 1))
    assert mv.event_shape == (2,) and mv.sample((4,)).shape == (4, 2) and mv.expand((3,)).sample().shape == (3, 2)
    with pytest.raises(ValueError, match="does not equal `component_distribution.batch_shape\\[-1\\]`"):
        D.MixtureSameFamily(D.Categorical(probs=t64([0.5, 0.3, 0.2])), D.Normal(t64(mu), t64(sd)))


def test_relaxed_laws():
    temp = t64(0.5)
    rb = D.RelaxedBernoulli(temp, probs=t64([0.2, 0.7]))
    y = np.array([0.3, 0.9])
    # logistic density of logit(y) with location logit(p)/T... expressed through the change of variables
    lg, t = np.log(np.array([0.2, 0.7]) / np.array([0.8, 0.3])), 0.5
    z = np.log(y / (1 - y))
    diff = lg - z * t
    want = np.log(t) + diff - 2 * np.log1p(np.exp(diff)) - np.log(y * (1 - y))
    np.testing.assert_allclose(rb.log_prob(t64(y)).numpy(), want, rtol=1e-6)
    torch.manual_seed(0)
    s = rb.sample((100000,))
    # P(Y > 1/2) = P(logistic + logit(p) > 0) = p, whatever the temperature
    np.testing.assert_allclose((s > 0.5).double().mean(0).numpy(), [0.2, 0.7], atol=0.01)
    rc = D.RelaxedOneHotCategorical(t64(0.7), probs=t64([0.2, 0.3, 0.5]))
    assert rc.event_shape == (3,)
    torch.manual_seed(0)
    s = rc.sample((100000,))
    np.testing.assert_allclose(s.sum(-1).numpy(), np.ones(100000), rtol=1e-6)
    np.testing.assert_allclose(np.bincount(s.argmax(-1).numpy(), minlength=3) / 1e5, [0.2, 0.3, 0.5], atol=0.01)
    k, tt = 3, 0.7
    v = np.array([0.2, 0.3, 0.5])
    score = np.log([0.2, 0.3, 0.5]) - np.log(v) * tt
    want = sp.gammaln(k) + (k - 1) * np.log(tt) + (score - sp.logsumexp(score)).sum() - np.log(v).sum()
    np.testing.assert_allclose(rc.log_prob(t64(v)).item(), want, rtol=1e-6)

    def f(logits):
        torch.manual_seed(2)
        return D.RelaxedOneHotCategorical(t64(0.7), logits=logits).rsample((4,))[..., 0]
    check_grad(f, [0.1, -0.2, 0.4])


@pytest.mark.parametrize("name", ["Gamma", "Beta", "Dirichlet", "StudentT", "Chi2"])
def test_reparameterized_gamma_family(name):
    torch.manual_seed(0)
    if name == "Gamma":
        a = t64([0.4, 3.0]).requires_grad_()
        x = D.Gamma(a, t64(2.0)).rsample((200000,))
        x.mean(0).sum().backward()
        np.testing.assert_allclose(a.grad.numpy(), [0.5, 0.5], rtol=0.03)
    elif name == "Beta":
        a = t64([2.0, 3.0]).requires_grad_()
        D.Beta(a[0], a[1]).rsample((200000,)).mean().backward()
        np.testing.assert_allclose(a.grad.numpy(), [3 / 25, -2 / 25], rtol=0.05)
    elif name == "Dirichlet":
        a = t64([1.0, 2.0, 3.0]).requires_grad_()
        D.Dirichlet(a).rsample((200000,)).mean(0)[0].backward()
        np.testing.assert_allclose(a.grad.numpy(), [5 / 36, -1 / 36, -1 / 36], rtol=0.05, atol=2e-3)
    elif name == "StudentT":
        loc, scale = t64(1.0).requires_grad_(), t64(2.0).requires_grad_()
        x = D.StudentT(t64(5.0), loc, scale).rsample((200000,))
        x.abs().mean().backward()
        assert loc.grad is not None and scale.grad.item() > 0
        np.testing.assert_allclose(x.var().item(), 4 * 5 / 3, rtol=0.05)
    else:
        df = t64(3.0).requires_grad_()
        D.Chi2(df).rsample((200000,)).mean().backward()
        np.testing.assert_allclose(df.grad.item(), 1.0, rtol=0.03)


def test_dx_dalpha_of_the_gamma_sampler_matches_the_quantile_derivative():
    from funcgrad.compat.distributions.gamma_sampling import _dx_dalpha

    for a in [0.05, 1.0, 10.0, 300.0]:
        for u in [1e-4, 0.3, 0.99]:
            x = sp.gammaincinv(a, u)
            h = 1e-6 * a
            ref = (sp.gammaincinv(a + h, u) - sp.gammaincinv(a - h, u)) / (2 * h)
            np.testing.assert_allclose(_dx_dalpha(a, x), ref, rtol=1e-5)
