"""Specs: expit/logit/entropy functions and logsumexp (funcgrad.primitives.special_log)."""

import hypothesis.strategies as st

import funcgrad.scipy.special as fsp
from funcgrad.testing import strategies as fst

from ..spec import Spec, binary_broadcast, floats_of, unary


@st.composite
def _lse_args(draw, with_b):
    x = draw(floats_of(fst.shapes(), -3.0, 3.0))
    kwargs = {"axis": draw(fst.axes(x.ndim)), "keepdims": draw(st.booleans())}
    if not with_b:
        return (x,), kwargs
    b = draw(floats_of(draw(fst.broadcastable_shapes(x.shape)), 0.2, 2.0))
    return (x, b), kwargs


def _nonempty_reduction(c):
    x = c[0][0]
    axis = c[1]["axis"]
    axes = range(x.ndim) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
    return all(x.shape[a] > 0 for a in axes)


SPECS = [
    Spec("expit", ("expit",), fsp.expit, unary(-4.0, 4.0)),
    Spec("logit", ("logit",), fsp.logit, unary(0.1, 0.9)),
    Spec("log_expit", ("log_expit",), fsp.log_expit, unary(-5.0, 5.0)),
    Spec("entr", ("entr",), fsp.entr, unary(0.1, 3.0)),
    Spec("rel_entr", ("rel_entr",), fsp.rel_entr, binary_broadcast(0.1, 3.0)),
    # (an empty slice: -inf, whose finite differences are NaN; tests/scipy checks it)
    Spec("logsumexp", ("logsumexp",), fsp.logsumexp, _lse_args(False).filter(_nonempty_reduction)),
    Spec("logsumexp_b", ("logsumexp",), lambda a, b, **kw: fsp.logsumexp(a, b=b, **kw),
         _lse_args(True).filter(_nonempty_reduction)),
    Spec("softmax", ("logsumexp",), lambda x, axis, keepdims: fsp.softmax(x, axis=axis), _lse_args(False)),
    Spec("log_softmax", ("logsumexp",), lambda x, axis, keepdims: fsp.log_softmax(x, axis=axis), _lse_args(False)),
]
