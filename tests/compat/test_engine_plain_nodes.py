"""The engine's inline path for plain nodes (one output, no hooks) keeps every check of call_node."""

import numpy as np
import pytest

import funcgrad.compat as torch


def _chain(x):
    return torch.cos(torch.exp(torch.sin(x) * 1.5) + 0.5)


def test_plain_chain_gradient_matches_closed_form():
    x = torch.tensor([0.1, 0.4, -0.7], dtype=torch.float64, requires_grad=True)
    _chain(x).sum().backward()
    v = x.detach().numpy()
    e = np.exp(np.sin(v) * 1.5)
    expect = -np.sin(e + 0.5) * e * 1.5 * np.cos(v)
    np.testing.assert_allclose(x.grad.numpy(), expect, rtol=1e-12)


def test_input_modified_in_place_after_use_is_an_error():
    x = torch.tensor([0.1, 0.4], requires_grad=True)
    y = x * 2.0
    z = torch.sin(y)  # saves y
    y.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()


def test_output_modified_in_place_after_use_is_an_error():
    x = torch.tensor([0.1, 0.4], requires_grad=True)
    y = torch.exp(x * 1.0)  # exp's rule reads its output
    y.mul_(2.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_second_backward_without_retain_graph_is_an_error():
    x = torch.tensor([0.1, 0.4], requires_grad=True)
    y = torch.sin(x * 2.0).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_retain_graph_allows_a_second_backward():
    x = torch.tensor([0.1, 0.4], dtype=torch.float64, requires_grad=True)
    y = torch.sin(x * 2.0).sum()
    y.backward(retain_graph=True)
    first = x.grad.clone()
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * first.numpy())


def test_hooks_registered_after_recording_run():
    x = torch.tensor([0.1, 0.4], dtype=torch.float64, requires_grad=True)
    y = torch.sin(x * 2.0)
    seen = []
    y.register_hook(lambda g: seen.append(g.clone()) or g * 3)
    y.sum().backward()
    assert len(seen) == 1
    np.testing.assert_allclose(x.grad.numpy(), 3 * 2 * np.cos(2 * x.detach().numpy()))


def test_node_hook_and_retain_grad_after_recording():
    x = torch.tensor([0.1, 0.4], dtype=torch.float64, requires_grad=True)
    y = x * 2.0
    z = torch.sin(y)
    y.retain_grad()
    calls = []
    z.grad_fn.register_hook(lambda gi, go: calls.append(len(gi)))
    z.sum().backward()
    assert calls == [1]
    np.testing.assert_allclose(y.grad.numpy(), np.cos(y.detach().numpy()))


def test_anomaly_mode_names_the_node_that_produced_nan():
    x = torch.tensor([-1.0, 4.0], requires_grad=True)
    with torch.autograd.detect_anomaly():
        y = torch.sqrt(x * 1.0).sum()
        with pytest.raises(RuntimeError, match="SqrtBackward0"):
            y.backward()


def test_create_graph_gives_a_differentiable_gradient():
    x = torch.tensor([0.3], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(torch.sin(x * 2.0).sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.numpy(), -4 * np.sin(0.6))
