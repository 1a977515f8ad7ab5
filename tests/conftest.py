"""Shared test configuration for funcgrad's own suite.

The funcgrad pytest plugin (funcgrad/testing/pytest_plugin.py; installed as an
entry point, loaded here when running from a source tree) provides
``--funcgrad-backend`` / ``FUNCGRAD_TEST_BACKEND`` and the ``funcgrad_device``
fixture. Here: the Hypothesis profile (``HYPOTHESIS_PROFILE=thorough`` for many
more examples; the default keeps the suite within CI's budget on two cores) and
the short fixture names used by the tests.
"""

import importlib.metadata
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

if not any(ep.name == "funcgrad" for ep in importlib.metadata.entry_points(group="pytest11")):
    pytest_plugins = ["funcgrad.testing.pytest_plugin"]

# jit's numba kernel fusion compiles each new kernel (a fraction of a second to seconds): the suite runs
# jit unfused, and tests/transforms/test_fusion.py switches fusion on where it is tested
os.environ.setdefault("FUNCGRAD_JIT_FUSE", "0")

_SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile("default", max_examples=25, deadline=None, suppress_health_check=_SLOW)
settings.register_profile("thorough", max_examples=300, deadline=None, suppress_health_check=_SLOW)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def device(funcgrad_device):
    """Each backend in turn (cpu, standin, cuda if present) as the default device."""
    return funcgrad_device


@pytest.fixture
def rng():
    return np.random.default_rng(0)
