"""The declarative table behind the registry-driven primitive tests.

A :class:`Spec` names the primitives it exercises, a function written with
funcgrad.numpy, and a Hypothesis strategy drawing ``(arrays, kwargs)``:
``arrays`` (host numpy data; the test places them on the device under test,
sometimes as strided views) are what derivatives are checked against;
``kwargs`` hold everything non-differentiable (masks, indices, axes).

Add specs in a module of ``tests/primitives/specs/`` as a module-level
``SPECS`` list; :data:`ALL_SPECS` collects every such module.  A spec named in
a module's ``COMPLEX_VARIANTS`` also runs as ``NAME[complex]``: the same draws
with an imaginary part (in [-0.5, 0.5]: away from the branch points at +-i) added to every floating-point array, so the
rules are checked on complex inputs (both real directions, to the same order).
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from typing import Any, Callable

import hypothesis.strategies as st
import numpy as np

from funcgrad.testing import strategies as fst


@dataclasses.dataclass(frozen=True)
class Spec:
    name: str
    prims: tuple
    fn: Callable
    args: Any  # strategy of (tuple of host arrays, dict of kwargs)
    differentiable: bool = True
    order: int = 2
    tol: dict = dataclasses.field(default_factory=dict)
    noncontiguous: bool = True
    few_draws: bool = False  # expensive impls (scipy's logm): a handful of draws only

    def __repr__(self):
        return self.name


def no_kwargs(arrays_strategy):
    return arrays_strategy.map(lambda arrays: (tuple(arrays), {}))


def floats_of(shape, low=-2.0, high=2.0, avoid=(), dtype=np.float64):
    return fst.host_arrays(shape, dtype, fst.floats(low, high, avoid, width=np.dtype(dtype).itemsize * 8))


def unary(low=-2.0, high=2.0, avoid=(), shapes=None):
    return no_kwargs(st.tuples(floats_of(shapes or fst.shapes(), low, high, avoid)))


@st.composite
def binary_broadcast(draw, low=-2.0, high=2.0, low2=None, high2=None, avoid2=()):
    s1, s2 = draw(fst.mutually_broadcastable_shapes(2))
    a = draw(floats_of(s1, low, high))
    b = draw(floats_of(s2, low if low2 is None else low2, high if high2 is None else high2, avoid2))
    return (a, b), {}


@st.composite
def with_imaginary_parts(draw, args, low=-0.5, high=0.5):
    """``args``' draws with ``1j * y`` added to every float array (float32 -> complex64).

    y avoids 0: a value with an exactly zero imaginary part is where LAPACK's complex QR
    switches branch (it skips a reflection), which finite differences would straddle.
    """
    arrays, kwargs = draw(args)
    out = []
    for a in arrays:
        if a.dtype.kind == "f":
            y = draw(floats_of(a.shape, low, high, avoid=(0.0,), dtype=a.dtype))
            a = (a + 1j * y).astype(np.result_type(a.dtype, np.complex64))
        out.append(a)
    return tuple(out), kwargs


def complex_variant(spec):
    return dataclasses.replace(spec, name=f"{spec.name}[complex]", args=with_imaginary_parts(spec.args))


def _collect():
    from . import specs

    out, complex_names = [], set()
    for mod in pkgutil.iter_modules(specs.__path__):
        m = importlib.import_module(f"{specs.__name__}.{mod.name}")
        out.extend(getattr(m, "SPECS", []))
        complex_names.update(getattr(m, "COMPLEX_VARIANTS", ()))
    unknown = complex_names - {s.name for s in out}
    if unknown:
        raise ValueError(f"COMPLEX_VARIANTS names no spec: {sorted(unknown)}")
    variants = [complex_variant(s) for s in out if s.name in complex_names]
    names = [s.name for s in out]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise ValueError(f"duplicate spec names: {sorted(dup)}")
    return out, variants


ALL_SPECS, COMPLEX_SPECS = _collect()  # COMPLEX_SPECS: the NAME[complex] variants
