"""funcgrad.numpy's finite differences, integration, interpolation, convolution and covariance
(_calculus.py): values and dtypes against numpy, derivatives against central differences."""

import numpy as np

import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

rng = np.random.default_rng(0)
a = rng.standard_normal((4, 5))
x = np.sort(rng.standard_normal(5))
xq = np.linspace(-3, 3, 17)
xq[3], xq[4], xq[5] = x[0], x[-1], x[2]  # exactly at knots
aw = rng.random(5)


def chk(name, f, g):
    r, e = f(), g()
    if isinstance(e, (list, tuple)):
        assert len(r) == len(e)
        for u, v in zip(r, e):
            np.testing.assert_allclose(np.asarray(u), v, err_msg=name)
        return
    r = np.asarray(r)
    np.testing.assert_allclose(r, e, err_msg=name, rtol=1e-10, atol=1e-12)
    assert r.dtype == e.dtype, (name, r.dtype, e.dtype)


def test_values_match_numpy():
    for args in [dict(), dict(n=2), dict(n=2, axis=0), dict(prepend=1.0, append=a[:, :1])]:
        chk('diff',lambda: fnp.diff(a,**args), lambda: np.diff(a,**args))
    chk('diffb', lambda: fnp.diff(a>0), lambda: np.diff(a>0))
    chk('ediff', lambda: fnp.ediff1d(a,to_end=[1,2],to_begin=3), lambda: np.ediff1d(a,to_end=[1,2],to_begin=3))
    for eo in (1,2):
      chk('grad', lambda: fnp.gradient(a, edge_order=eo), lambda: np.gradient(a, edge_order=eo))
      chk('grad2', lambda: fnp.gradient(a, 0.5, x, edge_order=eo), lambda: np.gradient(a, 0.5, x, edge_order=eo))
      chk('grad3', lambda: fnp.gradient(a, x, axis=-1, edge_order=eo), lambda: np.gradient(a, x, axis=-1,edge_order=eo))
    chk('gradint', lambda: fnp.gradient(np.arange(5)**2), lambda: np.gradient(np.arange(5)**2))
    chk('trap', lambda: fnp.trapezoid(a, x), lambda: np.trapezoid(a, x))
    chk('trap2', lambda: fnp.trapezoid(a, dx=0.3, axis=0), lambda: np.trapezoid(a, dx=0.3, axis=0))
    chk('interp', lambda: fnp.interp(xq, x, a[0]), lambda: np.interp(xq, x, a[0]))
    chk('interp2', lambda: fnp.interp(xq, x, a[0], left=-9, right=9), lambda: np.interp(xq, x, a[0], left=-9, right=9))
    chk('interp3', lambda: fnp.interp(xq, x, a[0]+1j*a[1]), lambda: np.interp(xq, x, a[0]+1j*a[1]))
    chk('interpp', lambda: fnp.interp(xq*10, x*50, a[0], period=36), lambda: np.interp(xq*10, x*50, a[0], period=36))
    ph=np.cumsum(rng.standard_normal(20)*2)
    chk('unwrap', lambda: fnp.unwrap(ph), lambda: np.unwrap(ph))
    chk('unwrap2', lambda: fnp.unwrap(a*5, axis=0, period=4), lambda: np.unwrap(a*5, axis=0, period=4))
    for n,m in [(5,3),(3,5),(4,4),(5,2),(1,4)]:
      u,v=rng.standard_normal(n),rng.standard_normal(m)+1j*rng.standard_normal(m)
      for mode in ('full','same','valid'):
        chk('conv', lambda: fnp.convolve(u,v,mode), lambda: np.convolve(u,v,mode))
        chk('corr', lambda: fnp.correlate(u,v,mode), lambda: np.correlate(u,v,mode))
        chk('corr', lambda: fnp.correlate(v,u,mode), lambda: np.correlate(v,u,mode))
    chk('cov', lambda: fnp.cov(a), lambda: np.cov(a))
    chk('cov', lambda: fnp.cov(a, a[::-1]*2, rowvar=False, bias=True), lambda: np.cov(a, a[::-1]*2, rowvar=False, bias=True))
    fw=np.array([1,2,1,3,1]); aw=rng.random(5)
    chk('covw', lambda: fnp.cov(a, fweights=fw, aweights=aw), lambda: np.cov(a, fweights=fw, aweights=aw))
    chk('covw', lambda: fnp.cov(a, aweights=aw, ddof=0), lambda: np.cov(a, aweights=aw, ddof=0))
    chk('cov1', lambda: fnp.cov(a[0]), lambda: np.cov(a[0]))
    chk('corr', lambda: fnp.corrcoef(a), lambda: np.corrcoef(a))
    chk('corrc', lambda: fnp.corrcoef(a+1j*a[::-1]), lambda: np.corrcoef(a+1j*a[::-1]))


def test_derivatives_match_finite_differences():
    check_grads(lambda f, c: fnp.gradient(f, c, axis=1, edge_order=2), (a, x))
    check_grads(lambda f: fnp.gradient(f), (a,))
    check_grads(lambda f, c: fnp.trapezoid(f, c), (a, x))
    check_grads(lambda q, p, f: fnp.interp(q, p, f), (xq+0.01, x, a[0]))
    check_grads(lambda u, v: fnp.convolve(u, v, 'same'), (a[0], a[1,:3]))
    check_grads(lambda u, v: fnp.correlate(u, v, 'full'), (a[0,:2], a[1,:3]))
    check_grads(lambda u: fnp.cov(u, aweights=aw), (a,))
    check_grads(lambda u: fnp.corrcoef(u), (a,))
    check_grads(lambda u: fnp.unwrap(u*5), (a,))
    check_grads(lambda u: fnp.diff(u, 2, prepend=u[:, :1]), (a,))
