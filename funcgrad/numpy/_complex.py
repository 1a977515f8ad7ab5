"""Complex parts: real, imag, conj (derivative convention in funcgrad/primitives/complex.py)."""

from __future__ import annotations

import numpy as np

from ..primitives import complex as _cp
from ._util import as_array
from ..primitives.creation import zeros_like
from ._util import no_out

__all__ = ["real", "imag", "conj", "conjugate"]


def real(val):
    val = as_array(val)
    return _cp.real(val)


def imag(val):
    val = as_array(val)
    if np.dtype(val.dtype).kind != "c":
        return zeros_like(val)
    return _cp.imag(val)


def conj(x, /, out=None):
    no_out(out, "conj")
    x = as_array(x)
    return x if np.dtype(x.dtype).kind != "c" else _cp.conj(x)


conjugate = conj
