"""Tensor creation, storage and views, dtypes and promotion, indexing, printing."""

import numpy as np
import pytest

import funcgrad.compat as torch


def test_legacy_constructor_shape_vs_data_and_memory():
    assert torch.Tensor(2, 3).shape == (2, 3)
    assert torch.Tensor((2, 3)).tolist() == [2.0, 3.0]
    assert torch.Tensor(torch.Size([4])).shape == (4,)
    a32 = np.zeros(3, np.float32)
    t = torch.Tensor(a32)
    a32[0] = 1
    assert t[0].item() == 1  # float32 data: shared
    a64 = np.zeros(3)
    t = torch.Tensor(a64)
    a64[0] = 1
    assert t[0].item() == 0 and t.dtype == torch.float32  # converted: a copy
    assert torch.LongTensor([1.7, 2]).tolist() == [1, 2]
    assert torch.Tensor().shape == (0,)


def test_python_floats_with_an_explicit_dtype_are_not_rounded_through_float32():
    assert torch.tensor([0.1], dtype=torch.float64).tolist() == [0.1]
    assert torch.tensor(0.1, dtype=torch.float64).item() == 0.1
    assert torch.DoubleTensor([0.1]).tolist() == [0.1]
    assert torch.tensor([1 + 0.1j], dtype=torch.complex128).tolist() == [1 + 0.1j]
    assert torch.tensor([0.1]).dtype == torch.float32 and torch.tensor([0.1], dtype=torch.float16).dtype == torch.float16


def test_tensor_copies_from_numpy_shares_and_negative_strides_raise():
    a = np.arange(3.0)
    t = torch.tensor(a)
    a[0] = 9
    assert t[0].item() == 0
    f = torch.from_numpy(a)
    f[1] = 7
    assert a[1] == 7 and f.dtype == torch.float64
    with pytest.raises(ValueError, match="negative"):
        torch.from_numpy(a[::-1])
    with pytest.raises(ValueError, match="negative"):
        torch.tensor(a[::-1])
    with pytest.raises(ValueError, match="step must be greater than zero"):
        torch.arange(4)[::-1]
    assert torch.as_tensor(a).data_ptr() == f.data_ptr()


def test_dtype_inference_defaults_and_factories():
    assert torch.tensor([1, 2]).dtype == torch.int64
    assert torch.tensor([1.0]).dtype == torch.float32
    assert torch.tensor([True]).dtype == torch.bool
    assert torch.full((2,), 7).dtype == torch.int64 and torch.full((2,), 7.0).dtype == torch.float32
    assert torch.arange(3).dtype == torch.int64 and torch.arange(3.0).dtype == torch.float32
    assert torch.ones(2, dtype=torch.float64).new_tensor([1.5]).dtype == torch.float64
    assert torch.tensor([1, 2]).new_tensor([1.7, 2.2]).tolist() == [1, 2]  # x's dtype: truncated
    torch.set_default_dtype(torch.float64)
    try:
        assert torch.tensor([1.5]).dtype == torch.float64 and torch.ones(1).dtype == torch.float64
    finally:
        torch.set_default_dtype(torch.float32)
    assert torch.zeros_like(torch.ones(2, dtype=torch.int32)).dtype == torch.int32
    assert torch.eye(2, 3).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    assert torch.logspace(0, 2, 3).tolist() == [1.0, 10.0, 100.0]
    assert torch.empty(2, 3).shape == (2, 3) and torch.randint(0, 3, (4,)).dtype == torch.int64


def test_randint_high_size_overload():
    x = torch.randint(5, (2, 3))  # randint(high, size), as word_language_model/generate.py calls it
    assert x.shape == (2, 3) and x.dtype == torch.int64 and 0 <= x.min().item() and x.max().item() < 5
    assert torch.randint(3, torch.Size([4]), dtype=torch.int32).dtype == torch.int32
    assert torch.randint(high=2, size=(3,)).max().item() < 2
    assert (torch.randint(7, 9, (50,)) >= 7).all()


def test_manual_seed_reproducible_streams():
    torch.manual_seed(3)
    a = (torch.rand(3), torch.randn(2), torch.randint(0, 10, (3,)), torch.randperm(4))
    torch.manual_seed(3)
    b = (torch.rand(3), torch.randn(2), torch.randint(0, 10, (3,)), torch.randperm(4))
    assert all(x.tolist() == y.tolist() for x, y in zip(a, b))
    g = torch.Generator().manual_seed(5)
    assert torch.rand(2, generator=g).tolist() == torch.rand(2, generator=torch.Generator().manual_seed(5)).tolist()
    x = torch.empty(1000).normal_(2.0, 0.5)
    assert abs(x.mean().item() - 2.0) < 0.1
    u = torch.empty(1000).uniform_(-1, 1)
    assert -1 <= u.min().item() and u.max().item() <= 1


@pytest.mark.parametrize("a,b,expected", [
    ("i64", "f64_0d", torch.float64), ("f32", "f64_0d", torch.float32), ("i64", 2.5, torch.float32),
    ("bool", "bool", torch.bool), ("u8", "i8", torch.int16), ("i32", 5, torch.int32), ("bool", 1, torch.int64),
    ("i8", "i64_0d", torch.int8), ("f16", "f32", torch.float32), ("i64", "f16", torch.float16),
])
def test_promotion(a, b, expected):
    make = {"i64": torch.tensor([1]), "f64_0d": torch.tensor(1.0, dtype=torch.float64), "f32": torch.tensor([1.0]),
            "bool": torch.tensor([True]), "u8": torch.tensor([1], dtype=torch.uint8),
            "i8": torch.tensor([1], dtype=torch.int8), "i32": torch.tensor([1], dtype=torch.int32),
            "i64_0d": torch.tensor(1), "f16": torch.tensor([1.0], dtype=torch.float16)}
    x = make[a]
    y = make.get(b, b) if isinstance(b, str) else b
    assert (x + y).dtype == expected


def test_integer_arithmetic_rules():
    assert torch.tensor([1, 2], dtype=torch.int32).sum().dtype == torch.int64
    assert torch.tensor([True, True]).sum().item() == 2
    with pytest.raises(RuntimeError, match="mean"):
        torch.tensor([1, 2]).mean()
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        torch.tensor([1]) // 0
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        torch.tensor([1]) % 0
    assert torch.tensor([1]) / 0 == float("inf")
    x = torch.tensor([1, 2])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        x /= 2
    with pytest.raises(RuntimeError, match="can't be cast"):
        x.add_(1.5)
    assert (torch.tensor([-3.0, 3.0]) % 2).tolist() == [1.0, 1.0]
    assert torch.fmod(torch.tensor([-3.0, 3.0]), 2).tolist() == [-1.0, 1.0]
    assert torch.tensor([0.5, 1.5, 2.5]).round().tolist() == [0.0, 2.0, 2.0]
    assert torch.clamp(torch.tensor([1.0, 5.0]), min=4, max=2).tolist() == [2.0, 2.0]


def test_views_share_storage_and_version_counter():
    a = torch.arange(12.0)
    v = a.view(3, 4)
    s = v[1:, 1:]
    assert s.storage_offset() == 5 and s.stride() == (4, 1) and not s.is_contiguous()
    s[0, 0] = 100
    assert a[5].item() == 100 and a._version == v._version == s._version == 1
    t = v.t()
    assert t.stride() == (1, 4) and t.data_ptr() == a.data_ptr()
    assert t.contiguous().is_contiguous() and t.contiguous().data_ptr() != a.data_ptr()
    c = v.contiguous()
    assert c is v
    u = a.unfold(0, 4, 4)
    u[0, 0] = -1
    assert a[0].item() == -1 and u.shape == (3, 4)
    n = a.narrow(0, 2, 3)
    n.zero_()
    assert a[2:5].tolist() == [0.0, 0.0, 0.0]
    e = torch.ones(3, 1).expand(3, 4)
    assert e.stride() == (1, 0)
    assert v.unsqueeze(0).squeeze(0).data_ptr() == a.data_ptr()
    assert v.permute(1, 0).shape == (4, 3) and v.transpose(0, 1).shape == (4, 3)
    assert a.float() is a and a.to(torch.float32) is a


def test_view_errors_and_shape_mismatch():
    with pytest.raises(RuntimeError, match=r"shape '\[3, 5\]' is invalid for input of size 12"):
        torch.arange(12).view(3, 5)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        torch.arange(12).view(3, 4).t().view(12)
    with pytest.raises(RuntimeError, match="only one dimension can be inferred"):
        torch.arange(12).view(-1, -1)
    with pytest.raises(RuntimeError, match="must match the existing size"):
        torch.ones(2, 3).expand(4, 3)
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        torch.ones(2, 3) @ torch.ones(2, 3)
    with pytest.raises(RuntimeError, match="Sizes of tensors must match"):
        torch.cat([torch.ones(2, 3), torch.ones(3, 2)])
    with pytest.raises(IndexError, match="out of range"):
        torch.ones(2).sum(dim=3)


def test_clone_repeat_resize_and_setitem():
    a = torch.tensor([1, 2, 3])
    assert a.repeat(2, 2).tolist() == [[1, 2, 3, 1, 2, 3]] * 2
    c = a.clone()
    c[0] = 9
    assert a[0].item() == 1
    b = torch.tensor([1.0, 2.0])
    b.resize_(3)
    assert b.shape == (3,) and b[:2].tolist() == [1.0, 2.0]
    m = torch.zeros(2, 3)
    m[:, 1] = torch.tensor([1.0, 2.0])
    m[m > 1] = 5
    m[..., 0] += 1
    assert m.tolist() == [[1.0, 1.0, 0.0], [1.0, 5.0, 0.0]]
    m[torch.tensor([0, 1]), torch.tensor([2, 2])] = torch.tensor([7.0, 8.0])
    assert m[:, 2].tolist() == [7.0, 8.0]


def test_indexing_family():
    a = torch.arange(12.0).view(3, 4)
    assert a[None, ..., 0].shape == (1, 3) and a[-1, -1].item() == 11
    assert a[a > 9].tolist() == [10.0, 11.0]
    assert a[torch.tensor([True, False, True])].shape == (2, 4)
    assert a[[0, 2], [1, 3]].tolist() == [1.0, 11.0]
    assert a.index_select(1, torch.tensor([0, 3])).tolist() == [[0.0, 3.0], [4.0, 7.0], [8.0, 11.0]]
    assert torch.masked_fill(a, a < 10, 0.0).sum().item() == 21
    assert torch.where(a > 5, a, torch.zeros(1)).sum().item() == sum(range(6, 12))
    assert torch.nonzero(torch.tensor([0, 3, 0, 4])).tolist() == [[1], [3]]
    assert torch.zeros(3).scatter_add_(0, torch.tensor([0, 0, 2]), torch.tensor([1.0, 2.0, 3.0])).tolist() == [3.0, 0.0, 3.0]
    assert torch.zeros(3).index_add_(0, torch.tensor([1, 1]), torch.tensor([1.0, 2.0])).tolist() == [0.0, 3.0, 0.0]
    assert a.take(torch.tensor([0, 11])).tolist() == [0.0, 11.0]
    with pytest.raises(IndexError):
        a[5]


def test_reductions_with_values_indices():
    x = torch.tensor([[1.0, 5.0, 5.0], [3.0, 2.0, 3.0]])
    v, i = x.max(1)
    assert v.tolist() == [5.0, 3.0] and i.tolist() == [1, 0]
    assert x.median().item() == 3.0  # lower middle of 6 values
    assert torch.tensor([1.0, 2.0, 3.0, 4.0]).median().item() == 2.0
    assert x.mode(1).values.tolist() == [5.0, 3.0]
    assert torch.tensor([2.0, 1.0, 2.0, 1.0]).mode().values.item() == 1.0
    assert x.sort(1, descending=True).indices.tolist() == [[1, 2, 0], [0, 2, 1]]
    assert x.topk(2).values.tolist() == [[5.0, 5.0], [3.0, 3.0]]
    assert x.kthvalue(1, 1).values.tolist() == [1.0, 2.0]
    assert np.isnan(torch.tensor([1.0]).std().item())
    assert torch.tensor([1.0, 2.0, 4.0]).var().item() == pytest.approx(7 / 3)
    assert x.sum(dim=(0, 1)).item() == 19.0 and x.mean(1, keepdim=True).shape == (2, 1)
    assert torch.cross(torch.eye(3), torch.eye(3)[[1, 2, 0]], dim=1).tolist() == torch.eye(3)[[2, 0, 1]].tolist()
    a, b = torch.ones(3, 3), torch.arange(9.0).view(3, 3)
    assert torch.cross(a, b).tolist() == torch.cross(a, b, dim=0).tolist()  # default: first dim of size 3
    assert x.argmax().item() == 1 and x.prod().item() == 450.0
    assert torch.logsumexp(torch.zeros(2), 0).item() == pytest.approx(np.log(2))


def test_repr_as_pytorch():
    assert repr(torch.tensor([1.0, 2.0], requires_grad=True)) == "tensor([1., 2.], requires_grad=True)"
    assert repr(torch.tensor([1.5, 2.25])) == "tensor([1.5000, 2.2500])"
    assert repr(torch.tensor([1e-5, 1e3])) == "tensor([1.0000e-05, 1.0000e+03])"
    assert repr(torch.tensor(3)) == "tensor(3)"
    assert repr(torch.zeros(0, 3)) == "tensor([], size=(0, 3))"
    assert repr(torch.tensor([1, 2], dtype=torch.int32)) == "tensor([1, 2], dtype=torch.int32)"
    assert repr(torch.tensor([float("nan"), 1.0, float("inf")])) == "tensor([nan, 1., inf])"
    assert repr(torch.ones(2).double()) == "tensor([1., 1.], dtype=torch.float64)"
    assert repr(torch.Size([2, 3])) == "torch.Size([2, 3])"
    assert repr(torch.float32) == "torch.float32" and str(torch.device("cuda:1")) == "cuda:1"
    assert repr(torch.device("cpu")) == "device(type='cpu')"
    assert torch.ones(2).type() == "torch.FloatTensor" and torch.ones(2).long().type() == "torch.LongTensor"


def test_conversions_and_python_scalars():
    x = torch.tensor([1.5, 2.5])
    assert x.int().tolist() == [1, 2] and x.bool().dtype == torch.bool and x.half().dtype == torch.float16
    assert x.type(torch.DoubleTensor).dtype == torch.float64 and x.type_as(torch.tensor([1])).dtype == torch.int64
    assert float(x[0]) == 1.5 and int(x[1]) == 2 and x[0].item() == 1.5
    assert x.to("cpu") is x and x.cpu() is x
    with pytest.raises(RuntimeError, match="elements cannot be converted to Scalar"):
        x.item()
    with pytest.raises(RuntimeError, match=r"Use tensor\.detach\(\)\.numpy\(\)"):
        x.requires_grad_().numpy()
    assert np.asarray(torch.ones(2)).tolist() == [1.0, 1.0]


def test_tensor_subclass_for_parameters():
    class Parameter(torch.Tensor):
        def __new__(cls, data, requires_grad=True):
            p = object.__new__(cls)
            p.__dict__.update(data.detach().__dict__)
            return p.requires_grad_(requires_grad)

    p = Parameter(torch.ones(2))
    assert isinstance(p, torch.Tensor) and p.requires_grad and p.is_leaf
    (p * 3).sum().backward()
    assert p.grad.tolist() == [3.0, 3.0]


def test_T_reverses_the_dimensions():
    w = torch.arange(6.0).view(2, 3).requires_grad_()
    assert w.T.shape == (3, 2) and w.T.tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    (torch.mm(torch.ones(1, 2), w) @ w.T).sum().backward()  # mnist_forward_forward: x @ self.weight.T
    assert w.grad.shape == (2, 3)
    assert torch.ones(2, 3, 4).T.shape == (4, 3, 2) and torch.ones(5).T.shape == (5,)


def test_one_element_integer_tensors_as_slice_bounds():
    x = torch.arange(6)
    assert x[:torch.tensor(2)].tolist() == [0, 1] and x[torch.tensor(1):torch.tensor([4])].tolist() == [1, 2, 3]
    x[:torch.tensor(2)] = 9
    assert x.tolist() == [9, 9, 2, 3, 4, 5]
    with pytest.raises(TypeError, match="only integer tensors"):
        x[:torch.tensor(2.0)]


def test_meshgrid_ij_and_xy():
    a, b = torch.arange(3.0), torch.arange(4.0) * 10
    gi, gj = torch.meshgrid(a, b, indexing="ij")
    assert gi.shape == gj.shape == (3, 4) and gi[:, 0].tolist() == [0, 1, 2] and gj[0].tolist() == [0, 10, 20, 30]
    gx, gy = torch.meshgrid(a, b, indexing="xy")  # as numpy.meshgrid: (len(b), len(a))
    ref = np.meshgrid(np.arange(3.0), np.arange(4.0) * 10)
    assert np.array_equal(gx.numpy(), ref[0]) and np.array_equal(gy.numpy(), ref[1])
    assert [g.shape for g in torch.meshgrid(a, b, torch.ones(2), indexing="xy")] == [(4, 3, 2)] * 3
    with pytest.warns(UserWarning, match="indexing argument"):
        assert torch.meshgrid([a, b])[0].shape == (3, 4)
    x = torch.ones(3, requires_grad=True)
    gx, _ = torch.meshgrid(x, torch.ones(2), indexing="xy")
    (gx * torch.arange(6.0).view(2, 3)).sum().backward()
    assert x.grad.tolist() == [3.0, 5.0, 7.0]
    with pytest.raises(RuntimeError, match="same dtype"):
        torch.meshgrid(torch.arange(2), b, indexing="ij")


def test_size_arithmetic_stays_a_size():
    s = torch.Size([2, 3])
    for r in (s + s, s + (4,), (1,) + s, s * 2, 2 * s, s[1:]):
        assert type(r) is torch.Size
    assert (1,) + s == (1, 2, 3) and s * 2 == (2, 3, 2, 3)
    assert repr(s + (4,)) == "torch.Size([2, 3, 4])"
    with pytest.raises(TypeError, match="can only concatenate tuple"):
        s + [1]
