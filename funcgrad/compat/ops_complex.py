"""Complex tensors' parts: ``.real``/``.imag``, ``real``, ``imag``, ``conj``, ``angle``, ``view_as_real``,
``view_as_complex``, ``complex``, ``polar`` (over funcgrad.numpy's differentiable complex functions).

``.real``/``.imag`` of a complex tensor are new tensors, not views (writing
into them does not change the complex tensor).
"""

from __future__ import annotations

import numpy as np

from ..backend import kind_of
from .. import numpy as _fnp
from ._dispatch import FUNCS, op
from .tensor import Tensor


def _is_c(x):
    return x._value.dtype.kind == "c"


@op("real", method=False)
def real(input):
    return _fnp.real(input) if _is_c(input) else input


@op("imag", method=False)
def imag(input):
    if not _is_c(input):
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return _fnp.imag(input)


@op("conj", "conj_physical")
def conj(input):
    return _fnp.conj(input) if _is_c(input) else input


@op("resolve_conj", "resolve_neg")
def resolve_conj(input):
    """The tensor itself: funcgrad has no lazy conjugate or negative bit, so ``conj()`` already
    computed its values and there is nothing to resolve (PyTorch returns ``self`` when the bit is unset)."""
    return input


@op("angle")
def angle(input):
    if _is_c(input):
        return _fnp.angle(input)
    from ._dispatch import float_input  # noqa: PLC0415

    x = float_input(input)  # 0 for x >= 0, pi for x < 0, nan for nan (PyTorch)
    return FUNCS["where"](FUNCS["lt"](x, 0), np.pi, FUNCS["mul"](x, 0.0))


@op("view_as_real", method=False)
def view_as_real(input):
    """A complex (...) tensor as a real (..., 2) one (a copy here, not a view)."""
    if not _is_c(input):
        raise RuntimeError("view_as_real is only supported for complex tensors")
    return FUNCS["stack"]([_fnp.real(input), _fnp.imag(input)], -1)


@op("complex", method=False)
def complex(real, imag):  # noqa: A001
    """real + i*imag for float tensors of the same dtype (complex64 from float32, complex128 from float64)."""
    if kind_of(real._value.dtype) != "f" or kind_of(imag._value.dtype) != "f":
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got {real.dtype.name.title()}"
                           f" and {imag.dtype.name.title()}")
    if real._value.dtype != imag._value.dtype:
        raise RuntimeError(f"Expected object of scalar type {real.dtype.name.title()} but got scalar type "
                           f"{imag.dtype.name.title()} for second argument")
    cd = np.complex64 if real._value.dtype == np.float32 else np.complex128
    from ._dispatch import cast  # noqa: PLC0415

    return FUNCS["add"](cast(real, np.dtype(cd)), FUNCS["mul"](cast(imag, np.dtype(cd)), 1j))


@op("view_as_complex", method=False)
def view_as_complex(input):
    """A real (..., 2) tensor as a complex (...) one (a copy here, not a view)."""
    if input._value.ndim == 0 or input.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    return complex(input[..., 0], input[..., 1])


@op("polar", method=False)
def polar(abs, angle):  # noqa: A002
    """abs * (cos(angle) + i sin(angle))."""
    return complex(FUNCS["mul"](abs, FUNCS["cos"](angle)), FUNCS["mul"](abs, FUNCS["sin"](angle)))


Tensor.real = property(real)
Tensor.imag = property(imag)
