"""funcgrad.numpy: numpy's API on funcgrad arrays, differentiable to any order.

``import funcgrad.numpy as fnp`` and write numpy code; every function here
binds funcgrad primitives, so ``fg.grad``, ``fg.jvp`` and the other
transformations see through it.  Names, signatures and dtype promotion follow
numpy (float64 by default; float32 stays float32).
"""

import ml_dtypes as _ml_dtypes
import numpy as _np

from ..core import Array
from . import _array_methods  # noqa: F401  (attaches Array's operators and methods)
from ._creation import *  # noqa: F401,F403
from ._editing import *  # noqa: F401,F403
from ._elementwise import *  # noqa: F401,F403
from ._index_tools import *  # noqa: F401,F403
from ._indexing import *  # noqa: F401,F403
from ._joining import *  # noqa: F401,F403
from ._logic import *  # noqa: F401,F403
from ._math import *  # noqa: F401,F403
from ._pad import *  # noqa: F401,F403
from ._products import *  # noqa: F401,F403
from ._rearranging import *  # noqa: F401,F403
from ._reductions import *  # noqa: F401,F403
from ._statistics import *  # noqa: F401,F403
from ._shape import *  # noqa: F401,F403
from . import _shape_methods  # noqa: F401  (attaches argsort, take, repeat, diagonal, ...)
from ._sorting import *  # noqa: F401,F403
from . import _more_methods  # noqa: F401,E402  (x.prod(), x.var(), x.clip(), ...)
from ._complex import *  # noqa: F401,F403
from ._calculus import *  # noqa: F401,F403
from ._float_functions import *  # noqa: F401,F403
from . import fft, linalg  # noqa: E402,F401  (fnp.fft, fnp.linalg)

ndarray = Array

# dtypes and constants are numpy's own objects
bool_ = _np.bool_
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64 = _np.float16, _np.float32, _np.float64
complex64, complex128 = _np.complex64, _np.complex128
# bfloat16 and float8 are ml_dtypes' numpy scalar types, as jax.numpy's (docs/numpy.md)
bfloat16 = _ml_dtypes.bfloat16
float8_e4m3fn, float8_e5m2 = _ml_dtypes.float8_e4m3fn, _ml_dtypes.float8_e5m2
dtype = _np.dtype
finfo = _ml_dtypes.finfo  # numpy's finfo, extended to bfloat16 and float8
iinfo = _np.iinfo
result_type, promote_types, can_cast = _np.result_type, _np.promote_types, _np.can_cast
pi, e, inf, nan, newaxis = _np.pi, _np.e, _np.inf, _np.nan, None
