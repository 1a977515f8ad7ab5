"""Array methods of the reduction, elementwise and rounding families (x.prod(), x.var(),
x.clip(), x.round(), x.conj(), ``//``, ``%``, ``divmod`` ...), attached at import."""

from __future__ import annotations

from ..primitives import rounding as _rd
from . import _complex as _c
from . import _math as _m
from . import _reductions as _r
from . import _statistics as _s
from ._array_methods import _binop, attach


def _cumulative(fn):
    return lambda self, axis=None, dtype=None, out=None: fn(self, axis, dtype, out)


_METHODS = {
    "prod": lambda self, axis=None, dtype=None, out=None, keepdims=False, **kw: _r.prod(self, axis, dtype, out, keepdims, **kw),
    "var": lambda self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw: _s.var(self, axis, dtype, out, ddof, keepdims, **kw),
    "std": lambda self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw: _s.std(self, axis, dtype, out, ddof, keepdims, **kw),
    "all": lambda self, axis=None, out=None, keepdims=False, **kw: _r.all(self, axis, out, keepdims, **kw),
    "any": lambda self, axis=None, out=None, keepdims=False, **kw: _r.any(self, axis, out, keepdims, **kw),
    "cumsum": _cumulative(_r.cumsum),
    "cumprod": _cumulative(_r.cumprod),
    "clip": lambda self, min=None, max=None, out=None, **kw: _m.clip(self, min, max, out, **kw),
    "round": lambda self, decimals=0, out=None: _m.round(self, decimals, out),
    "conj": lambda self: _c.conj(self),
    "conjugate": lambda self: _c.conj(self),
    "real": property(lambda self: _c.real(self)),
    "imag": property(lambda self: _c.imag(self)),
    "__floordiv__": _binop(_rd.floor_divide), "__rfloordiv__": _binop(_rd.floor_divide, True),
    "__mod__": _binop(_rd.remainder), "__rmod__": _binop(_rd.remainder, True),
    "__divmod__": lambda self, other: _m.divmod(self, other),
    "__rdivmod__": lambda self, other: _m.divmod(other, self),
}

attach(methods=_METHODS)
