"""fnp.linalg: numpy's values, shapes, dtypes and errors; documented derivative behaviour."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

la = fnp.linalg
LinAlgError = np.linalg.LinAlgError


def _well(rng, shape):
    x = rng.standard_normal(shape)
    n = min(shape[-2:])
    x[..., range(n), range(n)] += 4.0
    return x


@pytest.mark.parametrize("name", ["inv", "det", "pinv", "eigvalsh", "svdvals", "cond"])
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (1, 2, 2, 2)])
def test_unary_match_numpy(name, shape, device, rng):
    x = _well(rng, shape)
    if name == "eigvalsh":
        x = x + np.swapaxes(x, -1, -2)
    got = getattr(la, name)(fnp.asarray(x))
    assert np.allclose(fnp.asarray(got).__array__() if device == "cpu" else fg.device_put(got, "cpu"),
                       getattr(np.linalg, name)(x))


def test_decompositions_match_numpy(rng):
    a = _well(rng, (2, 4, 3))
    for mode in ("reduced", "complete"):
        q, r = la.qr(a, mode=mode)
        nq, nr = np.linalg.qr(a, mode=mode)
        assert np.allclose(q, nq) and np.allclose(r, nr)
    assert np.allclose(la.qr(a, mode="r"), np.linalg.qr(a, mode="r"))
    for full in (True, False):
        u, s, vh = la.svd(a, full_matrices=full)
        nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
        assert u.shape == nu.shape and vh.shape == nvh.shape and np.allclose(s, ns)
    sym = a[..., :3, :] + np.swapaxes(a[..., :3, :], -1, -2)
    for uplo in ("L", "U"):
        w, v = la.eigh(sym, UPLO=uplo)
        assert np.allclose(w, np.linalg.eigh(sym, UPLO=uplo).eigenvalues)
        assert np.allclose(np.asarray(v) @ np.asarray(fnp.swapaxes(v, -1, -2)), np.eye(3))
    spd = sym @ np.swapaxes(sym, -1, -2) + np.eye(3)
    assert np.allclose(la.cholesky(spd), np.linalg.cholesky(spd))
    assert np.allclose(la.cholesky(spd, upper=True), np.linalg.cholesky(spd, upper=True))
    sign, logdet = la.slogdet(a[..., :3, :])
    nsign, nlogdet = np.linalg.slogdet(a[..., :3, :])
    assert np.array_equal(sign, nsign) and np.allclose(logdet, nlogdet)
    assert la.slogdet(a[0, :3]).logabsdet.shape == ()


def test_solve_shapes_as_numpy(rng):
    a = _well(rng, (2, 3, 3))
    for b_shape in [(3,), (3, 2), (2, 3, 1), (5, 2, 3, 2)]:
        b = rng.standard_normal(b_shape)
        got, want = la.solve(a[0] if b_shape == (3,) else a, b), np.linalg.solve(a[0] if b_shape == (3,) else a, b)
        assert got.shape == want.shape and np.allclose(got, want)


def test_matrix_power_multi_dot_lstsq(rng):
    a = _well(rng, (2, 3, 3))
    for n in (-3, -1, 0, 1, 2, 7):
        assert np.allclose(la.matrix_power(a, n), np.linalg.matrix_power(a, n))
    ai = np.array([[1, 2], [3, 4]])
    assert la.matrix_power(ai, 2).dtype == np.linalg.matrix_power(ai, 2).dtype
    xs = [rng.standard_normal(s) for s in [(3,), (3, 5), (5, 2), (2, 4), (4,)]]
    assert np.allclose(la.multi_dot(xs), np.linalg.multi_dot(xs))
    assert np.allclose(la.multi_dot(xs[1:4]), np.linalg.multi_dot(xs[1:4]))
    for a_shape, b_shape in [((5, 3), (5,)), ((5, 3), (5, 2)), ((3, 5), (3,)), ((3, 3), (3, 2))]:
        a, b = rng.standard_normal(a_shape), rng.standard_normal(b_shape)
        got, want = la.lstsq(a, b), np.linalg.lstsq(a, b)
        for g, w in zip(got, want):
            assert np.shape(g) == np.shape(w) and np.allclose(g, w)
    rank_def = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
    got, want = la.lstsq(rank_def, np.ones(3)), np.linalg.lstsq(rank_def, np.ones(3))
    assert got.rank == want[2] == 1 and got.residuals.shape == (0,) and np.allclose(got.x, want[0])
    assert int(la.matrix_rank(rank_def)) == 1 and np.array_equal(la.matrix_rank(a), np.linalg.matrix_rank(a))


def test_dtypes_and_empty():
    ai = np.array([[2, 1], [1, 3]])
    assert la.inv(ai).dtype == np.float64 and la.det(ai).dtype == np.float64
    a32 = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
    for f in (la.inv, la.det, la.cholesky, la.eigvalsh, la.svdvals, la.norm, la.pinv):
        assert f(a32).dtype == np.float32, f
    assert la.inv(np.zeros((0, 0))).shape == (0, 0)
    assert la.solve(np.zeros((2, 0, 0)), np.zeros((2, 0, 1))).shape == (2, 0, 1)
    assert float(la.det(np.zeros((0, 0)))) == 1.0
    assert la.norm(np.zeros((0,))).shape == () and float(la.norm(np.zeros(0))) == 0.0


def test_noncontiguous_input(rng):
    x = _well(rng, (3, 3)).T[::1]
    x2 = np.asfortranarray(_well(rng, (4, 4)))[::2, ::2]
    for v in (x, x2):
        assert np.allclose(la.inv(v), np.linalg.inv(v))
        assert np.allclose(la.svdvals(v), np.linalg.svd(v, compute_uv=False))


# --- errors ------------------------------------------------------------------------

def test_singular_matrices_raise_linalgerror():
    sing = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(LinAlgError, match="inv"):
        la.inv(sing)
    with pytest.raises(LinAlgError):
        la.solve(sing, np.ones(2))
    with pytest.raises(LinAlgError):
        la.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(LinAlgError):
        la.matrix_power(sing, -1)
    assert float(la.det(sing)) == 0.0  # no error where numpy gives none
    assert la.slogdet(sing).logabsdet == -np.inf


@pytest.mark.parametrize("f", [la.inv, la.det, la.slogdet, la.cholesky, la.eigh, la.eigvalsh,
                               lambda a: la.matrix_power(a, 2), lambda a: la.solve(a, np.ones(2))])
def test_non_square_and_1d_raise_linalgerror(f):
    with pytest.raises(LinAlgError, match=r"square.*\(2, 3\)"):
        f(np.ones((2, 3)))
    with pytest.raises(LinAlgError, match="at least two-dimensional"):
        f(np.ones(3))


def test_mismatched_shapes_name_both():
    a = np.eye(3)
    with pytest.raises(ValueError, match=r"\(2,\).*\(3, 3\)"):
        la.solve(a, np.ones(2))
    with pytest.raises(ValueError, match=r"\(2, 4\).*\(3, 3\)"):
        la.solve(a, np.ones((2, 4)))
    with pytest.raises(ValueError, match=r"\(2, 3, 3\).*\(3, 3, 1\)"):
        la.solve(np.ones((2, 3, 3)), np.ones((3, 3, 1)))
    with pytest.raises(LinAlgError, match=r"\(3, 3\).*\(4,\)"):
        la.lstsq(a, np.ones(4))
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(2, 3\)"):
        la.multi_dot([np.ones((2, 3)), np.ones((2, 3))])


def test_bad_norm_orders():
    with pytest.raises(ValueError, match="Invalid norm order 'fro' for vectors"):
        la.norm(np.ones(3), "fro")
    with pytest.raises(ValueError, match="Invalid norm order 3 for matrices"):
        la.norm(np.ones((2, 2)), 3)
    with pytest.raises(ValueError, match="Improper number of dimensions"):
        la.norm(np.ones((2, 2, 2)), 1)
    with pytest.raises(ValueError, match="Duplicate axes"):
        la.norm(np.ones((2, 2)), axis=(1, -1))
    with pytest.raises(np.exceptions.AxisError):
        la.norm(np.ones(3), axis=1)
    with pytest.raises(ValueError, match="mode"):
        la.qr(np.ones((2, 2)), mode="raw")
    with pytest.raises(ValueError, match="UPLO"):
        la.eigh(np.eye(2), UPLO="X")
    with pytest.raises(TypeError, match="integer"):
        la.matrix_power(np.eye(2), 1.5)


# --- norm: values and subgradients ---------------------------------------------------

VECTOR_ORDS = [None, 2, 1, np.inf, -np.inf, 0, 3, 0.5, -1]
MATRIX_ORDS = [None, "fro", "nuc", 2, -2, 1, -1, np.inf, -np.inf]


def test_norm_matches_numpy(rng):
    x = rng.standard_normal((2, 3, 4))
    for ord in VECTOR_ORDS:
        for axis in (0, 1, -1):
            for keepdims in (False, True):
                got = la.norm(x, ord, axis, keepdims)
                want = np.linalg.norm(x, ord, axis, keepdims)
                assert got.shape == want.shape and np.allclose(got, want), (ord, axis, keepdims)
        assert np.allclose(la.norm(x[0, 0], ord), np.linalg.norm(x[0, 0], ord))
    for ord in MATRIX_ORDS:
        for axis in ((0, 1), (2, 0), (-1, -2)):
            for keepdims in (False, True):
                got = la.norm(x, ord, axis, keepdims)
                want = np.linalg.norm(x, ord, axis, keepdims)
                assert got.shape == want.shape and np.allclose(got, want), (ord, axis, keepdims)
        assert np.allclose(la.norm(x[0], ord), np.linalg.norm(x[0], ord))
    assert np.allclose(la.norm(x), np.linalg.norm(x))
    assert la.norm(x, keepdims=True).shape == (1, 1, 1)
    assert np.allclose(la.vector_norm(x, axis=(0, 2), ord=3), np.linalg.vector_norm(x, axis=(0, 2), ord=3))
    assert np.allclose(la.matrix_norm(x, ord="nuc"), np.linalg.matrix_norm(x, ord="nuc"))
    assert la.norm(np.array([1, 2])).dtype == np.float64


@pytest.mark.parametrize("ord", [None, 2, 3, 1, np.inf])
def test_norm_gradient_at_zero_is_a_subgradient_not_nan(ord):
    """The 2-norm (and p-norms) have no gradient at 0; funcgrad returns 0, a valid subgradient."""
    z = fnp.zeros(3)
    g = fg.grad(lambda x: la.norm(x, ord))(z)
    assert np.array_equal(g, np.zeros(3))
    _, t = fg.jvp(lambda x: la.norm(x, ord), (z,), (fnp.ones(3),))
    assert float(t) == 0.0
    # batched: one zero row does not poison the others
    x = fnp.asarray([[0.0, 0.0], [3.0, 4.0]])
    g = fg.grad(lambda x: fnp.sum(la.norm(x, axis=1)))(x)
    assert np.allclose(g, [[0.0, 0.0], [0.6, 0.8]])
    g = fg.grad(lambda x: la.norm(x, "fro"))(fnp.zeros((2, 2)))
    assert np.array_equal(g, np.zeros((2, 2)))


def test_norm_gradients_near_zero_second_order():
    check_grads(lambda x: la.norm(x), (np.array([1e-3, -2e-3, 3e-3]),), order=2)


# --- derivatives at special points ----------------------------------------------------

def test_eigvalsh_and_svdvals_differentiable_at_repeated_values():
    eye = np.eye(3)
    g = fg.grad(lambda a: fnp.sum(la.eigvalsh(a)))(eye)
    assert np.allclose(g, eye)  # d trace / dA
    g = fg.grad(lambda a: fnp.sum(la.svdvals(a)))(2 * eye)
    assert np.allclose(g, eye)  # the nuclear norm's gradient U Vh
    g = fg.grad(lambda a: la.norm(a, "nuc"))(2 * eye)
    assert np.allclose(g, eye)


def test_eigenvector_gradient_at_repeated_eigenvalues_is_not_finite():
    """Documented: eigenvector derivatives need distinct eigenvalues."""
    g = fg.grad(lambda a: fnp.sum(la.eigh(a).eigenvectors[:, 0]))(np.eye(2))
    assert not np.all(np.isfinite(g))


def test_svd_full_matrices_non_square_has_no_vector_derivative():
    a = np.arange(6.0).reshape(3, 2) + np.eye(3, 2) * 4
    with pytest.raises(ValueError, match="full_matrices=False"):
        fg.grad(lambda a: fnp.sum(la.svd(a).U))(a)
    g = fg.grad(lambda a: fnp.sum(la.svd(a).S))(a)  # singular values alone are fine
    assert np.allclose(g, fg.grad(lambda a: fnp.sum(la.svdvals(a)))(a))


def test_qr_wide_has_no_derivative():
    with pytest.raises(ValueError, match="m >= n"):
        fg.grad(lambda a: fnp.sum(la.qr(a).R))(np.ones((2, 3)) + np.eye(2, 3))


def test_known_gradients():
    a = np.array([[2.0, 1.0], [0.5, 3.0]])
    assert np.allclose(fg.grad(la.det)(a), np.linalg.det(a) * np.linalg.inv(a).T)
    assert np.allclose(fg.grad(lambda a: la.slogdet(a)[1])(a), np.linalg.inv(a).T)
    assert np.allclose(fg.grad(lambda a: fnp.sum(la.inv(a)))(a),
                       -np.linalg.inv(a).T @ np.ones((2, 2)) @ np.linalg.inv(a).T)


def test_third_order_and_mixed_modes():
    a = np.array([[3.0, 0.5, 0.1], [0.2, 2.0, 0.3], [0.1, 0.4, 4.0]])
    check_grads(lambda a: la.det(a), (a,), order=3)
    check_grads(lambda a: la.slogdet(a)[1], (a,), order=3)
    check_grads(lambda a: la.eigvalsh(a + a.T), (a,), order=3)
    h = fg.hessian(lambda a: la.slogdet(a)[1])(a) if hasattr(fg, "hessian") else None
    if h is not None:
        assert np.all(np.isfinite(h))


def test_lstsq_solution_gradient(rng):
    a, b = _well(rng, (5, 3)), rng.standard_normal(5)
    check_grads(lambda a, b: la.lstsq(a, b)[0], (a, b), order=2)
    g = fg.grad(lambda b: fnp.sum(la.lstsq(a, b)[0]))(b)
    assert np.allclose(g, np.linalg.pinv(a).T @ np.ones(3))


def test_norm_of_complex_values():
    z = np.array([1 + 2j, 3 - 1j, 0.5j])
    for ord in (None, 2, 1, np.inf, 3):
        got = la.norm(z, ord)
        assert got.dtype == np.float64 and np.allclose(got, np.linalg.norm(z, ord))
    a, b = np.array([1.0, 3.0, 0.0]), np.array([2.0, -1.0, 0.5])
    check_grads(lambda a, b: la.norm(a + 1j * b), (a, b), order=2)
    ga, gb = fg.grad(lambda a, b: la.norm(a + 1j * b), argnums=(0, 1))(a, b)
    n = np.linalg.norm(a + 1j * b)
    assert np.allclose(ga, a / n) and np.allclose(gb, b / n)


def test_products_and_tensor_equations(rng):
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((4, 3))
    assert np.allclose(la.cross(a, b), np.linalg.cross(a, b))
    assert np.allclose(la.cross(a.T, b.T, axis=0), np.linalg.cross(a.T, b.T, axis=0))
    assert np.allclose(la.vecdot(a, b), np.linalg.vecdot(a, b))
    assert np.allclose(la.outer(a[0], b[0]), np.linalg.outer(a[0], b[0]))
    t = (np.eye(6) * 3 + rng.standard_normal((6, 6))).reshape(2, 3, 6)
    rhs = rng.standard_normal((2, 3))
    assert np.allclose(la.tensorsolve(t, rhs), np.linalg.tensorsolve(t, rhs))
    t0 = np.moveaxis(t, 2, 0)
    assert np.allclose(la.tensorsolve(t0, rhs, axes=(0,)), np.linalg.tensorsolve(t0, rhs, axes=(0,)))
    t6 = t.reshape(6, 2, 3)
    assert np.allclose(la.tensorinv(t6, ind=1), np.linalg.tensorinv(t6, ind=1))
    check_grads(lambda a, b: la.cross(a, b), (a, b), order=2)
    check_grads(lambda t, r: la.tensorsolve(t, r), (t, rhs), order=2)
    with pytest.raises(ValueError, match=r"3 elements.*\(4, 2\)"):
        la.cross(np.ones((4, 2)), np.ones((4, 2)))
    with pytest.raises(ValueError, match="one-dimensional"):
        la.outer(np.ones((2, 2)), np.ones(2))
    with pytest.raises(LinAlgError, match="square system"):
        la.tensorsolve(np.ones((2, 3, 4)), np.ones((2, 3)))


def test_float32_gradients_stay_float32(rng):
    a = (_well(rng, (3, 3)) / 4).astype(np.float32)
    for f in (lambda a: fnp.sum(la.inv(a)), lambda a: la.slogdet(a)[1], lambda a: la.norm(a, "nuc"),
              lambda a: fnp.sum(la.solve(a, fnp.ones(3, dtype=np.float32))),
              lambda a: fnp.sum(la.qr(a).R), lambda a: fnp.sum(la.eigvalsh(a + a.T))):
        g = fg.grad(f)(a)
        assert g.dtype == np.float32
    check_grads(lambda a: la.inv(a), (a,), order=2)
