"""funcgrad.numpy elementwise math: values and dtypes against numpy, derivatives (any
order), and the documented rules at special points."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

RNG = np.random.default_rng(0)
X = RNG.uniform(-0.9, 0.9, (3, 4))
Y = RNG.uniform(0.5, 2.0, (4,))

UNARY = {
    "tan": X, "arcsin": X, "arccos": X, "arctan": X, "sinh": X, "cosh": X, "arcsinh": X,
    "arccosh": Y + 1.1, "arctanh": X, "deg2rad": X, "rad2deg": X, "radians": X, "degrees": X,
    "sinc": np.array([0.0, 1e-4, -2e-3, 0.3, 1.7]), "exp2": X, "log2": Y, "log10": Y,
    "cbrt": X + 2, "reciprocal": Y, "real": X, "conj": X, "log1p": Y, "expm1": X,
}
BINARY = {
    "arctan2": (X, Y), "hypot": (X, Y), "logaddexp2": (X, Y), "remainder": (X, Y), "mod": (X, Y),
    "fmod": (X, Y), "fmax": (X, Y), "fmin": (X, Y), "copysign": (X, Y - 1.25), "heaviside": (X, Y),
    "float_power": (Y, X),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_matches_numpy_and_differentiates(name):
    a = UNARY[name]
    got, want = getattr(fnp, name)(a), getattr(np, name)(a)
    assert got.dtype == want.dtype and np.allclose(got, want)
    a32 = a.astype(np.float32)
    assert getattr(fnp, name)(a32).dtype == getattr(np, name)(a32).dtype
    assert getattr(fnp, name)(np.arange(1, 3)).dtype == getattr(np, name)(np.arange(1, 3)).dtype
    check_grads(getattr(fnp, name), (a,), order=2)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_matches_numpy_and_differentiates(name):
    a, b = BINARY[name]
    got, want = getattr(fnp, name)(a, b), getattr(np, name)(a, b)
    assert got.dtype == want.dtype and np.allclose(got, want)
    check_grads(getattr(fnp, name), (a, b), order=2)


@pytest.mark.parametrize("name", ["floor", "ceil", "rint", "trunc", "fix", "round", "around", "imag", "angle"])
def test_piecewise_constant_have_zero_derivative(name):
    x = X * 3
    assert np.array_equal(getattr(fnp, name)(x), getattr(np, name)(x))
    assert np.array_equal(fg.grad(lambda v: fnp.sum(getattr(fnp, name)(v)))(x), np.zeros_like(x))
    _, t = fg.jvp(lambda v: getattr(fnp, name)(v), (x,), (np.ones_like(x),))
    assert np.array_equal(t, np.zeros_like(x))


def test_round_decimals_and_integer_division():
    x = np.array([1.2345, -2.5, 0.5, 1.5, 123.0])
    for d in (0, 1, 2, -1):
        assert np.array_equal(fnp.round(x, d), np.round(x, d))
    q, r = fnp.divmod(x, 0.3)
    wq, wr = np.divmod(x, 0.3)
    assert np.array_equal(q, wq) and np.allclose(r, wr)
    i = np.arange(-5, 5)
    assert np.array_equal(fnp.floor_divide(i, 3), np.floor_divide(i, 3))
    assert np.array_equal(fnp.mod(i, 3), np.mod(i, 3)) and fnp.mod(i, 3).dtype == i.dtype
    with np.errstate(divide="ignore", invalid="ignore"):
        assert np.allclose(fnp.fmod(x, 0.0), np.fmod(x, 0.0), equal_nan=True)
    # remainder: d/dy = -floor(x / y)
    assert float(fg.grad(lambda y: fnp.remainder(7.0, y))(2.0)) == -3.0
    assert float(fg.grad(lambda y: fnp.fmod(-7.0, y))(2.0)) == 3.0


def test_stable_at_huge_inputs():
    softplus = lambda v: fnp.logaddexp(v, 0.0)  # noqa: E731
    for v, val, d in ((1000.0, 1000.0, 1.0), (-1000.0, 0.0, 0.0)):
        assert float(softplus(v)) == val
        assert float(fg.grad(softplus)(v)) == d
        assert np.isfinite(float(fg.grad(fg.grad(softplus))(v)))
    assert float(fg.grad(lambda v: fnp.logaddexp2(v, 0.0))(2000.0)) == 1.0
    assert float(fg.grad(fnp.log1p)(1e-20)) == 1.0
    assert float(fg.grad(fnp.expm1)(1e-20)) == 1.0
    assert float(fnp.expm1(1e-20)) == 1e-20


def test_singular_points():
    # sqrt at 0: the derivative is +inf; a zero cotangent (masked branch) gives 0
    assert float(fg.grad(fnp.sqrt)(0.0)) == np.inf
    assert float(fg.grad(lambda v: fnp.where(v > 0, fnp.sqrt(v), 0.0))(0.0)) == 0.0
    assert float(fg.grad(fg.grad(lambda v: fnp.where(v > 0, fnp.sqrt(v), 0.0)))(0.0)) == 0.0
    for f, at in ((fnp.cbrt, 0.0), (fnp.arcsin, 1.0), (fnp.arctanh, 1.0), (fnp.arccosh, 1.0),
                  (fnp.log2, 0.0), (fnp.reciprocal, 0.0)):
        assert float(fg.grad(lambda v: fnp.where(v > 5, f(v), 0.0))(at)) == 0.0, f.__name__
    assert float(fg.grad(lambda v: fnp.arctan2(v, 0.0) * 0.0)(0.0)) == 0.0
    # sinc: derivative 0 at 0, second derivative -pi^2/3
    assert float(fg.grad(fnp.sinc)(0.0)) == 0.0
    assert np.isclose(float(fg.grad(fg.grad(fnp.sinc))(0.0)), -np.pi ** 2 / 3)


def test_ties_and_bounds_split_evenly():
    g = fg.grad(lambda v: fnp.sum(fnp.clip(v, -1.0, 1.0)))(np.array([-2.0, -1.0, 0.0, 1.0, 2.0]))
    assert np.array_equal(g, [0.0, 0.5, 1.0, 0.5, 0.0])
    assert np.array_equal(fnp.clip(X, -0.5, 0.5), np.clip(X, -0.5, 0.5))
    assert np.array_equal(fnp.clip(X, max=0.1), np.clip(X, max=0.1))
    ga, gb = fg.grad(lambda a, b: fnp.fmax(a, b), argnums=(0, 1))(1.0, np.nan)
    assert (float(ga), float(gb)) == (1.0, 0.0)
    assert float(fg.grad(lambda a: fnp.fmin(a, 1.0))(1.0)) == 0.5


def test_heaviside_copysign_signbit():
    x = np.array([-1.0, 0.0, 2.0])
    assert np.array_equal(fnp.heaviside(x, 0.5), np.heaviside(x, 0.5))
    g = fg.grad(lambda h: fnp.sum(fnp.heaviside(x, h)))(0.5)
    assert float(g) == 1.0  # one element is at x == 0
    assert np.array_equal(fg.grad(lambda v: fnp.sum(fnp.copysign(v, -1.0)))(x), [1.0, -1.0, -1.0])
    assert np.array_equal(fnp.signbit(np.array([-0.0, 0.0, -1.0])), [True, False, True])


def test_complex_parts():
    z = np.array([1 + 2j, -3 - 1j])
    for name in ("real", "imag", "conj", "angle"):
        got, want = getattr(fnp, name)(z), getattr(np, name)(z)
        assert got.dtype == want.dtype and np.allclose(got, want)
    assert np.allclose(fnp.angle(z, deg=True), np.angle(z, deg=True))
    assert fnp.iscomplexobj(z) and fnp.isrealobj(X)
    # real functions through complex intermediates have their ordinary derivatives
    # (the convention of funcgrad/primitives/complex.py, as JAX's)
    assert np.isclose(fg.grad(lambda v: fnp.real(fnp.exp(1j * v)))(1.0), -np.sin(1.0))
    assert np.isclose(fg.jvp(lambda v: fnp.imag(v * 1j), (1.0,), (1.0,))[1], 1.0)
    assert np.isclose(fg.grad(lambda v: fnp.abs(fnp.exp(1j * v)))(1.0), 0.0, atol=1e-12)
    assert np.isclose(fg.grad(lambda v: fnp.abs(v * (1 + 1j)))(2.0), np.sqrt(2.0))
    with pytest.warns(np.exceptions.ComplexWarning):
        assert float(fg.grad(lambda v: fnp.astype(v * 1j + v, float))(1.0)) == 1.0
    assert np.isclose(fg.grad(lambda v: fnp.angle(v + 1j))(1.0), -0.5)  # d/dv atan2(1, v)


def test_float_power_promotes_to_float64():
    assert fnp.float_power(np.float32(2), np.float32(3)).dtype == np.float64
    assert fnp.float_power(np.arange(3), 2).dtype == np.float64
    assert fnp.float_power(np.array([1j]), 2).dtype == np.complex128


def test_comparisons():
    a = np.array([1.0, np.nan, np.inf, 1e-9])
    b = np.array([1.0 + 1e-9, np.nan, np.inf, 0.0])
    for eq in (False, True):
        assert np.array_equal(fnp.isclose(a, b, equal_nan=eq), np.isclose(a, b, equal_nan=eq))
        assert bool(fnp.array_equal(a, a, equal_nan=eq)) == np.array_equal(a, a, equal_nan=eq)
    assert bool(fnp.allclose(X, X + 1e-9)) and not bool(fnp.allclose(X, X + 1))
    assert fnp.array_equal(X, X[0]) is False
    assert bool(fnp.array_equiv(X[:1], np.repeat(X[:1], 3, 0))) and not fnp.array_equiv(X, Y[:2])
    assert np.array_equal(fnp.isclose(np.arange(3), 1), np.isclose(np.arange(3), 1))
    assert float(fg.grad(lambda v: v * fnp.allclose(v, 1.0))(1.0)) == 1.0
