"""Primitive families: one module each; impl, shape rule and derivative rules together."""

from . import (  # noqa: F401
    activations, bits, complex, conv, creation, dense, elementwise, fft, index, linalg, linalg_decomp, pool, products,
    reduce, shape, sort,
)
