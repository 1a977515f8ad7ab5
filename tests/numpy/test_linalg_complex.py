"""fnp.linalg on complex matrices and the general eigenproblem (values against numpy; derivatives
against finite differences and closed forms)."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

la = fnp.linalg
rng = np.random.default_rng(3)
A = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
HERM = A @ A.conj().T + np.eye(3)


@pytest.mark.parametrize("name", ["inv", "det", "slogdet", "cholesky", "eigvalsh", "svd", "qr", "pinv",
                                  "eigvals", "matrix_rank"])
def test_complex_values_match_numpy(name):
    x = HERM if name in ("cholesky", "eigvalsh") else A
    got, want = getattr(la, name)(x), getattr(np.linalg, name)(x)
    for g, w in zip(np.atleast_1d(got) if name in ("det", "matrix_rank") else got, np.atleast_1d(want)
                    if name in ("det", "matrix_rank") else want):
        if name == "eigvals":
            g, w = np.sort_complex(np.asarray(got)), np.sort_complex(want)
        assert np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-10, atol=1e-12)


def test_cholesky_upper_is_the_conjugate_transpose():
    np.testing.assert_allclose(np.asarray(la.cholesky(HERM, upper=True)), np.linalg.cholesky(HERM, upper=True))


def test_eig_matches_numpy_and_is_always_complex():
    a = np.array([[2.0, 1.0], [0.5, 3.0]])  # real eigenvalues: numpy returns float64, funcgrad complex
    w, v = la.eig(a)
    w0, v0 = np.linalg.eig(a)
    assert w.dtype == v.dtype == np.complex128
    np.testing.assert_allclose(np.asarray(w), w0)
    np.testing.assert_allclose(np.asarray(v), v0)
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])
    np.testing.assert_allclose(np.sort_complex(np.asarray(la.eigvals(rot))), [-1j, 1j])


def test_eigenvalue_derivative_closed_form():
    # d w_k / dA = u_k v_k^T / (u_k^T v_k) with left eigenvectors u (rows of V^-1): grad of Re(w_k)
    a = np.array([[1.0, 0.4, 0.1], [0.2, 2.0, 0.3], [0.1, 0.5, 3.0]])
    w0, v0 = np.linalg.eig(a)
    left = np.linalg.inv(v0)
    k = int(np.argmax(w0.real))
    g = fg.grad(lambda x: fnp.real(la.eigvals(x)[k]))(a)
    np.testing.assert_allclose(np.asarray(g), np.real(np.outer(left[k], v0[:, k])), rtol=1e-10)


def test_eigenvectors_keep_lapacks_normalisation_under_differentiation():
    a = fnp.asarray(np.array([[1.0, 0.4, 0.1], [0.2, 2.0, 0.3], [0.1, 0.5, 3.0]]) + 0.2j)
    t = fnp.asarray(rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3)))
    (w, v), (dw, dv) = fg.jvp(la.eig, (a,), (t,))
    v, dv = np.asarray(v), np.asarray(dv)
    # unit norm: Re(v^H dv) = 0; largest component real: its tangent is real
    np.testing.assert_allclose(np.real(np.sum(v.conj() * dv, axis=0)), 0, atol=1e-12)
    k = np.argmax(np.abs(v), axis=0)
    np.testing.assert_allclose(dv[k, range(3)].imag, 0, atol=1e-12)
    check_grads(lambda x: list(la.eig(x)), (a,), order=2)


def test_slogdet_sign_of_complex_matrix_moves_with_the_phase():
    a = fnp.asarray(A)
    check_grads(lambda x: list(la.slogdet(x)), (a,), order=2)
    # d/dθ sign(det(e^{iθ} A)) at θ = 0 is 3i sign(det A) (a 3x3 matrix)
    _, ds = fg.jvp(lambda th: la.slogdet(fnp.exp(1j * th) * a).sign, (0.0,), (1.0,))
    np.testing.assert_allclose(complex(ds), 3j * complex(la.slogdet(a).sign))


def test_eigh_reads_one_triangle_and_its_gradient_is_symmetrised():
    h = HERM.copy()
    junk = h + np.triu(np.full((3, 3), 5.0 + 2j), 1)  # garbage above the diagonal
    np.testing.assert_allclose(np.asarray(la.eigvalsh(junk, UPLO="L")), np.linalg.eigvalsh(h))
    # d(sum of eigenvalues)/dA = d trace = I, the gradient of the symmetrised input
    g = fg.grad(lambda x: fnp.sum(la.eigvalsh(x, UPLO="U")))(fnp.asarray(h))
    np.testing.assert_allclose(np.asarray(g), np.eye(3), atol=1e-12)
    # the largest eigenvalue's gradient is conj of v v^H (the conjugate convention), Hermitian
    w, v = np.linalg.eigh(h)
    g = fg.grad(lambda x: la.eigvalsh(x)[-1])(fnp.asarray(h))
    np.testing.assert_allclose(np.asarray(g), np.conj(np.outer(v[:, -1], v[:, -1].conj())), atol=1e-10)


def test_complex_norms_and_svd_gradients():
    a = fnp.asarray(A)
    u, s, vh = np.linalg.svd(A)
    g = fg.grad(lambda x: la.norm(x, 2))(a)  # conj(u_1 v_1^H)
    np.testing.assert_allclose(np.asarray(g), np.conj(np.outer(u[:, 0], vh[0])), atol=1e-10)
    g = fg.grad(lambda x: la.norm(x, "nuc"))(a)  # conj(U Vh)
    np.testing.assert_allclose(np.asarray(g), np.conj(u @ vh), atol=1e-10)
