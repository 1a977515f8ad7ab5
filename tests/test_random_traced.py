"""funcgrad.random with traced keys: every draw is one ``random`` primitive, so keys pass through jit,
scan bodies and vmap, with the same numbers as eager draws."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import random as fr

DRAWS = {
    "split": lambda k: fr.split(k, 3),
    "fold_in": lambda k: fr.fold_in(k, 7),
    "bits": lambda k: fr.bits(k, (4,), np.uint64),
    "uniform": lambda k: fr.uniform(k, (5,), np.float32, -1.0, 2.0),
    "normal": lambda k: fr.normal(k, (2, 3), loc=1.0, scale=0.5),
    "truncated_normal": lambda k: fr.truncated_normal(k, -0.5, 1.0, (6,)),
    "bernoulli": lambda k: fr.bernoulli(k, 0.3, (8,)),
    "randint": lambda k: fr.randint(k, (5,), -3, 9, np.int32),
    "permutation": lambda k: fr.permutation(k, 6),
    "permute_array": lambda k: fr.permutation(k, fnp.arange(10.0).reshape(5, 2), axis=0),
    "gumbel": lambda k: fr.gumbel(k, (3,)),
    "exponential": lambda k: fr.exponential(k, (3,)),
    "categorical": lambda k: fr.categorical(k, fnp.log(fnp.asarray([[0.2, 0.8], [0.5, 0.5]]))),
    "choice": lambda k: fr.choice(k, 10, (4,), replace=False),
    "choice_p": lambda k: fr.choice(k, fnp.arange(3.0), (5,), p=fnp.asarray([0.1, 0.2, 0.7])),
}


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_jit_of_a_draw_gives_the_eager_numbers(name):
    draw = DRAWS[name]
    k = fr.key(11)
    eager = draw(k)
    jitted = fg.jit(draw)
    out = jitted(k)
    assert out.shape == eager.shape and out.dtype == eager.dtype
    np.testing.assert_array_equal(np.asarray(out), np.asarray(eager))
    other = jitted(fr.key(12))  # another key, no retrace: other numbers
    assert jitted.trace_count == 1
    np.testing.assert_array_equal(np.asarray(other), np.asarray(draw(fr.key(12))))


@pytest.mark.parametrize("name", ["split", "normal", "bernoulli", "randint", "categorical", "choice"])
def test_vmap_over_keys_draws_per_key(name):
    draw = DRAWS[name]
    keys = fr.split(fr.key(3), 4)
    out = fg.vmap(draw)(keys)
    for i in range(4):
        np.testing.assert_array_equal(np.asarray(out[i]), np.asarray(draw(keys[i])))


def test_keys_split_inside_a_scan_body():
    def body(carry, _):
        key, total = carry
        key, sub = fr.split(key)
        return (key, total + fr.uniform(sub, ())), fr.normal(sub, (2,))

    (key, total), ys = fg.jit(lambda k: fg.lax.scan(body, (k, 0.0), None, length=6))(fr.key(5))
    k, t, expect = fr.key(5), 0.0, []
    for _ in range(6):
        k, sub = fr.split(k)
        t += float(fr.uniform(sub, ()))
        expect.append(np.asarray(fr.normal(sub, (2,))))
    np.testing.assert_allclose(float(total), t, rtol=1e-12)
    np.testing.assert_array_equal(np.asarray(ys), np.stack(expect))
    np.testing.assert_array_equal(np.asarray(key), np.asarray(k))


def test_fold_in_a_traced_step_counter():
    k = fr.key(9)
    f = fg.jit(lambda k, i: fr.normal(fr.fold_in(k, i), (3,)))
    for i in (0, 5, 2**33 + 1):  # data is taken modulo 2**32
        np.testing.assert_array_equal(np.asarray(f(k, fg.asarray(i % 2**32))), np.asarray(fr.normal(fr.fold_in(k, i), (3,))))
    assert f.trace_count == 1
    with pytest.raises(TypeError, match="integer scalar"):
        fr.fold_in(k, fnp.asarray([1.0]))


def test_draws_have_no_derivative_but_scale_differentiably():
    k = fr.key(1)
    z = fr.normal(k, (4,))

    def f(mu, sigma):
        return fnp.sum(mu + sigma * fr.normal(k, (4,)))

    g_mu, g_sigma = fg.grad(f, argnums=(0, 1))(1.0, 2.0)
    assert float(g_mu) == 4.0
    np.testing.assert_allclose(float(g_sigma), float(fnp.sum(z)), rtol=1e-12)
    p = fnp.asarray([0.2, 0.9])
    assert np.asarray(fg.grad(lambda q: fnp.sum(fr.bernoulli(k, q) * q))(p)).shape == (2,)


def test_static_arguments_cannot_be_traced():
    with pytest.raises(TypeError, match="loc must be a Python number"):
        fg.jit(lambda k, m: fr.normal(k, (2,), loc=m))(fr.key(0), fnp.asarray(1.0))


def test_the_graph_shows_one_equation_per_draw():
    graph = fg.make_jaxpr(lambda k: fr.normal(fr.split(k)[0], (2,)))(fr.key(0))
    assert [e.prim.name for e in graph.eqns].count("random") == 2
    assert "kind=normal" in str(graph)


def test_a_bad_key_is_a_clear_error():
    with pytest.raises(TypeError, match=r"expected a key .* got float64\[2\]"):
        fr.normal(fnp.zeros(2), (2,))
    with pytest.raises(TypeError, match="got int"):
        fr.split(3)


def test_vmap_over_no_keys_gives_an_empty_batch_of_draws():
    keys = fr.split(fr.key(0), 0)
    out = fg.vmap(lambda k: fr.normal(k, (3,), dtype=np.float32))(keys)
    assert out.shape == (0, 3) and out.dtype == np.float32
    assert fg.vmap(fr.split)(keys).shape == (0, 2, 2)
