"""Differential property test: compat ops and their gradients equal the functional
core's (``fg.grad`` over funcgrad.numpy) on the same data."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

import funcgrad as fg
import funcgrad.compat as torch
import funcgrad.numpy as fnp
from funcgrad.testing.strategies import floats, host_arrays, mutually_broadcastable_shapes, shapes

UNARY = {
    "exp": (lambda x: x.exp(), fnp.exp),
    "sin": (torch.sin, fnp.sin),
    "cos": (lambda x: x.cos(), fnp.cos),
    "tanh": (torch.tanh, fnp.tanh),
    "sigmoid": (torch.sigmoid, lambda x: 1 / (1 + fnp.exp(-x))),
    "square": (lambda x: x ** 2, lambda x: x ** 2),
    "cube": (lambda x: x ** 3, lambda x: x ** 3),
    "sqrt_abs": (lambda x: (x.abs() + 1).sqrt(), lambda x: fnp.sqrt(fnp.abs(x) + 1)),
    "log1p_sq": (lambda x: torch.log(1 + x * x), lambda x: fnp.log(1 + x * x)),
    "neg_scale": (lambda x: -x * 2.5 + 1, lambda x: -x * 2.5 + 1),
    "rdiv": (lambda x: 1 / (x * x + 1), lambda x: 1 / (x * x + 1)),
    "sum_all": (lambda x: x.sum(), fnp.sum),
    "mean_all": (lambda x: x.mean() if x.numel() else x.sum(), lambda x: fnp.mean(x) if x.size else fnp.sum(x)),
    "relu": (torch.relu, lambda x: fnp.where(x > 0, x, 0.0)),
    "reshape": (lambda x: x.reshape(-1) * x.reshape(-1), lambda x: fnp.ravel(x) * fnp.ravel(x)),
    "transpose": (lambda x: x.t() if x.dim() <= 2 else x.transpose(0, 1), lambda x: x.T if x.ndim <= 2 else fnp.swapaxes(x, 0, 1)),
    "clone_mul": (lambda x: x.clone() * x, lambda x: x * x),
}
BINARY = {
    "add": (lambda a, b: a + b, lambda a, b: a + b),
    "sub": (lambda a, b: a - b, lambda a, b: a - b),
    "mul": (lambda a, b: a * b, lambda a, b: a * b),
    "div": (lambda a, b: a / (b * b + 1), lambda a, b: a / (b * b + 1)),
    "maximum": (torch.maximum, fnp.maximum),
    "minimum": (torch.minimum, fnp.minimum),
    "where": (lambda a, b: torch.where(a > b, a * b, a - b), lambda a, b: fnp.where(a > b, a * b, a - b)),
}


def _both(f_compat, f_fnp, arrays):
    """(value, grads) from compat's backward and from fg.grad, for sum(f(*arrays))."""
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    out = f_compat(*ts)
    out.sum().backward()
    argnums = tuple(range(len(arrays)))
    fg_grads = fg.grad(lambda *xs: fnp.sum(f_fnp(*xs)), argnums=argnums)(*[fg.asarray(a) for a in arrays])
    fg_out = f_fnp(*[fg.asarray(a) for a in arrays])
    return out, [t.grad for t in ts], fg_out, fg_grads


def _assert_same(out, grads, fg_out, fg_grads, shapes_):
    np.testing.assert_allclose(out.detach().numpy(), np.asarray(fg_out), rtol=1e-6, atol=1e-12)
    for g, fgg, s in zip(grads, fg_grads, shapes_):
        g = np.zeros(s) if g is None else g.numpy()
        assert g.shape == tuple(s)
        np.testing.assert_allclose(g, np.asarray(fgg), rtol=1e-6, atol=1e-12)


@pytest.mark.parametrize("name", sorted(UNARY))
@given(x=host_arrays(shapes(max_dims=3, max_side=3), elements=floats(-2, 2)))
def test_unary_matches_core(name, x):
    fc, ff = UNARY[name]
    _assert_same(*_both(fc, ff, [x]), [x.shape])


@pytest.mark.parametrize("name", sorted(BINARY))
@given(data=st.data())
def test_binary_broadcasting_matches_core(name, data):
    s1, s2 = data.draw(mutually_broadcastable_shapes(2, max_dims=3, max_side=3))
    a = data.draw(host_arrays(s1, elements=floats(-2, 2)))
    b = data.draw(host_arrays(s2, elements=floats(-2, 2, avoid=(0.0,))))
    fc, ff = BINARY[name]
    _assert_same(*_both(fc, ff, [a, b]), [s1, s2])


@given(data=st.data())
def test_reductions_over_dims_match_core(data):
    x = data.draw(host_arrays(shapes(min_dims=1, max_dims=3, min_side=1, max_side=3), elements=floats(-2, 2)))
    dim = data.draw(st.integers(-x.ndim, x.ndim - 1))
    keep = data.draw(st.booleans())
    _assert_same(*_both(lambda t: t.sum(dim, keepdim=keep) ** 2,
                        lambda a: fnp.sum(a, axis=dim, keepdims=keep) ** 2, [x]), [x.shape])
    _assert_same(*_both(lambda t: t.mean(dim) * t.mean(dim), lambda a: fnp.mean(a, axis=dim) ** 2, [x]), [x.shape])
    _assert_same(*_both(lambda t: t.max(), fnp.max, [x]), [x.shape])


@given(data=st.data())
def test_matmul_and_indexing_match_core(data):
    n, k, m = (data.draw(st.integers(1, 3)) for _ in range(3))
    a = data.draw(host_arrays((n, k), elements=floats(-2, 2)))
    b = data.draw(host_arrays((k, m), elements=floats(-2, 2)))
    _assert_same(*_both(lambda x, y: (x @ y).tanh(), lambda x, y: fnp.tanh(x @ y), [a, b]), [a.shape, b.shape])
    idx = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4))
    _assert_same(*_both(lambda x: x[torch.tensor(idx)] * 3, lambda x: x[np.array(idx)] * 3, [a]), [a.shape])
    _assert_same(*_both(lambda x: x[:, ::2] * x[:, ::2], lambda x: x[:, ::2] * x[:, ::2], [a]), [a.shape])


@given(x=host_arrays(shapes(min_dims=1, max_dims=2, min_side=1, max_side=3), elements=floats(-2, 2)))
def test_second_derivative_matches_core(x):
    t = torch.tensor(x, requires_grad=True)
    (g,) = torch.autograd.grad((t.sin() * t).sum(), t, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), t)
    d1 = fg.grad(lambda a: fnp.sum(fnp.sin(a) * a))
    d2 = fg.grad(lambda a: fnp.sum(d1(a)))
    np.testing.assert_allclose(g.detach().numpy(), np.asarray(d1(fg.asarray(x))), rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(h.numpy(), np.asarray(d2(fg.asarray(x))), rtol=1e-6, atol=1e-12)


@given(x=host_arrays((3,), dtype=np.float32, elements=floats(-2, 2, width=32)))
def test_float32_stays_float32(x):
    t = torch.from_numpy(x.copy()).requires_grad_()
    (t * 2.5 + t.exp()).sum().backward()
    assert t.grad.dtype == torch.float32
    g = fg.grad(lambda a: fnp.sum(a * 2.5 + fnp.exp(a)))(fg.asarray(x))
    np.testing.assert_allclose(t.grad.numpy(), np.asarray(g), rtol=1e-6)
