"""torch.bfloat16 is a real 16-bit float (ml_dtypes.bfloat16), rounded, printed and promoted as in PyTorch."""

from __future__ import annotations

import io

import ml_dtypes
import numpy as np
import pytest

import funcgrad.compat as torch
import funcgrad.compat.nn.functional as F

BF = ml_dtypes.bfloat16
VALS = [0.3, -1.7, 2.5, 4.1, 0.05, -0.9, 1.00390625, 3.14159]


def bf(values):
    """float64 values rounded to bfloat16, as float64: the reference every result is compared with."""
    return np.asarray(values, np.float64).astype(BF).astype(np.float64)


def f64(t):
    return t.detach().to(torch.float64).numpy()


def test_dtype_is_distinct_and_described_as_pytorchs():
    b = torch.bfloat16
    assert b is not torch.float32 and b != torch.float32
    assert repr(b) == "torch.bfloat16" and b.is_floating_point and b.is_signed and b.itemsize == 2
    assert not b.is_complex
    x = torch.ones(2, dtype=b)
    assert x.dtype == b and x.is_floating_point() and x.element_size() == 2
    assert x.type() == "torch.BFloat16Tensor"


def test_values_are_rounded_to_bfloat16():
    x = torch.tensor(VALS, dtype=torch.bfloat16)
    np.testing.assert_array_equal(f64(x), bf(VALS))
    assert x[6].item() == 1.0  # 1 + 2**-8 is below bfloat16's resolution
    np.testing.assert_array_equal(f64(torch.tensor(VALS).bfloat16()), bf(np.float32(VALS)))
    np.testing.assert_array_equal(f64(torch.tensor(VALS).to(torch.bfloat16)), bf(np.float32(VALS)))
    assert torch.tensor([3.4e38]).bfloat16().item() == float("inf")  # past bfloat16's max, within float32's


def test_printing():
    assert repr(torch.tensor([1.0, 2.3, -0.7], dtype=torch.bfloat16)) == \
        "tensor([ 1.0000,  2.2969, -0.6992], dtype=torch.bfloat16)"
    assert repr(torch.tensor(1.1, dtype=torch.bfloat16)) == "tensor(1.1016, dtype=torch.bfloat16)"


def test_finfo_is_pytorchs():
    fi = torch.finfo(torch.bfloat16)
    assert (fi.bits, fi.eps, fi.resolution) == (16, 0.0078125, 0.01)
    assert fi.max == pytest.approx(3.38953e38, rel=1e-5) and fi.min == -fi.max
    assert fi.tiny == fi.smallest_normal == pytest.approx(1.17549e-38, rel=1e-5)
    assert str(fi.dtype) == "bfloat16"


@pytest.mark.parametrize("other, want", [
    (lambda: torch.ones(3, dtype=torch.float16), torch.float32),
    (lambda: torch.ones(3), torch.float32),
    (lambda: torch.ones(3, dtype=torch.float64), torch.float64),
    (lambda: torch.ones(3, dtype=torch.int64), torch.bfloat16),
    (lambda: torch.tensor(1.0, dtype=torch.float64), torch.bfloat16),  # 0-d: same kind, no upcast
    (lambda: 3, torch.bfloat16),
    (lambda: 2.5, torch.bfloat16),
    (lambda: torch.ones(3, dtype=torch.complex64), torch.complex64),
])
def test_promotion_follows_pytorch(other, want):
    x = torch.ones(3, dtype=torch.bfloat16)
    assert (x + other()).dtype == want


def test_promote_types_and_can_cast():
    assert torch.promote_types(torch.bfloat16, torch.float16) == torch.float32
    assert torch.promote_types(torch.bfloat16, torch.int64) == torch.bfloat16
    assert torch.can_cast(torch.bfloat16, torch.float16) and torch.can_cast(torch.float32, torch.bfloat16)
    assert not torch.can_cast(torch.bfloat16, torch.int32)


def test_item_tolist_numpy():
    x = torch.tensor([1.1, -2.0], dtype=torch.bfloat16)
    assert type(x[0].item()) is float and x[0].item() == float(bf(1.1))
    assert x.tolist() == [float(bf(1.1)), -2.0] and all(type(v) is float for v in x.tolist())
    a = x.numpy()
    assert a.dtype == np.dtype(BF)  # PyTorch raises here (numpy has no bfloat16): compat has ml_dtypes'
    assert torch.from_numpy(a).dtype == torch.bfloat16


def test_elementwise_and_reductions_round_the_float64_result():
    a, b = bf(VALS), bf(VALS[::-1])
    x, y = torch.tensor(a, dtype=torch.bfloat16), torch.tensor(b, dtype=torch.bfloat16)
    cases = [
        (x + y, a + b), (x * y, a * b), (x / y, a / b), (x.exp(), np.exp(a)), (x.sin(), np.sin(a)),
        (x.tanh(), np.tanh(a)), (x.sigmoid(), 1 / (1 + np.exp(-a))),
    ]
    for got, want in cases:
        assert got.dtype == torch.bfloat16
        np.testing.assert_array_equal(f64(got), bf(want))
    ones = torch.ones(1000, dtype=torch.bfloat16)
    assert ones.sum().item() == 1000.0 and ones.cumsum(0)[-1].item() == 1000.0  # float32 accumulation
    np.testing.assert_array_equal(f64(x.sum()), bf(a.sum()))
    np.testing.assert_array_equal(f64(x.mean()), bf(a.mean()))


def test_matmul_linear_accumulate_in_float32():
    rng = np.random.default_rng(0)
    a, w = bf(rng.standard_normal((4, 64))), bf(rng.standard_normal((3, 64)))
    x, wt = torch.tensor(a, dtype=torch.bfloat16), torch.tensor(w, dtype=torch.bfloat16)
    for got in (x @ wt.T, torch.mm(x, wt.T), F.linear(x, wt), torch.einsum("ij,kj->ik", x, wt)):
        assert got.dtype == torch.bfloat16
        np.testing.assert_allclose(f64(got), bf(a @ w.T), rtol=2 ** -8)


def test_composite_ops_round_once():
    """softmax, log_softmax, layer_norm, var: one rounding of the exact result (PyTorch's float32 opmath),
    not one per inner step (log_softmax would then be 6% off)."""
    a = bf([[0.3, -1.7, 2.5], [4.1, 0.05, -0.9]])
    x = torch.tensor(a, dtype=torch.bfloat16)
    lse = np.log(np.exp(a).sum(1, keepdims=True))
    mu, sd = a.mean(1, keepdims=True), np.sqrt(a.var(1, keepdims=True) + 1e-5)
    for got, want in ((x.softmax(1), np.exp(a - lse)), (x.log_softmax(1), a - lse),
                      (F.layer_norm(x, (3,)), (a - mu) / sd), (x.var(), a.var(ddof=1))):
        assert got.dtype == torch.bfloat16
        np.testing.assert_allclose(f64(got), bf(want), rtol=2 ** -8, atol=1e-30)
    assert x.softmax(1, dtype=torch.float32).dtype == torch.float32


def test_composite_ops_with_other_float_dtypes_promote_as_pytorch():
    x, y = torch.randn(3, 4).bfloat16(), torch.randn(3, 4)
    assert F.mse_loss(x, y).dtype == torch.float32 and F.mse_loss(x, y.bfloat16()).dtype == torch.bfloat16
    # normalizations keep the input's dtype whatever the weights' (a float32 LayerNorm on bfloat16 input)
    assert torch.nn.LayerNorm(4)(x).dtype == torch.bfloat16
    assert F.layer_norm(x, (4,), torch.ones(4), torch.zeros(4)).dtype == torch.bfloat16


def test_autograd_gives_bfloat16_gradients():
    a = bf([0.3, -1.7, 2.5])
    w = torch.tensor(a, dtype=torch.bfloat16, requires_grad=True)
    (w * w).sin().sum().backward()
    assert w.grad.dtype == torch.bfloat16
    np.testing.assert_allclose(f64(w.grad), bf(2 * a * np.cos(a * a)), rtol=2 ** -7)
    mv = bf([[1.5, 2.0], [3.0, -4.25]])
    m = torch.tensor(mv, dtype=torch.bfloat16, requires_grad=True)
    (m @ m).sum().backward()  # d/dM sum(M @ M) = 1 M^T + M^T 1
    assert m.grad.dtype == torch.bfloat16
    ones = np.ones((2, 2))
    np.testing.assert_array_equal(f64(m.grad), bf(ones @ mv.T + mv.T @ ones))


def test_bfloat16_linear_layer_trains():
    torch.manual_seed(0)
    lin = torch.nn.Linear(3, 1).to(torch.bfloat16)
    assert lin.weight.dtype == torch.bfloat16
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    x = torch.randn(16, 3).bfloat16()
    y = x @ torch.tensor([[1.0], [-2.0], [0.5]], dtype=torch.bfloat16)
    first = None
    for _ in range(30):
        opt.zero_grad()
        loss = F.mse_loss(lin(x), y)
        first = loss.item() if first is None else first
        loss.backward()
        opt.step()
    assert lin.weight.dtype == torch.bfloat16 and loss.item() < first / 10


def test_layers_in_bfloat16():
    conv = torch.nn.Conv2d(1, 2, 3).bfloat16()
    y = conv(torch.randn(1, 1, 5, 5).bfloat16())
    y.sum().backward()
    assert y.dtype == conv.weight.grad.dtype == torch.bfloat16
    assert torch.nn.BatchNorm1d(3).bfloat16()(torch.randn(4, 3).bfloat16()).dtype == torch.bfloat16
    assert torch.nn.Embedding(5, 3).bfloat16()(torch.tensor([1, 2])).dtype == torch.bfloat16
    assert F.max_pool2d(torch.randn(1, 1, 4, 4).bfloat16(), 2).dtype == torch.bfloat16


def test_creation_functions():
    assert torch.zeros(2, dtype=torch.bfloat16).dtype == torch.bfloat16
    np.testing.assert_array_equal(f64(torch.full((2,), 1.1, dtype=torch.bfloat16)), bf([1.1, 1.1]))
    np.testing.assert_array_equal(f64(torch.linspace(0, 1, 5, dtype=torch.bfloat16)), [0, 0.25, 0.5, 0.75, 1])
    assert torch.randn(3, dtype=torch.bfloat16).dtype == torch.bfloat16
    assert torch.ones(2, dtype=torch.bfloat16).requires_grad_().requires_grad


def test_save_load_roundtrip_keeps_bits():
    x = torch.tensor(VALS, dtype=torch.bfloat16, requires_grad=True)
    f = io.BytesIO()
    torch.save({"x": x}, f)
    f.seek(0)
    y = torch.load(f)["x"]
    assert y.dtype == torch.bfloat16 and y.requires_grad
    np.testing.assert_array_equal(y.detach().numpy().view(np.uint16), x.detach().numpy().view(np.uint16))
