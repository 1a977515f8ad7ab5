"""funcgrad.numpy's float and integer bit functions (_float_functions.py): values, dtypes and
signs of zero against numpy, derivatives against central differences."""

import numpy as np

import funcgrad.numpy as fnp
from funcgrad.testing import check_grads


def chk(name, r, e):
    if isinstance(e, tuple):
        for u,v in zip(r,e): chk(name,u,v)
        return
    r=np.asarray(r); e=np.asarray(e)
    np.testing.assert_array_equal(r,e,err_msg=name); assert r.dtype==e.dtype,(name,r.dtype,e.dtype)
    assert np.array_equal(np.signbit(r.real), np.signbit(e.real)) if r.dtype.kind=='f' else True, name


def test_values_match_numpy():
    x=np.array([1.5,-3.25,0.0,-0.0,np.inf,-np.inf,np.nan,1e-310,7e300,-2.0])
    for name in ['fabs','frexp','modf','spacing','isneginf','isposinf','iscomplex','isreal','nan_to_num']:
        chk(name, getattr(fnp,name)(x), getattr(np,name)(x))
        chk(name+'32', getattr(fnp,name)(x.astype(np.float32)), getattr(np,name)(x.astype(np.float32)))
    for dt in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_):
        v=np.array([0,1,3], dt)
        for name in ['fabs','frexp','modf','i0','sort_complex','nan_to_num']:
            chk(name+str(dt), getattr(fnp,name)(v), getattr(np,name)(v))
    z=x[:7]+1j*x[::-1][:7]
    chk('nan_to_num_c', fnp.nan_to_num(z, nan=1, posinf=2, neginf=-3), np.nan_to_num(z, nan=1, posinf=2, neginf=-3))
    chk('iscomplex', fnp.iscomplex(z), np.iscomplex(z)); chk('isreal', fnp.isreal(z), np.isreal(z))
    e=np.array([3,-1070,2000,0,5], np.int32); m=np.array([0.75,1.0,1e-300,2.0,-0.5])
    chk('ldexp', fnp.ldexp(m, e), np.ldexp(m, e)); chk('ldexp32', fnp.ldexp(m.astype(np.float32), e[[0,3,4,0,3]]), np.ldexp(m.astype(np.float32), e[[0,3,4,0,3]]))
    chk('nextafter', fnp.nextafter(x, 0.0), np.nextafter(x, 0.0))
    a=np.array([1,5,12,-7],np.int64); b=np.array([3,2],np.int64)
    chk('shift', fnp.left_shift(a[:2], b), np.left_shift(a[:2], b)); chk('rshift', fnp.bitwise_right_shift(a[:2], b), np.right_shift(a[:2], b))
    chk('gcd', fnp.gcd(a, 4), np.gcd(a, 4)); chk('lcm', fnp.lcm(a, 4), np.lcm(a, 4)); chk('bc', fnp.bitwise_count(a), np.bitwise_count(a))
    chk('binv', fnp.bitwise_invert(a), np.invert(a))
    c=np.array([3+1j, 1-2j, 1+1j, -2])
    chk('sort_complex', fnp.sort_complex(c), np.sort_complex(c)); chk('sc', fnp.sort_complex(np.float32([3,1])), np.sort_complex(np.float32([3,1])))
    np.testing.assert_allclose(fnp.i0(x[:4]), np.i0(x[:4]))
    chk('ric', fnp.real_if_close(np.array([1+1e-15j, 2])), np.real_if_close(np.array([1+1e-15j, 2])))
    chk('ric2', fnp.real_if_close(np.array([1+1e-5j, 2])), np.real_if_close(np.array([1+1e-5j, 2])))
    for f in (fnp.fabs, fnp.modf, fnp.frexp, fnp.isposinf):
        try: f(z); raise AssertionError(f)
        except TypeError: pass


def test_derivatives_match_finite_differences():
    rng = np.random.default_rng(1)
    v=rng.standard_normal(6)*10
    check_grads(fnp.fabs, (v,)); check_grads(lambda t: fnp.frexp(t)[0], (v,)); check_grads(lambda t: fnp.ldexp(t, 3), (v,))
    check_grads(lambda t: fnp.modf(t)[0], (v+0.3,)); check_grads(fnp.i0, (v/5,)); check_grads(lambda t: fnp.nan_to_num(t/ (t>0)), (v,))
    check_grads(lambda t: fnp.real_if_close(t + 0j), (v,))
