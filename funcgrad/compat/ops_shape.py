"""Views and shape ops: view/reshape/squeeze/unsqueeze/t/transpose/permute/expand/narrow/
unfold/select, contiguous, clone, repeat, cat/stack/split/chunk, flip, flatten.

View ops bind the core's shape primitives (their vjp rules give the gradients)
with ``view_of``: the result keeps the impl's numpy view of the input's storage
and shares its version counter.
"""

from __future__ import annotations

import numpy as np

from ..primitives import shape as sh
from ..primitives.elementwise import convert_p
from ..primitives.index import getitem_p
from . import dtypes
from .dtypes import buf_of
from . import _validate as check
from ._dispatch import apply, cast, ints, method, name_grad, norm_dim, op
from .autograd.graph import link_view
from .device import like, xp_of
from .tensor import Tensor, _dim, wrap


def _view(prim, x, name, **params):
    r = apply(prim, x, **params)
    return name_grad(r, name)


def _resolve(shape, size):
    shape = list(shape)
    if any(d < -1 for d in shape):
        raise RuntimeError(f"invalid shape dimension {min(shape)}")
    neg = [i for i, d in enumerate(shape) if d == -1]
    if len(neg) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = int(np.prod([d for d in shape if d != -1], dtype=np.int64))
    if neg:
        if known == 0 or size % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {size}")
        shape[neg[0]] = size // known
    elif known != size:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {size}")
    return tuple(shape)


def _viewable(buf, shape):
    """Whether ``buf`` can take ``shape`` without a copy (numpy's rule, from shape and strides only); a
    transformation's tracer (torch.func, compile) has no strides: its values reshape freely."""
    if not hasattr(buf, "strides"):
        return True
    probe = buf.view() if type(buf) is np.ndarray else \
        np.lib.stride_tricks.as_strided(np.zeros(1, buf.dtype), buf.shape, buf.strides)
    try:
        probe.shape = shape
    except AttributeError:
        return False
    return True


@method("view")
def view(self, *shape):
    if len(shape) == 1 and isinstance(shape[0], (dtypes.dtype, type)) or (len(shape) == 1 and isinstance(shape[0], str)):
        d = dtypes.as_dtype(shape[0]).dtype
        return wrap(self._value.view(d))
    shape = _resolve(ints(shape), self._value.size)
    if not _viewable(self._value, shape):
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one dimension spans "
            "across two contiguous subspaces). Use .reshape(...) instead.") from None
    return _view(sh.reshape_p, self, "ViewBackward0", shape=shape)


@op("reshape")
def reshape(input, *shape):
    shape = _resolve(ints(shape), buf_of(input).size)
    if not isinstance(input, Tensor) or not _viewable(input._value, shape):  # (a funcgrad tracer: no views)
        return name_grad(apply(sh.reshape_p, input, shape=shape), "ReshapeAlias0")  # a copy
    return _view(sh.reshape_p, input, "ViewBackward0", shape=shape)


@method("view_as")
def view_as(self, other):
    return view(self, tuple(other.shape))


@method("reshape_as")
def reshape_as(self, other):
    return reshape(self, tuple(other.shape))


@op("squeeze")
def squeeze(input, dim=None):
    s = buf_of(input).shape
    if dim is None:
        new = tuple(d for d in s if d != 1)
    else:
        dims = norm_dim(dim, len(s))
        dims = dims if isinstance(dims, tuple) else (dims,)
        new = tuple(d for i, d in enumerate(s) if not (i in dims and d == 1))
    return _view(sh.reshape_p, input, "SqueezeBackward0", shape=new)


@op("unsqueeze")
def unsqueeze(input, dim):
    s = list(buf_of(input).shape)
    d = _dim(dim, len(s) + 1)
    s.insert(d, 1)
    return _view(sh.reshape_p, input, "UnsqueezeBackward0", shape=tuple(s))


@op("flatten")
def flatten(input, start_dim=0, end_dim=-1):
    s = buf_of(input).shape
    if not s:
        return reshape(input, (1,))
    a, b = _dim(start_dim, len(s)), _dim(end_dim, len(s))
    new = s[:a] + (int(np.prod(s[a:b + 1], dtype=np.int64)),) + s[b + 1:]
    return reshape(input, new)


@op("ravel")
def ravel(input):
    return reshape(input, (-1,))


@op("permute")
def permute(input, *dims):
    dims = ints(dims, "permute", "dims")
    nd = buf_of(input).ndim
    if len(dims) != nd:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not match the length "
                           f"of the desired ordering of dimensions i.e. input.dim() = {nd} is not equal to len(dims) = {len(dims)}")
    perm = tuple(_dim(d, nd) for d in dims)
    if sorted(perm) != list(range(nd)):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return _view(sh.transpose_p, input, "PermuteBackward0", perm=perm)


@op("transpose", "swapaxes", "swapdims")
def transpose(input, dim0, dim1):
    nd = buf_of(input).ndim
    perm = list(range(nd))
    a, b = _dim(dim0, nd), _dim(dim1, nd)
    perm[a], perm[b] = perm[b], perm[a]
    return _view(sh.transpose_p, input, "TransposeBackward0", perm=tuple(perm))


@op("t")
def t(input):
    nd = buf_of(input).ndim
    if nd > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {nd}D")
    if nd < 2:
        return _view(sh.reshape_p, input, "TBackward0", shape=buf_of(input).shape)
    return _view(sh.transpose_p, input, "TBackward0", perm=(1, 0))


@op("movedim", "moveaxis")
def movedim(input, source, destination):
    nd = buf_of(input).ndim
    src = check.dims(source if isinstance(source, (list, tuple)) else (source,), nd, "movedim", "source")
    dst = check.dims(destination if isinstance(destination, (list, tuple)) else (destination,), nd, "movedim",
                     "destination")
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(src)} dims) should contain "
                           f"the same number of dims as destination ({list(dst)} dims)")
    order = [n for n in range(nd) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return permute(input, order)


@method("expand")
def expand(self, *sizes):
    sizes = ints(sizes)
    s = self._value.shape
    if len(sizes) < len(s):
        raise RuntimeError(f"expand(torch.FloatTensor{{{list(s)}}}, size={list(sizes)}): the number of sizes provided "
                           f"({len(sizes)}) must be greater or equal to the number of dimensions in the tensor ({len(s)})")
    lead = len(sizes) - len(s)
    new = []
    for i, n in enumerate(sizes):
        if i < lead:
            if n < 0:
                raise RuntimeError("expand: -1 is not allowed in a leading, non-existing dimension")
            new.append(n)
        else:
            old = s[i - lead]
            n = old if n == -1 else n
            if old != 1 and n != old:
                raise RuntimeError(f"The expanded size of the tensor ({n}) must match the existing size ({old}) at "
                                   f"non-singleton dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: {list(s)}")
            new.append(n)
    return _view(sh.broadcast_to_p, self, "ExpandBackward0", shape=tuple(new))


@method("expand_as")
def expand_as(self, other):
    return expand(self, tuple(other.shape))


@op("broadcast_to")
def broadcast_to(input, size):
    return expand(input, tuple(size))


def _getview(x, template, name):
    return _view(getitem_p, x, name, template=template)


@op("narrow")
def narrow(input, dim, start, length):
    nd = buf_of(input).ndim
    d = _dim(dim, nd, "narrow")
    n = buf_of(input).shape[d]
    start = check.int_arg(start, "narrow", "start", 2)
    length = check.non_negative(length, "narrow", "length", "narrow(): length must be non-negative.")
    if start < 0:
        start += n
    if not (0 <= start and start + length <= n):
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({n}).")
    tpl = (slice(None),) * d + (slice(start, start + length, None),)
    return _getview(input, tpl, "NarrowBackward0")


@op("select")
def select(input, dim, index):
    nd = buf_of(input).ndim
    d = _dim(dim, nd)
    n = buf_of(input).shape[d]
    if not -n <= index < n:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(input.shape)} at dimension {d}")
    return _getview(input, (slice(None),) * d + (int(index) % n,), "SelectBackward0")


@method("unfold")
def unfold(self, dimension, size, step):
    """Sliding windows along ``dimension`` as a new last dimension (a view of the storage)."""
    v = self._value
    d = _dim(dimension, v.ndim, "unfold", "dimension")
    size = check.non_negative(size, "unfold", "size", f"size is {size} but must be >= 0")
    step = check.positive(step, "unfold", "step", f"step is {step} but must be > 0")
    n = (v.shape[d] - size) // step + 1 if v.ndim else 1
    if n < 0 or size > (v.shape[d] if v.ndim else 1):
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {v.shape[d]} but size is {size}")
    starts = np.arange(n) * step
    idx = starts[:, None] + np.arange(size)[None, :]
    tpl_idx = (slice(None),) * d + (wrap(like(idx, v)),)
    from ..primitives.index import parse_index  # noqa: PLC0415

    template, arrays = parse_index(tpl_idx, v.ndim)
    r = apply(getitem_p, self, *arrays, template=template)  # shape: ..., n, size, ... (gather)
    r = movedim(r, d + 1, -1) if v.ndim else r
    strides = v.strides[:d] + (v.strides[d] * step,) + v.strides[d + 1:] + (v.strides[d],)
    shape = v.shape[:d] + (n,) + v.shape[d + 1:] + (size,)
    r._value = xp_of(v).lib.stride_tricks.as_strided(v, shape, strides)  # same values, sharing storage
    link_view(r, self)
    return name_grad(r, "UnfoldBackward0")


@method("contiguous")
def contiguous(self, memory_format=None):
    flags = getattr(self._value, "flags", None)  # a transformation's tracer (torch.func, compile) has no layout
    if flags is None or (memory_format is None and flags.c_contiguous):
        return self
    from .memory_format import contiguous_as, contiguous_format  # noqa: PLC0415

    return contiguous_as(self, contiguous_format if memory_format is None else memory_format)


@op("clone")
def clone(input, *, memory_format=None):
    """A copy in ``memory_format``: preserve_format (the default) keeps a dense tensor's strides."""
    from .memory_format import check_format, copy_as  # noqa: PLC0415

    if memory_format is not None:
        check_format(memory_format, "clone")
    if input.requires_grad:
        r = apply(convert_p, input, dtype=buf_of(input).dtype)  # a copy (results own their storage)
        if memory_format is not None or not input._value.flags.c_contiguous:
            r._value = copy_as(input._value, memory_format)
        return name_grad(r, "CloneBackward0")
    return wrap(copy_as(input._value, memory_format))


@method("repeat")
def repeat(self, *sizes):
    sizes = ints(sizes)
    if len(sizes) < self._value.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    x = self
    lead = len(sizes) - buf_of(x).ndim
    x = reshape(x, (1,) * lead + tuple(buf_of(x).shape))
    for d, k in enumerate(sizes):
        if k != 1:
            x = cat([x] * k, d) if k > 0 else narrow(x, d, 0, 0)
    return name_grad(x if x is not self else clone(x), "RepeatBackward0")


@op("cat", "concat", "concatenate", method=False)
def cat(tensors, dim=0, *, out=None):
    ts = check.tensor_list(tensors, "cat")
    if not ts:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    dim = check.int_arg(dim, "cat", "dim")
    for i, x in enumerate(ts):
        if buf_of(x).ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    full = [x for x in ts if not (buf_of(x).ndim == 1 and buf_of(x).shape[0] == 0)]  # (legacy: skipped)
    if not full:  # only empty 1-d tensors: PyTorch returns an empty one, whatever the dim
        d, ts = 0, ts[:1]
    else:
        d, ts = _dim(dim, buf_of(full[0]).ndim, "cat"), full
    npd = dtypes.result_np(*ts)
    ts = [cast(x, npd) for x in ts]
    for x in ts[1:]:
        if buf_of(x).ndim != buf_of(ts[0]).ndim or any(a != b for i, (a, b) in enumerate(zip(buf_of(x).shape, buf_of(ts[0]).shape)) if i != d):
            raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size "
                               f"{list(ts[0].shape)} but got size {list(x.shape)} for a tensor in the list.")
    return name_grad(apply(sh.concatenate_p, *ts, axis=d), "CatBackward0")


@op("stack", method=False)
def stack(tensors, dim=0, *, out=None):
    ts = check.tensor_list(tensors, "stack")
    if not ts:
        raise RuntimeError("stack expects a non-empty TensorList")
    for x in ts[1:]:
        if x.shape != ts[0].shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(ts[0].shape)} at entry 0 "
                               f"and {list(x.shape)} at entry {ts.index(x)}")
    d = _dim(dim, buf_of(ts[0]).ndim + 1)
    return name_grad(cat([unsqueeze(x, d) for x in ts], d), "StackBackward0")


op("hstack", method=False)(lambda tensors: cat(tensors, 0 if tensors[0].dim() == 1 else 1))
op("vstack", method=False)(lambda tensors: cat([x if x.dim() > 1 else unsqueeze(x, 0) for x in tensors], 0))


@op("meshgrid", method=False)
def meshgrid(*tensors, indexing=None):
    """Coordinate grids (expanded views) of 0-d/1-d tensors; ``indexing='ij'`` (the default, with
    PyTorch's warning when not given) or ``'xy'`` (the first two dimensions swapped)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        import warnings  # noqa: PLC0415

        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                      UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {indexing}")
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t.dim()}D")
        if t.dtype != tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    ts = [t.reshape(-1) for t in tensors]
    swap = indexing == "xy" and len(ts) >= 2  # 'xy' is 'ij' of (y, x, ...) with the first two grids swapped
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = tuple(t.shape[0] for t in ts)
    n = len(ts)
    grids = [t.view(*[-1 if j == i else 1 for j in range(n)]).expand(*shape) for i, t in enumerate(ts)]
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


@op("split")
def split(tensor, split_size_or_sections, dim=0):
    d = _dim(dim, buf_of(tensor).ndim, "split")
    n = buf_of(tensor).shape[d]
    if not isinstance(split_size_or_sections, (list, tuple)):
        if not isinstance(split_size_or_sections, int) or isinstance(split_size_or_sections, bool):
            # (PyTorch: a size that is not a Python int is taken as a list of sizes, and refused)
            raise TypeError(f"split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, not "
                            f"{type(split_size_or_sections).__name__}")
        k = check.non_negative(split_size_or_sections, "split", "split_size",
                               f"split expects split_size be non-negative, but got split_size={split_size_or_sections}")
        if k == 0 and n:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}")
        sizes = ([min(k, n - s) for s in range(0, n, k)] if k else []) or [0]
    else:
        sizes = list(ints((split_size_or_sections,), "split_with_sizes", "split_sizes"))
        if sum(sizes) != n:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at "
                               f"dimension {d}), but got split_sizes={sizes}")
    out, s = [], 0
    for k in sizes:
        out.append(narrow(tensor, d, s, k))
        s += k
    return tuple(out)


@op("chunk")
def chunk(input, chunks, dim=0):
    chunks = check.positive(chunks, "chunk", "chunks", f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    n = buf_of(input).shape[_dim(dim, buf_of(input).ndim, "chunk")]
    k = -(-n // chunks) if n else 1
    return split(input, k, dim)


@op("unbind")
def unbind(input, dim=0):
    d = _dim(dim, buf_of(input).ndim)
    return tuple(select(input, d, i) for i in range(buf_of(input).shape[d]))


@op("flip")
def flip(input, dims):
    dims = check.dims(dims if isinstance(dims, (list, tuple)) else (dims,), buf_of(input).ndim, "flip", "dims")
    from ..primitives.index import parse_index  # noqa: PLC0415

    r = input
    for dd in (dims if buf_of(input).ndim else ()):  # (a 0-d tensor has nothing to flip)
        idx = (slice(None),) * dd + (wrap(like(np.arange(buf_of(input).shape[dd])[::-1].copy(), input._value)),)
        template, arrays = parse_index(idx, buf_of(input).ndim)
        r = apply(getitem_p, r, *arrays, template=template)
    return name_grad(r if r is not input else clone(input), "FlipBackward0")


@op("roll")
def roll(input, shifts, dims=None):
    if dims is None:
        return view(roll(flatten(input), shifts, 0), tuple(input.shape))
    shifts = ints((shifts,) if not isinstance(shifts, (list, tuple)) else shifts, "roll", "shifts")
    dims = ints((dims,) if not isinstance(dims, (list, tuple)) else dims, "roll", "dims")
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    r = input
    for s, d in zip(shifts, dims):
        d = _dim(d, buf_of(input).ndim)
        n = buf_of(input).shape[d]
        idx = (slice(None),) * d + (wrap(like((np.arange(n) - s) % n, input._value)),)
        from ..primitives.index import parse_index  # noqa: PLC0415

        template, arrays = parse_index(idx, buf_of(input).ndim)
        r = apply(getitem_p, r, *arrays, template=template)
    return name_grad(r, "RollBackward0")


