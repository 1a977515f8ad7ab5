"""torch.utils.checkpoint: gradients equal the plain ones, parameters get gradients, rng replay, warnings."""

import warnings

import numpy as np
import pytest

import funcgrad.compat as torch
from funcgrad.compat import nn
from funcgrad.compat.utils.checkpoint import checkpoint, checkpoint_sequential


def _model():
    torch.manual_seed(0)
    return nn.Linear(4, 5), nn.Linear(5, 2)


def _grads(params):
    return [p.grad.numpy().copy() for p in params]


@pytest.mark.parametrize("use_reentrant", [True, False])
def test_gradients_equal_plain(use_reentrant):
    lin, head = _model()
    x = torch.randn(3, 4, requires_grad=True)
    params = [x, *lin.parameters(), *head.parameters()]

    def f(t):
        return torch.tanh(lin(t)) * 2

    head(f(x)).pow(2).sum().backward()
    ref = _grads(params)
    for p in params:
        p.grad = None
    y = checkpoint(f, x, use_reentrant=use_reentrant)
    assert y.grad_fn.name() == "CheckpointFunctionBackward"
    head(y).pow(2).sum().backward()
    for a, b in zip(ref, _grads(params)):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    # autograd.grad reaches the inputs and the parameters used inside
    gx, gw = torch.autograd.grad(head(checkpoint(f, x, use_reentrant=use_reentrant)).pow(2).sum(), [x, lin.weight])
    np.testing.assert_allclose(gx.numpy(), ref[0], rtol=1e-6)
    np.testing.assert_allclose(gw.numpy(), ref[1], rtol=1e-6)


def test_parameters_only_and_outside_nonleaf():
    """An input that needs no grad (non-reentrant): the parameters inside still get theirs; a closed-over
    non-leaf tensor's gradient flows on into its own history."""
    lin, _ = _model()
    w = torch.randn(5, requires_grad=True)
    h = w * 3  # non-leaf, used inside fn
    x = torch.randn(2, 4)
    out = checkpoint(lambda t: (lin(t) * h).sum(), x, use_reentrant=False)
    out.backward()
    ref_w = 3 * lin(x).detach().sum(0).numpy()
    np.testing.assert_allclose(w.grad.numpy(), ref_w, rtol=1e-5)
    np.testing.assert_allclose(lin.bias.grad.numpy(), 2 * h.detach().numpy(), rtol=1e-6)


def test_multiple_outputs_and_kwargs():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a, b = checkpoint(lambda t, k=1.0: (t * k, t.exp()), x, use_reentrant=False, k=2.0)
    (a.sum() + b.sum()).backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 + np.exp([1.0, 2.0, 3.0]), rtol=1e-6)
    # only one output used
    x.grad = None
    a, b = checkpoint(lambda t: (t * 2, t.exp()), x, use_reentrant=False)
    b.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp([1.0, 2.0, 3.0]), rtol=1e-6)


def test_dropout_mask_replayed():
    torch.manual_seed(1)
    drop = nn.Dropout(0.5)
    x = torch.ones(50, requires_grad=True)
    y = checkpoint(lambda t: drop(t * 3), x, use_reentrant=False)
    y.sum().backward()
    kept = y.detach().numpy() != 0
    assert 0 < kept.sum() < 50
    np.testing.assert_array_equal(x.grad.numpy(), kept * 6.0)


def test_dropout_without_preserve_differs():
    torch.manual_seed(1)
    drop = nn.Dropout(0.5)
    x = torch.ones(200, requires_grad=True)
    y = checkpoint(lambda t: drop(t), x, use_reentrant=False, preserve_rng_state=False)
    y.sum().backward()
    assert not np.array_equal(x.grad.numpy() != 0, y.detach().numpy() != 0)


def test_double_backward():
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = checkpoint(lambda t: (t ** 3).sum(), x, use_reentrant=False)
    g, = torch.autograd.grad(y, x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), 3 * x.detach().numpy() ** 2, rtol=1e-6)
    g.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 6 * x.detach().numpy(), rtol=1e-6)


def test_second_backward_and_retain():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = checkpoint(lambda t: (t * t).sum(), x, use_reentrant=False)
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 8.0])
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_inplace_change_of_input_detected():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = x * 1
    y = checkpoint(lambda t: (t * t).sum(), z, use_reentrant=False)
    with torch.no_grad():
        z.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_warnings_and_errors():
    x = torch.ones(2, requires_grad=True)
    with pytest.warns(UserWarning, match="use_reentrant parameter should be passed explicitly"):
        checkpoint(torch.sin, x)
    with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True"):
        y = checkpoint(torch.sin, torch.ones(2), use_reentrant=True)
    assert not y.requires_grad
    with pytest.raises(ValueError, match="Unexpected keyword arguments: foo"):
        checkpoint(torch.sin, x, use_reentrant=True, foo=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with torch.no_grad():
            assert checkpoint(torch.sin, x, use_reentrant=False).grad_fn is None
        # int outputs and 0-d inputs
        s = torch.tensor(2.0, requires_grad=True)
        y = checkpoint(lambda t: (t * t, t.long()), s, use_reentrant=False)
        assert y[1].grad_fn is None and y[1].dtype == torch.int64
        y[0].backward()
        assert float(s.grad) == 4.0


@pytest.mark.parametrize("segments", [1, 2, 3])
def test_checkpoint_sequential(segments):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 1))
    x = torch.randn(5, 3, requires_grad=True)
    model(x).sum().backward()
    ref = [p.grad.numpy().copy() for p in [x, *model.parameters()]]
    model.zero_grad()
    x.grad = None
    out = checkpoint_sequential(model, segments, x, use_reentrant=False)
    np.testing.assert_allclose(out.detach().numpy(), model(x).detach().numpy(), rtol=1e-6)
    out.sum().backward()
    for a, p in zip(ref, [x, *model.parameters()]):
        np.testing.assert_allclose(p.grad.numpy(), a, rtol=1e-5, atol=1e-7)
    with pytest.warns(UserWarning, match="checkpoint_sequential: the use_reentrant"):
        checkpoint_sequential(list(model), segments, x)


def test_context_fn_enters_forward_and_recompute_contexts():
    import contextlib

    seen = []

    @contextlib.contextmanager
    def mark(tag):
        seen.append(tag)
        yield

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = checkpoint(lambda t: (t * t).sum(), x, use_reentrant=False,
                   context_fn=lambda: (mark("forward"), mark("recompute")))
    assert seen == ["forward"]
    y.backward()
    assert seen == ["forward", "recompute"]
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 4.0])


def test_intermediates_are_not_kept():
    import gc
    import weakref

    refs = []

    def f(t):
        h = torch.exp(t) * 2
        refs.append(weakref.ref(h))
        return torch.sin(h).sum()

    x = torch.randn(50, requires_grad=True)
    y = checkpoint(f, x, use_reentrant=False)
    gc.collect()
    assert refs[0]() is None  # the first run's intermediates are gone; only the inputs are saved
    y.backward()
    h = np.exp(x.detach().numpy()) * 2
    np.testing.assert_allclose(x.grad.numpy(), np.cos(h) * h, rtol=1e-5)
    assert len(refs) == 2  # recomputed once in backward


def test_structured_outputs():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    out = checkpoint(lambda t: {"a": t * 3, "b": [t.exp(), 7]}, x, use_reentrant=False)
    assert out["b"][1] == 7 and out["a"].grad_fn.name() == "CheckpointFunctionBackward"
    (out["a"].sum() + out["b"][0].sum()).backward()
    np.testing.assert_allclose(x.grad.numpy(), 3 + np.exp([1.0, 2.0]), rtol=1e-6)
