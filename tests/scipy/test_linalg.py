"""funcgrad.scipy.linalg: values against scipy.linalg, gradients, layouts and errors."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.linalg as fl
from funcgrad.testing import check_grads

sl = pytest.importorskip("scipy.linalg")

rng = np.random.default_rng(0)
A = rng.standard_normal((4, 4))
SPD = A @ A.T + 4 * np.eye(4)
B = rng.standard_normal((4, 2))
L = np.tril(A) + 3 * np.eye(4)


@pytest.mark.parametrize("trans", [0, 1, 2, "N", "T", "C"])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("unit", [False, True])
def test_solve_triangular_matches_scipy(trans, lower, unit):
    m = L if lower else L.T
    for b in (B, B[:, 0]):
        got = fl.solve_triangular(m + 5 * np.triu(np.ones((4, 4)), 1) * lower, b, trans=trans, lower=lower, unit_diagonal=unit)
        want = sl.solve_triangular(m + 5 * np.triu(np.ones((4, 4)), 1) * lower, b, trans=trans, lower=lower, unit_diagonal=unit)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12)
        assert got.shape == b.shape


def test_solve_triangular_large_uses_the_triangle_only():
    n = 40  # above the small-matrix path
    m = np.tril(rng.standard_normal((n, n))) + n * np.eye(n) + np.triu(np.full((n, n), 7.0), 1)
    b = rng.standard_normal(n)
    np.testing.assert_allclose(np.asarray(fl.solve_triangular(m, b, lower=True)), sl.solve_triangular(m, b, lower=True), rtol=1e-12)
    # the cotangent of a is confined to its triangle
    g = fg.grad(lambda a: fnp.sum(fl.solve_triangular(a, b, lower=True)))(fnp.asarray(m))
    assert np.all(np.triu(np.asarray(g), 1) == 0)


def test_cholesky_family():
    np.testing.assert_allclose(np.asarray(fl.cholesky(SPD)), sl.cholesky(SPD), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(fl.cholesky(SPD, lower=True)), sl.cholesky(SPD, lower=True), rtol=1e-12)
    for lower in (False, True):
        c = fl.cho_factor(SPD, lower=lower)
        assert c[1] is lower
        np.testing.assert_allclose(np.asarray(fl.cho_solve(c, B)), sl.cho_solve(sl.cho_factor(SPD, lower=lower), B), rtol=1e-12)
    check_grads(lambda m, b: fl.cho_solve(fl.cho_factor(m @ m.T + 4 * fnp.eye(4)), b), (fnp.asarray(A), fnp.asarray(B)), order=2)
    with pytest.raises(np.linalg.LinAlgError):
        fl.cholesky(-SPD)
    with pytest.raises(ValueError, match="square"):
        fl.cholesky(np.ones((2, 3)))
    # gradient of logdet through cholesky: inv(SPD)
    g = fg.grad(lambda m: 2 * fnp.sum(fnp.log(fnp.sum(fl.cholesky(m, lower=True) * fnp.eye(4), axis=1))))(fnp.asarray(SPD))
    np.testing.assert_allclose(np.asarray(g), np.linalg.inv(SPD), rtol=1e-10)


def test_lu_family():
    p = np.eye(4)[[2, 0, 3, 1]]
    a = p @ A  # pivoting happens
    lu, piv = fl.lu_factor(a)
    lu_s, piv_s = sl.lu_factor(a)
    np.testing.assert_allclose(np.asarray(lu), lu_s, rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(piv), piv_s)
    for trans in (0, 1):
        np.testing.assert_allclose(np.asarray(fl.lu_solve((lu, piv), B, trans=trans)), sl.lu_solve((lu_s, piv_s), B, trans=trans), rtol=1e-12)
    check_grads(lambda m, b: fl.lu_solve(fl.lu_factor(m), b), (fnp.asarray(a + 3 * np.eye(4)), fnp.asarray(B[:, 0])), order=2)
    g = fg.grad(lambda m: fnp.sum(fl.lu_solve(fl.lu_factor(m), B[:, 0])))(fnp.asarray(a))
    x = np.linalg.solve(a, B[:, 0])
    np.testing.assert_allclose(np.asarray(g), -np.outer(np.linalg.solve(a.T, np.ones(4)), x), rtol=1e-10)


def test_matrix_functions():
    np.testing.assert_allclose(np.asarray(fl.expm(A / 2)), sl.expm(A / 2), rtol=1e-12)
    q = rng.standard_normal((4, 3))
    bm = rng.standard_normal((3, 3)) + 5 * np.eye(3)
    np.testing.assert_allclose(np.asarray(fl.solve_sylvester(SPD, bm, q)), sl.solve_sylvester(SPD, bm, q), rtol=1e-10)
    # d/dt expm(t A) at t = 1 is A expm(A)
    _, t = fg.jvp(lambda s: fl.expm(s * A / 2), (1.0,), (1.0,))
    np.testing.assert_allclose(np.asarray(t), A / 2 @ sl.expm(A / 2), rtol=1e-10)
    with pytest.raises(ValueError, match="shape"):
        fl.solve_sylvester(SPD, bm, q.T)


def test_sqrtm():
    # cpu-only on cuda (cupyx.scipy.linalg lacks sqrtm): skipped there, see docs/backends.md
    np.testing.assert_allclose(np.asarray(fl.sqrtm(SPD)), sl.sqrtm(SPD), rtol=1e-10)
    neg = fl.sqrtm(-np.eye(2))  # complex, as scipy's (tests/scipy/test_linalg_complex.py)
    assert neg.dtype == np.complex128
    np.testing.assert_allclose(np.asarray(neg), sl.sqrtm(-np.eye(2)))


def test_solve_banded_and_block_diag():
    ab = rng.standard_normal((4, 6))
    ab[2] += 6.0  # (l, u) = (1, 2): main diagonal in row u = 2
    b = rng.standard_normal((6, 2))
    np.testing.assert_allclose(np.asarray(fl.solve_banded((1, 2), ab, b)), sl.solve_banded((1, 2), ab, b), rtol=1e-12)
    check_grads(lambda a, v: fl.solve_banded((1, 2), a, v), (fnp.asarray(ab), fnp.asarray(b[:, 0])), order=1)
    with pytest.raises(ValueError, match="rows"):
        fl.solve_banded((1, 1), ab, b)
    blocks = ([[1.0, 2.0], [3.0, 4.0]], [5.0], 7.0, np.ones((0, 2)), np.ones((2, 1)))
    np.testing.assert_array_equal(np.asarray(fl.block_diag(*blocks)), sl.block_diag(*blocks))
    assert fl.block_diag().shape == (1, 0)
    g = fg.grad(lambda a, c: fnp.sum(fl.block_diag(a, c) ** 2), argnums=(0, 1))(fnp.ones((2, 2)), fnp.ones(3))
    np.testing.assert_array_equal(np.asarray(g[0]), 2 * np.ones((2, 2)))
    assert fl.block_diag(np.ones((1, 1), np.float32)).dtype == np.float32


def test_on_the_standin(device):
    a = fnp.asarray(SPD)
    x = fl.cho_solve(fl.cho_factor(a), fnp.asarray(B))
    np.testing.assert_allclose(np.asarray(fg.device_put(x, "cpu")), np.linalg.solve(SPD, B), rtol=1e-12)
    e = fl.expm(fnp.asarray(A / 2))
    np.testing.assert_allclose(np.asarray(fg.device_put(e, "cpu")), sl.expm(A / 2), rtol=1e-12)
