"""Activation primitives: relu.

relu is one primitive rather than ``where(x > 0, x, 0)`` for speed (numpy's
``maximum`` is 2-3x faster than ``where``, and the backward pass is one product
with the output's mask): it dominates the elementwise work of a ReLU network.
Its derivative is 0 at 0, as PyTorch's.
"""

from __future__ import annotations

import numpy as np

from ..backend import XP_OF_TYPE, kind_of
from ..core import Primitive, ShapedArray
from ._batching import passthrough_rule
from .elementwise import defderiv, greater


def _relu_impl(x):
    xp = XP_OF_TYPE.get(type(x), np)
    return xp.maximum(x, xp.zeros((), x.dtype))


def _relu_abstract(x):
    if kind_of(x.dtype) not in "fiu":
        raise TypeError(f"relu: expected a real numeric array, got dtype {x.dtype}")
    return ShapedArray(x.shape, x.dtype)


relu_p = Primitive("relu", _relu_impl, _relu_abstract)
# the mask of the output (not the input): the input need not be kept
defderiv(relu_p, lambda ans, x: greater(ans, 0), unsaved_args=(0,))
relu_p.batch = passthrough_rule(relu_p)
relu = relu_p.bind
