"""More shape, splitting and building ops: tile, repeat_interleave, tensordot, broadcast_tensors/shapes,
unflatten, fliplr/flipud, hsplit/vsplit/dsplit, column_stack, dstack, diagflat, tril/triu_indices,
unravel_index, unique_consecutive, msort, chain_matmul, combinations, matrix_exp, pdist, poisson, lu (the
scatter family is in ops_scatter_extra.py).

Compositions of compat's views, cat, flip, index_select and mm: the gradients come from those ops' rules.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np

from ..backend import kind_of
from . import dtypes
from ._dispatch import FUNCS, ints, name_grad, op
from .device import like, xp_of
from .ops_scatter_extra import _int_t  # also registers scatter_reduce, index_copy/reduce, *_scatter, as_strided
from .tensor import Size, Tensor, _dim, wrap

__all__ = ["tile", "repeat_interleave", "tensordot", "broadcast_tensors", "broadcast_shapes", "unflatten"]


@op("tile")
def tile(input, *dims):
    dims = ints(dims)
    if any(k < 0 for k in dims):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(dims)}: {list(dims)}")
    nd = input._value.ndim
    dims = (1,) * (nd - len(dims)) + dims
    return input.repeat(*dims) if dims else input.clone()


@op("repeat_interleave")
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element (or slice along ``dim``) repeated ``repeats`` times; ``repeat_interleave(counts)``
    alone gives ``arange(len(counts))`` repeated by counts."""
    if repeats is None:  # torch.repeat_interleave(repeats)
        r = input
        if r._value.ndim > 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        return repeat_interleave(wrap(like(np.arange(r._value.size, dtype=np.int64), r._value)), r, 0,
                                 output_size=output_size)
    x = input
    if dim is None:
        x = x.reshape(-1)
        d = 0
    else:
        d = _dim(dim, x._value.ndim)
        if x._value.ndim == 0:
            x = x.reshape(1)
    n = x._value.shape[d]
    if isinstance(repeats, Tensor):
        if repeats._value.dtype.kind not in "iu":
            raise RuntimeError("repeat_interleave: repeats must have integer dtype")
        if repeats._value.ndim > 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        reps = np.asarray(repeats.tolist(), np.int64).reshape(-1)
        if reps.size == 1:
            reps = np.full(n, reps[0], np.int64)
    else:
        reps = np.full(n, int(repeats), np.int64)
    if reps.size != n:
        raise RuntimeError("repeats must have the same size as input along dim, but got repeats.size(0) = "
                           f"{reps.size} and input.size({d}) = {n}")
    if (reps < 0).any():
        raise RuntimeError("repeats can not be negative")
    idx = np.repeat(np.arange(n, dtype=np.int64), reps)
    if output_size is not None and int(output_size) != idx.size:
        raise RuntimeError(f"allocated size does not match required size: output_size={output_size}, "
                           f"required {idx.size}")
    return name_grad(FUNCS["index_select"](x, d, _int_t(idx, x)), "RepeatInterleaveBackward0")


@op("tensordot", method=False)
def tensordot(a, b, dims=2, out=None):
    """Contract ``dims`` trailing dims of a with leading dims of b, or the listed dim pairs."""
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, (int, np.integer)):
        k = int(dims)
        if k < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={k}")
        if k > a.dim() or k > b.dim():
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={k}")
        da, db = list(range(a.dim() - k, a.dim())), list(range(k))
    else:
        da, db = dims
        da = [da] if isinstance(da, int) else list(da)
        db = [db] if isinstance(db, int) else list(db)
        if len(da) != len(db):
            raise RuntimeError("both dimension lists should have same length")
        da, db = [_dim(d, a.dim()) for d in da], [_dim(d, b.dim()) for d in db]
    for i, j in zip(da, db):
        if a.shape[i] != b.shape[j]:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {a.shape[i]} in dim {i} "
                               f"and second has size {b.shape[j]} in dim {j}")
    if a.dtype != b.dtype:
        raise RuntimeError(f"expected scalar type {a.dtype} but found {b.dtype}".replace("torch.", ""))
    fa = [i for i in range(a.dim()) if i not in da]
    fb = [j for j in range(b.dim()) if j not in db]
    m = int(np.prod([a.shape[i] for i in fa], dtype=np.int64))
    n = int(np.prod([b.shape[j] for j in fb], dtype=np.int64))
    k = int(np.prod([a.shape[i] for i in da], dtype=np.int64))
    am = a.permute(fa + da).reshape(m, k)
    bm = b.permute(db + fb).reshape(k, n)
    return (am @ bm).reshape(tuple(a.shape[i] for i in fa) + tuple(b.shape[j] for j in fb))


@op("broadcast_shapes", method=False)
def broadcast_shapes(*shapes):
    norm = [(int(s),) if isinstance(s, (int, np.integer)) else tuple(int(d) for d in s) for s in shapes]
    for s in norm:
        if any(d < 0 for d in s):
            raise ValueError("Attempting to broadcast a dimension with negative length!")
    try:
        return Size(np.broadcast_shapes(*norm))
    except ValueError:
        raise RuntimeError("Shape mismatch: objects cannot be broadcast to a single shape") from None


@op("broadcast_tensors", method=False)
def broadcast_tensors(*tensors):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shapes = [tuple(t.shape) for t in tensors]
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        raise RuntimeError(f"The size of tensors cannot be broadcast together: shapes {shapes}") from None
    return tuple(t.expand(*shape) for t in tensors)


@op("unflatten")
def unflatten(input, dim, sizes):
    """Dimension ``dim`` split into ``sizes`` (one may be -1): a view."""
    nd = input._value.ndim
    if nd == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    d = _dim(dim, nd)
    sizes = [int(s) for s in sizes]
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    n = input._value.shape[d]
    if sizes.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = int(np.prod([s for s in sizes if s != -1], dtype=np.int64))
    if -1 in sizes:
        if known == 0 or n % known:
            raise RuntimeError(f"unflatten: Provided sizes {sizes} don't multiply up to the size of dim {dim} "
                               f"({n}) in the input tensor")
        sizes[sizes.index(-1)] = n // known
    elif known != n:
        raise RuntimeError(f"unflatten: Provided sizes {sizes} don't multiply up to the size of dim {dim} ({n}) "
                           f"in the input tensor")
    s = input._value.shape
    return name_grad(input.view(*(s[:d] + tuple(sizes) + s[d + 1:])), "UnflattenBackward0")


@op("fliplr")
def fliplr(input):
    if input._value.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return FUNCS["flip"](input, [1])


@op("flipud")
def flipud(input):
    if input._value.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return FUNCS["flip"](input, [0])


def _dir_split(name, dim, min_nd):
    def f(input, indices_or_sections):
        nd = input._value.ndim
        if nd < min_nd:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {min_nd} dimension, but got a tensor "
                               f"with {nd} dimensions!")
        d = 0 if (name == "hsplit" and nd == 1) else dim
        if isinstance(indices_or_sections, (int, np.integer)):
            k = int(indices_or_sections)
            size = input._value.shape[d]
            if k == 0 or size % k:
                raise RuntimeError(f"torch.{name} attempted to split along dimension {d}, but the size of the "
                                   f"dimension {size} is not divisible by the split_size {k}!")
        return FUNCS["tensor_split"](input, indices_or_sections, d)
    f.__name__ = name
    return f


hsplit = op("hsplit")(_dir_split("hsplit", 1, 1))
vsplit = op("vsplit")(_dir_split("vsplit", 0, 2))
dsplit = op("dsplit")(_dir_split("dsplit", 2, 3))


@op("column_stack", method=False)
def column_stack(tensors):
    ts = [t.reshape(-1, 1) if t._value.ndim <= 1 else t for t in tensors]
    return FUNCS["cat"](ts, 1)


@op("dstack", method=False)
def dstack(tensors):
    return FUNCS["cat"](list(FUNCS["atleast_3d"](*tensors)) if len(tensors) > 1 else
                        [FUNCS["atleast_3d"](tensors[0])], 2)


@op("diagflat")
def diagflat(input, offset=0):
    return FUNCS["diag"](input.reshape(-1), offset)


def _tri_indices(fn):
    def f(row, col, offset=0, *, dtype=None, device=None, layout=None):
        from .creation import tensor  # noqa: PLC0415

        if row < 0 or col < 0:
            raise RuntimeError(f"row must be non-negative, got {row}" if row < 0 else
                               f"col must be non-negative, got {col}")
        r, c = fn(int(row), int(offset), int(col))
        d = dtypes.int64 if dtype is None else dtype
        return tensor(np.stack([r, c]).astype(np.int64).reshape(2, -1), dtype=d, device=device)
    return f


tril_indices = op("tril_indices", method=False)(_tri_indices(np.tril_indices))
triu_indices = op("triu_indices", method=False)(_tri_indices(np.triu_indices))


@op("unravel_index", method=False)
def unravel_index(indices, shape):
    if not isinstance(indices, Tensor):
        from .creation import tensor  # noqa: PLC0415

        indices = tensor(indices)
    if indices._value.dtype.kind not in "iu":
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise RuntimeError("'shape' cannot have negative values, but got " + str(tuple(shape)))
    v = np.asarray(indices.tolist(), np.int64)
    out = []
    for n in reversed(shape):  # PyTorch's arithmetic: floor modulo, so indices out of range wrap
        out.append(v % n if n else v * 0)
        v = v // n if n else v * 0
    return tuple(_int_t(o, indices) for o in reversed(out))


@op("unique_consecutive")
def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Collapse runs of equal consecutive elements (along ``dim``, slices; else flattened)."""
    v = np.asarray(input.cpu()._value) if type(input._value) is not np.ndarray else input._value
    if dim is None:
        flat = v.reshape(-1)
        change = np.ones(flat.size, bool)
        change[1:] = flat[1:] != flat[:-1]
        vals = flat[change]
        inv_shape = v.shape
    else:
        d = _dim(dim, v.ndim)
        m = np.moveaxis(v, d, 0).reshape(v.shape[d], -1)
        change = np.ones(m.shape[0], bool)
        change[1:] = (m[1:] != m[:-1]).any(axis=1)
        vals = np.compress(change, v, axis=d)
        inv_shape = (v.shape[d],)
    starts = np.flatnonzero(change)
    res = [wrap(like(np.ascontiguousarray(vals), input._value))]
    if return_inverse:
        res.append(_int_t((np.cumsum(change) - 1).reshape(inv_shape), input))
    if return_counts:
        res.append(_int_t(np.diff(np.append(starts, change.size)), input))
    return res[0] if len(res) == 1 else tuple(res)


@op("msort")
def msort(input):
    return FUNCS["sort"](input, 0)[0]


@op("chain_matmul", method=False)
def chain_matmul(*matrices, out=None):
    warnings.warn("torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
                  "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than multiple "
                  "parameters.", UserWarning, stacklevel=2)
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for m in matrices:
        if m._value.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {m._value.ndim}, expected 2 instead.")
    if len(matrices) == 1:
        return matrices[0].clone()
    r = matrices[0]
    for m in matrices[1:]:
        r = FUNCS["mm"](r, m)
    return r


@op("combinations", method=False)
def combinations(input, r=2, with_replacement=False):
    if input._value.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    n = input._value.shape[0]
    gen = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    idx = np.array(list(gen(range(n), r)), np.int64).reshape(-1, r) if r else np.zeros((0, 0), np.int64)
    picked = FUNCS["index_select"](input, 0, _int_t(idx.reshape(-1) if r else np.zeros(0, np.int64), input))
    return picked.reshape(-1, r) if r else picked


@op("matrix_exp")
def matrix_exp(input):
    from ..scipy.linalg import expm  # noqa: PLC0415

    if input._value.ndim < 2 or input.shape[-1] != input.shape[-2]:
        raise RuntimeError(f"linalg.matrix_exp: A must be batches of square matrices, but they are "
                           f"{input.shape[-2] if input._value.ndim >= 2 else 0} by {input.shape[-1] if input._value.ndim else 0} matrices")
    if kind_of(input._value.dtype) not in "fc":
        raise RuntimeError(f"linalg.matrix_exp: Expected a floating point or complex tensor as input. Got {input.dtype}"
                           .replace("torch.", ""))
    if input._value.ndim == 2:
        return name_grad(expm(input), "LinalgMatrixExpBackward0")
    n = input.shape[-1]
    flat = input.reshape(-1, n, n)
    if flat.shape[0] == 0:
        return input.clone()
    return name_grad(FUNCS["stack"]([expm(a) for a in flat.unbind(0)]).reshape(input.shape), "LinalgMatrixExpBackward0")


@op("pdist", method=False)
def pdist(input, p=2):
    """Distances between each pair of rows of an (N, M) tensor: the upper triangle of cdist, row by row."""
    if input._value.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input._value.ndim}D")
    if kind_of(input._value.dtype) != "f":
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    from .ops_sequence import _pdist  # noqa: PLC0415

    n = input.shape[0]
    i, j = np.triu_indices(n, 1)
    a = FUNCS["index_select"](input, 0, _int_t(i, input))
    b = FUNCS["index_select"](input, 0, _int_t(j, input))
    return name_grad(_pdist(FUNCS["sub"](a, b), p), "PdistBackward0")


@op("poisson", method=False)
def poisson(input, generator=None):
    """Poisson draws with the element-wise rates of ``input`` (same dtype); zero gradient, as PoissonBackward0."""
    from .creation import _rng  # noqa: PLC0415

    buf = input._value
    if kind_of(buf.dtype) != "f":
        raise NotImplementedError(f'"poisson_cpu" not implemented for \'{input.dtype.legacy_name}\'')
    host = np.asarray(input.detach().cpu()._value)
    if host.size and bool(((host < 0) | np.isnan(host)).any()):
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    draws = wrap(like(np.asarray(_rng(generator).poisson(host), buf.dtype).reshape(buf.shape), buf))
    if input.requires_grad:
        never = wrap(xp_of(buf).zeros(buf.shape, np.bool_))
        return name_grad(FUNCS["where"](never, input, draws), "PoissonBackward0")
    return draws


@op("lu")
def lu(A, pivot=True, get_infos=False, out=None):
    """Deprecated ``torch.lu``: ``(LU, pivots[, infos])``, packed factors and 1-based int32 pivots of (batches
    of) square matrices (funcgrad.scipy.linalg.lu_factor per matrix; differentiable in A)."""
    from ..scipy.linalg import lu_factor  # noqa: PLC0415

    warnings.warn("torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be "
                  "removed in a future PyTorch release.", UserWarning, stacklevel=2)
    if not pivot:
        raise RuntimeError("lu without pivoting is not implemented on the CPU")
    nd = A._value.ndim
    if nd < 2:
        raise RuntimeError("linalg.lu_factor: The input tensor A must have at least 2 dimensions.")
    if kind_of(A._value.dtype) not in "fc":
        raise RuntimeError(f"linalg.lu_factor: Expected a floating point or complex tensor as input. Got {A.dtype}"
                           .replace("torch.", ""))
    m, n = A.shape[-2], A.shape[-1]
    if m != n:
        raise RuntimeError(f"linalg.lu_factor: A must be batches of square matrices, but they are {m} by {n} matrices")
    batch = tuple(A.shape[:-2])
    mats = A.reshape(-1, n, n).unbind(0) if n else ()
    lus, pivs, infos = [], [], []
    for a in mats:
        f, p = lu_factor(a)
        lus.append(f)
        pivs.append(np.asarray(p.cpu()._value if isinstance(p, Tensor) else p, np.int64) + 1)
        d = np.abs(np.diagonal(np.asarray(f.detach().cpu()._value)))
        infos.append(int(np.flatnonzero(d == 0)[0]) + 1 if (d == 0).any() else 0)
    if lus:
        packed = FUNCS["stack"](lus).reshape(A.shape)
    else:
        packed = A.clone()
    piv = wrap(like(np.array(pivs, np.int32).reshape(batch + (n,)), A._value))
    if get_infos:
        return packed, piv, wrap(like(np.array(infos, np.int32).reshape(batch), A._value))
    return name_grad(packed, "LinalgLuFactorExBackward0"), piv
