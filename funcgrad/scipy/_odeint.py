"""odeint as a primitive: an adaptive Dormand-Prince 5(4) solver, differentiated by the
adjoint method (reverse mode) and by the sensitivity equations (forward mode).

``odeint(func, y0, ts, *args)`` returns the states at the times ``ts`` (shape
``(len(ts),) + y0.shape``) of dy/dt = func(y, t, *args).  ``func`` is a static
parameter of the primitive, written with funcgrad operations.

Reverse mode (as in JAX, after Chen et al. 2018): the augmented system
[y, a, t0_bar, args_bar] with da/dt = -a^T df/dy, d args_bar/dt = -a^T df/dargs is
integrated backwards between consecutive output times (in reversed time, as an
odeint call itself), adding each output's cotangent to a on the way; the
cotangent of ts[i] is g[i] . f(y_i, t_i) (and ts[0] gets minus the integral).
Forward mode integrates [y, dy] with d(dy)/dt = df/dy dy + df/dargs dargs (a jvp of
func), started from dy0 - f(y0, t0) dt0, and adds f(y_i, t_i) dt_i at each output.
Both rules are odeint calls of augmented systems built from funcgrad's own vjp/jvp
of func, so they can be differentiated again.
"""

from __future__ import annotations

import math

import numpy as np

from ..backend import XP_OF_TYPE, kind_of
from ..core import Primitive, ShapedArray, Zero, _wrap
from ..errors import ODEError
from ..primitives.shape import concatenate, reshape
from ..transforms.api import jvp, vjp

__all__ = ["odeint"]

# Dormand-Prince 5(4) tableau
_C = (0.0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0)
_A = (
    (),
    (1 / 5,),
    (3 / 40, 9 / 40),
    (44 / 45, -56 / 15, 32 / 9),
    (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729),
    (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656),
)
_B5 = (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0.0)
_B4 = (5179 / 57600, 0.0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40)
_E = tuple(b5 - b4 for b5, b4 in zip(_B5, _B4))


def _rms(xp, v):
    return float(xp.sqrt(xp.mean(v * v))) if v.size else 0.0


def _integrate(f, y0, ts, rtol, atol, mxstep, xp):
    """States at ts (first = y0) of dy/dt = f(y, t) for flat y0; raw buffers in and out."""
    out = [y0]
    y = y0
    t = float(ts[0])
    fy = f(y, t)
    scale = atol + rtol * xp.abs(y)
    d0, d1 = _rms(xp, y / scale), _rms(xp, fy / scale)
    h = 1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1
    if len(ts) > 1:
        h = min(h, abs(float(ts[-1]) - t)) or 1e-6
        f1 = f(y + h * fy, t + h)
        d2 = _rms(xp, (f1 - fy) / scale) / h
        h1 = 1e-6 if max(d1, d2) <= 1e-15 else (0.01 / max(d1, d2)) ** 0.2
        h = min(100 * h, h1)
    steps = 0
    for t_next in (float(v) for v in ts[1:]):
        while t < t_next:
            if steps >= mxstep:
                raise ODEError(f"odeint: more than mxstep={mxstep} steps before t={t_next}")
            h = min(h, t_next - t)
            ks = [fy]
            for i in range(1, 6):
                yi = y
                for a, k in zip(_A[i], ks):
                    if a:
                        yi = yi + (h * a) * k
                ks.append(f(yi, t + _C[i] * h))
            y_new = y
            for b, k in zip(_B5[:6], ks):
                if b:
                    y_new = y_new + (h * b) * k
            f_new = f(y_new, t + h)
            ks.append(f_new)
            err = 0.0 * y
            for e, k in zip(_E, ks):
                if e:
                    err = err + (h * e) * k
            tol = atol + rtol * xp.maximum(xp.abs(y), xp.abs(y_new))
            en = _rms(xp, err / tol)
            steps += 1
            if not math.isfinite(en):
                if h < 1e-14 * max(1.0, abs(t)):
                    raise ODEError(f"odeint: the state became non-finite near t={t}")
                h *= 0.2
                continue
            if en <= 1.0:
                t, y, fy = min(t_next, t + h), y_new, f_new
            h *= min(10.0, max(0.2, 0.9 * en ** -0.2)) if en > 0 else 10.0
        out.append(y)
    return xp.stack(out)


def _odeint_impl(y0, ts, *args, func, rtol, atol, mxstep):
    xp = XP_OF_TYPE.get(type(y0), np)
    dt = np.result_type(y0.dtype, np.float32)
    shape = y0.shape
    targs = [_wrap(a) for a in args]
    tdt = ts.dtype if kind_of(ts.dtype) == "f" else np.dtype(np.float64)

    def f(y, t):
        r = func(_wrap(y.reshape(shape)), _wrap(xp.asarray(t, dtype=tdt)), *targs)
        v = r._value if hasattr(r, "_value") else xp.asarray(r)
        if tuple(v.shape) != shape:
            raise ValueError(f"odeint: func returned shape {tuple(v.shape)} for a state of shape {shape}")
        return v.reshape(-1).astype(dt)

    host_ts = ts.tolist() if hasattr(ts, "tolist") else list(ts)
    ys = _integrate(f, y0.reshape(-1).astype(dt), host_ts, rtol, atol, mxstep, xp)
    return ys.reshape((len(host_ts),) + shape)


def _odeint_abstract(y0, ts, *args, func, rtol, atol, mxstep):
    if ts.ndim != 1:
        raise ValueError(f"odeint: t must be 1-d, got shape {ts.shape}")
    return ShapedArray((ts.shape[0],) + tuple(y0.shape), np.result_type(y0.dtype, np.float32))


odeint_p = Primitive("odeint", _odeint_impl, _odeint_abstract)


def odeint(func, y0, ts, *args, rtol=1.4e-8, atol=1.4e-8, mxstep=10**6):
    return odeint_p.bind(y0, ts, *args, func=func, rtol=rtol, atol=atol, mxstep=mxstep)


# --- reverse mode: the adjoint system ----------------------------------------------------

def _pack(parts):
    """One flat vector of the parts (the state of an augmented system)."""
    return concatenate([reshape(p, (math.prod(p.shape),)) for p in parts], 0)


def _stack(parts):
    return concatenate([reshape(p, (1,) + tuple(p.shape)) for p in parts], 0)


def _unpack(v, shapes):
    out, start = [], 0
    for s in shapes:
        n = math.prod(s)
        out.append(reshape(v[start:start + n], s))
        start += n
    return out


def _odeint_vjp(g, ys, y0, ts, *args, func, rtol, atol, mxstep):
    if type(g) is Zero:
        return (None,) * (2 + len(args))
    shapes = [tuple(y0.shape), tuple(y0.shape), ()] + [tuple(a.shape) for a in args]
    def aug_dynamics(state, s, *fargs):
        y, a, _, *_ = _unpack(state, shapes)
        ydot, pullback = vjp(lambda yy, tt, *aa: func(yy, tt, *aa), y, -s, *fargs)
        cts = pullback(a)
        return _pack([-ydot] + list(cts))

    n = ts.shape[0]
    y_bar = g[n - 1]
    t0_bar = 0.0 * ts[0]
    args_bar = [0.0 * a for a in args]
    ts_bar = []
    for i in range(n - 1, 0, -1):
        t_bar = (func(ys[i], ts[i], *args) * g[i]).sum()
        ts_bar.append(t_bar)
        t0_bar = t0_bar - t_bar
        state = _pack([ys[i], y_bar, t0_bar] + args_bar)
        span = _stack([-ts[i], -ts[i - 1]])
        back = odeint(aug_dynamics, state, span, *args, rtol=rtol, atol=atol, mxstep=mxstep)[1]
        _, y_bar, t0_bar, *args_bar = _unpack(back, shapes)
        y_bar = y_bar + g[i - 1]
    ts_bar = concatenate([reshape(t0_bar, (1,))] + [reshape(t, (1,)) for t in reversed(ts_bar)], 0) \
        if n > 1 else reshape(t0_bar, (1,))
    return (y_bar, ts_bar, *args_bar)


odeint_p.defvjp_joint(_odeint_vjp)


# --- forward mode: the sensitivity equations ----------------------------------------------

def _odeint_jvp(tangents, ys, y0, ts, *args, func, rtol, atol, mxstep):
    dy0, dts, *dargs = tangents
    shape = tuple(y0.shape)
    zero = [type(d) is Zero for d in dargs]
    dargs = [0.0 * a if z else d for a, d, z in zip(args, dargs, zero)]
    start = 0.0 * y0 if type(dy0) is Zero else dy0
    if type(dts) is not Zero:
        start = start - func(y0, ts[0], *args) * dts[0]
    n_args = len(args)

    def sens_dynamics(state, t, *fargs):
        y, dy = _unpack(state, [shape, shape])
        fa, da = fargs[:n_args], fargs[n_args:]
        ydot, dydot = jvp(lambda yy, *aa: func(yy, t, *aa), (y, *fa), (dy, *da))
        return _pack([ydot, dydot])

    sol = odeint(sens_dynamics, _pack([y0, start]), ts, *args, *dargs, rtol=rtol, atol=atol, mxstep=mxstep)
    size = math.prod(shape)
    out = reshape(sol[:, size:], (ts.shape[0],) + shape)
    if type(dts) is not Zero:
        rates = _stack([func(ys[i], ts[i], *args) for i in range(ts.shape[0])])
        out = out + rates * reshape(dts, (ts.shape[0],) + (1,) * len(shape))
    return out


odeint_p.defjvp_joint(_odeint_jvp)
