"""Exception classes (issue 22 item 2): each misuse in _exception_cases.py raises the class torch 2.13
raises for it (recorded in _exception_classes_torch.json by scripts/record_exception_classes.py).

Cases compat does not match yet are listed in KNOWN_DIFFERENT with the class compat raises today
(None: no error); they are strict xfails, so fixing one makes this test fail until it is removed
from the list."""

import json
import pathlib
import warnings

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import nn
from funcgrad.compat.nn import functional as F

from ._exception_cases import CASES

EXPECTED = json.loads((pathlib.Path(__file__).parent / "_exception_classes_torch.json").read_text())

KNOWN_DIFFERENT = {
    'randint_low_high': 'ValueError',  # torch: RuntimeError
    'full_none': None,  # torch: TypeError
    'arange_bad_range': None,  # torch: RuntimeError
    'linspace_neg_steps': 'ValueError',  # torch: RuntimeError
    'eye_negative': 'ValueError',  # torch: RuntimeError
    'tensor_none': 'TypeError',  # torch: RuntimeError
    'tensor_bad_dtype': None,  # torch: TypeError
    'tensor_object': 'TypeError',  # torch: RuntimeError
    'normal_neg_std': None,  # torch: RuntimeError
    'zeros_like_nontensor': 'AttributeError',  # torch: TypeError
    'randperm_neg': None,  # torch: RuntimeError
}


def _params():
    for family, cid, code in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=f"compat raises {KNOWN_DIFFERENT[cid]} today")] \
            if cid in KNOWN_DIFFERENT else []
        yield pytest.param(code, EXPECTED[cid], id=f"{family}-{cid}", marks=marks)


@pytest.mark.parametrize(("code", "expected"), list(_params()))
def test_misuse_raises_pytorchs_class(code, expected):
    env = {"torch": torch, "nn": nn, "F": F, "np": np}  # the recording script runs the cases with np too
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if expected[0] is None:
            exec(code, env)  # torch accepts it: so must compat
            return
        with pytest.raises(Exception) as info:  # noqa: PT011 - the class is what is checked
            exec(code, env)
    names = [c.__name__ for c in type(info.value).__mro__]
    assert expected[0] in names, f"{code}: torch raises {expected[0]}, compat {type(info.value).__name__}: {info.value}"


def test_op_errors_are_runtime_and_value_errors():
    with pytest.raises(RuntimeError, match=r"\(3\).*\(4\)|shapes|broadcast") as info:
        torch.randn(2, 3) + torch.randn(4)
    assert isinstance(info.value, ValueError)  # numpy users' except ValueError keeps working
    with pytest.raises(RuntimeError, match="linear: input") as info:
        nn.Linear(3, 4)(torch.randn(2, 5))
    assert isinstance(info.value, ValueError)
