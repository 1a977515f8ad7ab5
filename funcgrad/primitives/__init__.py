"""Primitive families: one module each; impl, shape rule and derivative rules together."""

from . import conv, creation, dense, elementwise, index, linalg, reduce, shape  # noqa: F401
