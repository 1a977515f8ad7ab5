"""Backends, devices and the strict CPU stand-in."""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import backend
from funcgrad.backend import standin as _standin


def test_standin_refuses_implicit_numpy():
    a = _standin.asarray([1.0, 2.0])
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.asarray(a)
    with pytest.raises(TypeError):
        np.sin(a)
    with pytest.raises(TypeError, match="host numpy.ndarray"):
        _standin.namespace.add(a, np.ones(2))
    assert isinstance(_standin.namespace.sum(a), _standin.StandinArray)  # 0-d array, not a scalar
    assert np.array_equal(a.get(), [1.0, 2.0])


def test_devices_and_parsing():
    assert str(fg.devices()[0]) == "cpu"
    assert backend.get_device("cuda:1") == backend.Device("cuda", 1)
    assert backend.get_device("GPU").kind == "cuda"
    with pytest.raises(ValueError, match="bad device index"):
        backend.get_device("cuda:x")


def test_default_device_places_new_arrays(device):
    x = fnp.ones(3)
    assert x.device.kind == device
    y = fnp.asarray(np.arange(3.0))
    assert y.device.kind == device
    z = fnp.sin(np.arange(3.0))  # host data given to an op goes to the default device
    assert z.device.kind == device


def test_ops_and_grads_run_on_every_backend(device):
    x = fnp.asarray([0.5, 1.5, 2.5])
    f = lambda v: fnp.sum(fnp.tanh(v) * v[::-1] @ fnp.ones((3, 2)))  # noqa: E731
    g = fg.grad(f)(x)
    assert g.device.kind == device
    prev = fg.set_default_device("cpu")
    try:
        ref = fg.grad(f)(fg.device_put(x, "cpu"))
    finally:
        fg.set_default_device(prev)
    assert np.allclose(np.asarray(g), np.asarray(ref))
