"""funcgrad.compat prints the same values and raises the same exceptions as PyTorch
on a table of expressions and autograd snippets (recorded from PyTorch 2.13)."""

import re
import warnings

import numpy as np
import pytest

import funcgrad.compat as t

from ._pytorch_cases import EXPRESSIONS, SNIPPETS

# deliberate differences (docs/compat.md): messages that name our internals
_SAME_TYPE_ONLY = {"t.tensor([1, 2]) // 0", "t.arange(5)[::-1]"}


def _check(kind, expected, run, code):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if kind == "ok":
            assert run() == expected, code
        else:
            etype, msg = expected
            with pytest.raises(Exception) as info:
                run()
            assert type(info.value).__name__ == etype, (code, info.value)
            if code not in _SAME_TYPE_ONLY:
                assert str(info.value).startswith(msg[:40]), (code, str(info.value), msg)


@pytest.mark.parametrize("code,kind,expected", EXPRESSIONS, ids=[c for c, _, _ in EXPRESSIONS])
def test_expression(code, kind, expected):
    _check(kind, expected, lambda: repr(eval(code, {"t": t, "np": np})), code)


@pytest.mark.parametrize("code,kind,expected", SNIPPETS, ids=[re.sub(r"\s+", " ", c)[:60] for c, _, _ in SNIPPETS])
def test_snippet(code, kind, expected):
    def run():
        env = {"t": t, "np": np, "out": []}
        exec(code, env)
        return repr(env["out"])
    _check(kind, expected, run, code)
