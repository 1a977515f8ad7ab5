"""Helpers shared by the tests/compat/test_distributions_*.py files: float64 tensors, and gradients
of a scalar function of tensors checked against central finite differences."""

import numpy as np

import funcgrad.compat as torch


def t64(x):
    return torch.tensor(np.asarray(x, dtype=np.float64))


def check_grad(fn, *values, eps=1e-6, rtol=1e-4, atol=1e-6):
    """The autograd gradient of ``fn(*tensors).sum()`` w.r.t. each float64 input against central differences."""
    leaves = [t64(v).requires_grad_() for v in values]
    fn(*leaves).sum().backward()
    for i, leaf in enumerate(leaves):
        base = np.asarray(values[i], dtype=np.float64)
        num = np.zeros_like(base)
        for idx in np.ndindex(base.shape):
            hi, lo = base.copy(), base.copy()
            hi[idx] += eps
            lo[idx] -= eps
            args_hi = [t64(hi) if j == i else t64(values[j]) for j in range(len(values))]
            args_lo = [t64(lo) if j == i else t64(values[j]) for j in range(len(values))]
            num[idx] = (fn(*args_hi).sum().item() - fn(*args_lo).sum().item()) / (2 * eps)
        np.testing.assert_allclose(leaf.grad.numpy(), num, rtol=rtol, atol=atol, err_msg=f"argument {i}")


def seeded_rsample_grad(make, values, sample_shape, reduce, seed=0):
    """Gradient of reduce(make(*params).rsample(sample_shape)) w.r.t. params, with a fixed seed."""
    leaves = [t64(v).requires_grad_() for v in values]
    torch.manual_seed(seed)
    reduce(make(*leaves).rsample(sample_shape)).backward()
    return [leaf.grad.numpy() for leaf in leaves]
