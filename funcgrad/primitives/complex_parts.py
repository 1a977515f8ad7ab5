"""real, imag, conj, angle.

On real inputs they are differentiable as the real functions they are (real and
conj: identity; imag and angle: derivative 0).  funcgrad differentiates real
functions of real inputs only (grad/vjp/jvp refuse complex inputs): a derivative
rule reached with a complex value raises a TypeError saying so, instead of
returning a gradient under some silent convention.
"""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import Primitive, ShapedArray
from .creation import zeros_like
from .elementwise import _aval_dtype, check_real, ufunc_primitive

__all__ = ["real", "imag", "conj", "angle"]


def _real_dtype(dtype):
    dtype = np.dtype(dtype)
    return np.dtype(dtype.type(0).real.dtype) if dtype.kind == "c" else dtype


def _part(name, fn, identity, floating=False):
    """A primitive computing ``fn`` (real part, imaginary part or angle: floating results)."""
    def abstract(x):
        dt = _real_dtype(_aval_dtype(x))
        return ShapedArray(getattr(x, "shape", ()), np.result_type(dt, np.float16) if floating else dt)

    prim = Primitive(name, lambda x: fn(XP_OF_TYPE.get(type(x), np), x), abstract)

    def rule(g, ans, x):
        check_real(x, name)
        return g if identity else zeros_like(g)

    prim.defvjp(rule, saves_out=False).defjvp(rule)
    return prim


real_p = _part("real", lambda xp, x: xp.real(x), True)
imag_p = _part("imag", lambda xp, x: xp.imag(x), False)
angle_p = _part("angle", lambda xp, x: xp.angle(x), False, floating=True)
real, imag, angle = real_p.bind, imag_p.bind, angle_p.bind

conj_p = ufunc_primitive("conjugate")


def _conj_rule(g, ans, x):
    check_real(x, "conjugate")
    return g


conj_p.defvjp(_conj_rule, saves_out=False).defjvp(_conj_rule)
conj = conj_p.bind
