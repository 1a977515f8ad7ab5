"""jit's numba fusion: fused == unfused == eager on every fusable primitive (values, dtypes, 0-d, empty,
non-contiguous, NaN/inf), the backward pass fuses, the cost model, the on-disk kernel cache, the fallback."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.transforms import fusion

pytest.importorskip("numba")

# primitive name -> (funcgrad function, domain of the inputs)
UNARY = {
    "negative": (fnp.negative, (-3, 3)), "absolute": (fnp.abs, (-3, 3)), "square": (fnp.square, (-3, 3)),
    "sqrt": (fnp.sqrt, (0.1, 3)), "exp": (fnp.exp, (-3, 3)), "expm1": (fnp.expm1, (-3, 3)),
    "log": (fnp.log, (0.1, 3)), "log1p": (fnp.log1p, (-0.5, 3)), "log2": (fnp.log2, (0.1, 3)),
    "log10": (fnp.log10, (0.1, 3)), "sin": (fnp.sin, (-3, 3)), "cos": (fnp.cos, (-3, 3)),
    "tan": (fnp.tan, (-1, 1)), "tanh": (fnp.tanh, (-3, 3)), "sinh": (fnp.sinh, (-3, 3)),
    "cosh": (fnp.cosh, (-3, 3)), "arcsin": (fnp.arcsin, (-0.9, 0.9)), "arccos": (fnp.arccos, (-0.9, 0.9)),
    "arctan": (fnp.arctan, (-3, 3)), "arcsinh": (fnp.arcsinh, (-3, 3)), "arccosh": (fnp.arccosh, (1.1, 3)),
    "arctanh": (fnp.arctanh, (-0.9, 0.9)), "reciprocal": (fnp.reciprocal, (0.5, 3)),
    "floor": (fnp.floor, (-3, 3)), "ceil": (fnp.ceil, (-3, 3)), "sign": (fnp.sign, (-3, 3)),
}
BINARY = {
    "add": fnp.add, "subtract": fnp.subtract, "multiply": fnp.multiply, "divide": fnp.divide,
    "maximum": fnp.maximum, "minimum": fnp.minimum, "power": fnp.power, "arctan2": fnp.arctan2,
    "hypot": fnp.hypot,
}


@pytest.fixture(autouse=True)
def fused(monkeypatch, tmp_path_factory, request):
    monkeypatch.setenv("FUNCGRAD_JIT_FUSE", "1")
    monkeypatch.setenv("FUNCGRAD_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "kernels"))
    if request.node.name != "test_cost_model":  # correctness tests fuse whatever the cost model would say
        monkeypatch.setattr(fusion, "_worth_it", lambda run: True)


def _unfused(f, *args):
    os.environ["FUNCGRAD_JIT_FUSE"] = "0"
    try:
        return fg.jit(f)(*args)
    finally:
        os.environ["FUNCGRAD_JIT_FUSE"] = "1"


def _check(f, *args, fused_expected=True):
    jf = fg.jit(f)
    got, unfused, eager = jf(*args), _unfused(f, *args), f(*args)
    if fused_expected:
        assert "fused" in jf.lower(*args).source
    for a, b in ((got, eager), (unfused, eager)):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape
        tol = 1e-5 if a.dtype == np.float32 else 1e-12
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol, equal_nan=True)


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_unary_primitives_fused(name, dtype):
    fn, (lo, hi) = UNARY[name]
    x = fg.asarray(np.linspace(lo, hi, 12).astype(dtype).reshape(3, 4).T)  # non-contiguous
    _check(lambda x: fn(x) * 1.5 + x, x)
    if name in ("sqrt", "log", "arcsin", "divide", "reciprocal"):
        bad = fg.asarray(np.array([-1.0, 0.0, np.inf, np.nan], dtype))
        _check(lambda x: fn(x) * 2.0 - x, bad)  # NaN/inf where numpy gives them


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_primitives_fused(name):
    fn = BINARY[name]
    x = fg.asarray(np.linspace(0.5, 2.0, 7))
    y = fg.asarray(np.linspace(2.0, 0.7, 7))
    _check(lambda x, y: fn(x, y) * x + y, x, y)
    _check(lambda x, s: fn(x, s) * 2.0 - x, x, fg.asarray(1.5))  # a 0-d operand
    nan = fg.asarray(np.array([np.nan, 1.0, -np.inf, 0.0]))
    _check(lambda x, y: fn(x, y) + x * 0.5, nan, fg.asarray(np.array([1.0, np.nan, 2.0, 0.0])))


def test_empty_and_0d_runs():
    _check(lambda x: fnp.sin(x) * 2.0 + 1.0, fg.asarray(np.zeros((0, 3))))
    _check(lambda x: fnp.sin(x) * 2.0 + 1.0, fg.asarray(1.0), fused_expected=False)  # 0-d: nothing to loop


def test_the_backward_pass_fuses():
    def f(x):
        for _ in range(5):
            x = fnp.tanh(fnp.sin(x) * 1.01 + 0.5)
        return fnp.sum(x)

    x = fg.asarray(np.linspace(-1, 1, 10))
    g = fg.jit(fg.grad(f))
    src = g.lower(x).source
    assert src.count("fused") == 1 and src.count("\n") <= 4  # one kernel: forward and backward
    np.testing.assert_allclose(g(x), fg.grad(f)(x), rtol=1e-12)


def test_cost_model():
    big = fg.asarray(np.linspace(-1, 1, 1 << 20))
    assert "fused" not in fg.jit(lambda x: fnp.tanh(fnp.tanh(x))).lower(big).source  # numpy's SIMD tanh wins
    assert "fused" in fg.jit(lambda x: x * 2.0 + 1.0 - x * x).lower(big).source  # arithmetic: one pass wins
    small = big[:256]  # in cache: a short arithmetic run stays numpy calls, a long one is worth a kernel call
    assert "fused" not in fg.jit(lambda x: x * 2.0 + 1.0).lower(small).source
    assert "fused" in fg.jit(lambda x: (((x * 2.0 + 1.0) * x - 3.0) * x + 0.5) * x - x).lower(small).source


def test_kernels_are_cached_on_disk_for_the_next_process(tmp_path):
    code = textwrap.dedent("""
        import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
        f = fg.jit(lambda x: fnp.cos((((x * 2.0 + 1.0) * x - 3.0) * x + 0.5) * x - x))  # worth one kernel
        print(float(fnp.sum(f(fg.asarray(np.linspace(0, 1, 5))))))
    """)
    env = {**os.environ, "FUNCGRAD_JIT_FUSE": "1", "FUNCGRAD_CACHE_DIR": str(tmp_path), "FUNCGRAD_JIT_LOG": "1"}
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    kernels = list((tmp_path / "kernels").glob("k_*.py"))
    cached = list((tmp_path / "kernels").rglob("*.nbi"))
    assert len(kernels) == 1 and cached, "numba's index of the compiled kernel is on disk"
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert second.stdout == first.stdout and len(list((tmp_path / "kernels").glob("k_*.py"))) == 1
    assert "unfused" not in first.stderr + second.stderr  # the second process ran the cached kernel


def test_a_kernel_numba_cannot_compile_falls_back(monkeypatch, caplog):
    def broken(self):
        raise RuntimeError("no compiler today")

    monkeypatch.setattr(fusion.FusedRun, "load", broken)
    x = fg.asarray(np.linspace(0, 1, 5))
    with caplog.at_level("INFO", logger="funcgrad.jit"):
        _check(lambda x: fnp.sin(x) * 2.0 + x, x)
    assert any("unfused" in r.getMessage() for r in caplog.records)


def test_switched_off_without_numba_or_by_the_environment(monkeypatch):
    monkeypatch.setenv("FUNCGRAD_JIT_FUSE", "0")
    assert not fusion.available()
    assert "fused" not in fg.jit(lambda x: fnp.sin(x) * 2.0 + x).lower(fg.asarray(np.ones(3))).source


def test_generated_cuda_source_is_golden():
    """The ElementwiseKernel a run becomes on cupy (no GPU here: the source is what is checked)."""
    x = fg.asarray(np.linspace(0, 1, 4))
    jf = fg.jit(lambda x, s: fnp.maximum(fnp.sin(x) * 2.0, s) + fnp.sign(x))
    lowered = jf.lower(x, fg.asarray(0.5))
    fr = next(f.run for f in lowered.compiled.replay.__globals__.values() if hasattr(f, "run"))
    ins, outs, body, name = fusion.cuda_source(fr)
    assert ins == "T i0, T i1" and outs == "T o0" and name.startswith("funcgrad_fused_")
    assert body.splitlines() == [
        "T t0 = sin(i0);",
        "T t1 = (t0 * (T)2.0);",
        "T t2 = ((t1 > i1 || t1 != t1) ? t1 : i1);",
        "T t3 = (i0 != i0 ? i0 : (T)((i0 > (T)0) - (i0 < (T)0)));",
        "T t4 = (t2 + t3);",
        "o0 = t4;",
    ]


def test_a_weakly_typed_python_number_enters_a_fused_kernel():
    x = fg.asarray(np.linspace(0.1, 1.0, 64))
    f = fg.jit(lambda v, s: fnp.exp(fnp.sin(v * s) + s) * s - 1.0)
    assert "fused" in f.lower(x, 2.0).source
    for s in (2.0, -0.5):
        np.testing.assert_allclose(np.asarray(f(x, s)), np.exp(np.sin(np.asarray(x) * s) + s) * s - 1.0,
                                   rtol=1e-12)
    assert f.trace_count == 1
