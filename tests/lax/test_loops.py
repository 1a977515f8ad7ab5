"""lax.while_loop, fori_loop and map against Python loops: values, derivatives, vmap, jit, errors."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import check_grads

lax = fg.lax


def power_loop(x, n=5):
    return lax.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, fnp.sin(s[1]) * x + s[1]), (0, x))[1]


def power_py(x, n=5):
    v = x
    for _ in range(n):
        v = fnp.sin(v) * x + v
    return v


def test_while_values_and_forward_mode():
    x = fnp.asarray([0.3, -0.7])
    np.testing.assert_allclose(power_loop(x), power_py(x))
    out, t = fg.jvp(power_loop, (x,), (fnp.asarray([1.0, 0.5]),))
    np.testing.assert_allclose(t, fg.jvp(power_py, (x,), (fnp.asarray([1.0, 0.5]),))[1])
    np.testing.assert_allclose(fg.jacfwd(power_loop)(x), fg.jacfwd(power_py)(x))
    check_grads(power_loop, (x,), order=2, modes=("fwd",))


def test_while_reverse_mode_raises_pointing_to_scan():
    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work for while_loop.*Use scan"):
        fg.grad(lambda x: fnp.sum(power_loop(x)))(fnp.asarray([0.3]))


def test_while_vmap_with_batched_predicate_runs_each_lane_to_its_end():
    limits = fnp.asarray([0.5, 3.5, 2.0, -1.0])
    f = lambda lim: lax.while_loop(lambda s: s[1] < lim, lambda s: (s[0] + 1, s[1] * 1.5 + 0.5), (0, 0.0))  # noqa
    n, v = fg.vmap(f)(limits)
    for b, lim in enumerate(limits.tolist()):
        k, val = 0, 0.0
        while val < lim:
            k, val = k + 1, val * 1.5 + 0.5
        assert int(n[b]) == k and float(v[b]) == pytest.approx(val)
    # forward mode through the batched loop
    g = fg.vmap(lambda x: fg.jvp(power_loop, (x,), (1.0,))[1])(fnp.asarray([0.3, -0.2]))
    np.testing.assert_allclose(g, [fg.jvp(power_py, (x,), (1.0,))[1] for x in (0.3, -0.2)])


def test_while_under_jit_with_traced_bound():
    f = fg.jit(lambda x, n: lax.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, s[1] * x), (0, 1.0))[1])
    assert float(f(fnp.asarray(2.0), fnp.asarray(5))) == 32.0
    assert float(f(fnp.asarray(2.0), fnp.asarray(0))) == 1.0
    assert f.trace_count == 1


def test_while_errors():
    with pytest.raises(TypeError, match=r"cond_fun <lambda> must return a boolean scalar, got \['float64\[\]'\]"):
        lax.while_loop(lambda v: v * 1.0, lambda v: v, 1.0)
    with pytest.raises(TypeError, match=r"boolean scalar, got \['bool\[2\]'\]"):
        lax.while_loop(lambda v: v > 0, lambda v: v, fnp.ones(2))
    with pytest.raises(TypeError, match=r"init_val is float64\[\] at <root> but the body's output is float32\[\]"):
        lax.while_loop(lambda v: v < 1, lambda v: v.astype(np.float32), 0.0)


def rk_like(x, n):
    return lax.fori_loop(0, n, lambda i, c: c + fnp.sin(c * x) * 0.1 + i * 0.01, x)


def rk_like_py(x, n):
    c = x
    for i in range(n):
        c = c + fnp.sin(c * x) * 0.1 + i * 0.01
    return c


def test_fori_static_bounds_is_reverse_differentiable():
    x = fnp.asarray([0.4, 1.3])
    for n in (0, 1, 6):
        np.testing.assert_allclose(rk_like(x, n), rk_like_py(x, n))
        np.testing.assert_allclose(fg.jacrev(rk_like)(x, n), fg.jacrev(rk_like_py)(x, n))
    check_grads(lambda x: rk_like(x, 4), (x,), order=2, modes=("fwd", "rev"))
    np.testing.assert_allclose(fg.jit(rk_like, static_argnums=1)(x, 6), rk_like_py(x, 6))
    assert float(lax.fori_loop(5, 2, lambda i, c: c + 1.0, 0.0)) == 0.0  # an empty range


def test_fori_traced_bounds_and_batched_trip_counts():
    body = lambda i, c: c * 2.0 + i  # noqa: E731

    def ref(n):
        c = 1.0
        for i in range(n):
            c = body(i, c)
        return c

    np.testing.assert_allclose(fg.jit(lambda n: lax.fori_loop(0, n, body, 1.0))(fnp.asarray(4)), ref(4))
    ns = fnp.asarray([0, 1, 3, 5])
    np.testing.assert_allclose(fg.vmap(lambda n: lax.fori_loop(0, n, body, 1.0))(ns), [ref(n) for n in (0, 1, 3, 5)])
    with pytest.raises(ValueError, match="fori_loop with Python-int"):
        fg.jit(fg.grad(lambda x, n: lax.fori_loop(0, n, lambda i, c: c * x, x)))(fnp.asarray(1.5), fnp.asarray(3))
    with pytest.raises(TypeError, match=r"upper must be an integer scalar, got float64\[\]"):
        fg.jit(lambda u: lax.fori_loop(0, u, body, 1.0))(fnp.asarray(2.0))


def test_map_matches_a_list_comprehension():
    xs = fnp.asarray(np.arange(6.0).reshape(3, 2))
    f = lambda x: {"s": fnp.sum(fnp.sin(x)), "d": x * 2}  # noqa: E731
    out = lax.map(f, xs)
    np.testing.assert_allclose(out["s"], [float(f(x)["s"]) for x in xs])
    np.testing.assert_allclose(out["d"], xs * 2)
    g = fg.grad(lambda xs: fnp.sum(lax.map(f, xs)["s"]))(xs)
    np.testing.assert_allclose(g, np.cos(np.arange(6.0).reshape(3, 2)))
