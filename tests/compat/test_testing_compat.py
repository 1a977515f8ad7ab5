"""torch.testing: assert_close's tolerances and messages (PyTorch 2.x's text), make_tensor."""

import re

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import testing


def _msg(actual, expected, **kw):
    with pytest.raises(AssertionError) as info:
        testing.assert_close(actual, expected, **kw)
    return str(info.value)


def test_tensor_mismatch_message():
    m = _msg(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.1, 3.0]))
    assert m == ("Tensor-likes are not close!\n\nMismatched elements: 1 / 3 (33.3%)\n"
                 "Greatest absolute difference: 0.09999990463256836 at index (1,) (up to 1e-05 allowed)\n"
                 "Greatest relative difference: 0.04761900380253792 at index (1,) (up to 1.3e-06 allowed)")


def test_int_tensors_compare_exactly():
    m = _msg(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[1, 2], [3, 5]]))
    assert m == ("Tensor-likes are not equal!\n\nMismatched elements: 1 / 4 (25.0%)\n"
                 "Greatest absolute difference: 1 at index (1, 1)\n"
                 "Greatest relative difference: 0.20000000298023224 at index (1, 1)")


def test_zero_d_tensors_report_as_scalars():
    assert _msg(torch.tensor(True), torch.tensor(False)) == (
        "Scalars are not equal!\n\nExpected False but got True.\nAbsolute difference: 1\nRelative difference: inf")
    assert _msg(torch.tensor(1.5, dtype=torch.float64), torch.tensor(2.0), check_dtype=False) == (
        "Scalars are not close!\n\nExpected 2.0 but got 1.5.\nAbsolute difference: 0.5 (up to 1e-05 allowed)\n"
        "Relative difference: 0.25 (up to 1.3e-06 allowed)")


def test_default_tolerances_per_dtype():
    x = torch.ones(3)
    testing.assert_close(x + 1e-6, x)  # inside float32's rtol 1.3e-6 + atol 1e-5
    with pytest.raises(AssertionError):
        testing.assert_close(x + 1e-4, x)
    d = torch.ones(3, dtype=torch.float64)
    with pytest.raises(AssertionError):
        testing.assert_close(d + 1e-6, d)  # float64: 1e-7 / 1e-7
    h = torch.ones(3, dtype=torch.float16)
    testing.assert_close(h + 5e-4, h)  # float16: rtol 1e-3


def test_explicit_tolerances_and_both_required():
    testing.assert_close(torch.tensor([1.0]), torch.tensor([1.5]), rtol=0, atol=0.6)
    with pytest.raises(ValueError, match="got no atol"):
        testing.assert_close(torch.ones(2), torch.ones(2), rtol=1e-3)
    with pytest.raises(ValueError, match="got no rtol"):
        testing.assert_close(torch.ones(2), torch.ones(2), atol=1e-3)


def test_attribute_mismatches():
    assert _msg(torch.ones(2), torch.ones(2, dtype=torch.float64)) == (
        "The values for attribute 'dtype' do not match: torch.float32 != torch.float64.")
    assert _msg(torch.ones(2), torch.ones(3)) == (
        "The values for attribute 'shape' do not match: torch.Size([2]) != torch.Size([3]).")
    testing.assert_close(torch.ones(2), torch.ones(2, dtype=torch.float64), check_dtype=False)


def test_nan_handling():
    n = torch.tensor([float("nan"), 1.0])
    assert "Greatest absolute difference: nan at index (0,)" in _msg(n, n.clone())
    testing.assert_close(n, n.clone(), equal_nan=True)
    inf = torch.tensor([float("inf")])
    testing.assert_close(inf, inf.clone())
    with pytest.raises(AssertionError):
        testing.assert_close(inf, -inf)


def test_numbers_sequences_mappings():
    assert _msg(1.0, 1.1) == ("Scalars are not close!\n\nExpected 1.1 but got 1.0.\n"
                              "Absolute difference: 0.10000000000000009 (up to 1e-07 allowed)\n"
                              "Relative difference: 0.09090909090909098 (up to 1e-07 allowed)")
    assert _msg([1.0, 2.0], [1.0, 2.1]).endswith("The failure occurred for item [1]")
    assert _msg({"a": [torch.ones(2)]}, {"a": [torch.zeros(2)]}).endswith("The failure occurred for item ['a'][0]")
    assert _msg({"a": torch.ones(2)}, {"b": torch.ones(2)}) == (
        "The keys of the mappings do not match:\nMissing keys in the actual mapping: ['b']\n"
        "Additional keys in the actual mapping: ['a']")
    assert _msg([1.0, 2.0], [1.0]) == "The length of the sequences mismatch: 2 != 1"
    assert _msg(1, 1.0) == "The (d)types do not match: <class 'int'> != <class 'float'>."
    testing.assert_close(1, 1.0, check_dtype=False)
    testing.assert_close((torch.ones(2), 3, {"k": np.ones(2)}), [torch.ones(2), 3, {"k": np.ones(2)}])
    with pytest.raises(TypeError, match="No comparison pair"):
        testing.assert_close(torch.ones(2), [1.0, 1.0])


def test_custom_msg():
    assert _msg(torch.ones(2), torch.zeros(2), msg="custom") == "custom"
    assert _msg(torch.ones(2), torch.zeros(2), msg=lambda m: "X" + m[:6]) == "XTensor"


def test_make_tensor_ranges_and_flags():
    f = testing.make_tensor(4, 5, dtype=torch.float64, low=-1, high=2)
    assert f.shape == (4, 5) and f.dtype == torch.float64
    assert float(f.min()) >= -1 and float(f.max()) < 2
    i = testing.make_tensor((50,), dtype=torch.int64, exclude_zero=True)
    assert i.dtype == torch.int64 and int((i == 0).sum()) == 0
    assert -9 <= int(i.min()) and int(i.max()) < 10
    u = testing.make_tensor(30, dtype=torch.uint8)
    assert int(u.min()) >= 0
    b = testing.make_tensor(3, dtype=torch.bool)
    assert b.dtype == torch.bool
    g = testing.make_tensor(2, 3, dtype=torch.float32, requires_grad=True, noncontiguous=True)
    assert g.requires_grad and g.shape == (2, 3) and not g.is_contiguous()
    c = testing.make_tensor(2, dtype=torch.complex64)
    assert c.dtype == torch.complex64
    assert testing.make_tensor(0, 3, dtype=torch.float32).shape == (0, 3)
    with pytest.raises(ValueError, match="requires_grad"):
        testing.make_tensor(2, dtype=torch.int64, requires_grad=True)
    with pytest.raises(ValueError, match="low must be"):
        testing.make_tensor(2, dtype=torch.float32, low=3, high=1)


def test_import_path():
    import funcgrad.compat.testing as t2

    assert torch.testing is t2 and re.match(r"torch\.testing", t2.__doc__.strip("`"))
