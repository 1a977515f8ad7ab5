"""Specs: odeint (adjoint reverse mode, sensitivity forward mode), differentiable in
y0, the output times and the extra arguments."""

import hypothesis.strategies as st

import funcgrad.numpy as fnp
from funcgrad.scipy.integrate import odeint
from funcgrad.testing import strategies as fst

from ..spec import Spec, floats_of


def _decay(y, t, k, c):
    return -k * y + c * fnp.sin(t) * y * y / (1.0 + y * y)


@st.composite
def _ode_args(draw):
    y0 = draw(floats_of(fst.shapes(0, 1, 1, 3), -1.5, 1.5))
    n = draw(st.integers(1, 3))
    steps = draw(floats_of((n,), 0.2, 0.6))  # the times are their cumulative sums: increasing
    k = draw(floats_of((), 0.2, 1.5))
    c = draw(floats_of((), -1.0, 1.0))
    return (y0, steps, k, c), {}


SPECS = [
    Spec("odeint", ("odeint",),
         lambda y0, steps, k, c: odeint(_decay, y0, fnp.cumsum(steps) - 0.3, k, c, rtol=1e-11, atol=1e-11),
         _ode_args(), order=1, tol={"eps": 1e-4, "rtol": 1e-4, "atol": 1e-6}, noncontiguous=False),
]
