"""Python integers beyond int64/uint64, complex vdot, unsigned integer dtypes."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp


@pytest.mark.parametrize("name", ["invert", "negative", "sign", "trunc", "absolute", "square"])
@pytest.mark.parametrize("value", [2 ** 70, -(2 ** 64)])
def test_out_of_range_python_ints_are_an_overflow_error(name, value):
    with pytest.raises(OverflowError, match=f"{name}\\(\\): Python integer x={value} is out of bounds"):
        getattr(fnp, name)(value)
    with pytest.raises(OverflowError, match="x1"):
        fnp.add(value, 1)
    with pytest.raises(OverflowError):
        fnp.asarray([1, 2]) + value  # numpy's own OverflowError


def test_in_range_python_ints_still_work():
    assert int(fnp.negative(2 ** 63 - 1)) == -(2 ** 63 - 1)
    assert int(fnp.invert(5)) == ~5 and fnp.invert(5).dtype == np.int64


def test_vdot_conjugates_the_first_complex_argument():
    a, b = np.array([1 + 2j, 3j]), np.array([2 - 1j, 1 + 1j])
    assert complex(fnp.vdot(a, b)) == np.vdot(a, b)
    assert complex(fnp.vdot(b.reshape(2, 1), a)) == np.vdot(b.reshape(2, 1), a)
    # d/dt Re(vdot(a + t, b)) = Re(sum(b)); d/dt Re(vdot(a + i t, b)) = Im(sum(b)) (conjugated first)
    assert float(fg.grad(lambda t: fnp.real(fnp.vdot(a + t, b)))(0.0)) == pytest.approx(np.sum(b).real)
    assert float(fg.grad(lambda t: fnp.real(fnp.vdot(a + 1j * t, b)))(0.0)) == pytest.approx(np.sum(b).imag)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_unsigned_integers_work_where_signed_ones_do(dtype):
    x = np.arange(1, 7, dtype=dtype).reshape(2, 3)
    fx = fnp.asarray(x)
    for f in (lambda m, a: m.sum(a, axis=0), lambda m, a: m.cumsum(a), lambda m, a: a + 1, lambda m, a: a * a,
              lambda m, a: m.max(a), lambda m, a: m.mean(a), lambda m, a: m.sort(a[:, ::-1]), lambda m, a: a // 2,
              lambda m, a: m.argmax(a), lambda m, a: m.prod(a), lambda m, a: a.astype(np.float32), lambda m, a: a.T[0],
              lambda m, a: m.where(a > 2, a, 0), lambda m, a: m.invert(a)):
        want, got = f(np, x), f(fnp, fx)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
