"""Specs: the error-function family (funcgrad.primitives.special)."""

import funcgrad.scipy.special as fsp

from ..spec import Spec, unary

SPECS = [
    Spec("erf", ("erf",), fsp.erf, unary(-3.0, 3.0)),
    Spec("erfc", ("erfc",), fsp.erfc, unary(-3.0, 3.0)),
    Spec("erfinv", ("erfinv",), fsp.erfinv, unary(-0.9, 0.9)),
    Spec("erfcinv", ("erfcinv",), fsp.erfcinv, unary(0.1, 1.9)),
]
