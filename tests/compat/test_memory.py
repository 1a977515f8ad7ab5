"""Memory: training-style loops keep flat memory; saved buffers go after backward."""

import gc
import tracemalloc
import weakref

import numpy as np

import funcgrad.compat as torch


def _step(w, x):
    y = (x @ w).tanh()
    loss = ((y - 1.0) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.01 * w.grad
    w.grad = None
    return loss


def test_ten_thousand_steps_have_flat_memory():
    """10,000 forward/backward/update steps: no growth in live objects, and no growth in
    traced allocations (numpy's buffers included) over the last stretch."""
    torch.manual_seed(0)
    w = torch.randn(4, 3, requires_grad=True)
    x = torch.randn(5, 4)
    for _ in range(200):
        _step(w, x)
    gc.collect()
    objects_before = len(gc.get_objects())
    for _ in range(9_300):
        _step(w, x)
    tracemalloc.start()
    try:
        for _ in range(100):
            _step(w, x)
        gc.collect()
        base = tracemalloc.get_traced_memory()[0]
        for _ in range(400):
            _step(w, x)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert len(gc.get_objects()) - objects_before < 50
    assert grown < 16 * 1024, f"memory grew by {grown} bytes over 400 steps"


def test_saved_buffers_released_after_backward():
    x = torch.ones(1000, requires_grad=True)
    y = x.exp()
    z = (y * y).sum()
    ref = weakref.ref(y._value)
    del y
    assert ref() is not None  # kept alive by the graph (exp's output, mul's inputs)
    z.backward()
    gc.collect()
    assert ref() is None


def test_retain_graph_keeps_saved_buffers_until_the_last_backward():
    x = torch.ones(1000, requires_grad=True)
    y = x.exp()
    z = (y * y).sum()
    ref = weakref.ref(y._value)
    del y
    z.backward(retain_graph=True)
    gc.collect()
    assert ref() is not None
    z.backward()
    gc.collect()
    assert ref() is None
    np.testing.assert_allclose(x.grad.numpy(), 4 * np.exp(2.0) * np.ones(1000), rtol=1e-6)


def test_graph_is_freed_with_its_output():
    x = torch.ones(100, requires_grad=True)
    y = (x.sin() * 2).sum()
    node = weakref.ref(y.grad_fn)
    del y
    gc.collect()
    assert node() is None
