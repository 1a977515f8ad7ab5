"""funcgrad.random: determinism, known answers, moments, devices, errors."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import random as fr


def test_threefry_known_answer():
    # Threefry-2x32 (20 rounds) of key (0, 0): the values JAX's split(PRNGKey(0)) gives
    np.testing.assert_array_equal(np.asarray(fr.split(fr.key(0))),
                                  [[4146024105, 967050713], [2718843009, 1272950319]])


def test_same_key_same_numbers_and_split_independence(device):
    k = fr.key(42)
    a, b = fr.normal(k, (5,)), fr.normal(k, (5,))
    np.testing.assert_array_equal(fr_host(a), fr_host(b))
    k1, k2 = fr.split(k)
    assert not np.array_equal(fr_host(fr.normal(k1, (5,))), fr_host(fr.normal(k2, (5,))))
    assert str(a.device).startswith(device)
    assert not np.array_equal(fr_host(fr.fold_in(k, 1)), fr_host(fr.fold_in(k, 2)))
    assert fr.split(k, 3).shape == (3, 2)


def fr_host(x):
    return np.asarray(fg.device_put(x, "cpu"))


def test_same_values_on_every_backend():
    prev = fg.set_default_device("standin")
    try:
        s = fr_host(fr.uniform(fr.key(7), (4,)))
    finally:
        fg.set_default_device(prev)
    np.testing.assert_array_equal(s, np.asarray(fr.uniform(fr.key(7), (4,))))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_uniform_and_normal_moments(dtype):
    n = 200_000
    u = np.asarray(fr.uniform(fr.key(1), (n,), dtype, -1.0, 3.0))
    assert u.dtype == dtype and u.min() >= -1.0 and u.max() < 3.0
    assert abs(u.mean() - 1.0) < 5 * 4 / np.sqrt(12 * n)
    assert abs(u.var() - 16 / 12) < 0.02
    z = np.asarray(fr.normal(fr.key(2), (n,), dtype))
    assert z.dtype == dtype
    assert abs(z.mean()) < 5 / np.sqrt(n)
    assert abs(z.var() - 1) < 0.015
    assert abs(np.mean(z**3)) < 0.03 and abs(np.mean(z**4) - 3) < 0.08  # skew, kurtosis
    # lag-1 correlation of the stream is negligible
    assert abs(np.corrcoef(z[:-1], z[1:])[0, 1]) < 0.01


def test_bernoulli_randint_categorical_frequencies():
    b = np.asarray(fr.bernoulli(fr.key(3), 0.3, (100_000,)))
    assert b.dtype == bool and abs(b.mean() - 0.3) < 0.01
    r = np.asarray(fr.randint(fr.key(4), (60_000,), -2, 4))
    assert r.min() == -2 and r.max() == 3
    np.testing.assert_allclose(np.bincount(r + 2) / r.size, 1 / 6, atol=0.01)
    p = np.array([0.1, 0.2, 0.7])
    c = np.asarray(fr.categorical(fr.key(5), fnp.log(fnp.asarray(p)), shape=(50_000,)))
    np.testing.assert_allclose(np.bincount(c, minlength=3) / c.size, p, atol=0.01)
    ch = np.asarray(fr.choice(fr.key(6), 3, (50_000,), p=fnp.asarray(p)))
    np.testing.assert_allclose(np.bincount(ch, minlength=3) / ch.size, p, atol=0.01)


def test_permutation_and_choice_without_replacement():
    p = np.asarray(fr.permutation(fr.key(0), 10))
    assert sorted(p) == list(range(10))
    x = fnp.arange(12.0).reshape(4, 3)
    px = np.asarray(fr.permutation(fr.key(0), x, axis=1))
    assert sorted(px[0]) == [0.0, 1.0, 2.0] and (px - px[:, :1] == [0, 0, 0] + (px[0] - px[0, 0])).all()
    c = np.asarray(fr.choice(fr.key(1), 5, (5,), replace=False))
    assert sorted(c) == list(range(5))
    # the first position of a permutation is uniform
    firsts = [int(fr.permutation(fr.key(i), 4)[0]) for i in range(400)]
    assert min(np.bincount(firsts, minlength=4)) > 60


def test_truncated_normal():
    t = np.asarray(fr.truncated_normal(fr.key(0), -1.0, 2.0, (20_000,)))
    assert t.min() >= -1 and t.max() <= 2
    from scipy import stats

    assert abs(t.mean() - stats.truncnorm.mean(-1, 2)) < 0.02
    t = np.asarray(fr.truncated_normal(fr.key(0), 2.0, 3.0, (20_000,)))
    assert abs(t.mean() - stats.truncnorm.mean(2, 3)) < 0.02


def test_errors():
    with pytest.raises(TypeError, match="key"):
        fr.normal(np.zeros(2), (3,))
    with pytest.raises(TypeError, match="float32 or float64"):
        fr.uniform(fr.key(0), (3,), dtype=np.int32)
    with pytest.raises(ValueError, match="without replacement"):
        fr.choice(fr.key(0), 3, (4,), replace=False)
    with pytest.raises(ValueError, match="minval < maxval"):
        fr.randint(fr.key(0), (3,), 2, 2)
    with pytest.raises(ValueError, match="negative"):
        fr.normal(fr.key(0), (-1,))
    assert fr.normal(fr.key(0), (0, 3)).shape == (0, 3)
    assert fr.normal(fr.key(0)).shape == ()


def test_every_sampler_runs_on_every_backend(device):
    k = fr.key(3)
    outs = [fr.uniform(k, (3,)), fr.normal(k, (3,), np.float32), fr.bernoulli(k, 0.5, (3,)),
            fr.randint(k, (3,), 0, 4), fr.permutation(k, 4), fr.categorical(k, fnp.zeros((2, 3))),
            fr.choice(k, 5, (2,), replace=False), fr.truncated_normal(k, -1, 1, (3,)), fr.gumbel(k, (2,)),
            fr.exponential(k, (2,)), fr.bits(k, (2,), np.uint64), fr.fold_in(k, 7)]
    for o in outs:
        assert str(o.device).startswith(device)
    # identical values across backends
    np.testing.assert_array_equal(fr_host(fr.randint(k, (5,), 0, 100)),
                                  np.asarray(fg.device_put(fr.randint(fr.key(3, device="cpu"), (5,), 0, 100), "cpu")))
