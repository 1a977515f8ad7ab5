"""Products against numpy: values, dtypes, errors; einsum's derivatives to second order."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

R = np.random.default_rng(0)
A, B, C = R.standard_normal((2, 3)), R.standard_normal((3, 4)), R.standard_normal((3, 3))
D = R.standard_normal((2, 3, 4))

EINSUMS = [
    ("ij,jk->ik", A, B), ("ij,jk", A, B), ("ii->i", C), ("ii", C), ("ij->", A), ("ij->ji", A), ("ji", A),
    ("i,i", A[0], A[1]), ("i,j->ij", A[0], B[0]), ("...j,jk->...k", D[..., :3], B), ("bij,jk->bik", D[..., :3], C),
    ("ij,ij->ij", A, A), ("iij->ij", R.standard_normal((3, 3, 2))), ("ab,bc,cd->ad", A, C, B),
    ("ij,kj->i", A, np.ones((1, 3))), ("i...,i", D, A[:, 0]), ("...ii->...i", R.standard_normal((2, 3, 3))),
    ("Ab,bc", A, B), ("bA", A), (" ij , jk -> ik ", A, B), ("ii,i->i", C, C[0]), ("i->", np.ones(0)),
]


@pytest.mark.parametrize("case", EINSUMS, ids=[c[0] for c in EINSUMS])
def test_einsum_matches_numpy_and_differentiates(case):
    expr, ops = case[0], case[1:]
    got, want = fnp.einsum(expr, *ops), np.einsum(expr, *ops)
    assert got.shape == want.shape and np.allclose(got, want)
    check_grads(lambda *o: fnp.einsum(expr, *o), ops, order=2)


def test_einsum_forms_and_dtypes():
    assert np.allclose(fnp.einsum(D, [0, Ellipsis], A[:, 0], [0]), np.einsum(D, [0, Ellipsis], A[:, 0], [0]))
    assert np.allclose(fnp.einsum(A, [0, 1], B, [1, 2], [2, 0]), np.einsum(A, [0, 1], B, [1, 2], [2, 0]))
    i = np.arange(6).reshape(2, 3)
    assert fnp.einsum("ij,ij->i", i, i).dtype == np.einsum("ij,ij->i", i, i).dtype
    assert fnp.einsum("ij->", A.astype(np.float32)).dtype == np.float32
    assert fnp.einsum("ij->", i, dtype=float).dtype == np.float64


@pytest.mark.parametrize("args, match", [
    (("ij,jk->ik", A, A), "size of label 'j'"),
    (("ij,jk", A), "operand"),
    (("ijk", A), "does not match subscripts"),
    (("...i->i", D), "no '...'"),
    (("ij->ik", A), "do not appear"),
    (("ij->ii", C), "repeated"),
    (("i#", A), "invalid"),
])
def test_einsum_errors(args, match):
    with pytest.raises(ValueError, match=match):
        fnp.einsum(*args)


def test_tensordot_inner_dot_vdot_kron_outer_cross():
    for a, b, axes in [(A, B, 1), (D, D.transpose(1, 2, 0), 2), (A, A, ([1, 0], [1, 0])), (A, A, ((0,), (0,))),
                       (A, B, 0), (np.float64(2.0), A, 0), (D, B, ([1], [0]))]:
        got, want = fnp.tensordot(a, b, axes), np.tensordot(a, b, axes)
        assert got.shape == want.shape and np.allclose(got, want)
    for a, b in [(A, B.T), (A[0], A[1]), (2.0, A), (D, B)]:
        assert np.allclose(fnp.inner(a, b), np.inner(a, b))
    for a, b in [(A, B), (A[0], B), (D, D.transpose(0, 2, 1)), (A[0], A[0]), (3.0, A)]:
        assert np.allclose(fnp.dot(a, b), np.dot(a, b))
    assert np.isclose(float(fnp.vdot(A, A)), np.vdot(A, A))
    for a, b in [(A, B), (A[0], B), (np.ones((2, 1, 2)), A)]:
        assert np.allclose(fnp.kron(a, b), np.kron(a, b)) and np.allclose(fnp.outer(a, b), np.outer(a, b))
    u, v = R.standard_normal((4, 3)), R.standard_normal((1, 3))
    for kw in [{}, {"axisc": 0}]:
        assert np.allclose(fnp.cross(u, v, **kw), np.cross(u, v, **kw))
    assert np.allclose(fnp.cross(u.T, v.T, axis=0), np.cross(u.T, v.T, axis=0))
    # 2-vectors as numpy < 2.5 took them (z = 0; numpy 2.5 refuses them): the reference pads
    pad = lambda w: np.concatenate([w[:, :2], np.zeros((len(w), 1))], axis=1)  # noqa: E731
    assert np.allclose(fnp.cross(u[:, :2], v), np.cross(pad(u), v))
    assert np.allclose(fnp.cross(u[:, :2], v[:, :2]), np.cross(pad(u), pad(v))[:, 2])
    check_grads(lambda a, b: [fnp.cross(a, b), fnp.kron(a, b), fnp.tensordot(a, b, ([1], [1])), fnp.vdot(a, a)],
                (fnp.asarray(u), fnp.asarray(v)), order=2)


@pytest.mark.parametrize("call, match", [
    (lambda: fnp.tensordot(A, B, 2), "shape-mismatch for sum"),
    (lambda: fnp.tensordot(A, B, ([0], [1])), r"shape-mismatch for sum: shapes \(2, 3\) and \(3, 4\)"),
    (lambda: fnp.dot(A, A), r"shapes \(2, 3\) and \(2, 3\) not aligned"),
    (lambda: fnp.inner(A, B), "not aligned"),
    (lambda: fnp.vdot(A, B), "different lengths"),
    (lambda: fnp.cross(A, A[:, :1]), "dimension must be 2 or 3"),
    (lambda: fnp.matmul(A, A), r"mismatch in its core dimension"),
])
def test_product_errors_name_shapes(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_einsum_gradient_on_repeated_index_is_the_diagonal():
    g = fg.grad(lambda m: fnp.einsum("ii", m))(fnp.asarray(C))
    assert np.array_equal(g, np.eye(3))
    g = fg.grad(lambda m: fnp.sum(fnp.einsum("ii->i", m) ** 2))(fnp.asarray(C))
    assert np.allclose(g, np.diag(2 * np.diag(C)))


def test_products_on_any_backend(device):
    a, b = fnp.asarray(A), fnp.asarray(B)
    assert np.allclose(fnp.einsum("ij,jk->ik", a, b), A @ B)
    assert np.allclose(fg.grad(lambda m: fnp.einsum("ii", m))(fnp.asarray(C)), np.eye(3))
    assert np.allclose(fnp.tensordot(a, b, 1), A @ B)


def test_einsum_path_matches_numpy():
    ops = ("ij,jk,kl->il", A, B, R.standard_normal((4, 2)))
    for optimize in ("greedy", "optimal", True):
        got, want = fnp.einsum_path(*ops, optimize=optimize), np.einsum_path(*ops, optimize=optimize)
        assert got[0] == want[0] and got[1] == want[1]
    traced = fg.grad(lambda a: (fnp.einsum_path("ij,jk->ik", a, B)[0], fnp.sum(a))[1])(A)
    np.testing.assert_array_equal(traced, np.ones_like(A))
