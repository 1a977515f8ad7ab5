"""Names compat gained from the API-coverage work (docs/compat-coverage.md), against values
computed with real PyTorch (tests/compat/data/make_api_surface_cases.py wrote the JSON)."""

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import funcgrad.compat as torch

CASES = json.loads((Path(__file__).parent / "data" / "api_surface_cases.json").read_text())


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
        got = eval(case["expr"], {"torch": torch})
    _check(got, case["expected"], case["expr"])


@pytest.mark.parametrize("case", CASES["grad"], ids=[c["expr"][:60] for c in CASES["grad"]])
def test_grad(case):
    x = torch.tensor(case["x"], dtype=torch.float64, requires_grad=True)
    out = eval(case["expr"], {"torch": torch, "x": x})
    _check(out, case["value"], case["expr"])
    out.sum().backward()
    _check(x.grad, case["grad"], case["expr"])
