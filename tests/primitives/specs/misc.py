"""Specs: creation, transfer and stop_gradient."""

import hypothesis.strategies as st
import numpy as np

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import strategies as fst

from ..spec import Spec, binary_broadcast, floats_of, unary


SPECS = [
    Spec("full_like", ("full_like",), lambda x: [fnp.zeros_like(x), fnp.ones_like(x, dtype=np.int32)],
         st.tuples(floats_of(fst.shapes())).map(lambda a: (a, {})), differentiable=False),
    # its derivative (zero) is by design not the finite difference: tested in tests/transforms
    Spec("stop_gradient", ("stop_gradient",), lambda x: x * fg.stop_gradient(x),
         st.tuples(floats_of(fst.shapes())).map(lambda a: (a, {})), differentiable=False),
    Spec("device_put", ("device_put",),
         lambda x: fg.device_put(fg.device_put(x, "standin") * 3.0, fg.default_device()) if fg.default_device().kind != "standin"
         else fg.device_put(fg.device_put(x, "cpu") * 3.0, "standin"),
         st.tuples(floats_of(fst.shapes())).map(lambda a: (a, {}))),
]


SPECS += [
    Spec("relu", ("relu",), lambda x: fg.nn.functional.relu(x),
         st.tuples(floats_of(fst.shapes(), avoid=(0.0,))).map(lambda a: (a, {}))),
]


# a jitted call under a transformation is the jit primitive (its rules: jitted vjp/jvp/vmap of its graph)
_JITTED = fg.jit(lambda x, y: fnp.sin(x) * y + fnp.exp(y) * x)

SPECS += [
    Spec("jit", ("jit",), lambda x, y: _JITTED(x, y), binary_broadcast()),
]

# random draws (one ``random`` primitive each; no derivative with respect to the key or to p): the input
# times a Bernoulli mask whose p is traced (always 0.5, so finite differences see the same mask)
SPECS += [
    Spec("random", ("random",), lambda x: x * fg.random.bernoulli(fg.random.key(3), x * 0.0 + 0.5), unary()),
]
