"""vmap: axes specifications, errors, the loop fallback, composition with grad/jvp."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.core import Primitive, ShapedArray, namespace_of
from funcgrad.transforms.batching import BatchedValueError, primitives_without_batch_rule


def _loop(f, args, in_axes, n):
    outs = []
    for i in range(n):
        ex = [a if ax is None else fnp.asarray(np.take(np.asarray(a), i, axis=ax)) for a, ax in zip(args, in_axes)]
        outs.append(np.asarray(f(*ex)))
    return np.stack(outs)


def test_per_example_gradients_equal_a_loop(rng):
    w = fnp.asarray(rng.standard_normal((3, 2)))
    xs = fnp.asarray(rng.standard_normal((6, 3)))
    ys = fnp.asarray(rng.standard_normal((6, 2)))

    def loss(w, x, y):
        return fnp.sum((fnp.tanh(x @ w) - y) ** 2)

    got = fg.vmap(fg.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)
    want = np.stack([np.asarray(fg.grad(loss)(w, xs[i], ys[i])) for i in range(6)])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-14)
    # and the batch gradient is their sum (grad of vmap)
    total = fg.grad(lambda w: fnp.sum(fg.vmap(loss, in_axes=(None, 0, 0))(w, xs, ys)))(w)
    np.testing.assert_allclose(np.asarray(total), want.sum(0), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("in_axes", [(0, None), (-1, None), (1, 0), (None, -2)])
def test_in_axes_ints_negative_none(rng, in_axes):
    a = fnp.asarray(rng.standard_normal((4, 4)))
    b = fnp.asarray(rng.standard_normal((4, 4)))

    def f(x, y):
        return fnp.sin(x) * fnp.sum(y)

    n = 4
    got = fg.vmap(f, in_axes=in_axes)(a, b)
    axes = [None if ax is None else ax % 2 for ax in in_axes]
    np.testing.assert_allclose(np.asarray(got), _loop(f, (a, b), axes, n), rtol=1e-12)


def test_pytree_in_axes_and_out_axes(rng):
    p = {"w": fnp.asarray(rng.standard_normal((5, 3))), "b": fnp.asarray(rng.standard_normal(3))}
    x = fnp.asarray(rng.standard_normal((3, 5)))

    def f(p, x):
        return {"y": p["w"] * x + p["b"], "s": fnp.sum(p["b"])}

    out = fg.vmap(f, in_axes=({"w": 0, "b": None}, 1), out_axes={"y": -1, "s": None})(p, x)
    assert out["y"].shape == (3, 5)
    want = np.asarray(p["w"]) * np.asarray(x).T + np.asarray(p["b"])
    np.testing.assert_allclose(np.asarray(out["y"]), want.T, rtol=1e-12)
    assert out["s"].shape == ()


def test_unbatched_output_is_broadcast_and_axis_size():
    out = fg.vmap(lambda x: fnp.ones(2), in_axes=None, axis_size=3)(fnp.zeros(4))
    assert out.shape == (3, 2)
    out = fg.vmap(lambda x: x * 2.0, out_axes=1)(fnp.ones((3, 2)))
    assert out.shape == (2, 3)


def test_nested_vmap_is_an_outer_product(rng):
    a, b = rng.standard_normal(3), rng.standard_normal(4)
    out = fg.vmap(fg.vmap(lambda x, y: x * y, in_axes=(None, 0)), in_axes=(0, None))(fnp.asarray(a), fnp.asarray(b))
    np.testing.assert_allclose(np.asarray(out), np.outer(a, b))


def test_inconsistent_sizes_name_arguments_and_sizes():
    with pytest.raises(ValueError, match=r"inconsistent sizes.*argument 0 \(x\) has size 3 along axis 0.*argument 1 \(y\) has size 4"):
        fg.vmap(lambda x, y: x + y)(fnp.ones(3), fnp.ones(4))
    with pytest.raises(ValueError, match="axis_size=5"):
        fg.vmap(lambda x: x, axis_size=5)(fnp.ones(3))


def test_axes_spec_errors():
    with pytest.raises(ValueError, match="in_axes is a tuple of 1 entries but .* 2 positional"):
        fg.vmap(lambda x, y: x, in_axes=(0,))(fnp.ones(3), fnp.ones(3))
    with pytest.raises(ValueError, match=r"axis 2, but it has shape \(3,\)"):
        fg.vmap(lambda x: x, in_axes=2)(fnp.ones(3))
    with pytest.raises(ValueError, match="float, which has no axis"):
        fg.vmap(lambda x: x)(1.0)
    with pytest.raises(ValueError, match="pass axis_size"):
        fg.vmap(lambda x: x, in_axes=None)(fnp.ones(3))
    with pytest.raises(ValueError, match="out_axes is None .* differs across the batch"):
        fg.vmap(lambda x: x, out_axes=None)(fnp.ones(3))
    with pytest.raises(ValueError, match="does not match the structure"):
        fg.vmap(lambda d: d["a"], in_axes=({"b": 0},))({"a": fnp.ones(3)})


def test_value_dependent_control_flow_is_a_clear_error():
    def f(x):
        return x if x > 0 else -x

    with pytest.raises(BatchedValueError, match=r"bool\(\).*funcgrad.numpy.where"):
        fg.vmap(f)(fnp.ones(3))
    with pytest.raises(BatchedValueError, match=r"float\(\)"):
        fg.vmap(lambda x: float(x))(fnp.ones(3))
    with pytest.raises(BatchedValueError, match="numpy array"):
        fg.vmap(lambda x: np.sin(x))(fnp.ones(3))
    # the where version works
    out = fg.vmap(lambda x: fnp.where(x > 0, x, -x))(fnp.asarray([-1.0, 2.0]))
    np.testing.assert_allclose(np.asarray(out), [1.0, 2.0])


# --- the loop fallback ------------------------------------------------------------------------

def _outer_impl(x, y):
    xp = namespace_of(x)
    return xp.multiply(xp.reshape(x, tuple(x.shape) + (1,) * y.ndim), y)


outer_p = Primitive("test_vmap_outer", _outer_impl,
                    lambda x, y: ShapedArray(tuple(x.shape) + tuple(y.shape), np.result_type(x.dtype, y.dtype)))


def test_fallback_loops_over_the_batch(rng):
    assert "test_vmap_outer" in primitives_without_batch_rule()
    a, b = rng.standard_normal((3, 2)), rng.standard_normal((4, 3))
    out = fg.vmap(outer_p.bind, in_axes=(0, 1))(fnp.asarray(a), fnp.asarray(b))
    np.testing.assert_allclose(np.asarray(out), np.stack([np.multiply.outer(a[i], b[:, i]) for i in range(3)]))
    empty = fg.vmap(outer_p.bind, in_axes=(0, None))(fnp.zeros((0, 2)), fnp.ones(5))
    assert empty.shape == (0, 2, 5)


# --- batched index arrays ------------------------------------------------------------------------

@pytest.mark.parametrize("index, ishape, axes", [
    (lambda x, i: x[i], (4, 2), (0, 0)),
    (lambda x, i: x[:, i], (4, 2), (0, 0)),
    (lambda x, i: x[:, i, 1:], (4, 2), (None, 0)),
    (lambda x, i: x[1, :, i], (4, 2), (0, 0)),
    (lambda x, i: x[i, :, i], (2, 4), (2, 1)),
    (lambda x, i: x[..., i], (4,), (1, 0)),
    (lambda x, i: x[i, None, 1:], (4, 2, 1), (0, 0)),
])
def test_gather_with_batched_indices(rng, index, ishape, axes):
    x = fnp.asarray(rng.standard_normal((4, 4, 4, 4)))
    i = fnp.asarray(rng.integers(0, 3, ishape))
    n = 4
    if axes[0] is None:
        x = x[0]
    got = fg.vmap(index, in_axes=axes)(x, i)
    np.testing.assert_allclose(np.asarray(got), _loop(index, (x, i), axes, n))


@pytest.mark.parametrize("mode", ["set", "add", "multiply", "min", "max"])
@pytest.mark.parametrize("axes", [(0, 0, 0), (None, 0, None), (1, None, 0), (0, 1, None)])
def test_scatter_with_batched_indices_and_values(rng, mode, axes):
    x = rng.standard_normal((4, 3, 5))
    i = rng.integers(0, 3, (4, 2))
    v = rng.standard_normal((4, 2, 5))
    args = [x if axes[0] is not None else x[0], i if axes[1] is not None else i[0], v if axes[2] is not None else v[0]]
    if axes[0] == 1:
        args[0] = np.moveaxis(args[0], 0, 1)
    if axes[1] == 1:
        args[1] = args[1].T
    args = [fnp.asarray(a) for a in args]

    def f(x, i, v):
        return getattr(x.at[i], mode)(v)

    got = fg.vmap(f, in_axes=axes)(*args)
    np.testing.assert_allclose(np.asarray(got), _loop(f, args, axes, 4))


def test_scatter_values_with_separated_advanced_indices(rng):
    x = fnp.asarray(rng.standard_normal((3, 4, 5, 6)))
    i = fnp.asarray(rng.integers(0, 6, (3, 2)))
    v = fnp.asarray(rng.standard_normal((3, 2, 5)))

    def f(x, i, v):
        return x.at[1, :, i].add(v)  # per example: region (2, 5), the index block first

    np.testing.assert_allclose(np.asarray(fg.vmap(f)(x, i, v)), _loop(f, (x, i, v), (0, 0, 0), 3))


@pytest.mark.parametrize("xs, ys, axes", [
    ((5, 3), (3, 2), (0, None)), ((3,), (5, 3, 2), (None, 0)), ((5, 2, 3), (5, 3), (0, 0)),
    ((3, 5), (3,), (1, None)), ((2, 3), (3, 5), (None, 1)), ((5, 4, 2, 3), (3, 2), (0, None)),
    ((2, 5, 3), (3,), (1, None)), ((5, 3), (5, 3), (0, 0)), ((2, 3), (2, 5, 3, 4), (None, 1)),
])
def test_matmul_batching(rng, xs, ys, axes):
    x, y = fnp.asarray(rng.standard_normal(xs)), fnp.asarray(rng.standard_normal(ys))
    n = 5
    got = fg.vmap(lambda a, b: a @ b, in_axes=axes)(x, y)
    np.testing.assert_allclose(np.asarray(got), _loop(lambda a, b: a @ b, (x, y), axes, n), rtol=1e-12)


# --- composition without perturbation confusion ----------------------------------------------------

def test_vmap_in_grad_and_grad_in_vmap():
    # d/dx sum_i x * c_i * x = 2 x sum(c)
    c = fnp.asarray([1.0, 2.0, 3.0])
    g = fg.grad(lambda x: fnp.sum(fg.vmap(lambda ci: x * ci * x)(c)))(2.0)
    assert float(g) == pytest.approx(24.0)
    # per-example derivative of x_i * grad(lambda y: x_i * y)(2.0) = 2 x_i
    xs = fnp.asarray([1.0, 2.0, -3.0])
    out = fg.vmap(fg.grad(lambda x: x * fg.grad(lambda y: x * y)(2.0)))(xs)
    np.testing.assert_allclose(np.asarray(out), 2 * np.asarray(xs))
    # vmap inside the inner derivative
    out = fg.grad(lambda x: fnp.sum(fg.vmap(lambda k: k * fg.grad(lambda y: x * y * k)(2.0))(xs)))(1.5)
    assert float(out) == pytest.approx(float(fnp.sum(xs * xs)))


def test_jvp_of_vmap_and_vmap_of_jvp(rng):
    x = fnp.asarray(rng.standard_normal((4, 3)))
    t = fnp.asarray(rng.standard_normal((4, 3)))

    def f(v):
        return fnp.sin(v) * fnp.sum(v)

    a = fg.jvp(fg.vmap(f), (x,), (t,))[1]
    b = fg.vmap(lambda xi, ti: fg.jvp(f, (xi,), (ti,))[1])(x, t)
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12)


def test_fallback_list_is_generated_from_the_registry(tmp_path):
    from funcgrad.transforms.batching import fallback_list_markdown, update_fallback_docs

    assert "- `test_vmap_outer`" in fallback_list_markdown()
    doc = tmp_path / "t.md"
    doc.write_text("before\n<!-- fallback-list -->\nSTALE LIST\n<!-- fallback-list -->\nafter\n")
    update_fallback_docs(str(doc))
    text = doc.read_text()
    assert text.startswith("before\n") and text.endswith("after\n") and "STALE LIST" not in text
    assert "- `test_vmap_outer`" in text


def test_derivatives_through_batching_rules(rng):
    from funcgrad.testing import check_grads

    i = fnp.asarray(rng.integers(0, 3, (4, 2)))
    x = fnp.asarray(rng.standard_normal((4, 3, 5)))
    v = fnp.asarray(rng.standard_normal((4, 2, 5)))
    w = fnp.asarray(rng.standard_normal((5, 2)))

    def f(x, v, w):
        g = fg.vmap(lambda x, i, v: x.at[i].add(v * x[i]), in_axes=(0, 0, 0))(x, i, v)
        return fg.vmap(lambda a: fnp.tanh(a @ w).max(axis=0), in_axes=1)(g)

    check_grads(f, (x, v, w), order=2)
