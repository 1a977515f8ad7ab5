"""funcgrad.errors: one class per error, the same object under every public name it had."""

import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import backend, core, errors, testing, transforms
from funcgrad.datasets import _errors as dataset_errors
from funcgrad.scipy import integrate
from funcgrad.transforms import batching

PUBLIC_NAMES = [
    (fg, "DeviceMismatchError"), (backend, "DeviceMismatchError"), (backend, "NoDeviceImplementationError"),
    (fg, "ConcretizationTypeError"), (core, "ConcretizationTypeError"), (transforms, "ConcretizationTypeError"),
    (fg, "EscapedTracerError"), (core, "EscapedTracerError"), (fg, "MissingRuleError"), (core, "MissingRuleError"),
    (batching, "BatchedValueError"), (integrate, "ODEError"), (testing, "GradientCheckError"),
    (testing, "ShapeRuleError"), (testing, "GradcheckError"), (dataset_errors, "DatasetError"),
]


@pytest.mark.parametrize(("module", "name"), PUBLIC_NAMES, ids=lambda v: getattr(v, "__name__", v))
def test_public_names_are_the_errors_module_classes(module, name):
    assert getattr(module, name) is getattr(errors, name)


def test_every_class_of_the_module_is_an_exception_listed_in_all():
    classes = {n for n, v in vars(errors).items() if isinstance(v, type) and v.__module__ == errors.__name__}
    assert classes == set(errors.__all__)
    assert all(issubclass(getattr(errors, n), Exception) for n in classes)


def test_a_batched_value_error_is_caught_as_a_concretization_error():
    with pytest.raises(errors.ConcretizationTypeError):
        fg.vmap(lambda x: float(x))(fnp.ones(3))
    with pytest.raises(errors.BatchedValueError):
        fg.vmap(lambda x: float(x))(fnp.ones(3))
