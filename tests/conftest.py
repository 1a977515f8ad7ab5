"""Shared test configuration: Hypothesis profiles and the backend under test.

- ``HYPOTHESIS_PROFILE=thorough`` runs many more examples (the default keeps
  the whole suite within CI's budget on two cores).
- ``FUNCGRAD_TEST_BACKEND=standin`` runs the whole suite with the CPU stand-in
  (a strict CuPy look-alike) as the default device; ``cuda`` uses a real GPU.
- The ``device`` fixture runs a test on every available backend: cpu and the
  stand-in always, cuda when cupy sees a GPU.
"""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import funcgrad as fg

settings.register_profile(
    "default", max_examples=25, deadline=None, derandomize=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough", max_examples=300, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

_BACKEND = os.environ.get("FUNCGRAD_TEST_BACKEND")
if _BACKEND:
    fg.set_default_device(_BACKEND)

DEVICES = ["cpu", "standin"] + (["cuda"] if fg.cuda_available() else [])


@pytest.fixture(params=DEVICES)
def device(request):
    """Each backend in turn, set as the default device for the test's duration."""
    prev = fg.set_default_device(request.param)
    try:
        yield request.param
    finally:
        fg.set_default_device(prev)


@pytest.fixture
def rng():
    return np.random.default_rng(0)
