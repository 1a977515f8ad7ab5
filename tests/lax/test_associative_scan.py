"""lax.associative_scan against sequential Python loops: values, reverse, axes, pytrees, lengths 0..n,
gradients, jvp, vmap, jit, errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.lax import associative_scan
from funcgrad.testing import check_grads


def _sequential(fn, xs, reverse=False):
    """The prefix combinations one by one, along axis 0 of a list of numpy arrays."""
    items = list(xs[::-1]) if reverse else list(xs)
    out, acc = [], None
    for e in items:
        acc = e if acc is None else (fn(e, acc) if reverse else fn(acc, e))
        out.append(acc)
    return np.stack(out[::-1] if reverse else out) if out else np.asarray(xs)


@settings(deadline=None, max_examples=25)
@given(n=st.integers(0, 17), reverse=st.booleans(), seed=st.integers(0, 2**16))
def test_cumulative_sum_and_max_match_a_loop(n, reverse, seed):
    x = np.random.default_rng(seed).standard_normal((n, 3))
    for fn, ref in ((fnp.add, np.add), (fnp.maximum, np.maximum)):
        got = associative_scan(fn, fg.asarray(x), reverse=reverse)
        np.testing.assert_allclose(np.asarray(got), _sequential(ref, x, reverse), rtol=1e-12)


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("n", [1, 2, 5, 8, 13])
def test_a_non_commutative_operator_keeps_operand_order(n, reverse):
    """Matrix products: out[i] = e0 @ ... @ ei (reverse: ei @ ... @ e(n-1))."""
    m = np.random.default_rng(n).standard_normal((n, 2, 2))
    got = associative_scan(lambda a, b: a @ b, fg.asarray(m), reverse=reverse)
    np.testing.assert_allclose(np.asarray(got), _sequential(np.matmul, m, reverse), rtol=1e-10, atol=1e-12)


def test_a_pytree_linear_recurrence():
    """h_t = a_t h_(t-1) + b_t as the associative combination of (a, b) pairs."""
    rng = np.random.default_rng(0)
    a, b = rng.uniform(0.5, 1.0, 11), rng.standard_normal(11)

    def fn(x, y):
        return {"a": x["a"] * y["a"], "b": y["a"] * x["b"] + y["b"]}

    got = associative_scan(fn, {"a": fg.asarray(a), "b": fg.asarray(b)})
    h, expect = 0.0, []
    for at, bt in zip(a, b):
        h = at * h + bt
        expect.append(h)
    np.testing.assert_allclose(np.asarray(got["b"]), expect, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(got["a"]), np.cumprod(a), rtol=1e-12)


@pytest.mark.parametrize("axis", [1, -1, -2])
def test_other_axes(axis):
    x = np.random.default_rng(1).standard_normal((3, 6, 2))
    got = associative_scan(fnp.add, fg.asarray(x), axis=axis)
    np.testing.assert_allclose(np.asarray(got), np.cumsum(x, axis=axis), rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.complex128])
def test_dtypes_are_kept(dtype):
    x = (np.arange(1, 8) * (1 + 1j if dtype is np.complex128 else 1)).astype(dtype)
    got = associative_scan(fnp.multiply, fg.asarray(x))
    assert got.dtype == dtype
    np.testing.assert_allclose(np.asarray(got), np.cumprod(x), rtol=1e-6)


def test_gradients_to_order_two_and_forward_mode():
    x = fg.asarray(np.random.default_rng(2).uniform(0.5, 1.5, 7))

    def f(v):
        return fnp.sum(associative_scan(fnp.multiply, v) ** 2)

    check_grads(f, (x,), order=2, modes=("rev", "fwd"))
    expect = fg.grad(lambda v: fnp.sum(fnp.cumprod(v) ** 2))(x)
    np.testing.assert_allclose(np.asarray(fg.grad(f)(x)), np.asarray(expect), rtol=1e-10)


def test_vmap_and_jit():
    xs = np.random.default_rng(3).standard_normal((4, 9))
    batched = fg.vmap(lambda v: associative_scan(fnp.add, v))(fg.asarray(xs))
    np.testing.assert_allclose(np.asarray(batched), np.cumsum(xs, axis=1), rtol=1e-12)
    jitted = fg.jit(lambda v: associative_scan(fnp.add, v, reverse=True))
    np.testing.assert_allclose(np.asarray(jitted(fg.asarray(xs))), np.flip(np.cumsum(np.flip(xs, 0), 0), 0),
                               rtol=1e-12)


def test_errors():
    with pytest.raises(ValueError, match="one length along axis 0"):
        associative_scan(lambda a, b: (a[0] + b[0], a[1] + b[1]), (fg.asarray(np.ones(3)), fg.asarray(np.ones(4))))
    with pytest.raises(ValueError, match="at least one axis"):
        associative_scan(fnp.add, fg.asarray(1.0))
    with pytest.raises(ValueError, match="axis 2 is out of range"):
        associative_scan(fnp.add, fg.asarray(np.ones((2, 2))), axis=2)
    with pytest.raises(TypeError, match="structure of elems"):
        associative_scan(lambda a, b: (a, b), fg.asarray(np.ones(4)))
    with pytest.raises(TypeError, match="combine element-wise"):
        associative_scan(lambda a, b: fnp.sum(a + b, keepdims=True), fg.asarray(np.ones(4)))
    with pytest.raises(TypeError, match="must be callable"):
        associative_scan(3, fg.asarray(np.ones(4)))
