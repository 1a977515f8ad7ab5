"""funcgrad.scipy.stats: values against scipy.stats, derivatives (in the variate and the
parameters) against finite differences to second order, support edges."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.scipy import stats as fs
from funcgrad.testing import check_grads

st = pytest.importorskip("scipy.stats")

# name, shape parameters, (loc, scale), interior points (standardised) for gradient checks
CONTINUOUS = [
    ("norm", (), (0.5, 2.0), [-2.0, 0.3, 1.5]),
    ("expon", (), (-1.0, 2.0), [0.2, 1.0, 3.0]),
    ("laplace", (), (0.5, 1.5), [-1.5, -0.3, 0.7]),
    ("cauchy", (), (0.3, 1.2), [-3.0, 0.0, 0.5, 4.0]),
    ("logistic", (), (0.2, 1.3), [-2.0, 0.1, 3.0]),
    ("uniform", (), (-1.0, 3.0), [0.1, 0.5, 0.9]),
    ("t", (3.5,), (0.2, 1.1), [-2.0, 0.0, 0.4, 3.0]),
    ("gamma", (2.5,), (-1.0, 1.5), [0.3, 1.0, 4.0]),
    ("chi2", (3.0,), (-0.5, 1.0), [0.5, 2.0, 5.0]),
    ("beta", (2.0, 3.0), (-2.0, 6.0), [0.1, 0.4, 0.8]),
]
METHODS = ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf")


@pytest.mark.parametrize("name, shapes, ls, _", CONTINUOUS, ids=[c[0] for c in CONTINUOUS])
def test_continuous_values_match_scipy(name, shapes, ls, _):
    x = np.linspace(-3.0, 6.0, 37)
    for m in METHODS:
        got = np.asarray(getattr(getattr(fs, name), m)(x, *shapes, *ls))
        want = getattr(getattr(st, name), m)(x, *shapes, *ls)
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-300, err_msg=f"{name}.{m}")


@pytest.mark.parametrize("name, shapes, ls, z", CONTINUOUS, ids=[c[0] for c in CONTINUOUS])
def test_continuous_gradients(name, shapes, ls, z):
    """Derivatives in x, loc, scale (and the density's in the shape parameters)."""
    dist = getattr(fs, name)
    loc, scale = ls
    x = fnp.asarray(np.asarray(z) * scale + loc)
    for m in METHODS:
        f = getattr(dist, m)
        check_grads(lambda x, loc, scale: f(x, *shapes, loc, scale), (x, fnp.asarray(loc), fnp.asarray(scale)), order=2)
    if shapes:
        check_grads(lambda *p: dist.logpdf(x, *p, loc, scale), tuple(fnp.asarray(p) for p in shapes), order=2)


def test_poisson_matches_scipy_and_differentiates_in_mu():
    k = np.arange(-1, 9.0)
    for m in ("logpmf", "pmf", "cdf", "logcdf", "sf", "logsf"):
        np.testing.assert_allclose(np.asarray(getattr(fs.poisson, m)(k, 2.5)), getattr(st.poisson, m)(k, 2.5),
                                   rtol=1e-10, err_msg=m)
        np.testing.assert_allclose(np.asarray(getattr(fs.poisson, m)(k, 2.5, 1)), getattr(st.poisson, m)(k, 2.5, 1),
                                   rtol=1e-10, err_msg=m)
    assert float(fs.poisson.logpmf(2.5, 1.0)) == -np.inf
    kk = fnp.asarray([0.0, 1.0, 3.0, 7.0])
    for m in ("logpmf", "pmf", "cdf", "sf", "logcdf", "logsf"):
        check_grads(lambda mu: getattr(fs.poisson, m)(kk, mu), (fnp.asarray(2.5),), order=2)
    g = fg.grad(lambda mu: fnp.sum(fs.poisson.logpmf(kk, mu)))(2.5)
    assert float(g) == pytest.approx(float(np.sum(np.asarray(kk) / 2.5 - 1)))


def test_dirichlet():
    x = np.array([[0.2, 0.3, 0.6], [0.5, 0.1, 0.3], [0.3, 0.6, 0.1]])
    alpha = np.array([1.5, 2.0, 0.7])
    np.testing.assert_allclose(np.asarray(fs.dirichlet.logpdf(x, alpha)), st.dirichlet.logpdf(x, alpha), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(fs.dirichlet.pdf(x[:, 0], alpha)), st.dirichlet.pdf(x[:, 0], alpha), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(fs.dirichlet.logpdf(x[:2], alpha)), st.dirichlet.logpdf(x[:2], alpha), rtol=1e-12)
    check_grads(lambda a: fs.dirichlet.logpdf(x, a), (fnp.asarray(alpha),), order=2)
    with pytest.raises(ValueError, match="sum to 1"):
        fs.dirichlet.logpdf(x * 2, alpha)
    with pytest.raises(ValueError, match="first axis"):
        fs.dirichlet.logpdf(x.T[:, :1].reshape(1, 3), alpha)


@pytest.mark.parametrize("f, args, x", [(fs.gamma.logpdf, (2.0,), -1.0), (fs.beta.logpdf, (2.0, 3.0), 1.5),
                                        (fs.expon.logpdf, (), -0.5), (fs.uniform.logpdf, (), 2.0)])
def test_support_edges_have_zero_gradients(f, args, x):
    """Outside the support: logpdf -inf, gradient exactly 0 (no NaN from the unused branch)."""
    assert float(f(x, *args)) == -np.inf
    assert float(fg.grad(lambda v: f(v, *args))(x)) == 0.0
    g0 = fg.grad(lambda v: fnp.where(fnp.isfinite(f(v, *args)), f(v, *args), 0.0))(x)
    assert float(g0) == 0.0


def test_t_cdf_derivative_at_the_center_is_the_density():
    for df in (1.0, 3.5):
        g = fg.grad(lambda x: fs.t.cdf(x, df))(0.0)
        assert float(g) == pytest.approx(st.t.pdf(0.0, df), rel=1e-12)
    assert float(fg.grad(fs.cauchy.cdf)(0.0)) == pytest.approx(1 / np.pi, rel=1e-14)
    x = np.linspace(-50, 50, 201)
    np.testing.assert_allclose(np.asarray(fs.cauchy.cdf(x)), st.cauchy.cdf(x), rtol=1e-13)  # (0.5 - small in the tail)


def test_norm_far_tails_and_bad_scale():
    x = np.array([-40.0, -10.0, 10.0, 40.0])
    np.testing.assert_allclose(np.asarray(fs.norm.logcdf(x)), st.norm.logcdf(x), rtol=1e-13)
    np.testing.assert_allclose(np.asarray(fs.norm.logsf(x)), st.norm.logsf(x), rtol=1e-13)
    g = fg.grad(lambda v: fnp.sum(fs.norm.logcdf(v)))(fnp.asarray(x))
    assert np.isfinite(np.asarray(g)).all()
    assert np.isnan(float(fs.norm.logpdf(0.0, 0.0, -1.0)))
    assert np.isnan(np.asarray(fs.gamma.cdf(1.0, 2.0, 0.0, fnp.asarray([-1.0])))).all()


def test_float32_and_broadcasting():
    x = fnp.asarray(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
    loc = fnp.asarray(np.zeros((2, 1), np.float32))
    for f in (fs.norm.logpdf, fs.norm.cdf, fs.logistic.logpdf, fs.cauchy.cdf, fs.laplace.sf):
        out = f(x, loc, 1.0)
        assert out.dtype == np.float32 and out.shape == (2, 3)
    assert fs.t.logpdf(x, 3.0).dtype == np.float32
    assert fs.gamma.logpdf(x + 2, 2.0).dtype == np.float32
    assert fs.chi2.cdf(x + 2, 3.0).dtype == np.float32


def test_on_every_device(device):
    x = fnp.asarray([-1.0, 0.0, 0.5, 2.0])
    for f, args, want in [(fs.norm.logpdf, (), st.norm.logpdf), (fs.t.cdf, (2.5,), st.t.cdf),
                          (fs.gamma.logpdf, (2.0,), st.gamma.logpdf), (fs.cauchy.cdf, (), st.cauchy.cdf)]:
        out = f(x, *args)
        assert str(out.device).startswith(device)
        np.testing.assert_allclose(np.asarray(fg.device_put(out, "cpu")), want(np.array([-1.0, 0.0, 0.5, 2.0]), *args),
                                   rtol=1e-12)
        g = fg.grad(lambda v: fnp.sum(fnp.where(fnp.isfinite(f(v, *args)), f(v, *args), 0.0)))(x)
        assert np.isfinite(np.asarray(fg.device_put(g, "cpu"))).all()


def test_multivariate_normal():
    rng = np.random.default_rng(1)
    m = rng.standard_normal((3, 3))
    cov = m @ m.T + np.eye(3)
    mean = rng.standard_normal(3)
    x = rng.standard_normal((5, 3))
    mvn = fs.multivariate_normal
    np.testing.assert_allclose(np.asarray(mvn.logpdf(x, mean, cov)), st.multivariate_normal.logpdf(x, mean, cov), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(mvn.pdf(x[0], mean, cov)), st.multivariate_normal.pdf(x[0], mean, cov), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(mvn.logpdf(x, None, 2.0)), st.multivariate_normal.logpdf(x, np.zeros(3), 2.0), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(mvn.logpdf(x, mean, np.diag(cov))), st.multivariate_normal.logpdf(x, mean, np.diag(cov)), rtol=1e-12)
    assert mvn.logpdf(x.reshape(5, 1, 3), mean, cov).shape == (5, 1)
    sym = lambda c: 0.5 * (c + c.T)  # noqa: E731  (the derivative is that of the symmetric part)
    check_grads(lambda x, mu, c: mvn.logpdf(x, mu, sym(c)), (fnp.asarray(x), fnp.asarray(mean), fnp.asarray(cov)), order=2)
    g = fg.grad(lambda mu: fnp.sum(mvn.logpdf(x, mu, cov)))(fnp.asarray(mean))
    np.testing.assert_allclose(np.asarray(g), np.linalg.solve(cov, (x - mean).sum(0)), rtol=1e-10)
    with pytest.raises(ValueError, match="shape"):
        mvn.logpdf(x, mean, np.eye(2))
    with pytest.raises(np.linalg.LinAlgError):
        mvn.logpdf(x, mean, -np.eye(3))
