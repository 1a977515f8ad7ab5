"""Names compat gained from the API-coverage work (docs/compat-coverage.md), against values
computed with real PyTorch (tests/compat/data/make_api_surface_cases.py wrote the JSON)."""

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import funcgrad.compat as torch

CASES = json.loads((Path(__file__).parent / "data" / "api_surface_cases.json").read_text())
NAMESPACE = {"torch": torch}
exec(CASES["prelude"], NAMESPACE)  # helpers (deterministic modules) the cases use


def _check(got, exp, expr):
    if "tensor" in exp:
        assert isinstance(got, torch.Tensor), (expr, type(got))
        assert str(got.dtype) == exp["dtype"], (expr, got.dtype, exp["dtype"])
        assert list(got.shape) == exp["shape"], (expr, tuple(got.shape), exp["shape"])
        want = np.array(exp["tensor"][0]) + 1j * np.array(exp["tensor"][1]) if exp.get("complex") else \
            np.array(exp["tensor"])
        np.testing.assert_allclose(got.detach().numpy(), want.reshape(exp["shape"]), rtol=2e-6, atol=1e-6,
                                   err_msg=expr)
    elif "size" in exp:
        assert tuple(got) == tuple(exp["size"]), expr
    elif "dict" in exp:
        assert sorted(got) == sorted(exp["dict"]), expr
        for k, e in exp["dict"].items():
            _check(got[k], e, expr)
    elif "seq" in exp:
        assert len(got) == len(exp["seq"]), expr
        for g, e in zip(got, exp["seq"]):
            _check(g, e, expr)
    else:
        assert got == exp["py"] and type(got) is type(exp["py"]), (expr, got, exp["py"])


@pytest.mark.parametrize("case", CASES["value"], ids=[c["expr"][:60] for c in CASES["value"]])
def test_value(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = eval(case["expr"], dict(NAMESPACE))
    _check(got, case["expected"], case["expr"])


@pytest.mark.parametrize("case", CASES["grad"], ids=[c["expr"][:60] for c in CASES["grad"]])
def test_grad(case):
    x = torch.tensor(case["x"], dtype=torch.float64, requires_grad=True)
    out = eval(case["expr"], {"torch": torch, "x": x})
    _check(out, case["value"], case["expr"])
    out.sum().backward()
    _check(x.grad, case["grad"], case["expr"])


def test_inplace_view_ops_share_storage_bump_version_and_refuse_leaves():
    x = torch.zeros(2, 1)
    v = x[0]
    assert x.squeeze_() is x and tuple(x.shape) == (2,)
    assert x._version == 1 and v._version == 1
    x[1] = 5.0
    assert float(v) == 0.0 and float(x[1]) == 5.0
    leaf = torch.zeros(2, 1, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        leaf.squeeze_()
    with torch.no_grad():
        leaf.t_()
    assert tuple(leaf.shape) == (1, 2)


def test_float_power_inplace_needs_double():
    with pytest.raises(RuntimeError, match="has dtype Float but the operation's result requires dtype Double"):
        torch.ones(3).float_power_(2)


def test_shift_of_floats_is_refused():
    with pytest.raises(NotImplementedError, match='"lshift_cpu" not implemented for \'Float\''):
        torch.tensor([5.0]).bitwise_left_shift(1)


def test_frombuffer_and_asarray_share_memory():
    buf = bytearray(8)
    t = torch.frombuffer(buf, dtype=torch.int32)
    t[1] = 7
    assert buf[4] == 7
    a = np.zeros(3, np.float32)
    s = torch.asarray(a)
    s[0] = 2.0
    assert a[0] == 2.0
    with pytest.raises(ValueError, match="copy=False"):
        torch.asarray(a, dtype=torch.float64, copy=False)


def test_lu_factor_refuses_to_differentiate():
    A = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    with pytest.raises(NotImplementedError, match="derivative of the LU factorisation"):
        torch.linalg.lu_factor(A)
    with torch.no_grad():
        assert torch.linalg.lu_factor(A).LU.shape == (2, 2)


def test_global_switches_round_trip():
    assert torch.set_flush_denormal(True) is False  # numpy has no flush-to-zero switch
    torch.set_deterministic_debug_mode("warn")
    assert torch.get_deterministic_debug_mode() == 1 and torch.is_deterministic_algorithms_warn_only_enabled()
    torch.set_deterministic_debug_mode(0)
    assert not torch.are_deterministic_algorithms_enabled()
    with pytest.raises(RuntimeError, match="invalid value of debug_mode"):
        torch.set_deterministic_debug_mode(3)
    torch.set_warn_always(True)
    assert torch.is_warn_always_enabled()
    torch.set_warn_always(False)
    torch.set_anomaly_enabled(True)
    assert torch.is_anomaly_enabled() and torch.is_anomaly_check_nan_enabled()
    torch.set_anomaly_enabled(True, check_nan=False)
    assert torch.is_anomaly_enabled() and not torch.is_anomaly_check_nan_enabled()
    torch.set_anomaly_enabled(False)
    assert not torch.is_anomaly_enabled()
    torch.set_autocast_enabled("cpu", True)
    assert torch.is_autocast_enabled("cpu")
    torch.set_autocast_cpu_enabled(False)
    assert not torch.is_autocast_enabled("cpu")


def test_cond_and_while_loop_are_differentiable():
    x = torch.tensor(2.0, requires_grad=True)
    y = torch.cond(x > 1, lambda a: a * a, lambda a: -a, (x,))
    (i, s), = [torch.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * x), (torch.tensor(0), y))]
    s.backward()
    assert int(i) == 3 and float(x.grad) == pytest.approx(5 * 2.0 ** 4)  # d/dx x^5
