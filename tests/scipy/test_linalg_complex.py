"""scipy.linalg.sqrtm / logm / expm with complex results where scipy's are, and their derivatives."""

import numpy as np
import pytest
import scipy.linalg as sl

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.linalg as fsl
from funcgrad.testing import check_grads

_M = np.array([[0.3, -0.2, 0.1], [0.5, 0.1, -0.3], [0.0, 0.2, 0.4]])
MATRICES = {
    "spd": _M @ _M.T + 2 * np.eye(3),
    "negative_eigenvalues": -(_M @ _M.T + 2 * np.eye(3)),  # real input, complex principal root / log
    "mixed_signs": np.array([[1.0, 2.0], [3.0, 4.0]]),  # eigenvalues -0.37 and 5.37
    "rotation_like": np.array([[0.5, -1.0], [1.0, 0.5]]),  # complex pair: real results
    "complex": _M + 2 * np.eye(3) + 0.4j * _M.T,
}


@pytest.mark.parametrize("name", sorted(MATRICES))
@pytest.mark.parametrize("fn", ["sqrtm", "logm", "expm"])
def test_values_and_dtypes_match_scipy(name, fn):
    a = MATRICES[name]
    got = getattr(fsl, fn)(a)
    want = getattr(sl, fn)(a)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("name", ["negative_eigenvalues", "mixed_signs", "complex"])
def test_sqrtm_derivatives_with_complex_results(name):
    check_grads(fsl.sqrtm, (fnp.asarray(MATRICES[name]),), order=2)


@pytest.mark.parametrize("name", ["negative_eigenvalues", "complex"])
def test_logm_first_derivatives_with_complex_results(name):
    check_grads(fsl.logm, (fnp.asarray(MATRICES[name][:2, :2]),), order=1)


def test_logm_second_order_and_holomorphic_derivative():
    a = np.array([[2.0 + 0.3j]])
    check_grads(fsl.logm, (fnp.asarray(a),), order=2)
    d = fg.grad(lambda z: fsl.logm(fnp.reshape(z, (1, 1)))[0, 0], holomorphic=True)(2.0 + 0.3j)
    np.testing.assert_allclose(complex(d), 1 / (2.0 + 0.3j))


def test_sqrtm_under_vmap_takes_every_example_into_account():
    a = MATRICES["spd"]
    out = fg.vmap(fsl.sqrtm)(fnp.asarray(np.stack([a, -a])))
    assert out.dtype == np.complex128
    np.testing.assert_allclose(np.asarray(out[1]), sl.sqrtm(-a), rtol=1e-9)
