"""funcgrad.scipy.special's scipy-valued additions (_special_prims.py, _special_cdfs.py,
_special_polys.py): values against scipy (edges included), derivatives against central
differences to second order in both modes, and against closed forms."""

import math

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.special as fsp
from funcgrad.core import MissingRuleError
from funcgrad.testing import check_grads

ss = pytest.importorskip("scipy.special")

EDGE = np.array([-np.inf, -3.0, -1.0, -0.5, -0.0, 0.0, 1e-300, 0.2, 0.5, 0.9, 1.0, 2.5, 30.0, np.inf, np.nan])
PROB = np.array([-0.1, 0.0, 1e-300, 1e-12, 0.01, 0.3, 0.5, 0.9, 1 - 1e-12, 1.0, 1.5, np.nan])
POS = np.array([0.0, 0.3, 1.0, 2.5, np.inf, np.nan, -1.0])

# name, leading (fixed) arguments, grid of the last argument
VALUES = [
    ("ndtri", (), PROB), ("ndtri_exp", (), np.array([-800.0, -20.0, -1.0, -1e-10, 0.0, 1.0, -np.inf, np.nan])),
    ("gammaincinv", (2.5,), PROB), ("gammainccinv", (0.3,), PROB), ("betaincinv", (1.5, 0.7), PROB),
    ("betainccinv", (1.5, 0.7), PROB), ("betaincc", (1.5, 0.7), PROB), ("stdtr", (3.5,), EDGE),
    ("stdtrit", (3.5,), PROB), ("gammasgn", (), EDGE), ("erfcx", (), EDGE), ("erfi", (), EDGE), ("dawsn", (), EDGE),
    ("exp1", (), EDGE), ("expi", (), EDGE), ("expn", (3,), EDGE), ("owens_t", (0.7,), EDGE), ("spence", (), EDGE),
    ("k0", (), EDGE), ("k1", (), EDGE), ("k0e", (), EDGE), ("k1e", (), EDGE), ("kv", (1.5,), EDGE),
    ("kve", (0.5,), EDGE), ("kn", (2,), EDGE), ("yv", (1.5,), EDGE), ("poch", (2.5,), EDGE), ("binom", (4.5,), EDGE),
    ("pdtr", (3,), POS), ("pdtrc", (3,), POS), ("pdtri", (3,), PROB), ("gdtr", (1.5, 2.5), EDGE),
    ("gdtrc", (1.5, 2.5), EDGE), ("gdtrix", (1.5, 2.5), PROB), ("chdtr", (3.0,), EDGE), ("chdtrc", (3.0,), EDGE),
    ("chdtri", (3.0,), PROB), ("bdtr", (3, 10), PROB), ("bdtrc", (3, 10), PROB), ("bdtri", (3, 10), PROB),
    ("fdtr", (3.0, 5.0), EDGE), ("fdtrc", (3.0, 5.0), EDGE), ("fdtri", (3.0, 5.0), PROB),
    ("nbdtr", (3, 4.0), PROB), ("nbdtrc", (3, 4.0), PROB), ("nbdtri", (3, 4.0), PROB),
    ("eval_chebyt", (3,), EDGE), ("eval_chebyu", (4,), EDGE), ("eval_chebyc", (3,), EDGE), ("eval_chebys", (3,), EDGE),
    ("eval_sh_chebyt", (3,), EDGE), ("eval_sh_chebyu", (3,), EDGE), ("eval_legendre", (5,), EDGE),
    ("eval_sh_legendre", (3,), EDGE), ("eval_hermite", (4,), EDGE), ("eval_hermitenorm", (4,), EDGE),
    ("eval_laguerre", (3,), EDGE), ("eval_genlaguerre", (3, 0.7), EDGE), ("eval_gegenbauer", (3, 0.7), EDGE),
    ("eval_jacobi", (3, 0.7, 1.3), EDGE), ("hyp0f1", (1.5,), EDGE[np.isfinite(EDGE)]),
    ("hyp1f1", (0.5, 1.5), EDGE[np.isfinite(EDGE)]), ("hyp2f1", (0.5, 1.5, 2.5), EDGE[np.isfinite(EDGE)]),
    ("hyperu", (0.5, 1.5), EDGE[np.isfinite(EDGE)]), ("jve", (1.5,), EDGE), ("yve", (1.5,), EDGE),
    ("wrightomega", (), EDGE), ("zeta", (), EDGE), ("zetac", (), EDGE),
]


@pytest.mark.parametrize("name, pre, x", VALUES, ids=[v[0] for v in VALUES])
def test_values_match_scipy_including_edges(name, pre, x):
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(*pre, x)
    got = np.asarray(getattr(fsp, name)(*pre, x))
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-300, equal_nan=True)
    assert getattr(fsp, name)(*pre, float(x[len(x) // 2])).shape == ()


# name, leading arguments, interior points of the differentiated last argument
GRADS = [
    ("ndtri", (), [0.02, 0.3, 0.8]), ("ndtri_exp", (), [-5.0, -0.7]), ("gammaincinv", (2.5,), [0.1, 0.6]),
    ("gammainccinv", (0.8,), [0.2, 0.7]), ("betaincinv", (1.5, 2.7), [0.1, 0.5]),
    ("betainccinv", (1.5, 2.7), [0.1, 0.5]), ("betaincc", (1.5, 2.7), [0.2, 0.6]), ("stdtr", (3.5,), [-1.0, 0.4]),
    ("stdtrit", (3.5,), [0.2, 0.9]), ("erfcx", (), [-0.5, 1.5]), ("erfi", (), [-0.5, 0.8]), ("dawsn", (), [-1.0, 2.0]),
    ("exp1", (), [0.3, 2.0]), ("expi", (), [-1.5, 0.7]), ("expn", (3,), [0.3, 2.0]), ("expn", (0,), [0.5]),
    ("spence", (), [0.3, 1.0, 2.0]), ("k0", (), [0.4, 2.0]), ("k1", (), [0.4, 2.0]), ("k0e", (), [0.4, 2.0]),
    ("k1e", (), [0.4, 2.0]), ("kv", (1.5,), [0.4, 2.0]), ("kve", (0.5,), [0.7]), ("yv", (1.5,), [0.8, 3.0]),
    ("pdtr", (3,), [0.5, 4.0]), ("pdtrc", (3,), [0.5, 4.0]), ("pdtri", (3,), [0.2, 0.7]),
    ("chdtr", (3.0,), [0.5, 4.0]), ("chdtrc", (3.0,), [0.5, 4.0]), ("chdtri", (3.0,), [0.2, 0.7]),
    ("bdtr", (3, 10), [0.2, 0.6]), ("bdtrc", (3, 10), [0.2, 0.6]), ("bdtri", (3, 10), [0.2, 0.7]),
    ("fdtr", (3.0, 5.0), [0.5, 2.0]), ("fdtrc", (3.0, 5.0), [0.5, 2.0]), ("fdtri", (3.0, 5.0), [0.2, 0.7]),
    ("nbdtr", (3, 4.0), [0.2, 0.6]), ("nbdtrc", (3, 4.0), [0.2, 0.6]), ("nbdtri", (3, 4.0), [0.2, 0.7]),
    ("eval_chebyt", (3,), [-0.4, 0.7]), ("eval_chebyu", (4,), [-0.4, 0.7]), ("eval_chebyc", (3,), [0.5]),
    ("eval_chebys", (3,), [0.5]), ("eval_sh_chebyt", (3,), [0.3]), ("eval_sh_chebyu", (3,), [0.3]),
    ("eval_legendre", (5,), [-0.4, 0.7]), ("eval_legendre", (0,), [0.3]), ("eval_sh_legendre", (3,), [0.3]),
    ("eval_hermite", (4,), [-0.4, 1.2]), ("eval_hermitenorm", (4,), [0.7]), ("eval_laguerre", (3,), [0.6, 2.0]),
    ("eval_genlaguerre", (3, 0.7), [0.6]), ("eval_gegenbauer", (3, 0.7), [0.6]), ("eval_jacobi", (3, 0.7, 1.3), [0.6]),
    ("hyp0f1", (1.5,), [0.5, -1.0]), ("hyp1f1", (0.5, 1.5), [0.5, -1.0]), ("hyp2f1", (0.5, 1.5, 2.5), [0.3, -0.5]),
    ("hyperu", (0.5, 1.5), [0.5, 2.0]), ("jve", (1.5,), [0.7, 3.0]), ("yve", (1.5,), [0.7, 3.0]),
    ("wrightomega", (), [-1.0, 0.5, 3.0]),
]


@pytest.mark.parametrize("name, pre, x", GRADS, ids=[f"{g[0]}{g[1]}" for g in GRADS])
def test_derivatives_in_the_last_argument(name, pre, x):
    f = getattr(fsp, name)
    check_grads(lambda v: f(*pre, v), (fnp.asarray(np.array(x)),), order=2)


def test_distribution_parameter_inverses():
    v = np.array([-1.0, 0, 0.3, 1, 2.5, np.inf, np.nan])
    u = np.array([-0.1, 0, 0.2, 0.5, 0.9, 1, np.nan])
    for name, grids in (("nrdtrimn", (u, v, v)), ("nrdtrisd", (v, u, v)), ("gdtria", (u, v, v))):
        args = np.meshgrid(*grids, indexing="ij")
        with np.errstate(all="ignore"):
            want = getattr(ss, name)(*args)
        np.testing.assert_allclose(np.asarray(getattr(fsp, name)(*args)), want, rtol=1e-12, equal_nan=True)
    check_grads(fsp.nrdtrimn, (fnp.asarray([0.2, 0.7]), fnp.asarray([0.5, 2.0]), fnp.asarray([1.0, -0.3])), order=2)
    check_grads(fsp.nrdtrisd, (fnp.asarray([0.2, -0.7]), fnp.asarray([0.2, 0.7]), fnp.asarray([1.0, 0.3])), order=2)
    check_grads(lambda p, x: fsp.gdtria(p, 2.5, x), (fnp.asarray([0.2, 0.7]), fnp.asarray([0.5, 2.0])), order=2)
    # the mean found from (p, std, x) puts x at quantile p
    mn = fsp.nrdtrimn(0.3, 2.0, 1.0)
    assert float(fsp.ndtr((1.0 - mn) / 2.0)) == pytest.approx(0.3, rel=1e-13)


@pytest.mark.parametrize("name", ["owens_t", "poch", "binom", "gdtr", "gdtrc", "gdtrix"])
def test_derivatives_in_two_arguments(name):
    f = getattr(fsp, name)
    if name.startswith("gdtr"):  # (a, b, x): a and the last argument
        last = [0.3, 0.6] if name == "gdtrix" else [0.5, 2.0]
        check_grads(lambda a, x: f(a, 2.5, x), (fnp.asarray([1.5, 0.7]), fnp.asarray(last)), order=2)
        return
    a, b = ([0.4, 1.7], [0.3, 2.0]) if name == "owens_t" else ([2.5, 4.3], [1.2, 2.7])
    check_grads(f, (fnp.asarray(a), fnp.asarray(b)), order=2)


def test_closed_forms():
    assert float(fg.grad(fsp.ndtri)(0.5)) == pytest.approx(math.sqrt(2 * math.pi), rel=1e-14)
    assert float(fg.grad(fsp.spence)(1.0)) == -1.0
    # d/dp of an inverse is 1 / density: gammainc(a, gammaincinv(a, p)) == p
    g = fg.grad(lambda p: fsp.gammainc(2.5, fsp.gammaincinv(2.5, p)))(0.3)
    assert float(g) == pytest.approx(1.0, rel=1e-12)
    h = fg.grad(fg.grad(lambda x: fsp.eval_legendre(3, x)))(0.4)  # P3 = (5x^3 - 3x) / 2: P3'' = 15x
    assert float(h) == pytest.approx(6.0, rel=1e-12)
    d = fg.grad(lambda q: fsp.zeta(3.0, q))(1.5)
    assert float(d) == pytest.approx(-3.0 * ss.zeta(4.0, 1.5), rel=1e-12)


def test_bessel_derivative_helpers_match_scipy_and_differentiate():
    x = np.array([0.3, 1.0, 2.5, 7.0])
    for n in (0, 1, 2, 3):
        for name in ("jvp", "yvp", "ivp", "kvp"):
            np.testing.assert_allclose(np.asarray(getattr(fsp, name)(1.5, x, n)), getattr(ss, name)(1.5, x, n),
                                       rtol=1e-12, err_msg=f"{name} n={n}")
    g = fg.grad(lambda z: fsp.jv(1.5, z))(1.3)
    assert float(g) == pytest.approx(float(fsp.jvp(1.5, 1.3)), rel=1e-13)
    with pytest.raises(ValueError, match="non-negative integer"):
        fsp.jvp(1.0, x, -1)


def test_gammasgn_has_zero_derivative_and_orders_have_none():
    assert float(fg.grad(fsp.gammasgn)(-1.5)) == 0.0
    with pytest.raises(MissingRuleError):
        fg.grad(lambda a: fsp.gammaincinv(a, 0.3))(2.0)
    with pytest.raises(MissingRuleError):
        fg.grad(fsp.zeta)(3.0)


def test_float32_broadcasting_and_vmap():
    x = fnp.asarray(np.linspace(0.1, 0.9, 6, dtype=np.float32).reshape(2, 3))
    for f in (fsp.ndtri, fsp.erfcx, fsp.k0, lambda v: fsp.gammaincinv(np.float32(2.0), v),
              lambda v: fsp.pdtr(3, v), lambda v: fsp.eval_legendre(3, v)):
        out = f(x)
        assert out.dtype == np.float32 and out.shape == (2, 3)
    out = fsp.betaincinv(fnp.asarray([[1.5], [2.5]]), 0.7, fnp.asarray([0.2, 0.5, 0.9]))
    assert out.shape == (2, 3)
    v = fg.vmap(fg.grad(fsp.ndtri))(fnp.asarray([0.2, 0.6]))
    np.testing.assert_allclose(np.asarray(v), np.sqrt(2 * np.pi) * np.exp(0.5 * ss.ndtri([0.2, 0.6]) ** 2), rtol=1e-12)
