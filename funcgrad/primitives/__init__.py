"""Primitive families: one module each; impl, shape rule and derivative rules together."""

from . import creation, elementwise, index, linalg, linalg_decomp, reduce, shape  # noqa: F401
