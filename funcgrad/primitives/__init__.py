"""Primitive families: one module each; impl, shape rule and derivative rules together."""

from . import complex, creation, elementwise, fft, index, linalg, linalg_decomp, reduce, shape  # noqa: F401
