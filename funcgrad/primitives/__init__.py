"""Primitive families: one module each; impl, shape rule and derivative rules together."""

from . import (  # noqa: F401
    activations, bits, complex, conv, creation, dense, elementwise, fft, index, linalg, linalg_decomp, pool, products,
    reduce, shape, sort, stop_gradient,
)
from . import array_operators  # noqa: F401,E402  (attaches Array's operators, indexing, .T, .astype)
