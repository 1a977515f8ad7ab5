"""Creation primitives: arrays whose values do not depend on their input's values.

``full_like(x, fill_value, shape=None, dtype=None)`` makes a constant array on
``x``'s device (x only supplies the device and defaults).  No derivative: the
output is constant; under vmap it is unbatched.
"""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE
from ..core import Primitive, ShapedArray


def _full_like_impl(x, fill_value, shape=None, dtype=None):
    xp = XP_OF_TYPE.get(type(x), np)
    if xp is np:
        if not isinstance(x, (np.ndarray, np.generic)):
            x = np.asarray(x)
        return np.full_like(x, fill_value, dtype=dtype, shape=shape)
    # not xp.full_like: cupy reads shape=() as "not given" and would return x's shape
    return xp.full(x.shape if shape is None else shape, fill_value, dtype=x.dtype if dtype is None else dtype)


def _full_like_abstract(x, fill_value, shape=None, dtype=None):
    base = x.dtype if isinstance(x, ShapedArray) else np.result_type(x)
    return ShapedArray(x.shape if shape is None else shape, base if dtype is None else dtype)


full_like_p = Primitive("full_like", _full_like_impl, _full_like_abstract, differentiable=False)


def _full_like_batch(args, dims, fill_value, shape=None, dtype=None):
    """The same constant for every example: unbatched (x only gives device and defaults)."""
    (x,), (d,) = args, dims
    if shape is None:
        shape = tuple(x.shape[:d]) + tuple(x.shape[d + 1:])
    return full_like_p.bind(x, fill_value=fill_value, shape=shape, dtype=dtype), None


full_like_p.batch = _full_like_batch


def full_like(x, fill_value, shape=None, dtype=None):
    if shape is not None:
        shape = tuple(int(d) for d in shape)
    if dtype is not None:
        dtype = np.dtype(dtype)
    return full_like_p.bind(x, fill_value=fill_value, shape=shape, dtype=dtype)


def zeros_like(x, shape=None, dtype=None):
    return full_like(x, 0, shape, dtype)


def ones_like(x, shape=None, dtype=None):
    return full_like(x, 1, shape, dtype)
