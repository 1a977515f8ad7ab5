"""fnp.bfloat16 (ml_dtypes', as jnp.bfloat16): a floating dtype for every front door, grad included."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import backend

BF = ml_dtypes.bfloat16
VALS = [0.3, -1.7, 2.5, 4.1, 0.05, -0.9]


def bf(values):
    """float64 values rounded to bfloat16, as float64: the reference."""
    return np.asarray(values, np.float64).astype(BF).astype(np.float64)


def f64(a):
    return np.asarray(a).astype(np.float64)


def test_dtype_names_and_finfo():
    assert fnp.bfloat16 is BF and fnp.dtype(fnp.bfloat16) == np.dtype(BF)
    assert fnp.finfo(fnp.bfloat16).eps == 2 ** -7 and fnp.finfo(np.float32).eps == np.finfo(np.float32).eps
    assert fnp.float8_e4m3fn is ml_dtypes.float8_e4m3fn and fnp.float8_e5m2 is ml_dtypes.float8_e5m2


def test_floating_classification():
    """numpy reports ml_dtypes' kind as 'V': backend.kind_of / is_float_dtype are what funcgrad asks."""
    d = np.dtype(BF)
    assert d.kind == "V" and backend.kind_of(d) == "f" and backend.kind_of(BF) == "f"
    assert backend.is_float_dtype(d) and backend.is_real_float_dtype(d) and backend.is_numeric_dtype(d)
    assert backend.kind_of(np.float32) == "f" and backend.kind_of(np.int8) == "i"
    assert not backend.is_float_dtype(np.int64) and not backend.is_numeric_dtype(np.dtype("V2"))
    assert backend.compute_dtype(BF) == np.float32 and backend.compute_dtype(np.float16) == np.float16


@pytest.mark.parametrize("make", [
    lambda: fnp.asarray(VALS, fnp.bfloat16),
    lambda: fnp.asarray(VALS).astype(fnp.bfloat16),
    lambda: fnp.array(VALS, dtype=fnp.bfloat16),
    lambda: fg.asarray(np.asarray(VALS, BF)),
])
def test_creation_rounds(make):
    x = make()
    assert x.dtype == BF
    np.testing.assert_array_equal(f64(x), bf(VALS))


def test_creation_functions_take_the_dtype():
    for x in (fnp.zeros(3, dtype=fnp.bfloat16), fnp.ones((2, 2), fnp.bfloat16), fnp.full(2, 1.1, fnp.bfloat16),
              fnp.arange(3).astype(fnp.bfloat16), fnp.eye(2, dtype=fnp.bfloat16), fnp.zeros_like(fnp.ones(2), fnp.bfloat16)):
        assert x.dtype == BF
    np.testing.assert_array_equal(f64(fnp.full(2, 1.1, fnp.bfloat16)), bf([1.1, 1.1]))


def test_structured_and_void_data_are_still_refused():
    with pytest.raises(TypeError, match="funcgrad arrays hold numbers"):
        fg.asarray(np.zeros(2, dtype="V2"))


def test_elementwise_and_reductions():
    a = bf(VALS)
    x = fnp.asarray(a, fnp.bfloat16)
    for got, want in ((fnp.sin(x), np.sin(a)), (x * x + 1.0, bf(a * a) + 1.0), (fnp.exp(x), np.exp(a)),
                      (fnp.sum(x), a.sum()), (fnp.mean(x), a.mean()), (fnp.max(x), a.max())):
        assert got.dtype == BF
        np.testing.assert_array_equal(f64(got), bf(want))
    ones = fnp.ones(1000, fnp.bfloat16)  # accumulated in float32: bfloat16 would stop at 256
    assert float(ones.sum()) == 1000.0 and float(fnp.cumsum(ones)[-1]) == 1000.0 and float(fnp.mean(ones)) == 1.0


def test_matmul_einsum_linalg_keep_bfloat16():
    rng = np.random.default_rng(1)
    a, b = bf(rng.standard_normal((3, 40))), bf(rng.standard_normal((40, 2)))
    x, y = fnp.asarray(a, fnp.bfloat16), fnp.asarray(b, fnp.bfloat16)
    for got in (x @ y, fnp.matmul(x, y), fnp.dot(x, y), fnp.einsum("ij,jk->ik", x, y)):
        assert got.dtype == BF  # numpy's matmul on bfloat16 returns float32
        np.testing.assert_allclose(f64(got), bf(a @ b), rtol=2 ** -8)
    m = fnp.asarray(bf([[2.0, 1.0], [1.0, 3.0]]), fnp.bfloat16)
    inv = fnp.linalg.inv(m)
    assert inv.dtype == BF
    np.testing.assert_allclose(f64(inv), bf(np.linalg.inv(f64(m))), rtol=2 ** -8)


def test_grad_of_bfloat16_arrays():
    a = bf(VALS)
    x = fnp.asarray(a, fnp.bfloat16)
    g = fg.grad(lambda v: (fnp.sin(v) * v).sum())(x)
    assert g.dtype == BF
    np.testing.assert_allclose(f64(g), bf(np.cos(a) * a + np.sin(a)), rtol=2 ** -7)
    g2 = fg.grad(lambda v: fnp.mean(v ** 2))(x)
    assert g2.dtype == BF
    np.testing.assert_allclose(f64(g2), bf(2 * a / a.size), rtol=2 ** -7)
    m = fnp.asarray(bf([[1.5, 2.0], [3.0, -4.25]]), fnp.bfloat16)
    gm = fg.grad(lambda w: (w @ w).sum())(m)
    ones = np.ones((2, 2))
    assert gm.dtype == BF
    np.testing.assert_array_equal(f64(gm), bf(ones @ f64(m).T + f64(m).T @ ones))


def test_jvp_vmap_and_integer_inputs_still_refused():
    x = fnp.asarray(bf(VALS), fnp.bfloat16)
    out, t = fg.jvp(lambda v: (v * v).sum(), (x,), (fnp.ones_like(x),))
    assert out.dtype == BF and t.dtype == BF
    np.testing.assert_array_equal(f64(t), bf(2 * bf(VALS).sum()))
    rows = fg.vmap(lambda r: r.sum())(fnp.ones((3, 4), fnp.bfloat16))
    assert rows.dtype == BF and f64(rows).tolist() == [4.0, 4.0, 4.0]
    with pytest.raises(TypeError, match="integer or boolean"):
        fg.grad(lambda v: v.sum())(fnp.arange(3))


def test_special_functions_keep_bfloat16():
    from funcgrad.scipy import special  # noqa: PLC0415

    a = bf(VALS)
    x = fnp.asarray(a, fnp.bfloat16)
    got = special.expit(x)
    assert got.dtype == BF
    np.testing.assert_array_equal(f64(got), bf(1 / (1 + np.exp(-a))))


def test_float8_computes_nothing():
    x = fnp.asarray([1.0, 2.0], fnp.float8_e4m3fn)
    assert x.dtype == np.dtype(ml_dtypes.float8_e4m3fn)
    with pytest.raises(TypeError, match="hold values only"):
        fnp.sum(x)
    assert f64(x.astype(np.float32)).tolist() == [1.0, 2.0]


def test_bfloat16_cannot_move_to_a_cupy_like_device():
    """cupy has no bfloat16: the strict stand-in refuses it, as a device limitation (docs/backends.md)."""
    x = fg.asarray(np.ones(2, BF), device="cpu")
    with pytest.raises(backend.NoDeviceImplementationError, match="cupy has no bfloat16"):
        fg.device_put(x, "standin")
    y = fg.device_put(fnp.ones(2, np.float32), "standin")
    with pytest.raises(backend.NoDeviceImplementationError, match="cannot cast to bfloat16"):
        y.astype(fnp.bfloat16)


@pytest.mark.parametrize("f", [
    lambda v: v * 2.0, lambda v: 2 * v, lambda v: v ** 2, lambda v: fnp.maximum(v, 0.0), lambda v: fnp.clip(v, 0, 1),
    lambda v: fnp.where(v > 0, 1.0, v), lambda v: fnp.where(v > 0, v, 0), lambda v: fnp.linalg.norm(v),
    lambda v: v @ v, lambda v: fnp.cumsum(v), lambda v: fnp.std(v), lambda v: fnp.prod(v), lambda v: fnp.var(v),
    lambda v: fnp.arctan2(v, 1.0), lambda v: fnp.logaddexp(v, 0.0), lambda v: fnp.round(v, 1),
    lambda v: fnp.sum(v, dtype=np.float32), lambda v: v.astype(np.float32) + v,
])
def test_shape_rules_match_impls_and_grad_runs(f):
    """Every primitive's dtype rule agrees with what numpy computes on bfloat16 (numpy's where(c, 1.0,
    bfloat16) alone would give float32), and reverse mode runs through it."""
    from funcgrad.testing import check_shape_rules  # noqa: PLC0415

    x = fnp.asarray([0.5, 1.5, -2.0], fnp.bfloat16)
    check_shape_rules(f, x)
    g = fg.grad(lambda v: fnp.sum(f(v)).astype(np.float32))(x)
    assert g.dtype == BF
