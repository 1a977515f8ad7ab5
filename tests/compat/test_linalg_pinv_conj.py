"""compat: linalg.pinv's atol/rtol cutoff (PyTorch's), pinverse's rcond, resolve_conj/resolve_neg."""

import numpy as np
import pytest

import funcgrad.compat as torch

A = np.diag([1.0, 1e-3, 1e-9])


def _pinv_ref(a, atol, rtol):
    u, s, vh = np.linalg.svd(a)
    cut = max(atol, rtol * s.max())
    return (vh.T * np.where(s > cut, 1 / s, 0)) @ u.T


@pytest.mark.parametrize("kw, atol, rtol", [
    ({}, 0.0, 3 * np.finfo(np.float64).eps), ({"atol": 1e-2}, 1e-2, 0.0), ({"rtol": 1e-2}, 0.0, 1e-2),
    ({"atol": 1e-6, "rtol": 1e-2}, 1e-6, 1e-2), ({"atol": 1e-2, "rtol": 1e-6}, 1e-2, 1e-6),
])
def test_pinv_cutoff_is_max_of_atol_and_rtol_times_largest(kw, atol, rtol):
    got = torch.linalg.pinv(torch.tensor(A), **kw).numpy()
    np.testing.assert_allclose(got, _pinv_ref(A, atol, rtol), rtol=1e-12)


def test_pinv_of_a_batch_cuts_each_matrix_by_its_own_largest_value():
    b = np.stack([A, 10 * A])
    got = torch.linalg.pinv(torch.tensor(b), atol=5e-3).numpy()
    np.testing.assert_allclose(got, np.stack([_pinv_ref(m, 5e-3, 0.0) for m in b]), rtol=1e-12)


def test_pinv_gradient_with_atol_and_legacy_names():
    a = torch.tensor(np.random.RandomState(0).randn(3, 2), requires_grad=True)
    assert torch.autograd.gradcheck(lambda x: torch.linalg.pinv(x, atol=1e-8), (a,))
    np.testing.assert_allclose(torch.pinverse(torch.tensor(A), rcond=1e-2).numpy(), _pinv_ref(A, 0, 1e-2))
    np.testing.assert_allclose(torch.linalg.pinv(torch.tensor(A), 1e-2).numpy(), _pinv_ref(A, 0, 1e-2))
    with pytest.raises(RuntimeError, match="rcond and rtol"):
        torch.linalg.pinv(torch.tensor(A), 1e-2, rtol=1e-2)


def test_resolve_conj_and_resolve_neg_do_not_change_values():
    z = torch.tensor([1 + 2j, 3 - 1j])
    np.testing.assert_array_equal(z.resolve_conj().numpy(), z.numpy())
    np.testing.assert_array_equal(torch.resolve_conj(z).numpy(), z.numpy())
    np.testing.assert_array_equal(z.conj().resolve_conj().numpy(), np.conj(z.numpy()))
    np.testing.assert_array_equal(z.resolve_neg().numpy(), z.numpy())
    np.testing.assert_array_equal(z.conj_physical().numpy(), np.conj(z.numpy()))
