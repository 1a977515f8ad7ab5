"""The worked example of docs/testing.md: check_grads finds a real bug in a custom_vjp."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.testing import GradientCheckError, check_grads


def _softplus(bwd_uses_right_sign):
    @fg.custom_vjp
    def softplus(x):
        return fnp.logaddexp(x, 0.0)

    def fwd(x):
        return softplus(x), x

    def bwd(x, g):
        # d/dx log(1 + e^x) = sigmoid(x) = 1 / (1 + e^-x); the bug: e^+x
        e = fnp.exp(-x) if bwd_uses_right_sign else fnp.exp(x)
        return (g / (1.0 + e),)

    softplus.defvjp(fwd, bwd)
    return softplus


def test_the_bug_is_found_and_located():
    buggy = _softplus(False)
    x = np.array([-2.0, 0.0, 0.5, 3.0])
    with pytest.raises(GradientCheckError) as e:
        check_grads(buggy, (x,), order=1, modes=("rev",))
    msg = str(e.value)
    assert "reverse mode (vjp), order 1" in msg and "worst element" in msg
    # at x = 0 the wrong rule happens to be right: the worst element is elsewhere
    assert "index (0,)" in msg or "index (3,)" in msg


def test_the_fixed_rule_passes_and_is_finite_at_extremes():
    fixed = _softplus(True)
    check_grads(fixed, (np.array([-2.0, 0.0, 0.5, 3.0]),), order=1, modes=("rev",))
    g = fg.grad(lambda v: fnp.sum(fixed(v)))(fnp.asarray([-1000.0, 1000.0]))
    assert np.allclose(g, [0.0, 1.0])
