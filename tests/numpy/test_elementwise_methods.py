"""Array methods and operators of the reduction, elementwise and rounding families."""

import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp

H = np.array([[1.5, -2.25, 4.0], [0.5, 3.0, -1.0]])


def test_methods_match_numpy():
    x = fnp.asarray(H)
    for name, kw in [("prod", {"axis": 0}), ("var", {"ddof": 1}), ("std", {"axis": 1}), ("cumsum", {}),
                     ("cumprod", {"axis": 1}), ("all", {"axis": 0}), ("any", {}), ("round", {"decimals": 1}),
                     ("clip", {"min": -1.0, "max": 2.0}), ("sum", {"keepdims": True}), ("mean", {"axis": -1})]:
        got, want = getattr(x, name)(**kw), getattr(H, name)(**kw)
        assert got.dtype == want.dtype and np.allclose(got, want), name
    assert np.array_equal(x.clip(0), H.clip(0))
    z = fnp.asarray(H * 1j + H)
    assert np.array_equal(z.conj(), (H * 1j + H).conj()) and np.array_equal(z.conjugate(), (H * 1j + H).conj())
    assert np.array_equal(z.real, H) and np.array_equal(z.imag, H) and np.array_equal(x.imag, np.zeros_like(H))


def test_integer_division_operators():
    x = fnp.asarray(H)
    assert np.array_equal(x // 0.7, H // 0.7) and np.array_equal(2.0 // x, 2.0 // H)
    assert np.allclose(x % 0.7, H % 0.7) and np.allclose(2.0 % x, 2.0 % H)
    q, r = divmod(x, 0.7)
    assert np.array_equal(q, H // 0.7) and np.allclose(r, H % 0.7)
    q, r = divmod(5.0, x)
    assert np.array_equal(q, 5.0 // H) and np.allclose(r, 5.0 % H)
    i = fnp.arange(-4, 4)
    assert np.array_equal(i // 3, np.arange(-4, 4) // 3) and (i % 3).dtype == np.arange(3).dtype


def test_method_gradients():
    g = fg.grad(lambda v: v.prod() + v.std() + (v % 1.0).sum() + v.clip(-1.0, 1.0).sum())(H)
    want = np.prod(H) / H + (H - H.mean()) / (H.size * H.std()) + 1.0 + (np.abs(H) < 1) + 0.5 * (np.abs(H) == 1)
    assert np.allclose(g, want)
