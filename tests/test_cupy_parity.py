"""Where cupy differs from numpy: the stand-in reproduces each difference (so CI sees it
without a GPU), and funcgrad gives numpy's results and errors on every backend anyway
(docs/backends.md)."""

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numpy.linalg import LinAlgError

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.linalg as fl
import funcgrad.scipy.signal as fsig
import funcgrad.scipy.special as fsp
from funcgrad.backend import standin as _standin
from funcgrad.backend import standin_cupy as _standin_cupy
from funcgrad.backend import NoDeviceImplementationError
from funcgrad.primitives.index_device import scatter_combine

xs = _standin.namespace


def _host(x):
    return np.asarray(fg.device_put(x, "cpu"))


# --- the stand-in behaves as cupy ----------------------------------------------------------

def test_standin_mimics_cupy():
    a = _standin.asarray(np.arange(5.0))
    assert np.array_equal(a[_standin.asarray(np.array([6, -7]))].get(), [1.0, 3.0])  # wraps
    with pytest.raises(IndexError, match="Index 7 is out of bounds"):
        a[7]
    with pytest.raises(NotImplementedError, match="cupy_multiply.at"):
        xs.multiply.at(a, _standin.asarray(np.array([0])), 2.0)
    xs.maximum.at(a, _standin.asarray(np.array([0])), 1.05)  # through float32, as cupy's fmaxf
    assert a.get()[0] == float(np.float32(1.05)) and a.get()[0] != 1.05
    assert xs.zeros_like(a, shape=()).shape == (5,) and xs.zeros_like(a, shape=(2,)).shape == (2,)
    with pytest.raises(AttributeError, match="astype"):
        xs.where(True, a, a)
    with pytest.raises(NotImplementedError, match="Only 1d"):
        xs.convolve(xs.ones((2, 2)), xs.ones((2, 2)))
    from funcgrad.primitives.special import scipy_namespace  # noqa: PLC0415

    if scipy_namespace(xs, "signal") is not None:
        with pytest.raises(NotImplementedError, match="Only 1d"):
            scipy_namespace(xs, "signal").convolve(xs.ones((2, 2)), xs.ones((2, 2)))
    assert xs.sign(_standin.asarray(np.array([True]))).dtype == np.bool_
    assert xs.sinc(_standin.asarray(np.array([True]))).dtype == np.float16
    with pytest.raises(ValueError, match="Axis dimension mismatch"):
        xs.matmul(xs.ones((2, 3)), xs.ones((2, 3)))
    assert np.isnan(xs.linalg.inv(xs.ones((2, 2))).get()).all()  # no LinAlgError ...
    with _standin_cupy.errstate(linalg="raise"), pytest.raises(LinAlgError):  # ... unless asked
        xs.linalg.inv(xs.ones((2, 2)))
    b = _standin.asarray(np.zeros(3))
    b[_standin.asarray(np.array([1, 1]))] = _standin.asarray(np.array([5.0, 6.0]))
    assert b.get()[1] == 5.0  # a repeated position keeps the first write (numpy: the last)


# --- funcgrad follows numpy on every backend ---------------------------------------------

@pytest.mark.parametrize("ufunc", [np.multiply, np.minimum, np.maximum, None])
def test_scatter_combine_matches_numpy_with_repeated_indices(ufunc):
    rng = np.random.default_rng(0)
    for _ in range(30):
        x = rng.standard_normal((5, 3))
        idx = (rng.integers(-5, 5, size=rng.integers(0, 12)),)
        v = rng.standard_normal((len(idx[0]), 3))
        want = x.copy()
        if ufunc is None:
            want[idx] = v
        else:
            ufunc.at(want, idx, v)
        np.testing.assert_allclose(scatter_combine(np, x, idx, v, ufunc), want, rtol=1e-14)
        got = scatter_combine(xs, _standin.asarray(x), (_standin.asarray(idx[0]),), _standin.asarray(v),
                              None if ufunc is None else getattr(xs, ufunc.__name__))
        np.testing.assert_allclose(got.get(), want, rtol=1e-14)


def test_functional_updates_match_numpy(device):
    x = np.array([1.0, 2.0, 3.0, np.nan, 5.0])
    idx, v = [0, 2, 2, -1, 1], np.array([2.0, 3.05, 4.0, 0.5, np.nan])
    for mode, uf in [("multiply", np.multiply), ("min", np.minimum), ("max", np.maximum)]:
        want = x.copy()
        uf.at(want, idx, v)
        got = getattr(fnp.asarray(x).at[idx], mode)(fnp.asarray(v))
        # no float32 rounding (1e-8), NaN kept; a product may round differently in its last bit
        np.testing.assert_allclose(_host(got), want, rtol=1e-15, atol=0)
    want = x.copy()
    want[idx] = v
    np.testing.assert_array_equal(_host(fnp.asarray(x).at[idx].set(fnp.asarray(v))), want)  # last write wins
    g = fg.grad(lambda a: fnp.sum(a.at[[0, 0]].multiply(fnp.asarray([2.0, 3.0]))))(fnp.asarray(x))
    np.testing.assert_array_equal(_host(g), [6.0, 1.0, 1.0, 1.0, 1.0])


def test_out_of_bounds_indices_raise_numpys_index_error(device):
    x = fnp.arange(6.0).reshape(2, 3)
    for bad, msg in [((0, 3), "index 3 is out of bounds for axis 1 with size 3"),
                     (([0, 2],), "index 2 is out of bounds for axis 0 with size 2"),
                     ((Ellipsis, [-4]), "index -4 is out of bounds for axis 1 with size 3")]:
        with pytest.raises(IndexError, match=msg):
            x[bad]
        with pytest.raises(IndexError, match=msg):
            x.at[bad].add(1.0)
    with pytest.raises(IndexError, match="out of bounds"):
        fnp.take(x, [6])
    np.testing.assert_array_equal(_host(x[[-1, 1], [-3, 2]]), [3.0, 5.0])  # negatives in range are fine


def test_index_data_goes_to_the_indexed_arrays_device(device):
    x = fnp.asarray([1.0, 2.0, 3.0], device="cpu")  # whatever the default device
    np.testing.assert_array_equal(np.asarray(x[np.array([2, 0])]), [3.0, 1.0])
    np.testing.assert_array_equal(np.asarray(x.at[[0, 0]].add(1.0)), [3.0, 2.0, 3.0])
    assert x[True].shape == (1, 3)


def test_singular_matrices_raise_on_every_backend(device):
    with pytest.raises(LinAlgError):
        fnp.linalg.inv(fnp.ones((2, 2)))
    with pytest.raises(LinAlgError):
        fnp.linalg.solve(fnp.ones((2, 2)), fnp.ones(2))
    with pytest.raises(LinAlgError):
        fl.cholesky(-fnp.eye(2))
    for n in (2, 40):  # (a general solve for small n, scipy/cupyx's triangular solve above 32)
        sing = np.tril(np.ones((n, n)))
        sing[1, 1] = 0.0
        with pytest.raises(LinAlgError):
            fl.solve_triangular(fnp.asarray(sing), fnp.ones((n, 1)), lower=True)
    np.testing.assert_allclose(_host(fnp.linalg.inv(2 * fnp.eye(2))), 0.5 * np.eye(2))


def test_like_with_empty_shape_and_vmap_of_grad(device):
    assert fnp.zeros_like(fnp.ones(3), shape=()).shape == ()
    out = fg.vmap(fg.grad(lambda v: fnp.sum(v**2)))(fnp.ones((4, 2)))
    np.testing.assert_array_equal(_host(out), 2 * np.ones((4, 2)))


def test_numpy_loops_and_dtypes_on_every_backend(device):
    with pytest.raises(TypeError, match="sign"):
        fnp.sign(fnp.asarray([True, False]))
    assert fnp.sinc(fnp.asarray([True])).dtype == np.float64 == np.sinc(np.array([True])).dtype
    assert fnp.add(fnp.asarray([1], dtype=np.int8), 2).dtype == np.int8
    np.testing.assert_array_equal(_host(fnp.where(True, fnp.ones(2), fnp.zeros(2))), [1.0, 1.0])
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        fnp.ones((2, 3)) @ fnp.ones((2, 3))


def test_nd_convolution_on_every_backend(device):
    ss = pytest.importorskip("scipy.signal")
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((6, 40)), rng.standard_normal((3, 35))  # "auto": FFTs off numpy
    for method in ("auto", "direct", "fft"):
        got = fsig.convolve(fnp.asarray(x), fnp.asarray(y), method=method)
        np.testing.assert_allclose(_host(got), ss.convolve(x, y), rtol=1e-10, atol=1e-12)
    ints = fsig.correlate(fnp.asarray(np.arange(12).reshape(3, 4)), fnp.asarray(np.ones((2, 2), int)))
    np.testing.assert_array_equal(_host(ints), ss.correlate(np.arange(12).reshape(3, 4), np.ones((2, 2), int)))


def test_scalar_orders_and_bessel_derivatives_without_real_orders(device):
    ss = pytest.importorskip("scipy.special")
    x = np.array([1e-6, 0.3, 2.0])
    np.testing.assert_allclose(_host(fsp.polygamma(1, fnp.asarray(x))), ss.polygamma(1, x), rtol=1e-12)
    for f, d in [(fsp.i1, lambda t: ss.ivp(1, t)), (fsp.j1, lambda t: ss.jvp(1, t)),
                 (fsp.i1e, lambda t: ss.ivp(1, t) * np.exp(-t) - ss.i1e(t))]:
        g = fg.grad(lambda v, f=f: fnp.sum(f(v)))(fnp.asarray(x))
        np.testing.assert_allclose(_host(g), d(x), rtol=1e-12)
    g = fg.grad(lambda v: fnp.sum(fsp.yn(0, v)))(fnp.asarray(x[1:]))
    np.testing.assert_allclose(_host(g), -ss.y1(x[1:]), rtol=1e-12)


def test_cpu_only_functions_name_the_device():
    with pytest.raises(NoDeviceImplementationError, match="iv has no implementation on device 'standin'"):
        fsp.iv(1.5, fnp.asarray([1.0], device="standin"))
    with pytest.raises(NoDeviceImplementationError, match="sqrtm"):
        fl.sqrtm(fnp.asarray(np.eye(2), device="standin"))
    np.testing.assert_allclose(np.asarray(fl.sqrtm(fnp.asarray(4 * np.eye(2), device="cpu"))), 2 * np.eye(2))


def test_plugin_reports_no_device_implementation_as_skip(tmp_path):
    (tmp_path / "test_gap.py").write_text(
        "from funcgrad.backend import NoDeviceImplementationError\n"
        "def test_gap():\n"
        "    raise NoDeviceImplementationError(\"f has no implementation on device 'cuda'\")\n"
        "def test_real_failure():\n"
        "    raise NotImplementedError('a bug')\n"
    )
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    env.pop("FUNCGRAD_TEST_BACKEND", None)
    # the plugin by its entry point where funcgrad is installed (CI), else by name (a source tree)
    installed = any(ep.name == "funcgrad" for ep in importlib.metadata.entry_points(group="pytest11"))
    plugin = [] if installed else ["-p", "funcgrad.testing.pytest_plugin"]
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", *plugin,
                           str(tmp_path / "test_gap.py")],
                          check=False, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert "1 failed, 1 skipped" in proc.stdout, proc.stdout + proc.stderr
    assert "f has no implementation on device 'cuda'" in proc.stdout
