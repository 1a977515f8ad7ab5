"""Building and rearranging tensors: block_diag, cartesian_prod, rot90, vander, atleast_1d/2d/3d, tensor_split.

Compositions of views, cat, flip and cumprod: the gradients come from those ops' rules.
"""

from __future__ import annotations

import numpy as np

from . import dtypes
from ._dispatch import FUNCS, cast, name_grad, op
from .tensor import Tensor, _dim

__all__ = ["block_diag", "cartesian_prod", "rot90", "vander", "atleast_1d", "atleast_2d", "atleast_3d",
           "tensor_split"]


def _zeros(rows, cols, npd, ref):
    from .creation import zeros  # noqa: PLC0415

    return zeros(rows, cols, dtype=dtypes.from_numpy_dtype(npd), device=ref.device)


@op("block_diag", method=False)
def block_diag(*tensors):
    """The tensors (0-, 1- or 2-D) along the diagonal of a zero matrix, in the promoted dtype."""
    if not tensors:
        from .creation import empty  # noqa: PLC0415

        return empty(1, 0)
    mats = []
    for i, t in enumerate(tensors):
        nd = t._value.ndim
        if nd > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{nd} dimensions")
        mats.append(t.reshape(1, 1) if nd == 0 else t.reshape(1, -1) if nd == 1 else t)
    npd = dtypes.result_np(*mats)
    mats = [cast(m, npd) for m in mats]
    total = sum(m.shape[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        r, c = m.shape
        rows.append(FUNCS["cat"]([_zeros(r, left, npd, m), m, _zeros(r, total - left - c, npd, m)], 1))
        left += c
    return name_grad(FUNCS["cat"](rows, 0), "BlockDiagBackward0")


@op("cartesian_prod", method=False)
def cartesian_prod(*tensors):
    """All combinations of the elements of 1-D tensors, as rows (itertools.product's order)."""
    for t in tensors:
        if t._value.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    grids = FUNCS["meshgrid"](*tensors, indexing="ij")
    return FUNCS["stack"]([g.reshape(-1) for g in grids], 1)


@op("rot90")
def rot90(input, k=1, dims=(0, 1)):
    """Rotate by 90 degrees ``k`` times in the plane of ``dims`` (from the first towards the second)."""
    dims = list(dims)
    nd = input._value.ndim
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if nd < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {nd}")
    d0, d1 = _dim(dims[0], nd), _dim(dims[1], nd)
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    k %= 4
    if k == 1:
        return FUNCS["flip"](input, [d1]).transpose(d0, d1)
    if k == 2:
        return FUNCS["flip"](input, [d0, d1])
    if k == 3:
        return FUNCS["flip"](input, [d0]).transpose(d0, d1)
    return input.clone()


@op("vander", method=False)
def vander(x, N=None, increasing=False):  # noqa: N803  (PyTorch's name)
    """Columns x**(N-1), ..., x**0 (or increasing powers); bool/int inputs give int64."""
    if x._value.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else int(N)
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    if x._value.dtype.kind in "biu":
        x = cast(x, np.dtype(np.int64))
    from .creation import ones  # noqa: PLC0415

    m = x.shape[0]
    if n == 0:
        return _zeros(m, 0, x._value.dtype, x)
    one = ones(m, 1, dtype=x.dtype, device=x.device)
    r = FUNCS["cumprod"](FUNCS["cat"]([one, x.unsqueeze(1).expand(m, n - 1)], 1), 1) if n > 1 else one
    return r if increasing else FUNCS["flip"](r, [1])


def _atleast(nd):
    def one(t):
        if not isinstance(t, Tensor):
            from .creation import tensor  # noqa: PLC0415

            t = tensor(t)
        k = t._value.ndim
        if k >= nd:
            return t
        if nd == 3:
            return t.reshape(1, 1, 1) if k == 0 else t.reshape(1, -1, 1) if k == 1 else t.unsqueeze(-1)
        return t.reshape((1,) * (nd - k) + tuple(t.shape))

    def f(*tensors):
        if len(tensors) == 1 and not isinstance(tensors[0], (list, tuple)):
            return one(tensors[0])
        seq = tensors[0] if len(tensors) == 1 else tensors
        return tuple(one(t) for t in seq)
    f.__name__ = f"atleast_{nd}d"
    return f


atleast_1d = op("atleast_1d", method=False)(_atleast(1))
atleast_2d = op("atleast_2d", method=False)(_atleast(2))
atleast_3d = op("atleast_3d", method=False)(_atleast(3))


@op("tensor_split")
def tensor_split(input, indices_or_sections, dim=0):
    """Views of ``input`` split into n near-equal parts (an int) or at the given indices (a list or tensor)."""
    nd = input._value.ndim
    if nd == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    d = _dim(dim, nd)
    size = input._value.shape[d]
    ios = indices_or_sections
    if isinstance(ios, Tensor):
        if ios._value.dtype.kind not in "iu":
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have integer dtype, but got "
                               f"{ios.dtype}")
        if ios._value.ndim > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                               f"one-dimensional tensor, but got a tensor with {ios._value.ndim} dims")
        ios = int(ios.item()) if ios._value.ndim == 0 else [int(i) for i in ios.tolist()]
    if isinstance(ios, (int, np.integer)):
        n = int(ios)
        if n <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {n}")
        q, r = divmod(size, n)
        bounds = [i * q + min(i, r) for i in range(n + 1)]
    else:
        idx = [int(i) for i in ios]
        bounds = [0] + [min(max(i + size if i < 0 else i, 0), size) for i in idx] + [size]
    pieces = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        a = min(a, size)
        b = max(min(b, size), a)
        pieces.append(input.narrow(d, a, b - a))
    return tuple(pieces)


