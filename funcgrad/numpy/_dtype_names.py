"""numpy's scalar-type names, dtype-inspection helpers and constants, re-exported.

These are numpy's own objects (``fnp.float32 is numpy.float32``), so dtype arguments,
``issubdtype`` checks and ``isinstance`` tests behave exactly as in numpy.  Only the
numeric types are here: funcgrad arrays hold bool, integer, float and complex values (and
ml_dtypes' ``bfloat16``/``float8_*``, the types jax.numpy uses).
``longdouble``/``clongdouble`` (and their sized names ``float128``/``complex256`` or
``float96``/``complex192``) are numpy's extended precision types where the platform has
them; where ``longdouble`` is plain double, the sized names do not exist, as in numpy.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

_TYPES = (
    "bool bool_ byte ubyte short ushort intc uintc int_ uint long ulong longlong ulonglong intp "
    "uintp int8 int16 int32 int64 uint8 uint16 uint32 uint64 half single double longdouble "
    "float16 float32 float64 csingle cdouble clongdouble complex64 complex128 "
    "generic number integer signedinteger unsignedinteger inexact floating complexfloating"
).split()
_EXTENDED = [n for n in ("float96", "float128", "complex192", "complex256") if hasattr(np, n)]
_HELPERS = ("dtype finfo iinfo result_type promote_types can_cast issubdtype isdtype common_type "
            "min_scalar_type mintypecode isscalar iterable ndindex").split()
_CONSTANTS = ("False_ True_ ScalarType sctypeDict typecodes pi e euler_gamma inf nan "
              "little_endian").split()
_MODULES = ("dtypes", "exceptions")

_ML_FLOATS = ("bfloat16", "float8_e4m3fn", "float8_e5m2")

__all__ = _TYPES + _EXTENDED + _HELPERS + _CONSTANTS + list(_MODULES) + list(_ML_FLOATS) + ["newaxis"]

globals().update({name: getattr(np, name) for name in __all__ if name != "newaxis" and name not in _ML_FLOATS})
# bfloat16 and float8 are ml_dtypes' numpy scalar types, as jax.numpy's (docs/numpy.md); its finfo is
# numpy's, extended to them
globals().update({name: getattr(ml_dtypes, name) for name in _ML_FLOATS})
finfo = ml_dtypes.finfo
newaxis = None
