"""funcgrad.numpy: numpy's API on funcgrad arrays, differentiable to any order.

``import funcgrad.numpy as fnp`` and write numpy code; every function here
binds funcgrad primitives, so ``fg.grad``, ``fg.jvp`` and the other
transformations see through it.  Names, signatures and dtype promotion follow
numpy (float64 by default; float32 stays float32).
"""

import sys as _sys

from ..array import set_array_namespace as _set_array_namespace
from ..core import Array
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
from ._sorting import *  # noqa: F401,F403
from ._complex import *  # noqa: F401,F403
from ._calculus import *  # noqa: F401,F403
from ._float_functions import *  # noqa: F401,F403
from ._index_tricks import *  # noqa: F401,F403
from ._windows import *  # noqa: F401,F403
from ._quantiles import *  # noqa: F401,F403
from ._nanfunctions import *  # noqa: F401,F403
from ._polynomial import *  # noqa: F401,F403
from ._set_ops import *  # noqa: F401,F403
from ._histograms import *  # noqa: F401,F403
from ._conversions import *  # noqa: F401,F403
from ._functional import *  # noqa: F401,F403
from ._functional_updates import *  # noqa: F401,F403
from ._array_api_names import *  # noqa: F401,F403
from . import emath, fft, linalg, polynomial  # noqa: E402,F401  (fnp.emath, fnp.fft, fnp.linalg, ...)
from . import _array_methods  # noqa: E402,F401  (x.sum(), x.reshape(), x.argsort(), ...: numpy's functions as methods)

ndarray = Array

from ._dtype_names import *  # noqa: F401,F403,E402  (numpy's dtypes, constants, dtype helpers)

_set_array_namespace(_sys.modules[__name__])  # x.__array_namespace__() is this module
