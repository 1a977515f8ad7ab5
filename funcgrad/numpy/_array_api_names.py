"""numpy 2's Array-API names for existing operations: concat, permute_dims, matrix_transpose,
unstack, vecdot, matvec, vecmat (and, for numpy.linalg, diagonal, trace, tensordot).

Each is the funcgrad operation it names (concatenate, transpose, matmul, ...), with numpy's
signature, so derivatives are those operations' rules.
"""

from __future__ import annotations

import numpy as np

from ._complex import conj
from ._indexing import diagonal as _diagonal
from ._indexing import trace as _trace
from ._products import matmul
from ._products import tensordot as _tensordot
from ._shape import concatenate, moveaxis, transpose
from ._util import as_array, normalize_axis

__all__ = ["concat", "permute_dims", "matrix_transpose", "unstack", "vecdot", "matvec", "vecmat"]
LINALG_NAMES = ["diagonal", "trace", "tensordot"]


def concat(arrays, /, *, axis=0):
    """numpy.concat: concatenate (``axis=None`` joins the flattened arrays)."""
    return concatenate(arrays, axis=axis)


def permute_dims(a, /, axes=None):
    """numpy.permute_dims: transpose."""
    return transpose(a, axes)


def matrix_transpose(x, /):
    """numpy.matrix_transpose: swap the last two axes."""
    from .linalg import matrix_transpose as _mt  # noqa: PLC0415

    return _mt(x)


def unstack(x, /, *, axis=0):
    """numpy.unstack: the slices along ``axis``, as a tuple."""
    x = as_array(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    axis = normalize_axis(axis, x.ndim)
    moved = moveaxis(x, axis, 0)
    return tuple(moved[i] for i in range(moved.shape[0]))


def vecdot(x1, x2, /, *, axis=-1):
    """numpy.vecdot: sum(conj(x1) * x2) over ``axis``."""
    from .linalg import vecdot as _vd  # noqa: PLC0415

    return _vd(x1, x2, axis=axis)


def _core(x, n, fname, which):
    if x.ndim < n:
        raise ValueError(f"{fname}: {which} must have at least {n} dimension(s), got shape {tuple(x.shape)}")


def matvec(x1, x2, /):
    """numpy.matvec: the matrix-vector product over the last axes, (..., m, n) x (..., n) -> (..., m)."""
    x1, x2 = as_array(x1), as_array(x2)
    _core(x1, 2, "matvec", "x1")
    _core(x2, 1, "matvec", "x2")
    if x1.shape[-1] != x2.shape[-1]:
        raise ValueError(f"matvec: core dimension mismatch, shapes {tuple(x1.shape)} and {tuple(x2.shape)}")
    return matmul(x1, x2[..., None])[..., 0]


def vecmat(x1, x2, /):
    """numpy.vecmat: conj(x1) times the matrix x2, (..., n) x (..., n, m) -> (..., m)."""
    x1, x2 = as_array(x1), as_array(x2)
    _core(x1, 1, "vecmat", "x1")
    _core(x2, 2, "vecmat", "x2")
    if x1.shape[-1] != x2.shape[-2]:
        raise ValueError(f"vecmat: core dimension mismatch, shapes {tuple(x1.shape)} and {tuple(x2.shape)}")
    x1 = conj(x1) if np.dtype(x1.dtype).kind == "c" else x1
    return matmul(x1[..., None, :], x2)[..., 0, :]


# --- numpy.linalg's Array-API names ------------------------------------------------------------

def diagonal(x, /, *, offset=0):
    """numpy.linalg.diagonal: the diagonals of the last two axes."""
    return _diagonal(x, offset, axis1=-2, axis2=-1)


def trace(x, /, *, offset=0, dtype=None):
    """numpy.linalg.trace: the traces of the last two axes."""
    return _trace(x, offset, axis1=-2, axis2=-1, dtype=dtype)


def tensordot(x1, x2, /, *, axes=2):
    """numpy.linalg.tensordot: numpy.tensordot with keyword-only axes."""
    return _tensordot(x1, x2, axes)
