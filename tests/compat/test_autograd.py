"""Autograd semantics of funcgrad.compat (PyTorch's, per docs/compat.md)."""

import threading

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat.autograd import Function


def test_second_backward_fails_only_when_something_was_saved():
    x = torch.ones(3, requires_grad=True)
    y = (x + 1).sum()
    y.backward()
    y.backward()
    assert x.grad.tolist() == [2.0] * 3
    z = (x * x).sum()
    z.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        z.backward()


def test_ties_max_split_dim_max_to_index_elementwise_half():
    x = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
    x.max().backward()
    assert x.grad.tolist() == [0.0, 0.5, 0.5]
    x.grad = None
    x.view(1, 3).max(1)[0].sum().backward()
    assert sorted(x.grad.tolist()) == [0.0, 0.0, 1.0]
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([1.0, 3.0], requires_grad=True)
    torch.max(a, b).sum().backward()
    assert a.grad.tolist() == [0.5, 0.0] and b.grad.tolist() == [0.5, 1.0]


def test_requires_grad_on_non_leaf_or_int_raises():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match="leaf variables"):
        y.requires_grad = True
    with pytest.raises(RuntimeError, match="only Tensors of floating point"):
        torch.ones(2, dtype=torch.int64, requires_grad=True)


def test_detach_write_is_caught_but_data_write_is_not():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.detach().zero_()
    with pytest.raises(RuntimeError, match=r"modified by an inplace operation.*output 0 of Exp, is at version 1; "
                                           r"expected version 0"):
        y.sum().backward()
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.data.fill_(5.0)
    y.sum().backward()
    assert x.grad.tolist() == [5.0, 5.0]  # silently uses the new values, as PyTorch


def test_index_assignment_inside_a_graph():
    x = torch.ones(3, requires_grad=True)
    w = torch.tensor(2.0, requires_grad=True)
    y = x * 3
    y[0] = w * w
    assert y.grad_fn is not None
    (y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert x.grad.tolist() == [0.0, 6.0, 9.0] and w.grad.item() == 4.0
    leaf = torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        leaf[0] = 2.0
    with torch.no_grad():
        leaf[0] = 2.0
    assert leaf.tolist() == [2.0, 1.0, 1.0]


def test_in_place_on_views_rebases_the_base():
    x = torch.ones(2, 3, requires_grad=True)
    y = x * 1
    row = y[1]
    row.mul_(torch.tensor([1.0, 2.0, 3.0]))
    assert y.grad_fn.name() == "CopySlices" or y.grad_fn is not None
    (y * y).sum().backward()
    assert x.grad.tolist() == [[2.0, 2.0, 2.0], [2.0, 8.0, 18.0]]
    z = torch.tensor([-1.0, 2.0], requires_grad=True) * 1
    z.relu_()
    assert z.tolist() == [0.0, 2.0]
    s = torch.tensor([0.0], requires_grad=True)
    u = s * 1
    u.sigmoid_()
    u.backward()
    assert s.grad.tolist() == [0.25]


def test_writing_to_expanded_tensor_raises():
    x = torch.zeros(3).expand(2, 3)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        x.add_(1)


def test_saved_tensor_modified_names_versions():
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    z = y * y
    y.add_(1)
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0 instead"):
        z.sum().backward()


def test_hooks_chain_and_retain_grad_sees_the_final_value():
    x = torch.ones(3, requires_grad=True)
    x.register_hook(lambda g: g * 2)
    x.register_hook(lambda g: g + 1)
    (x * 3).sum().backward()
    assert x.grad.tolist() == [7.0] * 3
    for order in ("retain_first", "hook_first"):
        x = torch.ones(3, requires_grad=True)
        y = x * 2
        if order == "retain_first":
            y.retain_grad()
            y.register_hook(lambda g: g * 10)
        else:
            y.register_hook(lambda g: g * 10)
            y.retain_grad()
        y.sum().backward()
        assert y.grad.tolist() == [10.0] * 3 and x.grad.tolist() == [20.0] * 3
    seen = []
    x = torch.ones(2, requires_grad=True)
    h = x.register_hook(seen.append)
    h.remove()
    (x * 2).sum().backward()
    assert seen == []


def test_grad_of_non_leaf_is_none_unless_retained():
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.sum().backward()
    with pytest.warns(UserWarning, match="not a leaf"):
        assert y.grad is None


def test_backward_inputs_and_autograd_grad_options():
    x = torch.ones(2, requires_grad=True)
    z = torch.ones(2, requires_grad=True)
    (x * z).sum().backward(inputs=[z])
    assert x.grad is None and z.grad.tolist() == [1.0, 1.0]
    y = (x * 2).sum()
    gx, gz = torch.autograd.grad(y, [x, z], allow_unused=True)
    assert gx.tolist() == [2.0, 2.0] and gz is None
    with pytest.raises(RuntimeError, match="appears to not have been used"):
        torch.autograd.grad((x * 2).sum(), [x, z])
    (g,) = torch.autograd.grad(x * 3, x, grad_outputs=torch.tensor([1.0, 2.0]))
    assert g.tolist() == [3.0, 6.0]
    with pytest.raises(RuntimeError, match="does not require grad and does not have a grad_fn"):
        torch.ones(2).sum().backward()
    with pytest.raises(RuntimeError, match="Mismatch in shape"):
        (x * 2).backward(torch.ones(3))


def test_higher_order_to_third():
    x = torch.tensor([2.0], requires_grad=True)
    y = x ** 4
    (g1,) = torch.autograd.grad(y, x, create_graph=True)
    (g2,) = torch.autograd.grad(g1, x, create_graph=True)
    (g3,) = torch.autograd.grad(g2, x)
    assert (g1.item(), g2.item(), g3.item()) == (32.0, 48.0, 48.0)
    x.grad = None
    y = (x.sin() * x).sum()
    y.backward(create_graph=True)
    g = x.grad
    x.grad = None
    g.backward()
    v = 2.0
    assert x.grad.item() == pytest.approx(2 * np.cos(v) - v * np.sin(v))


def test_grad_modes_nest_decorate_and_are_thread_local():
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        assert not (x * 2).requires_grad
        with torch.enable_grad():
            assert (x * 2).requires_grad
    with torch.set_grad_enabled(False):
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()
    with torch.inference_mode():
        assert not (x * 2).requires_grad

    @torch.no_grad()
    def f(v):
        return v * 2
    assert not f(x).requires_grad and torch.is_grad_enabled()
    seen = []
    with torch.no_grad():
        th = threading.Thread(target=lambda: seen.append(torch.is_grad_enabled()))
        th.start()
        th.join()
    assert seen == [True]


class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        r = x.exp()
        ctx.save_for_backward(r)
        return r

    @staticmethod
    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r


class Broadcasting(Function):
    @staticmethod
    def forward(ctx, x, y):
        assert ctx.needs_input_grad == (True, False)
        return x * y

    @staticmethod
    def backward(ctx, g):
        return g, torch.ones(5)  # y needs no grad: ignored; x's (3,) grad is summed to (1,)


def test_custom_function_double_backward_and_broadcast_grads():
    x = torch.tensor([0.5], requires_grad=True)
    y = Exp.apply(x)
    assert y.grad_fn.name() == "ExpBackward"
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    (h,) = torch.autograd.grad(g, x)
    assert g.item() == pytest.approx(np.exp(0.5)) and h.item() == pytest.approx(np.exp(0.5))
    a = torch.tensor([2.0], requires_grad=True)
    Broadcasting.apply(a, torch.ones(3)).sum().backward()
    assert a.grad.tolist() == [3.0]
    assert torch.autograd.gradcheck(Exp.apply, (torch.rand(3, dtype=torch.float64, requires_grad=True),))
    assert torch.autograd.gradgradcheck(Exp.apply, (torch.rand(2, dtype=torch.float64, requires_grad=True),))


def test_gradcheck_catches_a_wrong_backward():
    class Wrong(Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, g):
            return g  # should be 2 x g

    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    assert not torch.autograd.gradcheck(Wrong.apply, (x,), raise_exception=False)
    with pytest.raises(RuntimeError, match="Jacobian mismatch"):
        torch.autograd.gradcheck(Wrong.apply, (x,))


def test_functional_api():
    F = torch.autograd.functional
    x = torch.tensor([1.0, 2.0])
    J = F.jacobian(lambda v: v ** 2, x)
    assert J.tolist() == [[2.0, 0.0], [0.0, 4.0]]
    H = F.hessian(lambda v: (v ** 3).sum(), x)
    assert H.tolist() == [[6.0, 0.0], [0.0, 12.0]]
    out, vjp = F.vjp(lambda v: v ** 2, x, torch.tensor([1.0, 1.0]))
    assert out.tolist() == [1.0, 4.0] and vjp.tolist() == [2.0, 4.0]
    out, jvp = F.jvp(lambda v: v ** 2, x, torch.tensor([1.0, 0.0]))
    assert jvp.tolist() == [2.0, 0.0]
    out, hvp = F.hvp(lambda v: (v ** 3).sum(), x, torch.tensor([1.0, 1.0]))
    assert hvp.tolist() == [6.0, 12.0]


def test_detect_anomaly_names_the_forward_op():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with pytest.warns(UserWarning, match="Anomaly Detection"):
        ctx = torch.autograd.detect_anomaly()
    with ctx:
        y = (x / x).sum()
        with pytest.raises(RuntimeError, match=r"Function 'DivBackward0' returned nan values in its 1th output"
                                               r"(.|\n)*test_autograd.py"):
            y.backward()


def test_variable_volatile_and_retain_variables():
    with pytest.warns(DeprecationWarning):
        v = torch.autograd.Variable(torch.ones(2), requires_grad=True)
    assert v.requires_grad and v.is_leaf
    y = (v * v).sum()
    with pytest.warns(DeprecationWarning, match="retain_graph"):
        y.backward(retain_variables=True)
    y.backward()
    assert v.grad.tolist() == [4.0, 4.0]


def test_grad_accumulates_in_place():
    x = torch.ones(2, requires_grad=True)
    (x * 2).sum().backward()
    g = x.grad
    (x * 2).sum().backward()
    assert g is x.grad and g.tolist() == [4.0, 4.0]


def test_leaf_and_grad_fn_names():
    x = torch.ones(2, 2, requires_grad=True)
    assert x.is_leaf and x.grad_fn is None
    y = (x + 2) * 3
    assert repr(y).endswith("grad_fn=<MulBackward0>)")
    assert y.grad_fn.next_functions[0][0].name() == "AddBackward0"
    assert y.grad_fn.next_functions[0][0].next_functions[0][0].variable is x
    assert y.mean().grad_fn.name() == "MeanBackward0" and x.t().grad_fn.name() == "TBackward0"
    assert x.view(4).grad_fn.name() == "ViewBackward0" and x[0].grad_fn.name() == "SelectBackward0"


def test_funcgrad_numpy_functions_accept_tensors():
    import funcgrad.numpy as fnp

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = fnp.sum(fnp.sin(x) * x)
    assert isinstance(y, torch.Tensor)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), np.cos([1.0, 2.0]) * [1.0, 2.0] + np.sin([1.0, 2.0]), rtol=1e-6)


def test_functional_transforms_see_through_tensors():
    """The compat trace is level 0, below fg.grad: the derivative of a function of a
    Tensor is a Tensor, still connected to compat's graph."""
    import funcgrad as fg
    import funcgrad.numpy as fnp

    w = torch.tensor([3.0, 4.0], dtype=torch.float64, requires_grad=True)
    h = fg.grad(lambda a: fnp.sum(a * a * w))(fg.asarray([1.0, 2.0]))
    assert isinstance(h, torch.Tensor) and h.tolist() == [6.0, 16.0]
    h.sum().backward()  # d/dw of sum(2 a w) = 2 a
    assert w.grad.tolist() == [2.0, 4.0]


def test_accumulated_grad_never_aliases_the_given_gradient():
    x = torch.ones(2, requires_grad=True)
    g = torch.tensor([1.0, 2.0])
    (x + 1).backward(g)
    (x + 1).backward(g)
    assert x.grad.tolist() == [2.0, 4.0] and g.tolist() == [1.0, 2.0]


def test_mul_saves_an_operand_only_for_the_other_ones_gradient():
    # PyTorch's MulBackward0: x * 0.2 or x * mask keeps nothing of x, so x may be overwritten afterwards
    w = torch.ones(3, requires_grad=True)
    x = w * 2
    y = x * 0.2
    z = x * torch.tensor([1.0, 0.0, 1.0])
    x.add_(100.0)
    (y + z).sum().backward()
    assert np.allclose(w.grad.numpy(), [2.4, 0.4, 2.4])
    a = torch.ones(2, requires_grad=True)
    b = a * 3
    c = b * a  # both need a gradient: both are kept, and overwriting b is caught
    b.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        c.sum().backward()
