"""funcgrad.scipy.integrate.odeint: an adaptive ODE solver, differentiable with respect to
the initial state, the output times and the extra arguments (reverse mode by the adjoint
method, forward mode by the sensitivity equations; any order)."""

from __future__ import annotations

import numpy as np

from ..backend import kind_of
from ..numpy._util import as_array
from ..errors import ODEError
from ._odeint import odeint as _odeint

__all__ = ["odeint", "ODEError"]


def odeint(func, y0, t, *args, rtol=1.4e-8, atol=1.4e-8, mxstep=10**6, hmax=np.inf):
    """Solve dy/dt = func(y, t, *args) from y(t[0]) = y0; returns y at every time in t,
    shape ``(len(t),) + y0.shape`` (jax.experimental.ode.odeint's signature; scipy's
    ``odeint`` takes the same ``func(y, t, *args)``).

    Dormand-Prince 5(4) with adaptive steps (error per step within atol + rtol |y|),
    stepping exactly onto each output time.  ``t`` must be strictly increasing.
    ``func`` must be written with funcgrad operations; values it should be
    differentiated with respect to must be passed through ``args`` (closing over
    traced values is not supported).  ``hmax`` is accepted for signature compatibility
    and must be infinite.
    """
    if hmax != np.inf:
        raise ValueError("odeint: hmax is not supported (the step is chosen by the error control)")
    y0 = as_array(y0)
    t = as_array(t)
    if kind_of(y0.dtype) != "f":
        y0 = y0.astype(np.float64)
    if kind_of(t.dtype) != "f":
        t = t.astype(np.float64)
    if t.ndim != 1 or t.shape[0] < 1:
        raise ValueError(f"odeint: t must be a non-empty 1-d array of times, got shape {tuple(t.shape)}")
    host = np.asarray(t.tolist(), dtype=np.float64) if not hasattr(t, "_trace") else None
    if host is not None and np.any(np.diff(host) <= 0):
        raise ValueError("odeint: t must be strictly increasing")
    args = tuple(as_array(a) if not isinstance(a, (int, float)) else as_array(float(a)) for a in args)
    if not callable(func):
        raise TypeError(f"odeint: func must be callable, got {type(func).__name__}")
    return _odeint(func, y0, t, *args, rtol=float(rtol), atol=float(atol), mxstep=int(mxstep))
