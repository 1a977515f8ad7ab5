"""poly* functions, roots, vander (_polynomial.py): values and dtypes against numpy
(float32/64, int, complex, 0-d points, empty coefficients), derivatives against central
differences."""

import numpy as np
import pytest

import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

p = np.array([3.0, -2, 0.5, 1])
q = np.array([1.0, 2])
xs = np.linspace(-2, 2, 7).reshape(7, 1)


def _same(r, e, tol=1e-8):
    if isinstance(e, tuple):
        assert len(r) == len(e)
        for u, v in zip(r, e):
            _same(u, v, tol)
        return
    r, e = np.asarray(r), np.asarray(e)
    assert r.shape == e.shape and r.dtype == e.dtype, (r.shape, e.shape, r.dtype, e.dtype)
    np.testing.assert_allclose(r, e, rtol=tol, atol=tol)


CASES = [
    ("polyval", (p, xs)), ("polyval", (p, 2.0)), ("polyval", ([1, 2, 3], np.arange(4))),
    ("polyval", ([], xs)), ("polyval", (p.astype(np.float32), np.float32(2))),
    ("polyval", (p, xs + 1j)), ("polyval", (p, np.zeros((0, 3)))),
    ("polyadd", (p, q)), ("polyadd", (q, p)), ("polyadd", ([1, 2], [3])), ("polysub", (p, q)),
    ("polymul", (p, q)), ("polymul", ([1, 2], [3, 4])), ("polymul", (p.astype(np.float32), q.astype(np.float32))),
    ("polydiv", (p, q)), ("polydiv", (p, p)), ("polydiv", ([1, 2, 3], [1])), ("polydiv", ([1.0, 3, 2], [1.0, 1])),
    ("polydiv", (p + 1j, q)),
    ("polyder", (p,)), ("polyder", (p, 2)), ("polyder", (p, 5)), ("polyder", ([1, 2, 3],)), ("polyder", (p, 0)),
    ("polyint", (p,)), ("polyint", (p, 2, [1, 2])), ("polyint", (p, 3, 5.0)), ("polyint", ([1, 2],)),
    ("vander", (np.array([1.0, 2, 3]),)), ("vander", (np.array([1, 2, 3]), 4, True)),
    ("vander", (np.array([1.0, 2, 3]), 0)), ("vander", (np.array([1 + 1j, 2]), 3)),
    ("vander", (np.array([], dtype=np.float32), 2)),
    ("roots", (p,)), ("roots", ([1, -3, 2],)), ("roots", ([0, 0, 1, -3, 2, 0, 0],)), ("roots", ([1, 0, 1],)),
    ("roots", ([5],)), ("roots", ([0, 0],)), ("roots", ([1j, 1],)),
    ("poly", ([1, 2],)), ("poly", ([1j, -1j],)), ("poly", ([1j, 2],)), ("poly", (np.array([[1.0, 2], [3, 4]]),)),
    ("poly", ([],)),
]


@pytest.mark.parametrize("name,args", CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_values_match_numpy(name, args):
    _same(getattr(fnp, name)(*args), getattr(np, name)(*args))


def test_polyfit_matches_numpy():
    x = np.linspace(0, 1, 9)
    y = np.sin(3 * x)
    Y = np.stack([y, np.cos(x)], 1)
    w = np.linspace(1, 2, 9)
    for kw in [{}, {"w": w}, {"full": True}, {"cov": True}, {"cov": "unscaled"}, {"rcond": 1e-3}]:
        _same(fnp.polyfit(x, y, 3, **kw), np.polyfit(x, y, 3, **kw))
        _same(fnp.polyfit(x, Y, 2, **kw), np.polyfit(x, Y, 2, **kw))
    _same(fnp.polyfit(np.arange(5), np.arange(5) ** 2, 2), np.polyfit(np.arange(5), np.arange(5) ** 2, 2))


def test_errors():
    with pytest.raises(ValueError, match="positive"):
        fnp.polyder(p, -1)
    with pytest.raises(ValueError, match="positive"):
        fnp.polyint(p, -1)
    with pytest.raises(ValueError, match="k must be"):
        fnp.polyint(p, 3, [1, 2])
    with pytest.raises(ValueError, match="1-d"):
        fnp.polyval(np.ones((2, 2)), 1.0)
    with pytest.raises(TypeError, match="same length"):
        fnp.polyfit(np.arange(3.0), np.arange(4.0), 1)
    with pytest.raises(ValueError, match="deg >= 0"):
        fnp.polyfit(np.arange(3.0), np.arange(3.0), -1)
    with pytest.raises(ValueError, match="one-dimensional"):
        fnp.vander(np.ones((2, 2)))
    with pytest.raises(ValueError, match="square"):
        fnp.poly(np.ones((2, 3)))


def test_derivatives():
    x = np.linspace(0, 1, 9)
    y = np.sin(3 * x)
    check_grads(fnp.polyval, (p, xs))
    check_grads(fnp.polyval, (p, np.array(0.7)))
    check_grads(fnp.polymul, (p, q))
    check_grads(fnp.polydiv, (p, q))
    check_grads(fnp.polyadd, (p, q))
    check_grads(lambda a: fnp.polyint(a, 2, [1.0, 2.0]), (p,))
    check_grads(lambda a: fnp.polyder(a, 2), (p,))
    check_grads(lambda v: fnp.vander(v, 4), (np.array([0.0, 1.5, -2]),))
    check_grads(lambda yy: fnp.polyfit(x, yy, 3), (y,))
    check_grads(lambda xx: fnp.polyfit(xx, y, 2), (x,))
    check_grads(fnp.roots, (np.array([1.0, -3.0, 2.0]),))
    check_grads(fnp.poly, (np.array([0.5, 2.0, -1.0]),))
