"""Complex parts: real, imag, conj.

Convention for complex derivatives (as JAX): a cotangent ``c`` of a complex
value ``z`` pairs with a tangent ``dz`` as ``Re(sum(c * dz))``.  So the
vjp of ``real`` is ``g`` (cast to complex), of ``imag`` is ``-1j * g``, of
``conj`` is ``conj(g)``; a real input of a complex-valued function gets the
real part of its cotangent (the reverse driver takes it when it fits a
complex cotangent to a real argument).  With this convention
``grad(lambda x: real_valued(f(x)))`` is the ordinary gradient whenever
``x`` is real.
"""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import Primitive, ShapedArray
from ._batching import passthrough_rule


def _real_dtype(dtype):
    dtype = np.dtype(dtype)
    return np.empty(0, dtype).real.dtype


def _part_abstract(x):
    return ShapedArray(tuple(x.shape), _real_dtype(x.dtype))


def _impl(name):
    def impl(x):
        return getattr(XP_OF_TYPE.get(type(x), np), name)(x)

    return impl


real_p = Primitive("real", _impl("real"), _part_abstract)
real_p.defvjp(lambda g, ans, x: g, unsaved_args=(0,), saves_out=False)  # cast to x's dtype by the driver
real_p.defjvp(lambda t, ans, x: real(t))
real = real_p.bind

imag_p = Primitive("imag", _impl("imag"), _part_abstract)
imag_p.defvjp(lambda g, ans, x: -1j * g, unsaved_args=(0,), saves_out=False)
imag_p.defjvp(lambda t, ans, x: imag(t))
imag = imag_p.bind

conj_p = Primitive("conj", _impl("conj"), lambda x: ShapedArray(tuple(x.shape), x.dtype))
conj_p.defvjp(lambda g, ans, x: conj(g), unsaved_args=(0,), saves_out=False)
conj_p.defjvp(lambda t, ans, x: conj(t))
conj = conj_p.bind

for _p in (real_p, imag_p, conj_p):  # vmap: each element alone
    _p.batch = passthrough_rule(_p)
del _p
