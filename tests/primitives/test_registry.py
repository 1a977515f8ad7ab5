"""Every registered primitive: shape rule vs impl, and (if differentiable) vjp and jvp
against central finite differences up to second order, on Hypothesis-drawn shapes
(broadcasting, 0-d, size 0, negative axes, non-contiguous buffers), on every backend."""

import functools

import hypothesis.strategies as st
import pytest
from hypothesis import given, settings

import funcgrad as fg
from funcgrad.backend import NoDeviceImplementationError
from funcgrad.core import REGISTRY
from funcgrad.testing import check_grads, check_shape_rules
from funcgrad.testing.strategies import to_device

from .spec import ALL_SPECS, COMPLEX_SPECS

# funcgrad's own primitives (tests define some of their own, some at import time)
BUILTIN_PRIMITIVES = {n: p for n, p in REGISTRY.items() if getattr(p.impl, "__module__", "").startswith("funcgrad")}


def _run(spec, data, device, order):
    prev = fg.set_default_device(device)
    try:
        host, kwargs = data.draw(spec.args, label="args")
        strided = data.draw(st.lists(st.booleans(), min_size=len(host), max_size=len(host)), label="strided") \
            if spec.noncontiguous else [False] * len(host)
        args = tuple(to_device(h, noncontiguous=s) for h, s in zip(host, strided))
        f = functools.partial(spec.fn, **kwargs)
        try:
            seen = check_shape_rules(f, *args)
        except NoDeviceImplementationError as e:  # documented: cupyx lacks it (docs/backends.md)
            pytest.skip(f"{spec.name} on {device}: {e}")
        missing = set(spec.prims) - set(seen)
        assert not missing, f"spec {spec.name} did not exercise {sorted(missing)} (saw {sorted(set(seen))})"
        if spec.differentiable:
            check_grads(f, args, order=order, modes=("fwd", "rev"), **spec.tol)
    finally:
        fg.set_default_device(prev)


@pytest.mark.parametrize("spec", [s for s in ALL_SPECS if not s.few_draws], ids=lambda s: s.name)
@given(data=st.data())
def test_primitive_cpu(spec, data):
    _run(spec, data, "cpu", spec.order)


@pytest.mark.parametrize("spec", [s for s in ALL_SPECS if s.few_draws], ids=lambda s: s.name)
@settings(max_examples=3)
@given(data=st.data())
def test_primitive_cpu_few_draws(spec, data):
    """Specs whose impl is slow (Spec.few_draws): the same checks on fewer draws."""
    _run(spec, data, "cpu", spec.order)


@pytest.mark.parametrize("spec", ALL_SPECS, ids=lambda s: s.name)
@settings(max_examples=4)
@given(data=st.data())
def test_primitive_standin(spec, data):
    """The same on the strict stand-in backend: catches impls that hard-code numpy."""
    _run(spec, data, "standin", 1)


@pytest.mark.parametrize("spec", COMPLEX_SPECS, ids=lambda s: s.name)
@settings(max_examples=2)
@given(data=st.data())
def test_primitive_complex_cpu(spec, data):
    """The specs of specs/complex_inputs.py's COMPLEX_VARIANTS with complex arguments (fewer draws:
    the real draws already cover the shapes and the stand-in backend), to the spec's order
    in both modes.  ``--hypothesis-profile thorough`` draws more."""
    _run(spec, data, "cpu", spec.order)


@pytest.mark.skipif(not fg.cuda_available(), reason="no GPU (cupy sees no CUDA device)")
@pytest.mark.parametrize("spec", ALL_SPECS, ids=lambda s: s.name)
@settings(max_examples=4)
@given(data=st.data())
def test_primitive_cuda(spec, data):
    """The same on the GPU (cupy), where one is present."""
    _run(spec, data, "cuda", 1)


def test_every_primitive_is_covered_and_has_both_rules():
    covered = {p for s in ALL_SPECS for p in s.prims}
    problems = []
    for name, prim in BUILTIN_PRIMITIVES.items():
        if name not in covered:
            problems.append(f"{name}: no spec in tests/primitives/specs exercises it")
        if prim.differentiable:
            if prim.vjps is None and prim.vjp_all is None:
                problems.append(f"{name}: differentiable but has no vjp rule (declare differentiable=False?)")
            if prim.jvps is None and prim.jvp_all is None:
                problems.append(f"{name}: differentiable but has no jvp rule")
        if prim.abstract is None:
            problems.append(f"{name}: no shape rule")
    assert not problems, "\n".join(problems)
