"""Primitive families: one module each; impl, shape rule and derivative rules together."""

from . import creation, elementwise, index, linalg, products, reduce, shape, sort  # noqa: F401
