"""Array methods of the reduction, elementwise and rounding families (x.prod(), x.var(),
x.clip(), x.round(), x.conj(), ``//``, ``%``, ``divmod`` ...), attached at import."""

from __future__ import annotations

from . import _reductions as _r
from . import _statistics as _s
from ._array_methods import attach


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
}

attach(methods=_METHODS)
