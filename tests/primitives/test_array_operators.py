"""Array's operators (defined over the primitives in funcgrad/primitives/array_operators.py) and
the core's stacking of lists of traced values (primitives/shape.py's stack_sequence)."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.primitives import elementwise


def test_operators_match_numpy_on_mixed_operands():
    a = np.arange(6.0).reshape(2, 3) - 2
    b = np.array([1.5, -2.0, 3.0])
    x, y = fnp.asarray(a), fnp.asarray(b)
    for got, want in [
        (x + y, a + b), (2 - x, 2 - a), (x * [1, 2, 3], a * [1, 2, 3]), (x / y, a / b), (x // y, a // b),
        (x % y, a % b), (3.0 ** x, 3.0 ** a), (-x, -a), (abs(x), abs(a)), (x @ y, a @ b), (b @ x.T, b @ a.T),
        (x < y, a < b), (x == y, a == b), (x.T, a.T), (x.mT, np.swapaxes(a, -1, -2)),
    ]:
        np.testing.assert_array_equal(np.asarray(got), want)
    q, r = divmod(x, y)
    np.testing.assert_array_equal(np.asarray(q), a // b)
    np.testing.assert_array_equal(np.asarray(r), a % b)
    q, r = divmod(7.0, y)
    np.testing.assert_array_equal(np.asarray(r), 7.0 % b)
    i = fnp.asarray(np.array([5, 3], dtype=np.int32))
    np.testing.assert_array_equal(np.asarray(i & 6), np.array([4, 2]))
    np.testing.assert_array_equal(np.asarray(~i), ~np.array([5, 3], dtype=np.int32))


def test_transposes_of_low_rank_arrays():
    v = fnp.ones(3)
    assert v.T is v and fnp.asarray(2.0).T.shape == ()
    with pytest.raises(ValueError, match="at least 2 dimensions.*shape \\(3,\\)"):
        v.mT  # noqa: B018


def test_matmul_refuses_0d_operands_and_foreign_types():
    with pytest.raises(ValueError, match="Input operand 1 does not have enough dimensions"):
        fnp.ones(3) @ 2.0
    assert fnp.ones(3).__matmul__(object()) is NotImplemented
    assert fnp.ones(3).__add__(object()) is NotImplemented


def test_comparison_with_none_is_elementwise():
    np.testing.assert_array_equal(np.asarray(fnp.ones(2) == None), [False, False])
    np.testing.assert_array_equal(np.asarray(fnp.ones(2) != None), [True, True])


def test_astype_keeps_float_derivatives_and_cuts_integer_ones():
    assert fg.grad(lambda x: x.astype(np.float32).sum())(fnp.ones(2)).tolist() == [1.0, 1.0]
    assert fg.grad(lambda x: (x * 2.7).astype(np.int64).astype(float).sum())(fnp.ones(2)).tolist() == [0.0, 0.0]
    x = fnp.ones(2)
    assert x.astype(x.dtype) is x


def test_bind_stacks_nested_lists_of_traced_values():
    def f(v):
        return elementwise.add([[v, 2.0 * v], [3.0, v]], 1.0).sum()

    assert float(fg.grad(f)(1.0)) == 4.0
    with pytest.raises(ValueError, match=r"one shape to stack, got shapes \[\(\), \(2,\)\]"):
        fg.grad(lambda v: elementwise.add([v, [v, v]], 1.0).sum())(1.0)
