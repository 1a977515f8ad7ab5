"""funcgrad.scipy.stats: ppf, isf and entropy against scipy.stats (edges: q = 0, 1, outside
[0, 1], NaN, scale <= 0, invalid shapes), derivatives against central differences to second
order in q, loc, scale (and the entropies' shape parameters)."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.scipy import stats as fs
from funcgrad.testing import check_grads

st = pytest.importorskip("scipy.stats")

Q = np.array([-0.1, 0.0, 1e-300, 1e-10, 0.01, 0.3, 0.5, 0.7, 0.99, 1 - 1e-12, 1.0, 1.2, np.nan])
CONTINUOUS = [
    ("norm", ()), ("expon", ()), ("laplace", ()), ("cauchy", ()), ("logistic", ()), ("uniform", ()),
    ("t", (3.5,)), ("t", (np.inf,)), ("t", (-1.0,)), ("gamma", (2.5,)), ("gamma", (0.3,)), ("gamma", (-1.0,)),
    ("chi2", (3.0,)), ("beta", (2.0, 3.0)), ("beta", (0.5, 0.7)), ("beta", (-1.0, 2.0)),
]
IDS = [f"{n}{s}" for n, s in CONTINUOUS]


@pytest.mark.parametrize("name, shapes", CONTINUOUS, ids=IDS)
def test_ppf_isf_match_scipy(name, shapes):
    for m in ("ppf", "isf"):
        for ls in ((0.0, 1.0), (0.5, 2.0), (0.0, -1.0)):
            with np.errstate(all="ignore"):
                want = getattr(getattr(st, name), m)(Q, *shapes, *ls)
            got = np.asarray(getattr(getattr(fs, name), m)(Q, *shapes, *ls))
            np.testing.assert_allclose(got, want, rtol=1e-10, equal_nan=True, err_msg=f"{name}.{m}{ls}")


@pytest.mark.parametrize("name, shapes", CONTINUOUS, ids=IDS)
def test_entropy_matches_scipy(name, shapes):
    for ls in ((0.0, 1.0), (0.5, 2.0), (0.0, -1.0), (0.0, 0.0)):
        with np.errstate(all="ignore"):
            want = getattr(st, name).entropy(*shapes, *ls)
        got = np.asarray(getattr(fs, name).entropy(*shapes, *ls))
        np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True, err_msg=f"{name}{ls}")


def test_entropy_far_shapes_match_scipy():
    """The asymptotic series where the regular formulas cancel (gamma a >= 250, t df >= 100)."""
    a = np.array([1e-3, 0.5, 249.0, 250.0, 1e4, 1e8])
    np.testing.assert_allclose(np.asarray(fs.gamma.entropy(a)), st.gamma.entropy(a), rtol=1e-12)
    df = np.array([0.5, 3.0, 99.9, 100.0, 1e5, 1e10, np.inf])
    np.testing.assert_allclose(np.asarray(fs.t.entropy(df)), st.t.entropy(df), rtol=1e-12)


# name, shapes, (loc, scale), interior probabilities
GRAD = [("norm", (), (0.5, 2.0)), ("expon", (), (-1.0, 2.0)), ("laplace", (), (0.5, 1.5)),
        ("cauchy", (), (0.3, 1.2)), ("logistic", (), (0.2, 1.3)), ("uniform", (), (-1.0, 3.0)),
        ("t", (3.5,), (0.2, 1.1)), ("gamma", (2.5,), (-1.0, 1.5)), ("chi2", (3.0,), (-0.5, 1.0)),
        ("beta", (2.0, 3.0), (-2.0, 6.0))]
QS = [0.05, 0.3, 0.6, 0.9]


@pytest.mark.parametrize("name, shapes, ls", GRAD, ids=[g[0] for g in GRAD])
def test_ppf_isf_derivatives(name, shapes, ls):
    dist = getattr(fs, name)
    for m in ("ppf", "isf"):
        f = getattr(dist, m)
        check_grads(lambda q, loc, scale: f(q, *shapes, loc, scale),
                    (fnp.asarray(QS), fnp.asarray(ls[0]), fnp.asarray(ls[1])), order=2)
    # ppf inverts cdf: d/dq cdf(ppf(q)) == 1
    g = fg.grad(lambda q: dist.cdf(dist.ppf(q, *shapes, *ls), *shapes, *ls))(0.3)
    assert float(g) == pytest.approx(1.0, rel=1e-9)


@pytest.mark.parametrize("name, shapes, ls", GRAD, ids=[g[0] for g in GRAD])
def test_entropy_derivatives(name, shapes, ls):
    dist = getattr(fs, name)
    check_grads(lambda scale: dist.entropy(*shapes, ls[0], scale), (fnp.asarray([0.7, ls[1]]),), order=2)
    if shapes:
        check_grads(lambda *p: dist.entropy(*p, *ls), tuple(fnp.asarray(p) for p in shapes), order=2)


def test_gamma_entropy_derivative_across_the_asymptotic_switch():
    check_grads(fs.gamma.entropy, (fnp.asarray([249.0, 251.0, 1e4]),), order=2)
    check_grads(fs.t.entropy, (fnp.asarray([99.0, 101.0, 1e4]),), order=2)


def test_poisson_ppf_isf_entropy():
    for mu in (0.0, 1e-3, 0.7, 2.5, 40.0, -1.0):
        for m in ("ppf", "isf"):
            for loc in (0, 2):
                with np.errstate(all="ignore"):
                    want = getattr(st.poisson, m)(Q, mu, loc)
                np.testing.assert_array_equal(np.asarray(getattr(fs.poisson, m)(Q, mu, loc)), want,
                                              err_msg=f"{m} mu={mu} loc={loc}")
    mus = np.array([0.0, 1e-3, 0.7, 2.5, 40.0, 900.0])
    np.testing.assert_allclose(np.asarray(fs.poisson.entropy(mus)), st.poisson.entropy(mus), rtol=1e-12)
    assert np.isnan(float(fs.poisson.entropy(-1.0)))
    # large mu (scipy's own summation stops early there): 0.5 log(2 pi e mu) - 1/(12 mu) + ...
    big = float(fs.poisson.entropy(1e4))
    assert big == pytest.approx(0.5 * np.log(2 * np.pi * np.e * 1e4) - 1 / (12 * 1e4), rel=1e-8)
    check_grads(fs.poisson.entropy, (fnp.asarray([0.4, 3.0, 25.0]),), order=2)
    assert float(fg.grad(lambda mu: fs.poisson.ppf(0.3, mu))(2.5)) == 0.0  # integer-valued
    with pytest.raises(ValueError, match="under vmap or jit"):
        fg.vmap(fs.poisson.entropy)(fnp.asarray([1.0, 2.0]))


def test_dirichlet_and_multivariate_normal_entropy():
    alpha = np.array([1.5, 2.0, 0.7])
    assert float(fs.dirichlet.entropy(alpha)) == pytest.approx(st.dirichlet.entropy(alpha), rel=1e-12)
    check_grads(fs.dirichlet.entropy, (fnp.asarray(alpha),), order=2)
    with pytest.raises(ValueError, match="positive"):
        fs.dirichlet.entropy(np.array([1.0, -1.0]))
    rng = np.random.default_rng(0)
    m = rng.standard_normal((3, 3))
    cov = m @ m.T + np.eye(3)
    mvn, smvn = fs.multivariate_normal, st.multivariate_normal
    for mean, c in ((np.zeros(3), cov), (None, cov), (np.zeros(3), 2.0), (np.zeros(3), np.array([1.0, 2, 3])),
                    (None, 2.5)):
        assert float(mvn.entropy(mean, c)) == pytest.approx(smvn.entropy(mean, c), rel=1e-12)
    assert float(mvn.entropy()) == pytest.approx(smvn.entropy(), rel=1e-14)
    sym = lambda c: 0.5 * (c + c.T)  # noqa: E731
    check_grads(lambda c: mvn.entropy(None, sym(c)), (fnp.asarray(cov),), order=2)
    g = fg.grad(lambda c: mvn.entropy(None, c))(fnp.asarray(cov))  # d/dC log|C| / 2 = C^-1 / 2
    np.testing.assert_allclose(np.asarray(0.5 * (g + g.T)), 0.5 * np.linalg.inv(cov), rtol=1e-10)


def test_float32_broadcasting_0d():
    q = fnp.asarray(np.array([[0.1, 0.5, 0.9]], np.float32))
    loc = fnp.asarray(np.zeros((2, 1), np.float32))
    for f in (fs.norm.ppf, fs.cauchy.isf, fs.logistic.ppf, fs.laplace.isf, lambda q, l: fs.gamma.ppf(q, 2.0, l),
              lambda q, l: fs.t.isf(q, 3.0, l), lambda q, l: fs.beta.ppf(q, 2.0, 3.0, l)):
        out = f(q, loc)
        assert out.dtype == np.float32 and out.shape == (2, 3)
    assert fs.norm.ppf(0.3).shape == () and fs.norm.entropy().shape == ()
    assert fs.gamma.entropy(fnp.asarray(np.array([1.0, 2.0], np.float32))).dtype == np.float32
    assert fs.norm.entropy(scale=fnp.asarray([[1.0], [2.0]])).shape == (2, 1)
