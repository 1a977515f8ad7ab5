"""Index planning for sparse arrays, on the buffers of concrete index arrays.

Indices never carry a derivative, so what depends only on them (which stored
entries share a coordinate, the sorted order of coordinates, the compressed
row pointers of CSR) is computed here once, with the index buffer's own array
namespace (numpy, cupy or the stand-in); the values are then combined with
differentiable operations by the callers (funcgrad.sparse and funcgrad.compat's
sparse tensors), so gradients reach them.
"""

from __future__ import annotations

import numpy as np

from ..backend import namespace_of

__all__ = ["buffer_of", "linear_keys", "group_plan", "coalesce_plan", "csr_rows", "csr_pointers"]


def buffer_of(x, what="indices"):
    """The concrete backend buffer of an Array, compat Tensor or raw buffer; a clear error when
    ``x`` is an abstract value (a vmap or jit tracer), whose entries are not known."""
    conc = getattr(x, "_concrete", None)
    if conc is not None:
        try:
            return conc()
        except Exception as e:
            raise TypeError(f"funcgrad.sparse: {what} must be concrete here (this operation looks at the "
                            f"index values), but got an abstract {type(x).__name__}: {e}") from e
    return getattr(x, "_value", x)


def linear_keys(xp, idx, shape):
    """Row-major linear positions of the (nnz, ndim) coordinates ``idx`` in ``shape``, as int64."""
    idx = idx.astype(np.int64, copy=False)
    keys = xp.zeros(idx.shape[0], dtype=np.int64)
    for d, size in enumerate(shape):
        keys = keys * int(size) + idx[:, d]
    return keys


def group_plan(idx, shape, dims):
    """Entries grouped by their coordinates along ``dims``: ``(unique_coords, inverse)``,
    ``unique_coords`` (n_groups, len(dims)) sorted row-major, ``inverse[e]`` the group of entry e."""
    xp = namespace_of(idx)
    dims = tuple(dims)
    sub = idx[:, list(dims)] if dims else idx[:, :0]
    sub_shape = tuple(shape[d] for d in dims)
    keys = linear_keys(xp, sub, sub_shape)
    if keys.shape[0] == 0:
        return xp.zeros((0, len(dims)), dtype=np.int64), xp.zeros(0, dtype=np.int64)
    uniq, inverse = xp.unique(keys, return_inverse=True)
    coords = xp.zeros((uniq.shape[0], len(dims)), dtype=np.int64)
    rem = uniq
    for j in range(len(dims) - 1, -1, -1):
        size = int(sub_shape[j])
        coords[:, j] = rem % size if size else 0
        rem = rem // size if size else rem
    return coords, inverse.reshape(-1).astype(np.int64, copy=False)


def coalesce_plan(idx, shape):
    """``(unique_coords, inverse)`` over all dims: what coalescing needs (the values are
    then summed per group)."""
    return group_plan(idx, shape, range(len(shape)))


def csr_rows(crow, nnz):
    """The row of every stored entry of a CSR matrix with row pointers ``crow``."""
    xp = namespace_of(crow)
    # entry e lies in the row whose pointer range holds it (a search, not repeat: cupy's repeat
    # takes no array of counts)
    return xp.searchsorted(crow[1:], xp.arange(nnz, dtype=crow.dtype), side="right").astype(np.int64, copy=False)


def csr_pointers(rows, n_rows):
    """Row pointers (n_rows + 1,) of row-sorted entries whose rows are ``rows``."""
    xp = namespace_of(rows)
    counts = xp.bincount(rows.astype(np.int64, copy=False), minlength=n_rows) if rows.shape[0] else \
        xp.zeros(n_rows, dtype=np.int64)
    out = xp.zeros(n_rows + 1, dtype=np.int64)
    out[1:] = xp.cumsum(counts)
    return out
