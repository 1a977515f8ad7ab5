"""jit of every primitive: for each spec, jit(f) equals f (values and dtypes), and so do f's vjp, jvp and
vmap compiled under jit (jit(vjp), jit(jvp), jit(vmap)) and the transformations of jit(f) (grad(jit))."""

import functools

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given, settings

import funcgrad as fg
from funcgrad import tree
from funcgrad.testing.strategies import to_device

from .spec import ALL_SPECS


def _close(a, b, what, spec):
    la, lb = tree.tree_leaves(a), tree.tree_leaves(b)
    assert len(la) == len(lb), f"{spec.name} {what}: {len(la)} vs {len(lb)} outputs"
    for x, y in zip(la, lb):
        x, y = np.asarray(x), np.asarray(y)
        assert x.shape == y.shape and x.dtype == y.dtype, f"{spec.name} {what}: {x.dtype}{x.shape} vs {y.dtype}{y.shape}"
        np.testing.assert_allclose(x, y, rtol=1e-9, atol=1e-12, equal_nan=True, err_msg=f"{spec.name} {what}")


def _cotangent_like(out, rng):
    return tree.tree_map(lambda o: fg.asarray(rng.standard_normal(o.shape).astype(o.dtype)), out)


@pytest.mark.parametrize("spec", ALL_SPECS, ids=lambda s: s.name)
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_jit_equals_eager(spec, data):
    host, kwargs = data.draw(spec.args, label="args")
    args = tuple(to_device(h) for h in host)
    f = functools.partial(spec.fn, **kwargs)
    jf = fg.jit(f)
    _close(jf(*args), f(*args), "jit(f)", spec)
    _close(jf(*args), f(*args), "jit(f), cached", spec)
    assert jf.trace_count == 1
    if not spec.differentiable or not all(np.dtype(a.dtype).kind == "f" for a in args):
        return
    rng = np.random.default_rng(0)
    out = f(*args)
    ct = _cotangent_like(out, rng)
    tangents = tuple(fg.asarray(rng.standard_normal(a.shape).astype(a.dtype)) for a in args)

    def pullback(*a):
        return fg.vjp(f, *a)[1](ct)

    _close(fg.jit(pullback)(*args), pullback(*args), "jit(vjp(f))", spec)
    _close(fg.vjp(jf, *args)[1](ct), pullback(*args), "vjp(jit(f))", spec)

    def push(*a):
        return fg.jvp(f, a, tangents)[1]

    _close(fg.jit(push)(*args), push(*args), "jit(jvp(f))", spec)
    _close(fg.jvp(jf, args, tangents)[1], push(*args), "jvp(jit(f))", spec)
    batched = tuple(fg.asarray(np.stack([h, h * 1.01])) for h in host)
    _close(fg.jit(fg.vmap(f))(*batched), fg.vmap(f)(*batched), "jit(vmap(f))", spec)
    _close(fg.vmap(jf)(*batched), fg.vmap(f)(*batched), "vmap(jit(f))", spec)
