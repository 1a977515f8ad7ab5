"""``out=`` in PyTorch's semantics (compat/_out.py): the result is written into out (resized), a
result dtype that cannot be cast to out's is a RuntimeError, tuple results take tuples of outs of
exactly the results' dtypes, factory functions create in out's dtype, autograd refuses out=.

Every expression of the API-surface table (values recorded from real PyTorch) that calls a function
declaring ``out`` is rerun with out= tensors of the recorded dtypes, so each such function is
checked to write what it returns."""

import ast
import inspect
import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat._out import declares_out

from .test_api_surface import NAMESPACE, _check

CASES = json.loads((Path(__file__).parent / "data" / "api_surface_cases.json").read_text())["value"]


def _dtype(name):
    return getattr(torch, name.split(".")[-1])


def _empty_like_expected(exp):
    if "tensor" in exp:
        return torch.empty(0, dtype=_dtype(exp["dtype"]))
    if "seq" in exp and all("tensor" in e for e in exp["seq"]):
        return tuple(torch.empty(0, dtype=_dtype(e["dtype"])) for e in exp["seq"])
    return None


def _out_cases():
    for case in CASES:
        call = ast.parse(case["expr"], mode="eval").body
        if not isinstance(call, ast.Call) or any(k.arg == "out" for k in call.keywords):
            continue
        try:
            fn = eval(ast.unparse(call.func), dict(NAMESPACE))
        except Exception:  # noqa: BLE001 - not a plain torch.<name> call
            continue
        if inspect.isfunction(fn) and declares_out(inspect.unwrap(fn)) \
                and _empty_like_expected(case["expected"]) is not None:
            call.keywords.append(ast.keyword("out", ast.Name("__out", ast.Load())))
            yield pytest.param(ast.unparse(call), case["expected"], id=case["expr"][:60])


@pytest.mark.parametrize(("expr", "expected"), list(_out_cases()))
def test_every_recorded_call_writes_out(expr, expected):
    out = _empty_like_expected(expected)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = eval(expr, dict(NAMESPACE, __out=out))
    _check(got, expected, expr)
    if isinstance(out, tuple):
        assert all(g is o for g, o in zip(got, out)), expr
        _check(out, expected, expr)
    else:
        assert got is out, expr


def test_the_table_reaches_many_functions():
    assert len({c.values[0].split("(")[0] for c in _out_cases()}) >= 50


A = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])


@pytest.mark.parametrize(("call", "out_dtype"), [
    (lambda out: torch.add(A, 1, out=out), torch.float32),
    (lambda out: torch.mul(A, A, out=out), torch.float64),
    (lambda out: torch.sub(A, A, alpha=2, out=out), torch.float32),
    (lambda out: torch.div(A, 2, out=out), torch.float32),
    (lambda out: torch.pow(A, 2, out=out), torch.float32),
    (lambda out: torch.exp(A, out=out), torch.float32),
    (lambda out: torch.ceil(A, out=out), torch.float32),
    (lambda out: torch.clamp(A, -1, 1, out=out), torch.float32),
    (lambda out: torch.eq(A, 1.0, out=out), torch.float32),  # bool results cast into a float out
    (lambda out: torch.sum(A, 1, out=out), torch.float32),
    (lambda out: torch.cat([A, A], out=out), torch.float32),
    (lambda out: torch.stack([A, A], 1, out=out), torch.float32),
    (lambda out: torch.matmul(A, A.T, out=out), torch.float32),
    (lambda out: torch.bmm(A[None], A.T[None], out=out), torch.float32),
    (lambda out: torch.gather(A, 1, torch.tensor([[0], [2]]), out=out), torch.float32),
    (lambda out: torch.where(A > 0, A, 0.0, out=out), torch.float32),
])
def test_out_of_a_function_equals_its_result(call, out_dtype):
    want = call(None)
    out = torch.full((7,), 9.0, dtype=out_dtype)  # wrong shape: resized, as PyTorch does
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = call(out)
    assert got is out and out.dtype == out_dtype and out.shape == want.shape
    np.testing.assert_allclose(out.numpy(), want.numpy().astype(out.numpy().dtype))


def test_out_may_be_an_input():
    x = A.clone()
    torch.add(x, 1, out=x)
    np.testing.assert_allclose(x.numpy(), A.numpy() + 1)


def test_out_into_a_non_contiguous_view():
    base = torch.zeros(3, 2)
    torch.add(torch.ones(3), 1, out=base[:, 0])
    np.testing.assert_allclose(base.numpy(), [[2, 0], [2, 0], [2, 0]])


@pytest.mark.parametrize(("make", "dtype"), [
    (lambda out: torch.zeros(2, 3, out=out), torch.int64),
    (lambda out: torch.ones(4, out=out), torch.float64),
    (lambda out: torch.full((2,), 7, out=out), torch.int32),
    (lambda out: torch.arange(5, out=out), torch.float64),
    (lambda out: torch.linspace(0, 1, 5, out=out), torch.float64),
    (lambda out: torch.eye(3, out=out), torch.int64),
    (lambda out: torch.randint(0, 5, (3,), out=out), torch.float32),
])
def test_factory_functions_create_in_outs_dtype(make, dtype):
    out = torch.empty(0, dtype=dtype)
    got = make(out)
    assert got is out and out.dtype == dtype and out.numel() > 0


def test_rand_into_an_integer_out_is_refused():
    torch.manual_seed(0)
    out = torch.empty(3)
    assert torch.rand(3, out=out) is out and bool(((out >= 0) & (out < 1)).all())
    with pytest.raises((RuntimeError, NotImplementedError, TypeError)):
        torch.rand(3, out=torch.empty(3, dtype=torch.int64))


def test_factory_dtype_must_match_out():
    with pytest.raises(RuntimeError, match=r"dtype Float does not match dtype of out parameter \(Long\)"):
        torch.zeros(2, dtype=torch.float32, out=torch.empty(2, dtype=torch.int64))


def test_result_that_cannot_be_cast_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.add(A, 1, out=torch.empty(0, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="ComplexFloat can't be cast to the desired output type Float"):
        torch.fft.fft(torch.ones(3), out=torch.empty(3))


def test_out_must_be_a_tensor():
    with pytest.raises(TypeError, match="argument 'out' must be Tensor, not list"):
        torch.add(A, 1, out=[1])


def test_tuple_results():
    values, indices = torch.empty(0), torch.empty(0, dtype=torch.long)
    got = torch.max(A, 1, out=(values, indices))
    assert got.values is values and got.indices is indices
    np.testing.assert_allclose(values.numpy(), [3.0, 4.0])
    np.testing.assert_array_equal(indices.numpy(), [2, 1])
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype Long, but got Float instead"):
        torch.max(A, 1, out=(torch.empty(0), torch.empty(0)))
    with pytest.raises(TypeError, match="must be tuple of Tensors"):
        torch.max(A, 1, out=torch.empty(0))
    w, v = torch.empty(0, dtype=torch.complex64), torch.empty(0, dtype=torch.complex64)
    torch.linalg.eig(torch.tensor([[2.0, 0.0], [0.0, 3.0]]), out=(w, v))
    np.testing.assert_allclose(np.sort(w.numpy().real), [2.0, 3.0])


def test_autograd_through_out_is_refused():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"add\(\): functions with out=\.\.\. arguments don't support automatic"):
        torch.add(x, 1, out=torch.empty(2))
    with torch.no_grad():
        out = torch.empty(2)
        torch.add(x, 1, out=out)
    np.testing.assert_allclose(out.numpy(), [2.0, 2.0])


def test_linalg_pinv_writes_out():
    out = torch.empty(0)
    torch.linalg.pinv(torch.tensor([[2.0, 0.0], [0.0, 4.0]]), out=out)
    np.testing.assert_allclose(out.numpy(), [[0.5, 0.0], [0.0, 0.25]])


@pytest.mark.parametrize("make", [torch.zeros, torch.ones, torch.empty, torch.rand, torch.randn])
def test_factory_size_keyword(make):
    assert make(size=(2, 3)).shape == (2, 3)
    assert make((2, 3)).shape == make(2, 3).shape == (2, 3)
    with pytest.raises(TypeError, match="multiple values for argument 'size'"):
        make(2, size=(3,))
    with pytest.raises(TypeError, match="unexpected keyword argument 'names'"):
        make(2, names=None)


@pytest.mark.parametrize("make", [torch.rand, torch.randn])
def test_random_floats_refuse_integer_dtypes_and_fill_complex_parts(make):
    with pytest.raises(NotImplementedError, match="not implemented for 'Long'"):
        make(3, dtype=torch.int64)
    with pytest.raises(NotImplementedError, match="not implemented for 'Bool'"):
        make(3, dtype=torch.bool)
    torch.manual_seed(0)
    z = make(20000, dtype=torch.complex64)
    assert z.dtype == torch.complex64
    var = 0.5 if make is torch.randn else 1 / 12  # randn: E|z|^2 = 1; rand: each part U(0, 1)
    np.testing.assert_allclose([float(z.real.var()), float(z.imag.var())], [var, var], rtol=0.05)
