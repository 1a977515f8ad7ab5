"""torch.distributions' half-line and bounded continuous laws (HalfCauchy, Pareto, Weibull,
InverseGamma, GeneralizedPareto, FisherSnedecor, Kumaraswamy, ContinuousBernoulli, VonMises):
log_prob / cdf / icdf / entropy / moments against scipy.stats or closed forms, sample moments,
gradients through log_prob and rsample against finite differences."""

import math

import numpy as np
import pytest
import scipy.special as sp
import scipy.stats as st

import funcgrad.compat as torch
from funcgrad.compat import distributions as D
from tests.compat._distribution_checks import check_grad, t64


def _kumaraswamy_pdf(x, a, b):
    return a * b * x ** (a - 1) * (1 - x ** a) ** (b - 1)


def _cb_pdf(x, lam):
    c = 2 * np.arctanh(1 - 2 * lam) / (1 - 2 * lam)
    return c * lam ** x * (1 - lam) ** (1 - x)


# name -> (make(params...), params, scipy frozen law or None, test points)
CASES = {
    "HalfCauchy": (lambda s: D.HalfCauchy(s), ([1.0, 2.5],), lambda s: st.halfcauchy(scale=s), [0.3, 4.0]),
    "Pareto": (lambda s, a: D.Pareto(s, a), ([1.0, 2.0], [3.0, 4.5]), lambda s, a: st.pareto(a, scale=s), [1.5, 3.0]),
    "Weibull": (lambda s, k: D.Weibull(s, k), ([1.0, 2.0], [0.7, 2.5]), lambda s, k: st.weibull_min(k, scale=s),
                [0.5, 3.0]),
    "InverseGamma": (lambda a, b: D.InverseGamma(a, b), ([2.5, 3.0], [2.0, 0.5]),
                     lambda a, b: st.invgamma(a, scale=b), [0.5, 3.0]),
    "GeneralizedPareto": (lambda m, s, c: D.GeneralizedPareto(m, s, c), ([0.0, 1.0], [1.0, 2.0], [0.3, -0.2]),
                          lambda m, s, c: st.genpareto(c, loc=m, scale=s), [0.5, 3.0]),
    "FisherSnedecor": (lambda a, b: D.FisherSnedecor(a, b), ([3.0, 6.0], [9.0, 12.0]), lambda a, b: st.f(a, b),
                       [0.5, 3.0]),
    "VonMises": (lambda m, k: D.VonMises(m, k), ([0.0, 1.0], [0.5, 4.0]), lambda m, k: st.vonmises(k, loc=m),
                 [0.3, 2.0]),
    "Kumaraswamy": (lambda a, b: D.Kumaraswamy(a, b), ([2.0, 0.5], [3.0, 1.5]), None, [0.3, 0.9]),
    "ContinuousBernoulli": (lambda p: D.ContinuousBernoulli(p), ([0.2, 0.8],), None, [0.3, 0.9]),
}


def _law(name):
    make, params, ref, x = CASES[name]
    return make(*[t64(p) for p in params]), params, ref, np.asarray(x)


@pytest.mark.parametrize("name", sorted(CASES))
def test_log_prob_against_reference(name):
    d, params, ref, x = _law(name)
    got = d.log_prob(t64(x)).numpy()
    if ref is not None:
        want = ref(*[np.asarray(p) for p in params]).logpdf(x)
    elif name == "Kumaraswamy":
        want = np.log(_kumaraswamy_pdf(x, *[np.asarray(p) for p in params]))
    else:
        want = np.log(_cb_pdf(x, np.asarray(params[0])))
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert d.batch_shape == (2,) and d.event_shape == ()


@pytest.mark.parametrize("name", ["HalfCauchy", "Pareto", "Weibull", "InverseGamma", "GeneralizedPareto"])
def test_cdf_icdf_entropy_mean_variance_against_scipy(name):
    d, params, ref, x = _law(name)
    law = ref(*[np.asarray(p) for p in params])
    np.testing.assert_allclose(d.cdf(t64(x)).numpy(), law.cdf(x), rtol=1e-6)
    if name != "InverseGamma":  # its base Gamma has no icdf, as PyTorch's
        np.testing.assert_allclose(d.icdf(t64([0.3, 0.6])).numpy(), law.ppf([0.3, 0.6]), rtol=1e-6)
    np.testing.assert_allclose(d.entropy().numpy(), law.entropy(), rtol=1e-6)
    if name != "HalfCauchy":
        np.testing.assert_allclose(d.mean.numpy(), law.mean(), rtol=1e-6)
        np.testing.assert_allclose(d.variance.numpy(), law.var(), rtol=1e-6)


def test_kumaraswamy_and_continuous_bernoulli_closed_forms():
    k = D.Kumaraswamy(t64([2.0, 0.5]), t64([3.0, 1.5]))
    a, b = np.array([2.0, 0.5]), np.array([3.0, 1.5])
    x = np.array([0.3, 0.9])
    np.testing.assert_allclose(k.cdf(t64(x)).numpy(), 1 - (1 - x ** a) ** b, rtol=1e-6)
    u = np.array([0.3, 0.6])
    np.testing.assert_allclose(k.icdf(t64(u)).numpy(), (1 - (1 - u) ** (1 / b)) ** (1 / a), rtol=1e-6)
    grid = np.linspace(1e-6, 1 - 1e-6, 200001)
    for i in range(2):
        pdf = _kumaraswamy_pdf(grid, a[i], b[i])
        np.testing.assert_allclose(k.mean[i].item(), np.trapezoid(grid * pdf, grid), rtol=2e-3)
    cb = D.ContinuousBernoulli(t64([0.2, 0.5, 0.8]))
    lam = np.array([0.2, 0.5, 0.8])
    grid = np.linspace(0, 1, 200001)
    for i in range(3):
        pdf = _cb_pdf(grid, lam[i]) if lam[i] != 0.5 else np.ones_like(grid)
        np.testing.assert_allclose(cb.mean[i].item(), np.trapezoid(grid * pdf, grid), rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(cb.entropy()[i].item(), -np.trapezoid(pdf * np.log(pdf), grid), rtol=1e-5,
                                   atol=1e-7)
    np.testing.assert_allclose(cb.cdf(cb.icdf(t64([0.1, 0.5, 0.95]))).numpy(), [0.1, 0.5, 0.95], rtol=1e-6)


def test_von_mises_moments_and_samples():
    d = D.VonMises(t64([0.5, -2.0]), t64([0.5, 4.0]))
    k = np.array([0.5, 4.0])
    np.testing.assert_allclose(d.variance.numpy(), 1 - sp.i1(k) / sp.i0(k), rtol=1e-6)  # circular variance
    torch.manual_seed(0)
    s = d.sample((40000,))
    assert s.shape == (40000, 2) and bool((s >= -math.pi).all()) and bool((s < math.pi).all())
    mean_dir = np.angle(np.exp(1j * s.numpy()).mean(0))
    np.testing.assert_allclose(mean_dir, [0.5, -2.0], atol=0.05)
    with pytest.raises(NotImplementedError):
        d.rsample()


@pytest.mark.parametrize("name", ["HalfCauchy", "Pareto", "Weibull", "GeneralizedPareto", "Kumaraswamy",
                                  "ContinuousBernoulli", "InverseGamma", "FisherSnedecor"])
def test_sample_moments(name):
    d, params, _, _ = _law(name)
    torch.manual_seed(1)
    s = d.sample((200000,)).numpy()
    assert s.shape == (200000, 2)
    if name == "HalfCauchy":  # no mean: check the median (= scale)
        np.testing.assert_allclose(np.median(s, 0), params[0], rtol=0.03)
        return
    if name == "FisherSnedecor":  # infinite variance for df2 <= 4 does not arise here; medians are robust
        np.testing.assert_allclose(np.median(s, 0), st.f(*[np.asarray(p) for p in params]).median(), rtol=0.03)
        return
    np.testing.assert_allclose(s.mean(0), d.mean.numpy(), rtol=0.03)


@pytest.mark.parametrize("name", sorted(CASES))
def test_log_prob_gradient_matches_finite_differences(name):
    make, params, _, x = CASES[name]
    check_grad(lambda *p: make(*p).log_prob(t64(x)), *params)


@pytest.mark.parametrize("name", ["HalfCauchy", "Pareto", "Weibull", "GeneralizedPareto", "Kumaraswamy",
                                  "ContinuousBernoulli"])
def test_rsample_gradient_matches_finite_differences_at_a_fixed_seed(name):
    make, params, _, _ = CASES[name]

    def f(*p):
        torch.manual_seed(3)
        return make(*p).rsample((5,))
    check_grad(f, *params, rtol=1e-4, atol=1e-6)


def test_gamma_based_rsample_gradients_are_unbiased():
    # E[X] of InverseGamma(a, b) is b / (a - 1); of FisherSnedecor(d1, d2) is d2 / (d2 - 2)
    a, b = t64(3.0).requires_grad_(), t64(2.0).requires_grad_()
    torch.manual_seed(0)
    D.InverseGamma(a, b).rsample((400000,)).mean().backward()
    np.testing.assert_allclose([a.grad.item(), b.grad.item()], [-2.0 / 4.0, 0.5], rtol=0.03)
    d2 = t64(12.0).requires_grad_()
    torch.manual_seed(0)
    D.FisherSnedecor(t64(5.0), d2).rsample((400000,)).mean().backward()
    np.testing.assert_allclose(d2.grad.item(), -2.0 / 100.0, rtol=0.1)


def test_shapes_broadcasting_and_expand():
    d = D.Weibull(t64([[1.0], [2.0]]), t64([0.5, 1.0, 3.0]))
    assert d.batch_shape == (2, 3) and d.sample((4,)).shape == (4, 2, 3)
    assert d.log_prob(t64([0.5, 1.0, 2.0])).shape == (2, 3)
    e = D.Pareto(t64(1.0), t64(3.0)).expand((5, 2))
    assert e.batch_shape == (5, 2) and e.rsample((3,)).shape == (3, 5, 2)
    np.testing.assert_allclose(e.log_prob(t64(2.0)).numpy(), np.full((5, 2), st.pareto(3.0).logpdf(2.0)), rtol=1e-6)
    g = D.GeneralizedPareto(0.0, 1.0, -0.5)  # bounded support [0, 2]
    assert g.support.check(t64(1.9)).item() and not g.support.check(t64(2.1)).item()
    assert D.HalfCauchy(1.0).sample().shape == ()


def test_validation_errors():
    with pytest.raises(ValueError, match=r"Expected parameter scale .* to satisfy the constraint "
                                         r"GreaterThan\(lower_bound=0.0\)"):
        D.HalfCauchy(t64([1.0, -1.0]))
    with pytest.raises(ValueError, match="Expected parameter concentration"):
        D.Weibull(t64(1.0), t64(-2.0))
    with pytest.raises(ValueError, match=r"to be within the support \(GreaterThanEq\(lower_bound=0.0\)\)"):
        D.HalfCauchy(t64(1.0)).log_prob(t64(-1.0))
    with pytest.raises(ValueError, match="to be within the support"):
        D.Kumaraswamy(t64(1.0), t64(2.0)).log_prob(t64(1.5))
    with pytest.raises(ValueError, match="The value argument to log_prob must be a Tensor"):
        D.VonMises(t64(0.0), t64(1.0)).log_prob(0.3)
    with pytest.raises(ValueError, match="Either `probs` or `logits`"):
        D.ContinuousBernoulli()
    assert D.Pareto(t64(1.0), t64(2.0), validate_args=False).log_prob(t64(0.5)).shape == ()
