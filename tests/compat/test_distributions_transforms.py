"""torch.distributions.transforms, constraints and constraint_registry: forward/inverse round
trips, log-determinants against numerical Jacobians, domains/codomains and their reprs, shape
maps, caching, biject_to / transform_to, constraint checks, and TransformedDistribution."""

import math

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import distributions as D
from funcgrad.compat.distributions import constraints as C
from tests.compat._distribution_checks import t64


def _num_log_det(t, x):
    """log|det J| of a vector-to-vector transform at x (central differences)."""
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    cols = []
    for i in range(n):
        e = np.zeros(n)
        e[i] = 1e-6
        hi = t(t64((x.ravel() + e).reshape(x.shape))).numpy().ravel()
        lo = t(t64((x.ravel() - e).reshape(x.shape))).numpy().ravel()
        cols.append((hi - lo) / 2e-6)
    return np.linalg.slogdet(np.array(cols).T)[1] if len(cols[0]) == n else None


ELEMENTWISE = {
    "Exp": D.ExpTransform(), "Sigmoid": D.SigmoidTransform(), "Tanh": D.TanhTransform(),
    "Softplus": D.SoftplusTransform(), "Affine": D.AffineTransform(1.0, t64([2.0, -1.0, 0.5])),
    "Power": D.PowerTransform(t64(2.5)), "CDF": D.CumulativeDistributionTransform(D.Normal(t64(0.0), t64(1.0))),
}


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_elementwise_round_trip_and_log_det(name):
    t = ELEMENTWISE[name]
    x = np.array([0.3, 0.7, 1.2]) if name == "Power" else np.array([0.3, -0.5, 1.2])
    y = t(t64(x))
    np.testing.assert_allclose(t.inv(y).numpy(), x, rtol=1e-6)
    h = 1e-6
    deriv = (t(t64(x + h)).numpy() - t(t64(x - h)).numpy()) / (2 * h)
    np.testing.assert_allclose(t.log_abs_det_jacobian(t64(x), y).numpy(), np.log(np.abs(deriv)), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(t.inv.log_abs_det_jacobian(y, t64(x)).numpy(), -np.log(np.abs(deriv)), rtol=1e-5,
                               atol=1e-7)
    assert t.bijective and t.inv.inv is t


VECTOR = {
    "StickBreaking": (D.StickBreakingTransform(), [0.3, -0.5, 1.2]),
    "CorrCholesky": (D.CorrCholeskyTransform(), [0.3, -0.5, 1.2]),
    "AffineEvent1": (D.AffineTransform(1.0, t64([2.0, -1.0, 0.5]), event_dim=1), [0.3, -0.5, 1.2]),
    "Cat": (D.CatTransform([D.ExpTransform(), D.identity_transform], dim=-1, lengths=[1, 2]), [0.3, -0.5, 1.2]),
    "Stack": (D.StackTransform([D.ExpTransform(), D.SigmoidTransform(), D.TanhTransform()], dim=-1),
              [0.3, -0.5, 1.2]),
    "Compose": (D.ComposeTransform([D.ExpTransform(), D.AffineTransform(1.0, 2.0)]), [0.3, -0.5, 1.2]),
}


@pytest.mark.parametrize("name", sorted(VECTOR))
def test_vector_round_trip_and_log_det(name):
    t, x = VECTOR[name]
    y = t(t64(x))
    np.testing.assert_allclose(t.inv(y).numpy(), x, rtol=1e-6, atol=1e-9)
    lad = t.log_abs_det_jacobian(t64(x), y).numpy()
    if name == "StickBreaking":  # R^3 -> the 4-simplex: the Jacobian of the first 3 coordinates
        want = _num_log_det(lambda v: t(v)[:-1], x)
    elif name == "CorrCholesky":  # R^3 -> 3x3 factors: the strictly lower entries are the coordinates
        idx = np.tril_indices(3, -1)
        want = _num_log_det(lambda v: t(v)[idx[0].tolist(), idx[1].tolist()], x)
    elif name in ("Cat", "Stack", "Compose"):  # element-wise: the log-det is per element
        h = 1e-6
        deriv = (t(t64(np.array(x) + h)).numpy() - t(t64(np.array(x) - h)).numpy()) / (2 * h)
        want = np.log(np.abs(deriv))
    else:
        want = _num_log_det(t, x)
    np.testing.assert_allclose(lad, want, rtol=1e-5, atol=1e-7)


def test_matrix_transforms():
    m = t64([[1.0, 0.3], [-0.2, 0.5]])
    L = D.LowerCholeskyTransform()(m)
    assert bool(C.lower_cholesky.check(L)) and np.allclose(D.LowerCholeskyTransform().inv(L).numpy(), m.tril().numpy())
    P = D.PositiveDefiniteTransform()(m)
    assert bool(C.positive_definite.check(P))
    np.testing.assert_allclose(D.PositiveDefiniteTransform()(D.PositiveDefiniteTransform().inv(P)).numpy(), P.numpy())
    y = D.CorrCholeskyTransform()(t64([[0.3, -0.5, 1.2], [2.0, 0.1, -3.0]]))
    assert y.shape == (2, 3, 3) and bool(C.corr_cholesky.check(y).all())
    s = D.SoftmaxTransform()(t64([0.2, 1.0, -1.0]))
    assert bool(C.simplex.check(s)) and not D.SoftmaxTransform().bijective


def test_domains_codomains_shapes_and_reprs():
    assert repr(D.ExpTransform().codomain) == "GreaterThan(lower_bound=0.0)"
    assert repr(D.TanhTransform().codomain) == "Interval(lower_bound=-1.0, upper_bound=1.0)"
    assert repr(D.StickBreakingTransform().domain) == "IndependentConstraint(Real(), 1)"
    assert D.StickBreakingTransform().forward_shape((2, 3)) == (2, 4)
    assert D.StickBreakingTransform().inverse_shape((2, 4)) == (2, 3)
    assert D.CorrCholeskyTransform().forward_shape((5, 6)) == (5, 4, 4)
    with pytest.raises(ValueError, match="Input is not a flattened lower-diagonal number"):
        D.CorrCholeskyTransform().forward_shape((4,))
    r = D.ReshapeTransform((6,), (2, 3))
    assert r(t64(np.arange(12.0).reshape(2, 6))).shape == (2, 2, 3) and r.inverse_shape((4, 2, 3)) == (4, 6)
    with pytest.raises(ValueError, match="in_shape, out_shape have different numbers of elements"):
        D.ReshapeTransform((6,), (4,))
    c = D.ComposeTransform([D.ExpTransform(), D.StickBreakingTransform()])
    assert c.domain.event_dim == 1 and c.codomain.event_dim == 1
    assert repr(c) == "ComposeTransform(\n    ExpTransform(),\n    StickBreakingTransform()\n)"
    assert repr(D.ExpTransform().inv) == "_InverseTransform(ExpTransform())"
    assert D.ExpTransform() == D.ExpTransform() and D.ExpTransform() != D.SigmoidTransform()
    assert D.AffineTransform(1.0, 2.0) == D.AffineTransform(1.0, 2.0) != D.AffineTransform(1.0, 3.0)
    it = D.IndependentTransform(D.ExpTransform(), 1)
    assert it.log_abs_det_jacobian(t64([[1.0, 2.0]]), it(t64([[1.0, 2.0]]))).numpy().tolist() == [3.0]
    with pytest.raises(ValueError, match="cache_size must be 0 or 1"):
        D.ExpTransform(cache_size=2)


def test_cache():
    t = D.ExpTransform(cache_size=1)
    x = t64([0.5])
    y = t(x)
    assert t(x) is y and t.inv(y) is x
    assert D.ExpTransform().with_cache(1)._cache_size == 1


@pytest.mark.parametrize("constraint", [C.real, C.positive, C.nonnegative, C.unit_interval, C.interval(-1.0, 3.0),
                                        C.half_open_interval(0.0, 2.0), C.greater_than(2.0),
                                        C.greater_than_eq(-1.0), C.less_than(1.0), C.simplex, C.corr_cholesky,
                                        C.independent(C.positive, 1), C.real_vector])
def test_biject_to_lands_in_the_constraint(constraint):
    x = t64(np.random.default_rng(0).normal(size=(4, 3)) * 2)
    for registry in (D.biject_to, D.transform_to):
        t = registry(constraint)
        y = t(x)
        assert bool(constraint.check(y).all()), (constraint, registry)
        if t.bijective:
            np.testing.assert_allclose(t.inv(y).numpy(), x.numpy(), rtol=1e-5, atol=1e-6)


def test_registry_lookups_and_errors():
    assert isinstance(D.transform_to(C.simplex), D.SoftmaxTransform)
    assert isinstance(D.biject_to(C.simplex), D.StickBreakingTransform)
    assert isinstance(D.transform_to(C.lower_cholesky), D.LowerCholeskyTransform)
    assert isinstance(D.transform_to(C.positive_definite), D.PositiveDefiniteTransform)
    assert isinstance(D.biject_to(C.unit_interval), D.SigmoidTransform)
    with pytest.raises(NotImplementedError, match="Cannot transform _LowerCholesky constraints"):
        D.biject_to(C.lower_cholesky)
    with pytest.raises(NotImplementedError, match="Cannot transform _IntegerGreaterThan constraints"):
        D.transform_to(C.nonnegative_integer)
    with pytest.raises(TypeError, match="Expected constraint to be either a Constraint subclass or instance"):
        D.constraint_registry.ConstraintRegistry().register(3, lambda c: None)
    # parameters optimized in unconstrained space: the Normal scale through transform_to(positive)
    u = t64([0.0, 1.0]).requires_grad_()
    scale = D.transform_to(D.Normal.arg_constraints["scale"])(u)
    D.Normal(t64(0.0), scale).log_prob(t64(1.0)).sum().backward()
    s = np.exp([0.0, 1.0])
    np.testing.assert_allclose(u.grad.numpy(), (-1 / s + 1 / s ** 3) * s, rtol=1e-6)


def test_constraint_checks():
    assert C.simplex.check(t64([[0.3, 0.7], [0.5, 0.6]])).tolist() == [True, False]
    assert C.one_hot.check(t64([[0.0, 1.0], [1.0, 1.0]])).tolist() == [True, False]
    assert C.integer_interval(0, 3).check(t64([0.0, 1.5, 3.0, 4.0])).tolist() == [True, False, True, False]
    assert C.positive_definite.check(t64([[[2.0, 0.5], [0.5, 1.0]], [[1.0, 2.0], [2.0, 1.0]]])).tolist() == [True,
                                                                                                            False]
    assert C.positive_semidefinite.check(t64([[1.0, 1.0], [1.0, 1.0]])).item()
    assert C.lower_triangular.check(t64([[1.0, 0.0], [2.0, -1.0]])).item()
    assert not C.lower_cholesky.check(t64([[1.0, 0.0], [2.0, -1.0]])).item()
    assert C.cat([C.positive, C.real], 0, [1, 1]).check(t64([-1.0, 1.0])).tolist() == [False, True]
    assert C.stack([C.positive, C.real], dim=0).check(t64([-1.0, 1.0])).tolist() == [False, True]
    assert C.real.check(t64([1.0, math.nan])).tolist() == [True, False]
    assert C.independent(C.real, 1).check(t64([[1.0, math.nan], [0.0, 1.0]])).tolist() == [False, True]
    assert C.is_dependent(C.dependent) and not C.is_dependent(C.real)
    with pytest.raises(ValueError, match="Cannot determine validity of dependent constraint"):
        C.dependent.check(t64(1.0))
    assert repr(D.Uniform.support) is not None and C.is_dependent(D.Uniform.support)
    assert repr(D.Uniform(t64(0.0), t64(2.0)).support) == "Interval(lower_bound=0.0, upper_bound=2.0)"
    assert repr(C.multinomial(4)) == "Multinomial()"


def test_utils_tril_vec_maps():
    v = t64([1.0, 2.0, 3.0])
    m = D.utils.vec_to_tril_matrix(v)
    np.testing.assert_array_equal(m.numpy(), [[1.0, 0.0], [2.0, 3.0]])
    np.testing.assert_array_equal(D.utils.tril_matrix_to_vec(m).numpy(), v.numpy())
    np.testing.assert_array_equal(D.utils.vec_to_tril_matrix(t64([5.0]), diag=-1).numpy(), [[0.0, 0.0], [5.0, 0.0]])
    with pytest.raises(ValueError, match="cannot be expressed as the lower triangular part"):
        D.utils.vec_to_tril_matrix(t64([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"diag \(3\) provided is outside \[-2, 1\]"):
        D.utils.tril_matrix_to_vec(m, diag=3)
    _, b = D.utils.broadcast_all(t64([1.0, 2.0]), 3.0)
    assert b.dtype == torch.float64 and b.tolist() == [3.0, 3.0]
    with pytest.raises(ValueError, match="Input arguments must all be instances of Number"):
        D.utils.broadcast_all(t64(1.0), "x")


def test_transformed_distribution_log_prob_cdf_and_gradients():
    base = D.Normal(t64([0.0, 1.0]), t64(1.0))
    td = D.TransformedDistribution(base, [D.TanhTransform()])
    y = np.array([0.3, -0.4])
    x = np.arctanh(y)
    want = -0.5 * (x - [0.0, 1.0]) ** 2 - 0.5 * math.log(2 * math.pi) - np.log(1 - y ** 2)
    np.testing.assert_allclose(td.log_prob(t64(y)).numpy(), want, rtol=1e-6)
    flipped = D.TransformedDistribution(base, [D.AffineTransform(1.0, -2.0)])
    # Y = 1 - 2X is decreasing: P(Y <= y) = 1 - Phi((1 - y) / 2 - loc)
    from scipy.stats import norm
    np.testing.assert_allclose(flipped.cdf(t64(y)).numpy(), 1 - norm.cdf((1 - y) / 2 - [0.0, 1.0]), rtol=1e-6)
    np.testing.assert_allclose(flipped.icdf(flipped.cdf(t64(y))).numpy(), y, rtol=1e-6)
    simplex = D.TransformedDistribution(D.Normal(t64([0.0, 0.5]), t64(1.0)), D.StickBreakingTransform())
    assert simplex.event_shape == (3,) and simplex.batch_shape == () and repr(simplex.support) == "Simplex()"
    mu = t64([0.1, 0.2]).requires_grad_()
    torch.manual_seed(0)
    D.TransformedDistribution(D.Normal(mu, t64(1.0)), [D.TanhTransform()]).rsample((5,)).sum().backward()
    assert mu.grad.shape == (2,) and bool((mu.grad > 0).all())
    e = td.expand((3, 2))
    assert e.batch_shape == (3, 2) and e.sample().shape == (3, 2)
    with pytest.raises(ValueError, match="transforms must be a Transform or list"):
        D.TransformedDistribution(base, (D.ExpTransform(),))
