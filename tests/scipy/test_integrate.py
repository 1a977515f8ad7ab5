"""funcgrad.scipy.integrate.odeint: values, adjoint gradients against closed forms,
forward mode, second order, errors."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.scipy.integrate import ODEError, odeint
from funcgrad.testing import check_grads


def _decay(y, t, k):
    return -k * y


def test_exponential_decay_and_its_gradients():
    ts = np.array([0.0, 0.5, 2.0])
    ys = odeint(_decay, fnp.asarray([1.0, -2.0]), ts, 0.7)
    np.testing.assert_allclose(np.asarray(ys), np.exp(-0.7 * ts)[:, None] * [1.0, -2.0], rtol=1e-7)

    def loss(y0, ts, k):
        return fnp.sum(odeint(_decay, y0, ts, k)[-1])

    gy0, gts, gk = fg.grad(loss, argnums=(0, 1, 2))(fnp.asarray([1.0, -2.0]), fnp.asarray(ts), fnp.asarray(0.7))
    e = np.exp(-0.7 * 2.0)
    np.testing.assert_allclose(np.asarray(gy0), [e, e], rtol=1e-6)
    np.testing.assert_allclose(float(gk), -2.0 * (-1.0) * e, rtol=1e-6)  # d/dk sum y0 e^{-kt} = -t sum(y0) e^{-kt}
    # moving the last time: dy/dt = -k y; moving the start time: the opposite of that, propagated
    np.testing.assert_allclose(np.asarray(gts), [0.7 * (-1.0) * e, 0.0, -0.7 * (-1.0) * e], rtol=1e-6, atol=1e-9)


def test_matches_scipy_on_a_nonlinear_system():
    si = pytest.importorskip("scipy.integrate")

    def lotka(y, t, a, b):
        return fnp.stack([a * y[0] - b * y[0] * y[1], -y[1] + b * y[0] * y[1]])

    ts = np.linspace(0, 3, 7)
    ys = odeint(lotka, np.array([1.0, 0.5]), ts, 1.1, 0.6, rtol=1e-10, atol=1e-10)
    want = si.odeint(lambda y, t: [1.1 * y[0] - 0.6 * y[0] * y[1], -y[1] + 0.6 * y[0] * y[1]], [1.0, 0.5], ts,
                     rtol=1e-11, atol=1e-11)
    np.testing.assert_allclose(np.asarray(ys), want, rtol=1e-7)
    check_grads(lambda y0, a, b: odeint(lotka, y0, ts[:3], a, b, rtol=1e-10, atol=1e-10),
                (fnp.asarray([1.0, 0.5]), fnp.asarray(1.1), fnp.asarray(0.6)), order=1, eps=1e-4, rtol=1e-4, atol=1e-6)


def test_second_order():
    f = lambda y, t, k: -k * y + fnp.sin(t)  # noqa: E731
    check_grads(lambda y0, ts, k: odeint(f, y0, ts, k, rtol=1e-10, atol=1e-10),
                (fnp.asarray([1.0, 2.0]), fnp.asarray([0.0, 0.5, 1.0]), fnp.asarray(0.7)),
                order=2, eps=1e-4, rtol=1e-3, atol=1e-5)


def test_forward_mode_and_single_time():
    _, t = fg.jvp(lambda k: odeint(_decay, fnp.asarray(1.0), fnp.asarray([0.0, 1.0]), k), (fnp.asarray(0.5),), (fnp.asarray(1.0),))
    np.testing.assert_allclose(np.asarray(t), [0.0, -np.exp(-0.5)], rtol=1e-6)
    one = odeint(_decay, fnp.asarray([3.0]), [0.0], 1.0)
    assert one.shape == (1, 1) and float(one[0, 0]) == 3.0
    assert float(fg.grad(lambda y: fnp.sum(odeint(_decay, y, [0.0], 1.0)))(fnp.asarray(3.0))) == 1.0


def test_dtypes_and_errors():
    ys = odeint(_decay, np.ones(2, np.float32), np.array([0.0, 1.0], np.float32), 1.0)
    assert ys.dtype == np.float32
    with pytest.raises(ValueError, match="increasing"):
        odeint(_decay, 1.0, [0.0, 1.0, 0.5], 1.0)
    with pytest.raises(ValueError, match="shape"):
        odeint(lambda y, t: fnp.ones(3), np.ones(2), [0.0, 1.0])
    with pytest.raises(ODEError, match="mxstep"):
        odeint(lambda y, t: -50.0 * y, 1.0, [0.0, 10.0], mxstep=5)
    with pytest.raises(ValueError, match="hmax"):
        odeint(_decay, 1.0, [0.0, 1.0], 1.0, hmax=0.1)


def test_on_every_device(device):
    ys = odeint(_decay, fnp.asarray([1.0]), fnp.asarray([0.0, 1.0]), fnp.asarray(2.0))
    np.testing.assert_allclose(np.asarray(fg.device_put(ys, "cpu"))[-1], [np.exp(-2.0)], rtol=1e-7)
    g = fg.grad(lambda k: fnp.sum(odeint(_decay, fnp.asarray([1.0]), fnp.asarray([0.0, 1.0]), k)))(fnp.asarray(2.0))
    np.testing.assert_allclose(float(fg.device_put(g, "cpu")), -np.exp(-2.0), rtol=1e-6)
