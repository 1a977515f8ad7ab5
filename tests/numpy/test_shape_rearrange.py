"""Joining, splitting and rearranging against numpy; gradients of the view/gather forms."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

A = np.arange(12.0).reshape(3, 4)


def _same(got, want):
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    got = np.asarray(got)
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype, (got.shape, np.shape(want), got.dtype)
    assert np.array_equal(got, want)


@pytest.mark.parametrize("name, args, kwargs", [
    ("pad", (A, 1), {}), ("pad", (A, (1, 2)), {"mode": "edge"}), ("pad", (A, ((0, 5), (7, 1))), {"mode": "reflect"}),
    ("pad", (A, ((2,), (3,))), {"mode": "symmetric"}), ("pad", (A, [[9, 0], [1, 6]]), {"mode": "wrap"}),
    ("pad", (A, 2), {"constant_values": ((1, 2), (3, 4))}), ("pad", (A.astype(np.int32), 1), {"constant_values": 7}),
    ("pad", (A, 0), {}), ("pad", (np.ones((2, 0)), 1), {}), ("pad", (A, {1: (1, 2)}), {"mode": "edge"}),
    ("flip", (A,), {}), ("flip", (A, 1), {}), ("flip", (A, (0, -1)), {}), ("fliplr", (A,), {}), ("flipud", (A,), {}),
    ("roll", (A, 5), {}), ("roll", (A, -1, 0), {}), ("roll", (A, (1, 2), (1, 1)), {}), ("roll", (A, (1, -3), (0, 1)), {}),
    ("rot90", (A,), {}), ("rot90", (A, 2), {}), ("rot90", (A, -1, (1, 0)), {}), ("rot90", (A[None], 3, (0, 2)), {}),
    ("tile", (A, 2), {}), ("tile", (A, (2, 1, 2)), {}), ("tile", (A[0], (2, 2)), {}), ("tile", (A, 0), {}),
    ("repeat", (A, 2), {}), ("repeat", (A, 3, 1), {}), ("repeat", (A, [1, 0, 2], 0), {}), ("repeat", (A, [2], -1), {}),
    ("repeat", (np.float32(1.5), 3), {}),
    ("hstack", ([A, A],), {}), ("hstack", ([[1, 2], [3]],), {}), ("vstack", ([A, A[0]],), {}), ("vstack", ([1, 2],), {}), ("vstack", (A,), {}), ("hstack", (A,), {}),
    ("dstack", ([A, A],), {}), ("dstack", ([[1, 2], [3, 4]],), {}), ("column_stack", ([[1, 2], [[3], [4]]],), {}),
    ("stack", ([A, A], -1), {}), ("concatenate", ([A, A], None), {}),
    ("split", (A, 2, 1), {}), ("split", (A, [1, 3], 1), {}), ("split", (A, [-1, 10]), {}), ("split", (A, [3, 1], 1), {}),
    ("array_split", (A, 3, 1), {}), ("array_split", (np.arange(7.0), 3), {}), ("array_split", (A, 5), {}),
    ("hsplit", (A, 2), {}), ("vsplit", (A, [1]), {}), ("dsplit", (A[..., None].repeat(2, 2), 2), {}),
    ("atleast_1d", (3.0,), {}), ("atleast_2d", (A[0],), {}), ("atleast_3d", (A,), {}), ("atleast_3d", (A[0],), {}),
    ("atleast_2d", (1.0, A), {}), ("broadcast_arrays", (A, A[0], 2.0), {}),
    ("insert", (A, 1, [7, 8, 9]), {"axis": 1}), ("insert", (A, [1, 0, 1], [7, 8, 9]), {"axis": 1}),
    ("insert", (A, 1, 5), {}), ("insert", (A, [2], [[7], [8], [9]]), {"axis": 1}), ("insert", (A, -1, [1, 2, 3, 4]), {"axis": 0}),
    ("insert", (A, slice(0, 2), 9), {"axis": 1}), ("insert", (A, 4, 7), {"axis": 1}), ("insert", (A.astype(int), 1, 2.7), {}),
    ("delete", (A, 1), {}), ("delete", (A, [0, -1]), {"axis": 1}), ("delete", (A, slice(None, None, 2)), {"axis": 1}),
    ("delete", (A, [True, False, True]), {"axis": 0}), ("delete", (A, []), {}),
    ("append", (A, [1, 2]), {}), ("append", (A, [[1, 2, 3, 4]]), {"axis": 0}),
    ("resize", (A, (3, 5)), {}), ("resize", (A, 0), {}), ("resize", (np.zeros(0), (2,)), {}), ("resize", (A, 4), {}),
])
def test_matches_numpy(name, args, kwargs):
    _same(getattr(fnp, name)(*args, **kwargs), getattr(np, name)(*args, **kwargs))


@pytest.mark.parametrize("call, exc, match", [
    (lambda: fnp.split(A, 3, axis=1), ValueError, "equal division"),
    (lambda: fnp.split(A, 0), ValueError, "larger than 0"),
    (lambda: fnp.pad(A, -1), ValueError, "negative"),
    (lambda: fnp.pad(A, 1.5), TypeError, "integral"),
    (lambda: fnp.pad(A, ((1, 2, 3),)), ValueError, "broadcast"),
    (lambda: fnp.pad(np.ones((0, 2)), 1, mode="edge"), ValueError, "empty axis 0"),
    (lambda: fnp.pad(A, 1, mode="bogus"), ValueError, "not supported"),
    (lambda: fnp.pad(A, 1, mode="mean", stat_length=0), ValueError, "stat_length of 0"),
    (lambda: fnp.pad(A, 1, mode="reflect", reflect_type="weird"), ValueError, "reflect_type"),
    (lambda: fnp.pad(A, 1, mode="edge", constant_values=1), ValueError, "unsupported keyword"),
    (lambda: fnp.repeat(A, [1, 2], axis=0), ValueError, "broadcast"),
    (lambda: fnp.repeat(A, -1), ValueError, "negative"),
    (lambda: fnp.fliplr(A[0]), ValueError, ">= 2-d"),
    (lambda: fnp.rot90(A, 1, (0, 0)), ValueError, "different"),
    (lambda: fnp.flip(A, 2), np.exceptions.AxisError, ""),
    (lambda: fnp.roll(A, 1, 3), np.exceptions.AxisError, ""),
    (lambda: fnp.vstack(x for x in A), TypeError, "sequence"),
    (lambda: fnp.broadcast_arrays(A, np.ones(3)), ValueError, "shape mismatch"),
    (lambda: fnp.insert(A, 5, 1.0, axis=1), IndexError, "index 5 is out of bounds for axis 1 with size 4"),
    (lambda: fnp.delete(A, [3], axis=0), IndexError, "index 3 is out of bounds for axis 0 with size 3"),
    (lambda: fnp.delete(A, [True], axis=1), ValueError, "match the axis length of 4"),
    (lambda: fnp.asarray(A).resize((2, 6)), TypeError, "fnp.resize|funcgrad.numpy.resize"),
])
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


PAD_CASES = [(mode, pw, kw) for mode, kws in [
    ("maximum", [{}, {"stat_length": 2}]), ("minimum", [{"stat_length": ((1, 2), (3, 1))}]), ("mean", [{}, {"stat_length": 1}]),
    ("median", [{}, {"stat_length": (2, 3)}]), ("linear_ramp", [{}, {"end_values": (1.5, -2)}]),
    ("reflect", [{"reflect_type": "odd"}]), ("symmetric", [{"reflect_type": "odd"}]),
] for kw in kws for pw in [1, (1, 2), ((7, 9), (11, 1))]]


@pytest.mark.parametrize("mode, pw, kw", PAD_CASES)
def test_pad_modes_match_numpy(mode, pw, kw):
    for arr in (A ** 1.5, (np.arange(12).reshape(3, 4) * 7) % 5, A[:1]):
        want = np.pad(arr, pw, mode=mode, **kw)
        got = fnp.pad(arr, pw, mode=mode, **kw)
        assert got.dtype == want.dtype and np.allclose(got, want)


def test_gradients_of_rearrangements():
    x = fnp.asarray(np.linspace(-1.0, 1.0, 12).reshape(3, 4))
    check_grads(lambda v: [fnp.pad(v, ((2, 5), (0, 3)), mode="reflect"), fnp.pad(v, 3, mode="wrap"),
                           fnp.pad(v, (1, 4), mode="symmetric"), fnp.pad(v, 2, mode="edge")], (x,), order=2)
    check_grads(lambda v: [fnp.roll(v, (1, -2), (0, 1)), fnp.rot90(v, 3), fnp.tile(v, (2, 1, 2)),
                           fnp.repeat(v, [0, 3, 1], axis=0), fnp.hstack([v, v[:, :1]]), fnp.dstack([v, v])], (x,), order=2)
    check_grads(lambda v, w: [fnp.insert(v, [1, 0, 1], w, axis=1), fnp.delete(v, [0, 2], axis=1),
                              fnp.append(v, w), fnp.resize(v, (5, 3))], (x, fnp.asarray([0.5, -1.0, 2.0])), order=2)
    check_grads(lambda v: fnp.array_split(v, 3, axis=1)[0] * fnp.split(v, [1, 3], axis=1)[1][:, :1], (x,), order=2)
    # a traced fill value is differentiable too
    g = fg.grad(lambda c: fnp.sum(fnp.pad(x, 1, constant_values=c)))(2.0)
    assert float(g) == 5 * 6 - 12


def test_split_gradient_is_one_concatenate_with_zeros_for_unused_pieces():
    x = fnp.asarray(np.arange(6.0))
    g = fg.grad(lambda v: fnp.sum(fnp.split(v, [2, 4])[1] * 3.0))(x)
    assert np.array_equal(g, [0, 0, 3, 3, 0, 0])


def test_views_share_the_buffer():
    prev = fg.set_default_device("cpu")  # np.asarray of another backend's buffer is a copy
    try:
        x = fnp.asarray(A)
        for view in (fnp.flip(x, 0), fnp.split(x, 2, axis=1)[1], fnp.broadcast_arrays(x, np.ones((2, 1, 1)))[0]):
            assert np.shares_memory(np.asarray(view), np.asarray(x))
    finally:
        fg.set_default_device(prev)


def test_block_matches_numpy():
    B2, ones = np.ones((3, 2)), np.ones((1, 6))
    v = np.arange(3.0)
    for arrays in ([A, B2], [[A, B2], [ones]], [1, 2, v], v, [[1], [2]], 3.0, [[[A]], [[A]]],
                   [[A.astype(np.float32), B2.astype(np.int32)]], [np.zeros((0, 2)), np.zeros((0, 1))]):
        _same(fnp.block(arrays), np.block(arrays))
    for bad in ([[A], A], [], (A, B2), [[A], []]):
        with pytest.raises((TypeError, ValueError)) as got:
            fnp.block(bad)
        with pytest.raises(got.type) as want:
            np.block(bad)
        assert str(got.value) == str(want.value)
    check_grads(lambda a, b: fnp.block([[a, b], [b, a]]), (A[:2, :2], A[:2, 2:]))


@pytest.mark.parametrize("axis,start", [(3, 1), (2, 0), (1, 4), (-1, 0), (0, -1), (1, 1), (2, 3), (0, 0)])
def test_rollaxis_matches_numpy(axis, start):
    X = np.zeros((3, 4, 5, 6))
    _same(fnp.rollaxis(X, axis, start), np.rollaxis(X, axis, start))


def test_rollaxis_errors_and_derivative():
    with pytest.raises(np.exceptions.AxisError):
        fnp.rollaxis(np.zeros((2, 3)), 1, 3)
    with pytest.raises(np.exceptions.AxisError):
        fnp.rollaxis(np.zeros((2, 3)), 2)
    check_grads(lambda x: fnp.rollaxis(x, 1), (A,))


def test_trim_zeros_matches_numpy():
    f = np.array([0, 0, 0, 1, 2, 3, 0, 2, 1, 0])
    for trim in ("fb", "f", "b", "bf", "FB"):
        _same(fnp.trim_zeros(f, trim), np.trim_zeros(f, trim))
    M = np.zeros((4, 5))
    M[1:3, 2:4] = 1
    for axis in (None, 0, 1, -1):
        _same(fnp.trim_zeros(M, axis=axis), np.trim_zeros(M, axis=axis))
        _same(fnp.trim_zeros(M, "b", axis=axis), np.trim_zeros(M, "b", axis=axis))
    _same(fnp.trim_zeros(np.zeros(3)), np.trim_zeros(np.zeros(3)))
    _same(fnp.trim_zeros(np.array([0j, 1 + 1j, 0])), np.trim_zeros(np.array([0j, 1 + 1j, 0])))
    with pytest.raises(ValueError, match="unexpected character"):
        fnp.trim_zeros(f, "x")
    g = fg.grad(lambda x: fnp.sum(fnp.trim_zeros(x) ** 2))(np.array([0.0, 2.0, 0.0, 3.0, 0.0]))
    np.testing.assert_array_equal(g, [0, 4, 0, 6, 0])
