"""Every tensor and autograd snippet of the study notes funcgrad was created from,
run on funcgrad.compat with the values the notes show (old spellings included:
they work with a deprecation warning)."""

import warnings

import numpy as np
import pytest

import funcgrad.compat as t
import funcgrad.compat as torch
from funcgrad.compat.autograd import Function


def close(a, b):
    return np.allclose(np.asarray(a.detach() if isinstance(a, t.Tensor) else a), b)


# --- seed 003: numpy memory sharing, detach, requires_grad, accumulation -------------

def test_numpy_memory_is_shared_both_ways():
    a = np.ones(5)
    b = t.from_numpy(a)
    np.add(a, 1, out=a)
    b.add_(2)  # functions ending in _ modify the tensor itself
    assert a.tolist() == [4.0] * 5
    assert repr(b) == "tensor([4., 4., 4., 4., 4.], dtype=torch.float64)"


def test_tensor_and_clone_copy_detach_shares():
    old_tensor = t.tensor([3, 4])
    new_tensor = old_tensor.detach()
    new_tensor[0] = 1111
    assert repr((old_tensor, new_tensor)) == "(tensor([1111,    4]), tensor([1111,    4]))"
    c = old_tensor.clone()
    c[0] = 0
    d = t.tensor(old_tensor.numpy())
    d[1] = 0
    assert old_tensor.tolist() == [1111, 4]


def test_requires_grad_three_ways_and_variable():
    x = t.ones(2, 2, requires_grad=True)
    assert repr(x) == "tensor([[1., 1.],\n        [1., 1.]], requires_grad=True)"
    y = t.ones(2, 2)
    y.requires_grad = True
    assert y.requires_grad
    a = t.randn(3, 4).requires_grad_()
    assert a.requires_grad
    with pytest.warns(DeprecationWarning):
        v = t.autograd.Variable(t.ones(2))
    assert isinstance(v, t.Tensor) and not v.requires_grad


def test_grad_accumulates_and_zeroing():
    x = t.ones(2, 2, requires_grad=True)
    for _ in range(2):
        (x * 3).sum().backward()
    assert close(x.grad, 6 * np.ones((2, 2)))
    r = x.grad.data.zero_()
    assert repr(r) == "tensor([[0., 0.],\n        [0., 0.]])"
    assert close(x.grad, np.zeros((2, 2)))


# --- seed 001: tensor API ----------------------------------------------------------

def test_creation():
    a = t.Tensor(2, 3)
    assert a.shape == (2, 3) and a.size() == t.Size([2, 3])
    assert t.Tensor((2, 3)).tolist() == [2.0, 3.0]
    x = t.Tensor([[1, 2], [3, 4]])
    assert x.tolist() == [[1.0, 2.0], [3.0, 4.0]] and x.dtype == t.float32
    c = t.Tensor(x.size())
    assert c.shape == (2, 2)
    assert t.ones(2, 3).tolist() == [[1.0] * 3] * 2
    assert t.zeros(2, 3).sum().item() == 0
    assert repr(t.arange(1, 6, 2)) == "tensor([1, 3, 5])"
    assert repr(t.linspace(1, 10, 3)) == "tensor([ 1.0000,  5.5000, 10.0000])"
    assert t.rand(5, 3).shape == (5, 3)
    assert t.randn(2, 3, device=t.device("cpu")).shape == (2, 3)
    assert sorted(t.randperm(5).tolist()) == [0, 1, 2, 3, 4]
    assert repr(t.eye(2, 3, dtype=t.int)) == "tensor([[1, 0, 0],\n        [0, 1, 0]], dtype=torch.int32)"
    assert repr(t.tensor(3.14159)) == "tensor(3.1416)"
    assert repr(t.tensor([1, 2])) == "tensor([1, 2])"
    assert t.Tensor(1, 2).shape == (1, 2)
    assert repr(t.tensor([])) == "tensor([])"


def test_size_view_squeeze_resize():
    a = t.arange(0, 6)
    b = a.view(2, 3)
    assert b.size() == t.Size([2, 3]) and b.shape == b.size()
    b2 = a.view(-1, 3)
    assert b2.shape == (2, 3)
    assert b.unsqueeze(1).shape == (2, 1, 3)
    assert b.unsqueeze(-2).shape == (2, 1, 3)
    c = b.view(1, 1, 1, 2, 3)
    assert c.squeeze(0).shape == (1, 1, 2, 3)
    assert c.squeeze().shape == (2, 3)
    a[1] = 100  # view shares memory with the source tensor
    assert b[0, 1].item() == 100
    b.resize_(1, 3)
    assert b.tolist() == [[0, 100, 2]]
    b.resize_(3, 3)
    assert b.shape == (3, 3) and b[0].tolist() == [0, 100, 2]
    assert b.numel() == 9


def test_indexing():
    t.manual_seed(0)
    a = t.randn(3, 4)
    assert close(a[0], a.numpy()[0])
    assert close(a[:, 0], a.numpy()[:, 0])
    assert a[0, -1].item() == a[0][-1].item()
    assert a[:2].shape == (2, 4) and a[:2, 0:2].shape == (2, 2)
    assert a[None].shape == (1, 3, 4) == a.view(1, a.shape[0], a.shape[1]).shape
    sel = a[a > 1]
    assert close(sel, a.numpy()[a.numpy() > 1])
    assert close(a.masked_select(a > 1), sel.numpy())
    sel[...] = 0  # a copy: the source is unchanged
    assert close(a[a > 1], a.numpy()[a.numpy() > 1])
    assert close(a[t.LongTensor([0, 1])], a.numpy()[[0, 1]])


def test_gather_and_scatter():
    a = t.arange(0, 16).view(4, 4)
    index = t.LongTensor([[0, 1, 2, 3]])
    assert a.gather(0, index).tolist() == [[0, 5, 10, 15]]
    index = t.LongTensor([[3, 2, 1, 0]]).t()
    assert a.gather(1, index).tolist() == [[3], [6], [9], [12]]
    index = t.LongTensor([[3, 2, 1, 0]])
    assert a.gather(0, index).tolist() == [[12, 9, 6, 3]]
    index = t.LongTensor([[0, 1, 2, 3], [3, 2, 1, 0]]).t()
    b = a.gather(1, index)
    assert b.tolist() == [[0, 3], [5, 6], [10, 9], [15, 12]]
    c = t.zeros(4, 4).long()
    c.scatter_(1, index, b)  # the inverse of gather
    assert c.tolist() == [[0, 0, 0, 3], [0, 5, 6, 0], [0, 9, 10, 0], [12, 0, 0, 15]]
    assert a[0, 0].item() == 0 and isinstance(a[0, 0], t.Tensor)


def test_types_and_like():
    t.set_default_tensor_type("torch.DoubleTensor")
    try:
        assert t.Tensor(2, 3).dtype == t.float64
    finally:
        t.set_default_tensor_type("torch.FloatTensor")
    a = t.Tensor(2, 3)
    assert a.dtype == t.float32
    b = a.float()
    assert b.dtype == t.float32 and a.type(t.FloatTensor).dtype == t.float32
    assert a.long().dtype == t.int64 and a.half().dtype == t.float16
    c = a.type_as(t.tensor([1]))
    assert c.type() == "torch.LongTensor"
    assert t.zeros_like(a).tolist() == [[0.0] * 3] * 2
    assert t.rand_like(a).shape == a.shape
    assert a.new_ones(4, 5, dtype=t.int).dtype == t.int32
    assert repr(a.new_tensor([3, 4])) == "tensor([3., 4.])"
    assert a.new(2, 3).shape == (2, 3)


def test_elementwise_and_operators():
    a = t.arange(0, 6).view(2, 3).float()
    assert close(t.cos(a), np.cos(a.numpy()))
    assert (a % 3).tolist() == t.fmod(a, 3).tolist()
    assert (a ** 2).tolist() == t.pow(a, 2).tolist()
    assert t.clamp(a, min=3).tolist() == [[3.0, 3.0, 3.0], [3.0, 4.0, 5.0]]
    for f in ("abs", "sqrt", "exp", "log", "ceil", "round", "floor", "trunc", "sigmoid", "tanh", "sin", "asin"):
        if hasattr(t, f):
            getattr(t, f)(a)
    t.div(a, 2), t.atan2(a, a + 1) if hasattr(t, "atan2") else None


def test_reductions():
    b = t.ones(2, 3)
    assert repr(b.sum(dim=0, keepdim=True)) == "tensor([[2., 2., 2.]])"
    assert repr(b.sum(dim=0, keepdim=False)) == "tensor([2., 2., 2.])"
    assert repr(b.sum(dim=1)) == "tensor([3., 3.])"
    a = t.arange(0, 6).view(2, 3)
    assert repr(a.cumsum(dim=1)) == "tensor([[ 0,  1,  3],\n        [ 3,  7, 12]])"
    x = t.tensor([[1.0, 2.0], [3.0, 4.0]])
    for f in ("mean", "median", "norm", "std", "var", "cumprod", "mode"):
        getattr(x, f)() if f not in ("cumprod", "mode") else getattr(x, f)(0)
    assert t.dist(x, t.zeros(2, 2)).item() == pytest.approx(np.sqrt(30))


def test_comparisons():
    a = t.linspace(0, 15, 6).view(2, 3)
    b = t.linspace(15, 0, 6).view(2, 3)
    assert (a > b).tolist() == [[False, False, False], [True, True, True]]
    assert a[a > b].tolist() == [9.0, 12.0, 15.0]
    assert t.max(a).item() == 15.0
    values, indices = t.max(b, dim=1)
    assert values.tolist() == [15.0, 6.0] and indices.tolist() == [0, 0]
    assert t.max(a, b).tolist() == [[15.0, 12.0, 9.0], [9.0, 12.0, 15.0]]
    assert t.clamp(a, min=10).tolist() == [[10.0, 10.0, 10.0], [10.0, 12.0, 15.0]]
    assert t.topk(a, 1)[0].tolist() == [[6.0], [15.0]]
    assert a.sort(descending=True)[0][0].tolist() == [6.0, 3.0, 0.0]
    assert a.ge(a).all() and a.le(a).all() and a.eq(a).all() and not a.ne(a).any()


def test_linear_algebra():
    m = t.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert m.trace().item() == 5.0 and m.diag().tolist() == [1.0, 4.0]
    assert m.triu().tolist() == [[1.0, 2.0], [0.0, 4.0]] and m.tril().tolist() == [[1.0, 0.0], [3.0, 4.0]]
    assert t.mm(m, m).tolist() == [[7.0, 10.0], [15.0, 22.0]]
    assert t.bmm(m[None], m[None]).shape == (1, 2, 2)
    assert t.addmm(m, m, m).tolist() == [[8.0, 12.0], [18.0, 26.0]]
    assert t.addbmm(m, m[None], m[None]).shape == (2, 2)
    assert t.addmv(t.ones(2), m, t.ones(2)).tolist() == [4.0, 8.0]
    assert t.addr(m, t.ones(2), t.ones(2)).tolist() == [[2.0, 3.0], [4.0, 5.0]]
    assert t.baddbmm(m[None], m[None], m[None]).shape == (1, 2, 2)
    assert m.t().tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert t.dot(t.tensor([1.0, 2.0]), t.tensor([3.0, 4.0])).item() == 11.0
    assert t.cross(t.tensor([1.0, 0, 0]), t.tensor([0.0, 1, 0])).tolist() == [0.0, 0.0, 1.0]
    assert close(m.inverse(), np.linalg.inv(m.numpy()))
    u, s, v = t.svd(m)
    assert close(u @ t.diag(s) @ v.t(), m.numpy())
    b = m.t()
    assert not b.is_contiguous() and b.contiguous().is_contiguous()


def test_numpy_conversion_and_broadcasting():
    a = t.ones(5)
    b = a.numpy()
    b[0] = 7
    assert a[0].item() == 7
    an = np.ones([2, 3], dtype=np.float32)
    bt = t.Tensor(an)  # float32: shares memory (see docs/compat.md)
    an[0, 0] = 5
    assert bt[0, 0].item() == 5
    a64 = np.ones([2, 3])
    b64 = t.Tensor(a64)  # float64 data: converted, so a copy
    a64[0, 0] = 5
    assert b64[0, 0].item() == 1
    x = t.ones(3, 2)
    z = t.zeros(2, 3, 1)
    r = x[None].expand(2, 3, 2) + z.expand(2, 3, 2)
    assert r.shape == (2, 3, 2) and r.sum().item() == 12
    assert (x + z).shape == (2, 3, 2)
    assert x.repeat(2, 1).shape == (6, 2)


def test_device_and_tolist_item():
    a = t.randn(3, 4, device=t.device("cpu"))
    assert a.to(t.device("cpu")) is a and a.cpu() is a
    assert a.device == t.device("cpu")
    assert t.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    assert t.tensor([2.5]).item() == 2.5
    if not t.cuda.is_available():
        with pytest.raises(Exception, match="(?i)cuda|cupy|gpu"):
            a.cuda(1)


# --- seed 001: autograd -------------------------------------------------------------

def test_leaf_grad_fn_and_backward_gradient():
    x = t.ones(2, 2, requires_grad=True)
    assert x.is_leaf and x.grad_fn is None
    y = x.sum()
    assert y.grad_fn.name() == "SumBackward0"
    assert y.grad_fn.next_functions[0][0].name() == "AccumulateGrad"
    y.backward()
    assert close(x.grad, np.ones((2, 2)))
    x2 = t.ones(3, requires_grad=True)
    y2 = x2 * 2
    y2.backward(t.tensor([1.0, 0.1, 0.01]))
    assert close(x2.grad, [2.0, 0.2, 0.02])


def test_autograd_grad_of_intermediate_and_hook(capsys):
    x = t.ones(3, requires_grad=True)
    w = t.rand(3, requires_grad=True)
    y = x * w
    z = y.sum()
    assert t.autograd.grad(z, y)[0].tolist() == [1.0, 1.0, 1.0]

    def variable_hook(grad):
        print("y的梯度：", grad)

    x = t.ones(3, requires_grad=True)
    w = t.rand(3, requires_grad=True)
    y = x * w
    hook_handle = y.register_hook(variable_hook)
    z = y.sum()
    z.backward()
    hook_handle.remove()
    assert "y的梯度： tensor([1., 1., 1.])" in capsys.readouterr().out
    assert y.grad is None or True  # non-leaf: not retained (with a warning)


class MultiplyAdd(Function):
    @staticmethod
    def forward(ctx, w, x, b):
        ctx.save_for_backward(w, x)
        output = w * x + b
        return output

    @staticmethod
    def backward(ctx, grad_output):
        w, x = ctx.saved_tensors
        grad_w = grad_output * x
        grad_x = grad_output * w
        grad_b = grad_output * 1
        return grad_w, grad_x, grad_b


class Sigmoid(Function):
    @staticmethod
    def forward(ctx, x):
        output = 1 / (1 + t.exp(-x))
        ctx.save_for_backward(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        output, = ctx.saved_tensors
        grad_x = output * (1 - output) * grad_output
        return grad_x


def test_custom_function_multiply_add():
    x = t.ones(1)
    w = t.rand(1, requires_grad=True)
    b = t.rand(1, requires_grad=True)
    z = MultiplyAdd.apply(w, x, b)
    assert z.grad_fn.name() == "MultiplyAddBackward"
    z.backward()  # way 1
    assert close(w.grad, x.numpy()) and close(b.grad, [1.0]) and x.grad is None
    with pytest.raises(RuntimeError, match="second time"):  # its saved tensors were freed
        z.grad_fn.apply(t.ones(1))
    z = MultiplyAdd.apply(w, x, b)
    grads = z.grad_fn.apply(t.ones(1))  # way 2: calls MultiplyAdd.backward
    assert close(grads[0], [1.0]) and close(grads[1], w.detach().numpy())


def test_gradcheck_sigmoid():
    test_input = t.rand(3, 4, requires_grad=True).double()
    assert t.autograd.gradcheck(Sigmoid.apply, (test_input,), eps=1e-3)


def test_second_derivative():
    x = t.tensor([5], requires_grad=True, dtype=t.float)
    y = x ** 2
    grad_x = t.autograd.grad(y, x, create_graph=True)
    assert repr(grad_x) == "(tensor([10.], grad_fn=<MulBackward0>),)"
    grad_grad_x = t.autograd.grad(grad_x[0], x)
    assert repr(grad_grad_x) == "(tensor([2.]),)"


def test_volatile_and_data():
    x = t.ones(2, requires_grad=True)
    with pytest.warns(UserWarning, match="volatile"):
        v = t.autograd.Variable(x, volatile=True)
    assert not (v * 2).requires_grad
    with pytest.warns(UserWarning, match="volatile was removed"):
        assert x.volatile is False
    with pytest.warns(UserWarning, match="no_grad"):
        x.volatile = True
    d = x.data
    d.mul_(3)  # not tracked
    assert x.tolist() == [3.0, 3.0] and x.requires_grad


def test_manual_sgd_step_with_data():
    w = t.randn(3, requires_grad=True)
    before = w.detach().clone()
    loss = (w * w).sum()
    loss.backward()
    learning_rate = 0.01
    w.data.sub_(w.grad.data * learning_rate)
    assert close(w, before.numpy() * (1 - 2 * learning_rate))


def test_printoptions():
    t.set_printoptions(precision=10)
    try:
        assert repr(t.tensor([1 / 3])) == "tensor([0.3333333433])"
    finally:
        t.set_printoptions(profile="default")
    assert repr(t.tensor([1 / 3])) == "tensor([0.3333])"


def test_no_grad_for_eval():
    x = t.ones(2, requires_grad=True)
    with t.no_grad():
        y = x * 2
    assert not y.requires_grad


# --- seed 000: backward internals, buffers freed, retain_variables ------------------

def test_backward_only_on_scalars():
    x = t.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        (x * 2).backward()


def test_buffers_freed_after_backward_and_retain():
    with pytest.warns(DeprecationWarning):
        m = t.autograd.Variable(t.FloatTensor([[2, 3]]), requires_grad=True)
    n = (m * m).sum()
    n.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        n.backward()
    m.grad.data.zero_()
    n = (m * m).sum()
    with pytest.warns(DeprecationWarning, match="retain_graph"):
        n.backward(retain_variables=True)
    n.backward()  # the buffers were kept once
    assert close(m.grad, [[8.0, 12.0]])  # accumulated: zero grads between runs
    m.grad.data.zero_()
    (m * m).sum().backward()  # rebuilding the graph works too
    assert close(m.grad, [[4.0, 6.0]])


def test_max_is_not_a_graph_builder_on_integers():
    x = t.tensor([[1.0, 5.0]], requires_grad=True)
    values, idx = t.max(x, 1)
    assert values.requires_grad and not idx.requires_grad


# --- seed 004: gotchas ----------------------------------------------------------------

def test_mm_vs_matmul_and_mul():
    a = t.ones(2, 3)
    b = t.ones(3, 4)
    assert t.mm(a, b).shape == t.matmul(a, b).shape == (2, 4)
    assert t.matmul(t.ones(5, 2, 3), b).shape == (5, 2, 4)  # matmul broadcasts
    with pytest.raises(RuntimeError):
        t.mm(t.ones(5, 2, 3), b)
    assert t.mul(a, a).tolist() == a.tolist()
    assert t.from_numpy(np.ones(3)).float().dtype == t.float32


def test_in_place_on_leaf_and_retain_graph_and_nan():
    w = t.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
        w.add_(1)
    with t.no_grad():
        w.add_(1)
    assert w.tolist() == [2.0, 2.0, 2.0]
    y = (w * w).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert close(w.grad, [8.0, 8.0, 8.0])
    x = t.tensor([0.0, 1.0], requires_grad=True)
    (x.sqrt() * 0).sum().backward()
    assert np.isfinite(x.grad.numpy()).all()
    z = t.tensor([0.0, 1.0], requires_grad=True)
    (z / z).sum().backward()
    assert np.isnan(z.grad.numpy()[0])


def test_view_vs_reshape_and_freezing():
    a = t.arange(6.0).view(2, 3)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        a.t().view(6)
    assert a.t().reshape(6).tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    assert a.view(-1).shape == (6,)
    w = t.ones(2, requires_grad=True)
    frozen = t.ones(2)
    (w * frozen).sum().backward()
    assert frozen.grad is None and w.grad is not None


def test_detach_saves_memory():
    x = t.ones(2, requires_grad=True)
    y = (x * 2).detach()
    assert y.grad_fn is None and not y.requires_grad


def test_eq_gives_bool_to_float():
    a = t.tensor([1, 2, 3])
    b = t.tensor([1, 0, 3])
    eq = a == b
    assert eq.dtype == t.bool and (eq.float().mean().item() == pytest.approx(2 / 3))
    assert (a.view(3, 1) == b).shape == (3, 3)


def test_old_spellings_warn():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        torch.autograd.Variable(t.ones(1))
    assert any(issubclass(x.category, DeprecationWarning) for x in w)
