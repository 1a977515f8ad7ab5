"""vmap of every primitive equals a loop: for each spec, batch its arguments along random
axes (some unbatched) and compare vmap(f) with stacking f over the examples."""

import functools

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given, settings

import funcgrad as fg
from funcgrad import tree
from funcgrad.testing.strategies import to_device

from .spec import ALL_SPECS


def _example(host, k):
    """Example k of a batch: float values scaled by 1 + k/100 (which keeps each spec's value
    domain: signs, nonsingular matrices, no ties), other values rolled by k."""
    if host.dtype.kind == "f":
        return host * (1 + 0.01 * k)
    return np.roll(host.ravel(), k).reshape(host.shape) if host.size else host


def _batch(host, axis, n):
    if n:
        return np.stack([_example(host, k) for k in range(n)], axis=axis)
    return np.expand_dims(host, axis)[tuple(slice(0, 0) if i == axis % (host.ndim + 1) else slice(None)
                                            for i in range(host.ndim + 1))]


def _run(spec, data, device):
    prev = fg.set_default_device(device)
    try:
        host, kwargs = data.draw(spec.args, label="args")
        n = data.draw(st.integers(0, 3), label="batch size")
        axes = [data.draw(st.one_of(st.none(), st.integers(-(h.ndim + 1), h.ndim)), label=f"axis {i}")
                for i, h in enumerate(host)]
        if all(a is None for a in axes):
            axes[0] = 0
        f = functools.partial(spec.fn, **kwargs)
        batched = [to_device(h) if a is None else to_device(_batch(h, a, n))
                   for h, a in zip(host, axes)]
        got = fg.vmap(f, in_axes=tuple(axes))(*batched)
        examples = [f(*[to_device(h if a is None else _example(h, k)) for h, a in zip(host, axes)])
                    for k in range(max(n, 1))]
        got_leaves = tree.tree_leaves(got)
        per_example = [tree.tree_leaves(e) for e in examples]
        for j, g in enumerate(got_leaves):
            ref = [np.asarray(e[j]) for e in per_example]
            want = np.stack(ref) if n else np.zeros((0,) + ref[0].shape, ref[0].dtype)
            assert g.shape == want.shape, (spec.name, j, g.shape, want.shape)
            assert g.dtype == want.dtype, (spec.name, j, g.dtype, want.dtype)
            np.testing.assert_allclose(np.asarray(g), want, rtol=1e-12, atol=1e-12, err_msg=spec.name)
    finally:
        fg.set_default_device(prev)


@pytest.mark.parametrize("spec", ALL_SPECS, ids=lambda s: s.name)
@given(data=st.data())
def test_vmap_cpu(spec, data):
    _run(spec, data, "cpu")


@pytest.mark.parametrize("spec", ALL_SPECS, ids=lambda s: s.name)
@settings(max_examples=4)
@given(data=st.data())
def test_vmap_standin(spec, data):
    _run(spec, data, "standin")


def test_docs_list_the_fallback_primitives():
    """docs/transformations.md lists exactly the primitives vmap runs with the loop fallback."""
    import pathlib
    import re

    from funcgrad.core import REGISTRY
    from funcgrad.transforms.batching import primitives_without_batch_rule

    text = (pathlib.Path(__file__).parents[2] / "docs" / "transformations.md").read_text()
    block = text.split("<!-- fallback-list -->")[1]
    listed = set(re.findall(r"`([a-z_0-9]+)`", block))
    # funcgrad's own primitives (tests define some of their own)
    expected = {n for n in primitives_without_batch_rule() if REGISTRY[n].impl.__module__.startswith("funcgrad")}
    assert listed == expected, (
        f"docs/transformations.md lists {sorted(listed)} but the registry's primitives without a "
        f"batching rule are {sorted(expected)} (regenerate with python scripts/gen_vmap_fallback_list.py --update-docs)"
    )
