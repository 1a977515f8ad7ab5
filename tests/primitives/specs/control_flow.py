"""Specs: the control-flow primitives of funcgrad.lax (scan, cond, while).

Their own tests (values against unrolled loops, errors, batching, jit) are in tests/lax/."""

import hypothesis.strategies as st

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import strategies as fst

from ..spec import Spec, floats_of


def _scan_fn(c, xs):
    def step(carry, x):
        new = fnp.sin(carry) * x + carry * 0.5
        return new, new * x
    carry, ys = fg.lax.scan(step, c, xs)
    return [carry, ys]


def _cond_fn(x, y, pick):
    return fg.lax.cond(fnp.asarray(pick), lambda a, b: fnp.sin(a) * b, lambda a, b: a * fnp.exp(b), x, y)


def _while_fn(x):
    return fg.lax.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, fnp.sin(s[1]) + s[1]), (0, x))[1]


@st.composite
def _carry_and_xs(draw):
    shape = draw(fst.shapes(max_dims=2, max_side=3))
    n = draw(st.integers(0, 3))
    return (draw(floats_of(shape)), draw(floats_of((n,) + shape))), {}


@st.composite
def _two_same(draw):
    shape = draw(fst.shapes(max_dims=2, max_side=3))
    return (draw(floats_of(shape)), draw(floats_of(shape))), {"pick": draw(st.booleans())}


SPECS = [
    Spec("lax_scan", ("scan",), _scan_fn, _carry_and_xs()),
    Spec("lax_cond", ("cond",), _cond_fn, _two_same(), order=1),  # order 2: tests/lax/test_cond.py
    # reverse mode of while raises by design (tests/lax/test_loops.py checks forward mode)
    Spec("lax_while", ("while",), _while_fn, st.tuples(floats_of(fst.shapes())).map(lambda a: (a, {})),
         differentiable=False),
]
