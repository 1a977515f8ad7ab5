"""Meta-tests: the checkers fail on wrong rules, pass on right ones, and say where."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.backend import namespace_of
from funcgrad.core import REGISTRY, Primitive
from funcgrad.primitives.reduce import sum_to_shape
from funcgrad.testing import GradcheckError, GradientCheckError, check_grads, gradcheck, gradgradcheck


def _prim(name, ufunc_name, abstract=lambda *a, **k: a[0]):
    """A test primitive computing ``ufunc_name`` with its inputs' namespace (any backend)."""
    def impl(*args):
        return getattr(namespace_of(*args), ufunc_name)(*args)

    return REGISTRY.get(name) or Primitive(name, impl, abstract)


# a sine whose vjp has the wrong sign (its jvp is right)
bad_sign = _prim("test_bad_sign_sin", "sin")
bad_sign.defvjp(lambda g, ans, x: -g * fnp.cos(x))
bad_sign.defjvp(lambda t, ans, x: t * fnp.cos(x))

# x * y whose vjp for y "reduces" the broadcast dimensions with a mean instead of a sum
bad_bcast = _prim("test_bad_bcast_mul", "multiply")
bad_bcast.defvjp(
    lambda g, ans, x, y: g * y,
    lambda g, ans, x, y: sum_to_shape(g * x, y.shape) / max(1, int(np.prod(g.shape)) // max(1, int(np.prod(y.shape)))),
)
bad_bcast.defjvp(lambda t, ans, x, y: t * y, lambda t, ans, x, y: x * t)

# a cosine whose value and first derivative rules are right but whose derivative's derivative
# is wrong: mysin's rules use it, so mysin is right to first order and wrong at second
bad_cos = _prim("test_bad_cos", "cos")
bad_cos.defvjp(lambda g, ans, x: g * fnp.sin(x))  # should be -sin
bad_cos.defjvp(lambda t, ans, x: t * fnp.sin(x))
good_rules_sin = _prim("test_sin_with_bad_second", "sin")
good_rules_sin.defvjp(lambda g, ans, x: g * bad_cos.bind(x))
good_rules_sin.defjvp(lambda t, ans, x: t * bad_cos.bind(x))

X = np.linspace(0.2, 1.4, 6).reshape(2, 3)


def test_passes_on_correct_rules():
    check_grads(lambda x, y: fnp.sin(x) * y + fnp.sum(fnp.tanh(x)), (X, np.ones(3)), order=3)
    assert gradcheck(lambda x: fnp.exp(x) @ fnp.ones(3), (fg.asarray(X),))
    assert gradgradcheck(lambda x: fnp.exp(x) * x, (fg.asarray(X),))


def test_sign_flip_is_caught_in_reverse_mode_with_the_worst_element():
    with pytest.raises(GradientCheckError) as e:
        check_grads(lambda x: bad_sign.bind(x), (X,), order=1, modes=("rev",))
    msg = str(e.value)
    assert "reverse mode" in msg and "order 1" in msg and "worst element" in msg and "direction" in msg
    check_grads(lambda x: bad_sign.bind(x), (X,), order=1, modes=("fwd",))  # forward is right
    with pytest.raises(GradcheckError, match="Jacobian mismatch"):
        gradcheck(lambda x: bad_sign.bind(x), (fg.asarray(X),))
    assert gradcheck(lambda x: bad_sign.bind(x), (fg.asarray(X),), raise_exception=False) is False


def test_both_modes_catch_transposition_errors():
    with pytest.raises(GradientCheckError, match="transposes|reverse mode"):
        check_grads(lambda x: bad_sign.bind(x), (X,), order=1)


def test_missing_broadcast_reduction_is_caught():
    y = np.array([0.5, 1.5, -1.0])
    with pytest.raises(GradientCheckError):
        check_grads(lambda a, b: bad_bcast.bind(a, b), (X, y), order=1, modes=("rev",))
    check_grads(lambda a, b: bad_bcast.bind(a, b), (X, X), order=1, modes=("rev",))  # no broadcast: fine


def test_wrong_second_derivative_only_is_caught_at_order_2():
    check_grads(lambda x: good_rules_sin.bind(x), (X,), order=1)
    with pytest.raises(GradientCheckError, match="order 2"):
        check_grads(lambda x: good_rules_sin.bind(x), (X,), order=2)
    with pytest.raises(GradcheckError):
        gradgradcheck(lambda x: good_rules_sin.bind(x), (fg.asarray(X),))


def test_pytree_arguments_and_float32_tolerances():
    params = {"w": np.ones((2, 2), np.float32), "b": [np.zeros(2, np.float32)]}
    check_grads(lambda p, x: fnp.tanh(x @ p["w"] + p["b"][0]), (params, np.ones((3, 2), np.float32)), order=2)


def test_gradcheck_warns_for_single_precision_and_checks_fast_mode():
    with pytest.warns(UserWarning, match="double precision"):
        gradcheck(lambda x: x * 2, (fnp.ones(3, dtype=np.float32),), eps=1e-3, atol=1e-2)
    assert gradcheck(lambda x, y: (fnp.sin(x) * y, x), (fg.asarray(X), fg.asarray(X[0])), fast_mode=True)
    with pytest.raises(GradcheckError, match="fast mode"):
        gradcheck(lambda x: bad_sign.bind(x), (fg.asarray(X),), fast_mode=True)


def test_gradcheck_integer_inputs_are_constants():
    idx = fg.asarray(np.array([2, 0]))
    assert gradcheck(lambda x, i: fnp.sin(x)[i], (fg.asarray(X[0]), idx))
