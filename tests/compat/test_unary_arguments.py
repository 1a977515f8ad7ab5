"""compat unary functions: PyTorch's TypeError for a non-Tensor input, and out= with PyTorch's semantics
(written in place and returned, resized, dtype casting checked, refused under autograd)."""

import numpy as np
import pytest

import funcgrad.compat as torch

UNARY = ["sin", "cos", "exp", "log", "tanh", "sqrt", "log1p", "expm1", "neg", "abs", "square", "sign"]


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("bad", [0.5, [1.0, 2.0], None, "x"])
def test_non_tensor_input_is_a_type_error_naming_the_argument(name, bad):
    with pytest.raises(TypeError, match=rf"{name}\(\): argument 'input' \(position 1\) must be Tensor, not "
                                        rf"{type(bad).__name__}"):
        getattr(torch, name)(bad)


@pytest.mark.parametrize("name", UNARY)
def test_out_is_written_resized_and_returned(name):
    x = torch.tensor([0.25, 0.5, 2.0])
    out = torch.empty(1)
    r = getattr(torch, name)(x, out=out)
    assert r is out and out.shape == (3,)
    np.testing.assert_allclose(out.numpy(), getattr(torch, name)(x).numpy())


def test_out_dtype_and_autograd_rules():
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.sin(torch.ones(3), out=torch.empty(3, dtype=torch.long))
    out = torch.empty(3, dtype=torch.float64)
    torch.sin(torch.ones(3), out=out)  # float32 -> float64: allowed
    assert out.dtype == torch.float64
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        torch.sin(torch.ones(3, requires_grad=True), out=torch.empty(3))
    with torch.no_grad():
        torch.sin(torch.ones(3, requires_grad=True), out=torch.empty(3))
    with pytest.raises(TypeError, match="argument 'out' must be Tensor, not list"):
        torch.sin(torch.ones(3), out=[1])
