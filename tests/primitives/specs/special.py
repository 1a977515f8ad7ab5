"""Specs: the error-function and gamma families (funcgrad.primitives.special,
special_gamma).  Each draw stays inside the function's smooth domain."""

import hypothesis.strategies as st

import funcgrad.scipy.special as fsp
from funcgrad.testing import strategies as fst

from ..spec import Spec, binary_broadcast, floats_of, unary


@st.composite
def _with_const(draw, low, high, name, values):
    """One array argument in [low, high], plus a non-differentiable parameter."""
    x = draw(floats_of(fst.shapes(), low, high))
    return (x,), {name: draw(values)}


_positive_params = st.floats(0.6, 3.0)

SPECS = [
    Spec("erf", ("erf",), fsp.erf, unary(-3.0, 3.0)),
    Spec("erfc", ("erfc",), fsp.erfc, unary(-3.0, 3.0)),
    Spec("erfinv", ("erfinv",), fsp.erfinv, unary(-0.9, 0.9)),
    Spec("erfcinv", ("erfcinv",), fsp.erfcinv, unary(0.1, 1.9)),
    Spec("log_ndtr", ("log_ndtr",), fsp.log_ndtr, unary(-30.0, 8.0)),
    Spec("gamma", ("gamma",), fsp.gamma, unary(0.3, 4.0)),
    Spec("gammaln", ("gammaln",), fsp.gammaln, unary(0.3, 6.0)),
    Spec("gammaln_negative", ("gammaln",), fsp.gammaln, unary(-2.8, -2.2)),
    Spec("digamma", ("digamma",), fsp.digamma, unary(0.4, 5.0)),
    Spec("polygamma", ("polygamma",), lambda x, n: fsp.polygamma(n, x),
         _with_const(0.5, 4.0, "n", st.sampled_from([0, 1, 2]))),
    Spec("beta", ("beta",), fsp.beta, binary_broadcast(0.5, 3.0)),
    Spec("betaln", ("betaln",), fsp.betaln, binary_broadcast(0.5, 3.0)),
    Spec("betainc", ("betainc",), lambda x, a: fsp.betainc(a, a + 0.5, x),
         _with_const(0.1, 0.9, "a", _positive_params)),
    Spec("gammainc", ("gammainc",), lambda x, a: fsp.gammainc(a, x),
         _with_const(0.2, 4.0, "a", _positive_params)),
    Spec("gammaincc", ("gammaincc",), lambda x, a: fsp.gammaincc(a, x),
         _with_const(0.2, 4.0, "a", _positive_params)),
    Spec("xlogy", ("xlogy",), fsp.xlogy, binary_broadcast(-2.0, 2.0, 0.2, 3.0)),
    Spec("xlog1py", ("xlog1py",), fsp.xlog1py, binary_broadcast(-2.0, 2.0, -0.8, 2.0)),
    Spec("multigammaln", ("gammaln",), lambda x, d: fsp.multigammaln(x, d),
         _with_const(2.0, 5.0, "d", st.integers(1, 3))),
]
