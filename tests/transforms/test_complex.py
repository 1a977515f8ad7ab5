"""Complex inputs in every transformation, with JAX's conventions.

Convention (docs/transformations.md): for a real-valued f of z = x + iy,
``grad(f)(z) = df/dx - i df/dy`` = 2 * (Wirtinger) df/dz, the conjugate of the
steepest-ascent direction df/dx + i df/dy.  For a holomorphic f,
``grad(f, holomorphic=True)(z) = f'(z)``.  A cotangent c pairs with a tangent dz as
Re(sum(c * dz)).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import funcgrad as fg
import funcgrad.numpy as fnp

finite = st.floats(-3, 3, allow_nan=False)


def _central(f, z, direction, eps=1e-6):
    return (f(z + eps * direction) - f(z - eps * direction)) / (2 * eps)


def _real_loss(z):
    return fnp.real(fnp.sin(z) * fnp.conj(z)) + fnp.abs(z) ** 3 - fnp.imag(z * z)


@settings(max_examples=25, deadline=None)
@given(x=finite, y=finite)
def test_grad_of_real_function_is_dfdx_minus_i_dfdy(x, y):
    z = complex(x, y)
    f = lambda w: float(_real_loss(fnp.asarray(w)))  # noqa: E731
    dfdx = _central(f, z, 1.0)
    dfdy = _central(f, z, 1j)
    g = complex(fg.grad(_real_loss)(z))
    np.testing.assert_allclose(g, dfdx - 1j * dfdy, rtol=1e-5, atol=1e-6)


def test_grad_abs_squared_matches_jax():
    assert complex(fg.grad(lambda z: fnp.abs(z) ** 2)(3 + 4j)) == pytest.approx(6 - 8j)
    # descending along conj(grad) reduces the loss
    z = 3 + 4j
    g = complex(fg.grad(lambda z: fnp.abs(z) ** 2)(z))
    assert abs(z - 0.1 * np.conj(g)) < abs(z)


@settings(max_examples=25, deadline=None)
@given(x=st.floats(-1.5, 1.5), y=st.floats(-1.5, 1.5))
def test_holomorphic_grad_is_the_complex_derivative(x, y):
    z = complex(x, y)
    cases = [
        (lambda w: fnp.sin(w) * fnp.exp(w), lambda w: np.cos(w) * np.exp(w) + np.sin(w) * np.exp(w)),
        (lambda w: w ** 3 / (w + 4), lambda w: (3 * w ** 2 * (w + 4) - w ** 3) / (w + 4) ** 2),
        (lambda w: fnp.log(w + 5) * fnp.tanh(w), lambda w: np.tanh(w) / (w + 5) + np.log(w + 5) / np.cosh(w) ** 2),
    ]
    for f, df in cases:
        np.testing.assert_allclose(complex(fg.grad(f, holomorphic=True)(z)), df(z), rtol=1e-9, atol=1e-12)
        _, t = fg.jvp(f, (z,), (1.0 + 0j,))
        np.testing.assert_allclose(complex(t), df(z), rtol=1e-9, atol=1e-12)


def test_second_derivative_holomorphic():
    z = fnp.asarray(0.3 - 0.7j)
    d2 = fg.grad(fg.grad(lambda w: w ** 4, holomorphic=True), holomorphic=True)(z)
    np.testing.assert_allclose(complex(d2), 12 * complex(z) ** 2)
    h = fg.hessian(lambda w: fnp.sum(fnp.sin(w)), holomorphic=True)(fnp.asarray([0.2 + 0.1j, -1j]))
    np.testing.assert_allclose(np.asarray(h), np.diag(-np.sin([0.2 + 0.1j, -1j])))


def test_complex_output_without_holomorphic_is_a_type_error():
    with pytest.raises(TypeError, match="holomorphic=True"):
        fg.grad(lambda z: z * z)(1 + 1j)
    with pytest.raises(TypeError, match="holomorphic=True requires complex inputs.*float64"):
        fg.grad(lambda z: z * z, holomorphic=True)(1.0)
    with pytest.raises(TypeError, match="holomorphic=True requires a complex output"):
        fg.grad(lambda z: fnp.abs(z), holomorphic=True)(1j)
    with pytest.raises(TypeError, match="holomorphic=True"):
        fg.jacrev(lambda z: z * 2)(fnp.asarray([1j]))
    with pytest.raises(TypeError, match="holomorphic=True"):
        fg.jacfwd(lambda z: fnp.abs(z))(fnp.asarray([1j]))


def test_integer_and_bool_inputs_stay_errors():
    for bad in (3, True, fnp.asarray([1, 2]), fnp.asarray([True])):
        with pytest.raises(TypeError, match="floating-point or complex"):
            fg.grad(lambda z: fnp.sum(z * 1.0))(bad)


def test_tangents_and_cotangents_keep_the_primal_dtype():
    z64 = fnp.asarray(np.array([1 + 2j, -0.5j], np.complex64))
    g = fg.grad(lambda z: fnp.sum(fnp.abs(z) ** 2))(z64)
    assert g.dtype == np.complex64
    np.testing.assert_allclose(np.asarray(g), 2 * np.conj(np.asarray(z64)), rtol=1e-6)
    _, t = fg.jvp(lambda z: fnp.abs(z), (z64,), (fnp.ones(2, dtype=np.complex64),))
    assert t.dtype == np.float32
    _, pull = fg.vjp(lambda z: fnp.real(z), z64)
    assert pull(fnp.ones(2, dtype=np.float32))[0].dtype == np.complex64
    with pytest.raises(TypeError, match="tangent has dtype"):
        fg.jvp(lambda z: z, (z64,), (fnp.ones(2),))


def test_vjp_is_transpose_not_conjugate_transpose():
    a = 2 - 3j
    _, pull = fg.vjp(lambda z: a * z, fnp.asarray([1j, 1.0 + 0j]))
    np.testing.assert_allclose(np.asarray(pull(fnp.asarray([1.0 + 0j, 1j]))[0]), [a, a * 1j])
    _, pull = fg.vjp(fnp.conj, fnp.asarray(1 + 1j))
    assert complex(pull(fnp.asarray(2 + 1j))[0]) == 2 - 1j


def test_real_input_of_complex_intermediates_is_unchanged():
    g = fg.grad(lambda x: fnp.abs(fnp.exp(1j * x) * (x + 2j)) ** 2)(0.7)
    assert g.dtype == np.float64
    np.testing.assert_allclose(float(g), 2 * 0.7)


def test_jacobians_holomorphic_and_real_outputs():
    z = fnp.asarray([1 + 2j, 3 - 1j])
    expect = np.diag(2 * np.asarray(z))
    np.testing.assert_allclose(np.asarray(fg.jacrev(lambda w: w ** 2, holomorphic=True)(z)), expect)
    np.testing.assert_allclose(np.asarray(fg.jacfwd(lambda w: w ** 2, holomorphic=True)(z)), expect)
    # real outputs of complex inputs: rows are conjugate-convention gradients (as grad)
    np.testing.assert_allclose(np.asarray(fg.jacrev(lambda w: fnp.abs(w) ** 2)(z)), np.diag(2 * np.conj(z)))
    # jacfwd of a real input with complex output: d/dx of the output
    np.testing.assert_allclose(np.asarray(fg.jacfwd(lambda x: fnp.exp(1j * x))(fnp.asarray([0.5]))),
                               [[1j * np.exp(0.5j)]])


def test_vmap_custom_rules_and_checkpoint_take_complex():
    z = fnp.asarray([1 + 2j, 3 - 1j, -1j])
    per = fg.vmap(fg.grad(lambda w: fnp.abs(w) ** 2))(z)
    np.testing.assert_allclose(np.asarray(per), 2 * np.conj(np.asarray(z)))

    @fg.custom_vjp
    def sq(w):
        return w * w

    sq.defvjp(lambda w: (w * w, w), lambda w, c: (2 * w * c,))

    @fg.custom_jvp
    def cube(w):
        return w ** 3

    cube.defjvp(lambda p, t: (p[0] ** 3, 3 * p[0] ** 2 * t[0]))
    w = 0.5 - 1.5j
    assert complex(fg.grad(sq, holomorphic=True)(w)) == pytest.approx(2 * w)
    assert complex(fg.grad(cube, holomorphic=True)(w)) == pytest.approx(3 * w ** 2)
    assert complex(fg.grad(lambda v: fnp.real(cube(v)))(w)) == pytest.approx(3 * w ** 2)  # Re of a holomorphic f: f'(z)
    ck = fg.checkpoint(lambda v: fnp.sin(v) * v)
    assert complex(fg.grad(ck, holomorphic=True)(w)) == pytest.approx(np.cos(w) * w + np.sin(w))
    _, t = fg.jvp(ck, (w,), (1j,))
    assert complex(t) == pytest.approx(1j * (np.cos(w) * w + np.sin(w)))
