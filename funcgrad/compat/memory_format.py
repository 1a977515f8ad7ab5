"""Memory formats: torch.contiguous_format / channels_last / channels_last_3d / preserve_format.

A compat tensor's storage is a numpy/cupy buffer with real strides, so a memory format is a real
layout, not a flag: channels_last stores an (N, C, H, W) tensor as N, H, W, C in memory (strides
(HWC, 1, WC, C)), exactly as PyTorch does. ``relayout(buf, fmt)`` returns a copy of ``buf`` with
the same values laid out in ``fmt``; ``is_laid_out(buf, fmt)`` is PyTorch's
``is_contiguous(memory_format=)`` test (size-1 dimensions do not count, like PyTorch's);
``preserved(buf)`` is the layout ``clone()``/``empty_like()`` keep by default (preserve_format).
"""

from __future__ import annotations

from ._dispatch import method


class memory_format:
    """``torch.memory_format``: the layout a tensor's elements take in its storage."""

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return "torch." + self._name

    def __reduce__(self):
        return (_by_name, (self._name,))


def _by_name(name):
    return _FORMATS[name]


contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
preserve_format = memory_format("preserve_format")
legacy_contiguous_format = contiguous_format  # the same object in PyTorch
_FORMATS = {f._name: f for f in (contiguous_format, channels_last, channels_last_3d, preserve_format)}

# outermost-to-innermost order of the dimensions in storage, per rank-bound format
_ORDER = {channels_last: (4, (0, 2, 3, 1)), channels_last_3d: (5, (0, 2, 3, 4, 1))}


def check_format(fmt, fn):
    """``fmt`` itself (None is ``default``), or TypeError naming ``fn`` like PyTorch's argument parser."""
    if not isinstance(fmt, memory_format):
        raise TypeError(f"{fn}(): argument 'memory_format' must be torch.memory_format, not {type(fmt).__name__}")
    return fmt


def _order(fmt, ndim):
    rank, order = _ORDER[fmt]
    if ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {fmt._name} format")
    return order


def is_laid_out(buf, fmt):
    """True when ``buf``'s strides are those of ``fmt`` (dimensions of size 1 are free, as in PyTorch)."""
    if fmt not in _ORDER:
        return bool(buf.flags.c_contiguous)
    rank, order = _ORDER[fmt]
    if buf.ndim != rank:
        return False
    if buf.size == 0:
        return True
    isz, expected = buf.dtype.itemsize, 1
    for d in reversed(order):
        if buf.shape[d] != 1:
            if buf.strides[d] != expected * isz:
                return False
            expected *= buf.shape[d]
    return True


def relayout(buf, fmt):
    """A copy of ``buf`` laid out in ``fmt`` (contiguous_format or a channels-last format)."""
    if fmt not in _ORDER:
        return buf.copy(order="C")
    order = _order(fmt, buf.ndim)
    inverse = tuple(order.index(d) for d in range(buf.ndim))
    return buf.transpose(order).copy(order="C").transpose(inverse)


def _dense(buf):
    """Non-overlapping and dense: some permutation of the dimensions is C-contiguous."""
    dims = sorted((d for d in range(buf.ndim) if buf.shape[d] != 1), key=lambda d: buf.strides[d])
    expected = buf.dtype.itemsize
    for d in dims:
        if buf.strides[d] != expected:
            return False
        expected *= buf.shape[d]
    return True


def _strides_like_channels_last(buf):
    """PyTorch's ``is_channels_last_strides_2d/3d``: strides ordered like channels_last(_3d)."""
    if buf.ndim not in (4, 5):
        return False
    order = _ORDER[channels_last if buf.ndim == 4 else channels_last_3d][1]
    smallest = 0
    for d in reversed(order):
        if buf.shape[d] == 0 or buf.strides[d] < smallest:
            return False
        if d == 0 and smallest == buf.strides[1]:
            return False
        smallest = buf.strides[d] * (buf.shape[d] if buf.shape[d] > 1 else 1)
    return True


def suggested(buf):
    """The format PyTorch's ``suggest_memory_format`` picks for ``buf``."""
    if _strides_like_channels_last(buf) and not buf.flags.c_contiguous:
        return channels_last if buf.ndim == 4 else channels_last_3d
    return contiguous_format


def preserved(buf):
    """A copy of ``buf`` in the layout preserve_format keeps: its own strides when dense, else
    channels_last when its strides suggest it, else contiguous."""
    if _dense(buf):
        return buf.copy(order="K")
    return relayout(buf, suggested(buf))


def copy_as(buf, fmt):
    """A copy of ``buf`` in ``fmt``, where ``preserve_format`` (and None) keep ``buf``'s layout."""
    if fmt is None or fmt is preserve_format:
        return preserved(buf)
    return relayout(buf, fmt)


def laid_out_like(buf, src, fmt):
    """``buf`` (a fresh C-ordered buffer of ``src``'s shape) re-laid in ``fmt``, where preserve_format
    takes ``src``'s layout: what ``empty_like``/``zeros_like``/... return."""
    fmt = preserve_format if fmt is None else check_format(fmt, "empty_like")
    if fmt is preserve_format:
        if src.ndim == 0 or src.flags.c_contiguous:
            return buf
        if _dense(src):
            order = sorted(range(src.ndim), key=lambda d: (-src.strides[d], d))
            inverse = tuple(order.index(d) for d in range(src.ndim))
            return buf.transpose(order).copy(order="C").transpose(inverse)
        fmt = suggested(src)
    return buf if fmt is contiguous_format else relayout(buf, fmt)


@method("is_contiguous")
def is_contiguous(self, memory_format=contiguous_format):
    return is_laid_out(self._value, check_format(memory_format, "is_contiguous"))


def contiguous_as(x, fmt, fn="contiguous"):
    """``x`` itself when already laid out in ``fmt``, else a differentiable copy (CloneBackward0) in it."""
    from .ops_shape import clone  # noqa: PLC0415

    fmt = check_format(fmt, fn)
    if fmt is preserve_format:
        return x
    if fmt in _ORDER:
        _order(fmt, x._value.ndim)
    if is_laid_out(x._value, fmt):
        return x
    return clone(x, memory_format=fmt)
