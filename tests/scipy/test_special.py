"""funcgrad.scipy.special: values against scipy, special values at domain edges,
gradients against closed forms, and the errors users meet."""

import math

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.special as fsp
from funcgrad.core import MissingRuleError
from funcgrad.testing import check_grads

ss = pytest.importorskip("scipy.special")

_X = np.linspace(0.15, 6.0, 37)
_UNIT = np.linspace(0.02, 0.98, 25)
_SYM = np.linspace(-5.0, 5.0, 41)

UNARY = [
    ("gamma", _X), ("gammaln", _X), ("gammaln", -_X + 0.05), ("digamma", _X), ("psi", _X),
    ("expit", _SYM * 8), ("logit", _UNIT), ("log_expit", _SYM * 8), ("entr", np.r_[0.0, _X]),
    ("i0", _SYM), ("i1", _SYM), ("i0e", _SYM), ("i1e", _SYM), ("j0", _SYM), ("j1", _SYM),
    ("y0", _X), ("y1", _X), ("erf", _SYM), ("erfc", _SYM),
]


@pytest.mark.parametrize("name, x", UNARY, ids=[u[0] for u in UNARY])
def test_unary_values_match_scipy(name, x):
    np.testing.assert_allclose(np.asarray(getattr(fsp, name)(x)), getattr(ss, name)(x), rtol=1e-13, atol=1e-300)


def test_binary_and_order_values_match_scipy():
    a, b = _X[:, None], _X[None, :6]
    for name in ("beta", "betaln", "xlogy", "xlog1py", "rel_entr"):
        np.testing.assert_allclose(np.asarray(getattr(fsp, name)(a, b)), getattr(ss, name)(a, b), rtol=1e-13)
    for name in ("gammainc", "gammaincc"):
        np.testing.assert_allclose(np.asarray(getattr(fsp, name)(b, a)), getattr(ss, name)(b, a), rtol=1e-13)
    np.testing.assert_allclose(np.asarray(fsp.betainc(1.5, 2.5, _UNIT)), ss.betainc(1.5, 2.5, _UNIT), rtol=1e-13)
    for n in (0, 1, 3):
        np.testing.assert_allclose(np.asarray(fsp.polygamma(n, _X)), ss.polygamma(n, _X), rtol=1e-12)
        np.testing.assert_allclose(np.asarray(fsp.yn(n, _X)), ss.yn(n, _X), rtol=1e-13)
    np.testing.assert_allclose(np.asarray(fsp.multigammaln(_X + 2, 3)), ss.multigammaln(_X + 2, 3), rtol=1e-13)


def test_real_order_bessel_values_match_scipy():
    # cpu-only on cuda (cupyx.scipy.special lacks iv, ive, jv): skipped there, see docs/backends.md
    for v in (0.0, 0.5, 2.0, 3.5):
        for name in ("iv", "ive", "jv", "jn"):
            np.testing.assert_allclose(np.asarray(getattr(fsp, name)(v, _X)), getattr(ss, name)(v, _X), rtol=1e-13)


def test_xlogy_family_at_zero():
    assert float(fsp.xlogy(0.0, 0.0)) == 0.0 and float(fsp.xlog1py(0.0, -1.0)) == 0.0
    assert float(fsp.entr(0.0)) == 0.0 and float(fsp.entr(-1.0)) == -np.inf
    assert float(fsp.rel_entr(0.0, 0.0)) == 0.0 and float(fsp.rel_entr(1.0, 0.0)) == np.inf
    # d/dy xlogy(x, y) = x / y: 0 at x == 0 even for y == 0; d/dx = log(y)
    gx, gy = fg.grad(fsp.xlogy, argnums=(0, 1))(0.0, 0.0)
    assert float(gy) == 0.0 and float(gx) == -np.inf
    gx, gy = fg.grad(fsp.xlogy, argnums=(0, 1))(0.0, 2.0)
    assert float(gx) == pytest.approx(math.log(2.0)) and float(gy) == 0.0


def test_gammaln_near_zero_and_large():
    x = np.array([1e-300, 1e-10, 1e-3, 1e5, 1e15, 1e300])
    np.testing.assert_allclose(np.asarray(fsp.gammaln(x)), ss.gammaln(x), rtol=1e-14)
    g = fg.grad(lambda v: fnp.sum(fsp.gammaln(v)))(fnp.asarray(x))
    np.testing.assert_allclose(np.asarray(g), ss.digamma(x), rtol=1e-13)
    h = fg.grad(fg.grad(fsp.gammaln))(1e-3)
    assert float(h) == pytest.approx(ss.polygamma(1, 1e-3), rel=1e-12)
    assert float(fsp.gammaln(0.0)) == np.inf


def test_logsumexp_against_scipy():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4, 5))
    for axis in (None, 0, -1, (0, 2)):
        for keepdims in (False, True):
            np.testing.assert_allclose(np.asarray(fsp.logsumexp(a, axis=axis, keepdims=keepdims)),
                                       ss.logsumexp(a, axis=axis, keepdims=keepdims), rtol=1e-14)
    b = rng.standard_normal((4, 1))
    out, sgn = fsp.logsumexp(a, axis=1, b=b, return_sign=True)
    want, want_sgn = ss.logsumexp(a, axis=1, b=b, return_sign=True)
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(sgn), want_sgn)
    neg = fsp.logsumexp([1.0, 2.0], b=[1.0, -1.0])
    assert np.isnan(float(neg))
    big = np.array([1000.0, 1000.0])
    assert float(fsp.logsumexp(big)) == pytest.approx(1000.0 + math.log(2))
    np.testing.assert_allclose(np.asarray(fsp.softmax(a, axis=1)), ss.softmax(a, axis=1), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(fsp.log_softmax(a, axis=(0, 1))), ss.log_softmax(a, axis=(0, 1)), rtol=1e-13)


def test_logsumexp_minus_inf_entries():
    a = fnp.asarray([[-np.inf, 0.0, 1.0], [-np.inf, -np.inf, -np.inf]])
    out = fsp.logsumexp(a, axis=1)
    np.testing.assert_allclose(np.asarray(out), [ss.logsumexp([0.0, 1.0]), -np.inf])
    g = fg.grad(lambda v: fnp.sum(fsp.logsumexp(v, axis=1)))(a)
    want0 = np.r_[0.0, ss.softmax([0.0, 1.0])]
    np.testing.assert_allclose(np.asarray(g), [want0, [0.0, 0.0, 0.0]])  # 0, not NaN
    _, t = fg.jvp(lambda v: fsp.logsumexp(v, axis=1), (a,), (fnp.ones((2, 3)),))
    np.testing.assert_allclose(np.asarray(t), [1.0, 0.0])
    h = fg.grad(lambda v: fnp.sum(fg.grad(lambda w: fnp.sum(fsp.logsumexp(w, axis=1)))(v) ** 2))(a)
    assert np.isfinite(np.asarray(h)).all()
    assert float(fsp.logsumexp(fnp.zeros((0,)))) == -np.inf


def test_logsumexp_float32_and_ints():
    a32 = fnp.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert fsp.logsumexp(a32, axis=1).dtype == np.float32
    assert fsp.softmax(a32, axis=1).dtype == np.float32
    assert fsp.logsumexp([1, 2, 3]).dtype == np.float64
    assert fsp.gammaln(fnp.asarray([1.5], dtype=np.float32)).dtype == np.float32
    check_grads(lambda v: fsp.logsumexp(v, axis=0), (fnp.asarray(np.ones((3, 2)) * [1.0, 2.0]),), order=2)


@pytest.mark.parametrize("f, deriv, x", [
    (fsp.erfinv, lambda x: math.sqrt(math.pi) / 2 * np.exp(ss.erfinv(x) ** 2), _UNIT * 2 - 1),
    (fsp.gamma, lambda x: ss.gamma(x) * ss.digamma(x), _X),
    (fsp.digamma, lambda x: ss.polygamma(1, x), _X),
    (fsp.j0, lambda x: -ss.j1(x), _SYM),
    (fsp.i0, ss.i1, _SYM),
    (fsp.expit, lambda x: ss.expit(x) * ss.expit(-x), _SYM),
    (lambda x: fsp.iv(1.5, x), lambda x: (ss.iv(0.5, x) + ss.iv(2.5, x)) / 2, _X),
    (lambda x: fsp.gammainc(2.5, x), lambda x: x ** 1.5 * np.exp(-x) / ss.gamma(2.5), _X),
    (lambda x: fsp.betainc(2.0, 3.0, x), lambda x: x * (1 - x) ** 2 / ss.beta(2.0, 3.0), _UNIT),
])
def test_gradients_match_closed_forms(f, deriv, x):
    g = fg.grad(lambda v: fnp.sum(f(v)))(fnp.asarray(x))
    np.testing.assert_allclose(np.asarray(g), deriv(x), rtol=1e-10, atol=1e-14)


def test_orders_are_not_differentiable():
    with pytest.raises(MissingRuleError, match="iv"):  # (iv computes on the cpu only)
        fg.grad(lambda v: fsp.iv(v, 2.0))(fnp.asarray(1.5, device="cpu"))
    with pytest.raises(MissingRuleError, match="gammainc"):
        fg.grad(lambda a: fsp.gammainc(a, 2.0))(1.5)


def test_bad_input():
    with pytest.raises(ValueError, match="positive integer"):
        fsp.multigammaln(3.0, 0)
    with pytest.raises(ValueError, match="0.5"):
        fsp.multigammaln(fnp.asarray([0.5, 3.0]), 3)
    with pytest.raises(TypeError, match="out"):
        fsp.erf(fnp.ones(2), out=np.ones(2))
    with pytest.raises(ValueError, match="broadcast|shape"):
        fsp.beta(fnp.ones(2), fnp.ones(3))


@pytest.mark.parametrize("name, args", [
    ("expit", (_SYM * 10,)), ("logit", (_UNIT,)), ("log_expit", (_SYM * 10,)), ("entr", (np.r_[-1.0, 0.0, _X],)),
    ("xlogy", (np.r_[0.0, 0.0, _SYM], np.r_[0.0, -1.0, np.abs(_SYM)])),
    ("xlog1py", (np.r_[0.0, 0.0, _SYM], np.r_[-1.0, -2.0, np.abs(_SYM)])),
    ("rel_entr", (np.r_[0.0, 0.0, 1.0, -1.0, _X], np.r_[0.0, 1.0, 0.0, 1.0, _X[::-1]])),
    ("log_ndtr", (_SYM * 8,)), ("erf", (_SYM,)),
])
def test_scipy_free_fallbacks_match_scipy(name, args, monkeypatch, device):
    from funcgrad.backend import standin as _standin
    from funcgrad.primitives import special as sp_prims

    monkeypatch.setitem(sp_prims._SPECIAL, np, None)
    monkeypatch.setitem(sp_prims._SPECIAL, _standin.namespace, None)
    got = getattr(fsp, name)(*(fnp.asarray(a) for a in args))
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(*args)
    rtol = 1e-13 if name == "log_ndtr" else 1e-14  # (its far right tail: see test_special_erf)
    np.testing.assert_allclose(np.asarray(fg.device_put(got, "cpu")), want, rtol=rtol, atol=1e-300)
