"""funcgrad.numpy.polynomial.polynomial against numpy.polynomial.polynomial: values, dtypes
and trimming for every function, derivatives against central differences."""

import numpy as np
import numpy.polynomial.polynomial as NP
import pytest

import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

P = fnp.polynomial.polynomial


def same(r, e, tol=1e-9):
    if isinstance(e, (tuple, list)):
        assert len(r) == len(e), (r, e)
        for u, v in zip(r, e):
            same(u, v, tol)
        return
    r, e = np.asarray(r), np.asarray(e)
    assert r.shape == e.shape and r.dtype == e.dtype, (r.shape, e.shape, r.dtype, e.dtype)
    np.testing.assert_allclose(r, e, rtol=tol, atol=tol)


c = np.array([1.0, 2, 3])
c2 = np.array([3.0, 0, 1, 0])
x = np.linspace(-1, 1, 5)
C2 = np.arange(6.0).reshape(2, 3)

CASES = [
    ('polyadd',(c,c2)),
    ('polysub',(c,c)),
    ('polymul',(c,c2)),
    ('polymulx',(c,)),
    ('polymulx',([0],)),
    ('polydiv',(c2,c)),
    ('polydiv',(c,c2)),
    ('polydiv',(c,[2.])),
    ('polypow',(c,3)),
    ('polypow',(c,0)),
    ('polyval',(x,c)),
    ('polyval',(2,c)),
    ('polyval',(x,C2)),
    ('polyval', (x[:2], C2.T, False)),
    ('polyval',([1,2],[1,2])),
    ('polyvalfromroots',(x,c)),
    ('polyvalfromroots',(x,C2)),
    ('polyder',(c,)),
    ('polyder',(c,2,3)),
    ('polyder',(C2,1,1,1)),
    ('polyder',(c,5)),
    ('polyder',([1,2,3],)),
    ('polyint',(c,)),
    ('polyint',(c,2,[1,2],1,2)),
    ('polyint',(C2,1,[],0,1,1)),
    ('polyint',([0.],1,[3])),
    ('polyint',([1,2],)),
    ('polyfromroots',(c,)),
    ('polyfromroots',([],)),
    ('polyfromroots',([1j,-1j],)),
    ('polyvander',(x,3)),
    ('polyvander',(C2,2)),
    ('polyvander',(3.0,2)),
    ('polyvander2d',(x,x[::-1],[1,2])),
    ('polyvander3d',(x,x,x,[1,1,2])),
    ('polyval2d',(x,x,C2)),
    ('polyval3d',(x,x,x,np.ones((2,2,2)))),
    ('polygrid2d',(x,x[:3],C2)),
    ('polygrid3d',(x,x,x,np.ones((2,2,2)))),
    ('polycompanion',(c,)),
    ('polycompanion',([1,2],)),
    ('polyroots',(c,)),
    ('polyroots',([2,-3,1],)),
    ('polyroots',([1],)),
    ('polyroots',([1,2],)),
    ('polytrim',(c2,)),
    ('polytrim',([1,1e-3,1e-5],1e-4)),
    ('polytrim',([0,0],)),
    ('polyline',(3,2)),
    ('polyline',(3,0)),
]


def test_functions_match_numpy():
    for name, args in CASES:
        same(getattr(P, name)(*args), getattr(NP, name)(*args))
    same(P.polyval(x, c.astype(np.float32)), NP.polyval(x, c.astype(np.float32)))
    same(P.polyadd(np.array([1 + 1j]), c), NP.polyadd(np.array([1 + 1j]), c))
    for name in ("polydomain", "polyzero", "polyone", "polyx"):
        same(getattr(P, name), getattr(NP, name))


def test_polyfit_matches_numpy():
    y = np.sin(x * 2)
    Y = np.stack([y, x ** 2], 1)
    for kw in [{}, {"w": np.linspace(1, 2, 5)}, {"full": True}]:
        for d in (2, [0, 2], np.array([1, 3])):
            same(P.polyfit(x, y, d, **kw), NP.polyfit(x, y, d, **kw))
            same(P.polyfit(x, Y, d, **kw), NP.polyfit(x, Y, d, **kw))


def test_errors():
    for call in (lambda: P.polyadd([], c), lambda: P.polyadd(C2, c)):
        with pytest.raises(ValueError, match="Coefficient array"):
            call()
    with pytest.raises(ZeroDivisionError):
        P.polydiv(c, [0.0, 0.0])
    with pytest.raises(ValueError, match="non-negative integer"):
        P.polypow(c, -1)
    with pytest.raises(ValueError, match="non-negative"):
        P.polyder(c, -1)
    with pytest.raises(ValueError, match="Too many integration constants"):
        P.polyint(c, 1, [1, 2])
    with pytest.raises(TypeError, match="deg must be"):
        P.polyfit(x, x, 1.5)
    with pytest.raises(ValueError, match="maximum degree"):
        P.polycompanion([1.0])


def test_derivatives():
    # polyroots: first order; the second order of linalg.eigvals is NaN on some matrices (a
    # known issue of the eig rules, not of this module)
    check_grads(lambda cc: P.polyval(x, cc), (c,))
    check_grads(lambda xx: P.polyval(xx, c), (x,))
    check_grads(P.polymul, (c, c2[:3]))
    check_grads(lambda a, b: P.polydiv(a, b), (np.array([3., 0.5, 1., 2.]), c))
    check_grads(lambda cc: P.polyint(cc, 2, [1., 2.], 0.5), (c,))
    check_grads(lambda cc: P.polyder(cc, 2, 3.), (c,))
    check_grads(P.polyfromroots, (np.array([0.5, 2., -1.]),))
    check_grads(P.polyroots, (np.array([2., -3., 1.]),), order=1)
    check_grads(lambda yy: P.polyfit(x, yy, 2), (np.sin(x * 2),))
    check_grads(lambda xx: P.polyvander2d(xx, xx**2, [1, 2]), (x,))
    check_grads(lambda cc: P.polyval2d(x, x, cc), (C2,))
