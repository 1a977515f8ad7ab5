"""funcgrad's pytest plugin (entry point ``pytest11: funcgrad``).

- ``--funcgrad-backend=cpu|standin|cuda`` (or env ``FUNCGRAD_TEST_BACKEND``): the
  default device for the whole run, so a suite written for the CPU can be run
  against the strict stand-in (it refuses implicit numpy conversion, as cupy does)
  or a GPU.
- Fixtures: ``funcgrad_device`` runs a test once per available backend (cpu and the
  stand-in always, cuda when cupy sees a GPU) with it as the default device;
  ``funcgrad_rng`` is a seeded numpy Generator.
- A test that fails with ``funcgrad.backend.NoDeviceImplementationError`` (a function
  with no implementation on the device under test, e.g. one that ``cupyx.scipy``
  lacks: documented in docs/backends.md) is reported as skipped, with the error as
  the reason: it is a known limitation of that backend, not a regression.
- Hypothesis profiles (when hypothesis is installed): ``funcgrad-ci`` (25 examples,
  no deadline: fits a 2-core CI) and ``funcgrad-thorough`` (300 examples); load one
  with ``--hypothesis-profile=funcgrad-ci`` or ``settings.load_profile``.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from ..backend import cuda_available
from ..core import set_default_device
from ..errors import NoDeviceImplementationError


def pytest_addoption(parser):
    group = parser.getgroup("funcgrad")
    group.addoption(
        "--funcgrad-backend", default=None,
        help="default funcgrad device for the run: cpu, standin or cuda (env FUNCGRAD_TEST_BACKEND)",
    )


def pytest_configure(config):
    backend = config.getoption("--funcgrad-backend") or os.environ.get("FUNCGRAD_TEST_BACKEND")
    if backend:
        try:
            set_default_device(backend)
        except (ValueError, RuntimeError) as e:
            raise pytest.UsageError(f"--funcgrad-backend={backend}: {e}") from None
    _register_profiles()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    if call.excinfo is None or not rep.failed:
        return
    if call.excinfo.errisinstance(NoDeviceImplementationError):
        rep.outcome = "skipped"
        rep.longrepr = (str(item.path), (item.location[1] or 0) + 1, f"Skipped: {call.excinfo.value}")


def _register_profiles():
    try:
        from hypothesis import HealthCheck, settings
    except ImportError:
        return
    slow = [HealthCheck.too_slow, HealthCheck.data_too_large]
    settings.register_profile("funcgrad-ci", max_examples=25, deadline=None, suppress_health_check=slow)
    settings.register_profile("funcgrad-thorough", max_examples=300, deadline=None, suppress_health_check=slow)


def available_devices():
    return ["cpu", "standin"] + (["cuda"] if cuda_available() else [])


@pytest.fixture(params=available_devices())
def funcgrad_device(request):
    """Each backend in turn, as the default device for the test's duration."""
    prev = set_default_device(request.param)
    try:
        yield request.param
    finally:
        set_default_device(prev)


@pytest.fixture
def funcgrad_rng():
    return np.random.default_rng(0)
