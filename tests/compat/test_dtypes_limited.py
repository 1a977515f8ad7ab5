"""uint16/uint32/uint64 and float8: the dtypes PyTorch 2.13 stores, casts and saves, with few operators.

Where PyTorch has a kernel, compat gives its result and dtype; where it has none, compat raises
its NotImplementedError (never a value where PyTorch raises)."""

from __future__ import annotations

import io

import ml_dtypes
import numpy as np
import pytest

import funcgrad.compat as torch

UNSIGNED = [(torch.uint16, np.uint16, "UInt16"), (torch.uint32, np.uint32, "UInt32"),
            (torch.uint64, np.uint64, "UInt64")]


@pytest.mark.parametrize("dt, npd, name", UNSIGNED)
def test_unsigned_create_cast_print(dt, npd, name):
    assert repr(dt) == f"torch.{dt.name}" and not dt.is_signed and not dt.is_floating_point
    assert dt.itemsize == np.dtype(npd).itemsize
    top = int(np.iinfo(npd).max)
    x = torch.tensor([1, 2, top], dtype=dt)
    assert x.dtype == dt and x.tolist() == [1, 2, top] and x.numpy().dtype == npd
    assert repr(x) == f"tensor([{1:>{len(str(top))}}, {2:>{len(str(top))}}, {top}], dtype=torch.{dt.name})"
    assert torch.zeros(2, dtype=dt).dtype == dt and torch.full((2,), 3, dtype=dt).tolist() == [3, 3]
    assert torch.from_numpy(np.arange(3, dtype=npd)).dtype == dt
    assert x.to(torch.int64).dtype == torch.int64 and x[:2].float().tolist() == [1.0, 2.0]
    assert torch.iinfo(dt).max == top and torch.iinfo(dt).min == 0


@pytest.mark.parametrize("dt, npd, name", UNSIGNED)
def test_unsigned_ops_pytorch_implements(dt, npd, name):
    x = torch.tensor([1, 2, 3], dtype=dt)
    assert (x * x).tolist() == [1, 4, 9] and (x * x).dtype == dt
    assert (x * 2).dtype == dt and (x * torch.tensor(2)).dtype == dt  # a 0-d int64 does not promote
    assert (x / x).dtype == torch.float32 and (x + 2.5).dtype == torch.float32
    assert (x == x).all().item() and (x & x).dtype == dt and (x | x).dtype == dt and (x ^ x).dtype == dt
    assert x.sum().dtype == torch.int64 and x.sum().item() == 6 and x.cumsum(0).tolist() == [1, 3, 6]
    assert x.sort().values.tolist() == [1, 2, 3] and torch.cat([x, x]).dtype == dt
    assert x.sqrt().dtype == torch.float32 and x[1:].tolist() == [2, 3]
    y = x.clone()
    y[0] = 7
    y.fill_(5)
    assert y.tolist() == [5, 5, 5] and x.tolist() == [1, 2, 3]


@pytest.mark.parametrize("dt, npd, name", UNSIGNED)
@pytest.mark.parametrize("op, stub", [
    (lambda x: x + x, "add_stub"), (lambda x: x + 1, "add_stub"), (lambda x: x - 1, "add_stub"),
    (lambda x: -x, "neg_cpu"), (lambda x: x < x, "lt_cpu"), (lambda x: x.max(), "max_all"),
    (lambda x: x.abs(), "abs_cpu"), (lambda x: x @ x, "dot"), (lambda x: x.argmax(), "argmax_cpu"),
    (lambda x: x // x, "div_floor_cpu"), (lambda x: x % x, "remainder_cpu"), (lambda x: x.clone().add_(x), "add_stub"),
])
def test_unsigned_ops_pytorch_lacks_raise_its_error(dt, npd, name, op, stub):
    x = torch.tensor([1, 2, 3], dtype=dt)
    with pytest.raises(NotImplementedError, match=f'"{stub}" not implemented for \'{name}\''):
        op(x)


@pytest.mark.parametrize("dt, npd, name", UNSIGNED)
def test_unsigned_promotion_is_refused(dt, npd, name):
    x = torch.tensor([1, 2], dtype=dt)
    for other, oname in ((torch.ones(2, dtype=torch.int64), "Long"), (torch.ones(2, dtype=torch.uint8), "Byte")):
        with pytest.raises(RuntimeError, match=f"Promotion for uint16, uint32, uint64 types is not supported, "
                                               f"attempted to promote {name} and {oname}"):
            x * other
    with pytest.raises(RuntimeError, match="Promotion for uint16"):
        torch.promote_types(dt, torch.int64)
    assert torch.promote_types(dt, torch.float32) == torch.float32
    assert torch.promote_types(dt, torch.bfloat16) == torch.bfloat16
    with pytest.raises(RuntimeError, match=f"mean\\(\\): could not infer output dtype.*Got: {name}"):
        x.mean()


FLOAT8 = [(torch.float8_e4m3fn, ml_dtypes.float8_e4m3fn, "Float8_e4m3fn", 448.0),
          (torch.float8_e5m2, ml_dtypes.float8_e5m2, "Float8_e5m2", 57344.0)]


@pytest.mark.parametrize("dt, mld, name, top", FLOAT8)
def test_float8_stores_and_casts(dt, mld, name, top):
    vals = [1.0, 2.3, 400.0, -0.1]
    x = torch.tensor(vals).to(dt)
    want = np.asarray(vals, np.float32).astype(mld).astype(np.float64)
    assert x.dtype == dt and dt.is_floating_point and dt.itemsize == 1
    np.testing.assert_array_equal(x.to(torch.float64).numpy(), want)
    assert x.tolist() == want.tolist() and (x == x).all().item()
    assert x.abs().dtype == dt and x[1:].dtype == dt and torch.cat([x, x]).dtype == dt and x.clone().dtype == dt
    assert x.to(torch.bfloat16).dtype == torch.bfloat16
    assert torch.zeros(2, dtype=dt).dtype == dt
    fi = torch.finfo(dt)
    assert (fi.bits, fi.max, fi.resolution) == (8, top, 1.0)


@pytest.mark.parametrize("dt, mld, name, top", FLOAT8)
def test_float8_arithmetic_is_pytorchs_error(dt, mld, name, top):
    x = torch.ones(3).to(dt)
    with pytest.raises(NotImplementedError, match=f'"add_stub" not implemented for \'{name}\''):
        x + x
    with pytest.raises(NotImplementedError, match=f"not implemented for '{name}'"):
        x * 2
    with pytest.raises(NotImplementedError, match=f'"sum_cpu" not implemented for \'{name}\''):
        x.sum()
    with pytest.raises(RuntimeError, match=f"Promotion for Float8 Types is not supported, attempted to promote "
                                           f"{name} and Float"):
        torch.promote_types(dt, torch.float32)


def test_save_load_limited_dtypes():
    d = {"u16": torch.tensor([7, 65535], dtype=torch.uint16),
         "u32": torch.tensor([2 ** 32 - 1], dtype=torch.uint32),
         "u64": torch.tensor([2 ** 64 - 1, 2 ** 63], dtype=torch.uint64),
         "e4m3": torch.tensor([1.5, 400.0]).to(torch.float8_e4m3fn),
         "e5m2": torch.tensor([3.0, -0.25]).to(torch.float8_e5m2)}
    f = io.BytesIO()
    torch.save(d, f)
    f.seek(0)
    back = torch.load(f)
    for k, t in d.items():
        assert back[k].dtype == t.dtype
        np.testing.assert_array_equal(back[k].numpy().view(np.uint8), t.numpy().view(np.uint8))
