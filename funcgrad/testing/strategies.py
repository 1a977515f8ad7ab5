"""Hypothesis strategies for funcgrad arrays (needs ``hypothesis``: ``pip install funcgrad[dev]``).

Arrays are drawn as numpy data, then placed on funcgrad's default device at
draw time (so a suite run with the stand-in or a GPU as default draws there),
and, with ``noncontiguous=True``, sometimes as strided views.
"""

from __future__ import annotations

import numpy as np

try:
    import hypothesis.extra.numpy as hnp
    import hypothesis.strategies as st
except ImportError as e:  # pragma: no cover - exercised only without hypothesis
    raise ImportError(
        "funcgrad.testing.strategies needs hypothesis: pip install 'funcgrad[dev]'"
    ) from e

from .. import backend
from ..core import Array

__all__ = [
    "shapes", "broadcastable_shapes", "mutually_broadcastable_shapes", "floats", "host_arrays",
    "arrays", "to_device", "axes", "differentiable_floats", "pytrees",
]


def shapes(min_dims=0, max_dims=3, min_side=0, max_side=4):
    """Array shapes, including 0-d (``()``) and, with min_side=0, size-0 arrays."""
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side)


@st.composite
def broadcastable_shapes(draw, shape):
    """Shapes that broadcast *to* ``shape``: some leading dims dropped, some dims set to 1."""
    shape = tuple(shape)
    drop = draw(st.integers(0, len(shape)))
    kept = shape[drop:]
    ones = draw(st.lists(st.booleans(), min_size=len(kept), max_size=len(kept)))
    return tuple(1 if o else d for d, o in zip(kept, ones))


def mutually_broadcastable_shapes(num_shapes, min_dims=0, max_dims=3, min_side=0, max_side=4):
    """Tuples of ``num_shapes`` shapes that broadcast together (input_shapes only)."""
    return hnp.mutually_broadcastable_shapes(
        num_shapes=num_shapes, min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
    ).map(lambda bs: bs.input_shapes)


def floats(low=-3.0, high=3.0, avoid=(), margin=1e-2, width=64):
    """Finite floats in [low, high], at least ``margin`` away from each point in ``avoid``.

    Use ``avoid`` for points where the function under test is not smooth
    (abs at 0, a kink of relu, a pole), so finite differences stay valid.
    """
    s = st.floats(low, high, allow_nan=False, allow_infinity=False, width=width)
    if avoid:
        s = s.filter(lambda v: all(abs(v - a) >= margin for a in avoid))
    return s


def differentiable_floats(low=-3.0, high=3.0, smooth=None, width=64):
    """Floats where a function is smooth: ``smooth(v) -> bool`` says where it is.

    Example: ``differentiable_floats(smooth=lambda v: abs(v - round(v)) > 0.01)``
    for a function with kinks at the integers.
    """
    s = st.floats(low, high, allow_nan=False, allow_infinity=False, width=width)
    return s if smooth is None else s.filter(smooth)


def pytrees(leaves, max_leaves=6):
    """Pytrees (nested tuples, lists, dicts with str keys, None) whose leaves come from ``leaves``."""
    containers = lambda children: st.one_of(  # noqa: E731
        st.tuples(children, children),
        st.lists(children, max_size=3),
        st.dictionaries(st.text("abcdef", min_size=1, max_size=3), children, max_size=3),
    )
    return st.recursive(st.one_of(leaves, st.none()), containers, max_leaves=max_leaves)


def host_arrays(shape, dtype=np.float64, elements=None):
    """numpy arrays of ``shape`` (a shape or a strategy of shapes)."""
    if elements is None:
        elements = floats(width=np.dtype(dtype).itemsize * 8) if np.dtype(dtype).kind == "f" else None
    return hnp.arrays(dtype=dtype, shape=shape, elements=elements)


def to_device(host, noncontiguous=False, device=None):
    """A funcgrad Array with ``host``'s values on ``device`` (default: the default device).

    ``noncontiguous=True`` (for ndim >= 1 and size > 0) backs it with a strided view.
    """
    dev = backend.get_device(device)
    host = np.asarray(host)
    if noncontiguous and host.ndim >= 1 and host.size > 0:
        big = np.zeros(host.shape[:-1] + (2 * host.shape[-1],), host.dtype)
        big[..., ::2] = host
        return Array._from_buffer(backend.put_buffer(big, dev)[..., ::2])  # a strided view on the device
    return Array(host, device=dev)


def arrays(dtype=np.float64, shape=None, elements=None, noncontiguous=True):
    """funcgrad Arrays on the default device; ``shape`` defaults to :func:`shapes`."""
    shape = shapes() if shape is None else shape
    return st.tuples(host_arrays(shape, dtype, elements), st.booleans() if noncontiguous else st.just(False)).map(
        lambda hc: to_device(hc[0], noncontiguous=hc[1])
    )


@st.composite
def axes(draw, ndim, allow_none=True, allow_tuple=True, allow_negative=True):
    """A valid ``axis`` argument for an array of ``ndim`` dims (int, tuple or None)."""
    options = []
    if allow_none:
        options.append(st.none())
    if ndim > 0:
        lo = -ndim if allow_negative else 0
        options.append(st.integers(lo, ndim - 1))
        if allow_tuple:
            options.append(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim).map(
                lambda a: tuple(x - ndim if allow_negative and i % 2 else x for i, x in enumerate(a))))
    elif allow_tuple:
        options.append(st.just(()))
    return draw(st.one_of(options))
