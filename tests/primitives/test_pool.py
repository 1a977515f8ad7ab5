"""max_pool's selection (window_first_max) is np.argmax's choice over each flattened window."""

import itertools

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.primitives.pool import max_pool, window_first_max


def ref_first_max(x, k, s, p, d):
    """One-hot of np.argmax over each -inf padded window, flattened in C order."""
    xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)), constant_values=-np.inf)
    oh = (x.shape[2] + 2 * p - d * (k - 1) - 1) // s + 1
    ow = (x.shape[3] + 2 * p - d * (k - 1) - 1) // s + 1
    hot = np.zeros(x.shape[:2] + (oh, ow, k, k), dtype=bool)
    for i, j in itertools.product(range(oh), range(ow)):
        win = xp[:, :, i * s:i * s + d * (k - 1) + 1:d, j * s:j * s + d * (k - 1) + 1:d]
        first = np.argmax(win.reshape(x.shape[:2] + (k * k,)), axis=-1)
        hot[:, :, i, j] = (first[..., None] == np.arange(k * k)).reshape(x.shape[:2] + (k, k))
    return hot


@pytest.mark.parametrize("k,s,p,d", [(2, 2, 0, 1), (3, 2, 1, 1), (3, 1, 1, 2), (1, 1, 0, 1), (2, 1, 1, 1)])
def test_window_first_max_is_argmax_with_ties_nan_and_padding(device, k, s, p, d):
    rng = np.random.default_rng(k + 10 * s + 100 * p + 1000 * d)
    x = rng.integers(-1, 2, (2, 3, 7, 6)).astype(np.float32)  # ties everywhere
    x[0, 0, 1:3, 1:3] = np.nan  # windows holding NaNs pick their first NaN, as np.argmax
    x[1, 2] = -np.inf  # all -inf windows: the first tap, padding or not
    hot = window_first_max(fnp.asarray(x), (k, k), (s, s), ((p, p), (p, p)), (d, d))
    assert hot.dtype == np.bool_ and str(hot.device).startswith(device)
    np.testing.assert_array_equal(np.asarray(fnp.asarray(hot, device="cpu")), ref_first_max(x, k, s, p, d))


def test_max_pool_gradient_goes_to_the_first_nan_and_empty_batches_work():
    # np.argmax's choice (as before window_first_max); PyTorch's CPU kernel takes the last NaN
    x = np.array([[[[1.0, np.nan], [np.nan, 3.0]]]])
    g = fg.grad(lambda v: fnp.sum(max_pool(v, (2, 2), (2, 2), ((0, 0), (0, 0)), (1, 1))))(fnp.asarray(x))
    np.testing.assert_array_equal(np.asarray(g), [[[[0.0, 1.0], [0.0, 0.0]]]])
    empty = fnp.zeros((0, 2, 4, 4))
    assert window_first_max(empty, (2, 2), (2, 2), ((0, 0), (0, 0)), (1, 1)).shape == (0, 2, 2, 2, 2, 2)
    g = fg.grad(lambda v: fnp.sum(max_pool(v, (2, 2), (2, 2), ((0, 0), (0, 0)), (1, 1))))(empty)
    assert g.shape == (0, 2, 4, 4)


def test_window_first_max_errors_name_the_primitive():
    with pytest.raises(TypeError, match="window_first_max: expected a floating-point input, got int64"):
        window_first_max(fnp.ones((1, 1, 2, 2), dtype=np.int64), (2, 2), (1, 1), ((0, 0), (0, 0)), (1, 1))
    with pytest.raises(ValueError, match="window_first_max: the window"):
        window_first_max(fnp.ones((1, 1, 2, 2)), (3, 3), (1, 1), ((0, 0), (0, 0)), (1, 1))
