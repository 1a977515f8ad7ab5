"""Index helpers: nonzero (concrete results), take via indexing."""

from __future__ import annotations

from ..backend import namespace_of
from ..core import Array
from ._util import as_array

__all__ = ["nonzero"]


def nonzero(a):
    """Indices of the non-zero elements (a tuple of int arrays); needs a concrete array."""
    a = as_array(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use atleast_1d(x).nonzero() instead.")
    try:
        buf = a._concrete()
    except Exception:
        raise TypeError(
            "nonzero needs a concrete array: its result's shape depends on the values "
            "(not available under vmap)"
        ) from None
    return tuple(Array._from_buffer(i) for i in namespace_of(buf).nonzero(buf))

