"""Converting a traced value to a Python value raises ConcretizationTypeError naming the transformation."""

import re

import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.transforms.batching import BatchedValueError

CONVERSIONS = {
    "float()": float, "int()": int, "bool()": bool, "complex()": complex,
    ".item()": lambda x: x.item(), ".tolist()": lambda x: x.tolist(), "__index__": lambda x: [1, 2][x],
}

# transformation -> (how to apply it, the trace it is built on, which the error names)
TRANSFORMS = {
    "grad": (lambda f, x: fg.grad(f)(x), "grad"),
    "value_and_grad": (lambda f, x: fg.value_and_grad(f)(x), "grad"),
    "jvp": (lambda f, x: fg.jvp(f, (x,), (x,)), "jvp"),
    "vjp": (lambda f, x: fg.vjp(f, x), "vjp"),
    "jacrev": (lambda f, x: fg.jacrev(f)(x), "vjp"),
    "jacfwd": (lambda f, x: fg.jacfwd(f)(x), "jvp"),
}


@pytest.mark.parametrize("what", sorted(CONVERSIONS))
@pytest.mark.parametrize("name", sorted(TRANSFORMS))
def test_conversion_of_a_traced_value_names_the_transformation(name, what):
    convert = CONVERSIONS[what]
    apply, trace_name = TRANSFORMS[name]
    with pytest.raises(fg.ConcretizationTypeError, match=rf"{re.escape(what)}.*traced by {trace_name}.*stop_gradient"):
        apply(lambda x: x * convert(x), fnp.asarray(1.0))


@pytest.mark.parametrize("what", sorted(CONVERSIONS))
def test_vmap_conversion_is_a_concretization_error(what):
    with pytest.raises(BatchedValueError, match="vmap"):
        fg.vmap(lambda x: x * CONVERSIONS[what](x))(fnp.ones(2))
    assert issubclass(BatchedValueError, fg.ConcretizationTypeError)
    assert issubclass(fg.ConcretizationTypeError, TypeError)


def test_nested_transformations_name_the_trace_of_the_converted_value():
    def outer(x):  # x is traced by the outer jvp; the inner grad's y is not converted
        return fg.grad(lambda y: y * float(x))(x)

    with pytest.raises(fg.ConcretizationTypeError, match="traced by jvp"):
        fg.jvp(outer, (fnp.asarray(2.0),), (fnp.asarray(1.0),))


def test_untraced_arrays_and_stopped_values_still_convert():
    x = fnp.asarray(2.5)
    assert (float(x), int(x), bool(x), complex(x), x.item()) == (2.5, 2, True, 2.5 + 0j, 2.5)
    assert fnp.asarray([1, 2]).tolist() == [1, 2] and [7, 8][fnp.asarray(1)] == 8
    # a comparison is not traced, so Python control flow on it works under grad
    assert fg.grad(lambda x: x * x if x > 0 else -x)(3.0) == 6.0
    assert fg.grad(lambda x: x * float(fg.stop_gradient(x)))(3.0) == 3.0


def test_formatting_a_traced_value_prints_it():
    seen = []
    fg.grad(lambda x: seen.append(f"{x:.2f}|{x}") or x * x)(1.5)
    assert seen[0].startswith("1.50|Traced<grad")


def test_make_graph_keeps_python_conversions():
    g = fg.make_graph(lambda x: fnp.exp(x) if float(fnp.sum(x)) > 0 else fnp.sin(x))(fnp.ones(2))
    assert g.primitive_names() == ["reduce_sum", "exp"]


def test_compat_tensor_under_a_functional_transformation():
    torch = pytest.importorskip("funcgrad.compat")
    t = torch.tensor(2.0)
    with pytest.raises(fg.ConcretizationTypeError, match="traced by grad"):
        fg.grad(lambda x: x * float(x))(t)
    assert float(t) == 2.0 and t.item() == 2.0
