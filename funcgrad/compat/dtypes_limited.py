"""PyTorch's "limited" dtypes: uint16/uint32/uint64 and float8_e4m3fn/float8_e5m2.

PyTorch 2.13 can create, cast, copy, index, print and save tensors of these dtypes, but
implements few operators on them: ``add`` on a uint32 tensor raises
``NotImplementedError: "add_stub" not implemented for 'UInt32'``, while ``mul``, the bitwise
ops, ``==`` and ``sort`` work; on float8 only casts, copies, views, ``==`` and ``abs`` work.
numpy computes all of them, so the compat trace asks :func:`check` before it applies a
primitive to a buffer of one of these dtypes, and raises PyTorch's error where PyTorch has no
kernel (never a value where PyTorch raises).  Casting first (``x.to(torch.int64)``,
``x.float()``) is the fix, as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from ..backend import FLOAT8_E4M3FN, FLOAT8_E5M2
from .tensor import TENSOR_TYPES

__all__ = ["LIMITED", "check", "install"]

_UNSIGNED = frozenset(np.dtype(t) for t in (np.uint16, np.uint32, np.uint64))
_FLOAT8 = frozenset((FLOAT8_E4M3FN, FLOAT8_E5M2))
LIMITED = _UNSIGNED | _FLOAT8

_SCALAR_TYPE = {np.dtype(np.uint16): "UInt16", np.dtype(np.uint32): "UInt32", np.dtype(np.uint64): "UInt64",
                FLOAT8_E4M3FN: "Float8_e4m3fn", FLOAT8_E5M2: "Float8_e5m2"}

# primitive -> the kernel PyTorch 2.13 names in its error, for the operators it lacks on uint16/32/64
_UNSIGNED_MISSING = {
    "add": "add_stub", "subtract": "add_stub", "negative": "neg_cpu", "floor_divide": "div_floor_cpu",
    "remainder": "remainder_cpu", "fmod": "fmod_cpu", "less": "lt_cpu", "less_equal": "le_cpu",
    "greater": "gt_cpu", "greater_equal": "ge_cpu", "reduce_max": "max_all", "reduce_min": "min_all",
    "absolute": "abs_cpu", "sign": "sign_cpu", "power": "pow", "left_shift": "lshift_cpu",
    "right_shift": "rshift_cpu", "invert": "bitwise_not_cpu", "argmax": "argmax_cpu", "argmin": "argmin_cpu",
    "maximum": "maximum_cpu", "minimum": "minimum_cpu", "fmax": "fmax_cpu", "fmin": "fmin_cpu",
    "matmul": "dot", "dense": "addmm_impl_cpu_", "einsum": "dot", "gcd": "gcd_cpu", "lcm": "lcm_cpu",
    "scatter_add": "index_put", "scatter_max": "scatter_reduce", "scatter_min": "scatter_reduce",
    "scatter_multiply": "index_put", "topk": "topk_cpu", "nonzero": "nonzero_count_cpu",
    "gather": "scatter_gather_tensor_cpu", "reduce_max_dim": "max_cpu", "reduce_min_dim": "min_cpu",
    "clamp": "clamp_scalar_cpu",
}

# the only primitives PyTorch 2.13 runs on float8 tensors: storage, views, casts, ==, abs
_FLOAT8_OK = frozenset((
    "reshape", "transpose", "broadcast_to", "getitem", "getitem_transpose", "concatenate", "split", "pad",
    "convert_element_type", "device_put", "stop_gradient", "scatter_set", "full_like", "equal", "not_equal",
    "absolute", "where",
))
_FLOAT8_STUB = {"add": "add_stub", "subtract": "add_stub", "multiply": "mul_cpu_reduced_float",
                "reduce_sum": "sum_cpu", "divide": "div_true_cpu_reduced_float"}


def check(prim, vals):
    """Raise PyTorch's NotImplementedError if ``prim`` (a primitive or a primitive's name) has no
    PyTorch kernel for a limited dtype among the buffers ``vals`` (callers test ``dtype in LIMITED``
    first: this is the slow path)."""
    name = prim if isinstance(prim, str) else prim.name
    for v in vals:
        d = getattr(v, "dtype", None)
        if d not in LIMITED:
            continue
        if d in _UNSIGNED:
            stub = _UNSIGNED_MISSING.get(name)
        else:
            stub = None if name in _FLOAT8_OK else _FLOAT8_STUB.get(name, f"{name}_cpu")
        if stub is not None:
            raise NotImplementedError(f'"{stub}" not implemented for \'{_SCALAR_TYPE[d]}\'')


# PyTorch ops computed on buffers (not through a gated primitive) that PyTorch 2.13 lacks for these
# dtypes: op name -> kernel name (a function of the arguments for max/min: with or without dim)
_OP_MISSING = {
    "topk": "topk_cpu", "nonzero": "nonzero_count_cpu", "count_nonzero": "nonzero_count_cpu",
    "argwhere": "nonzero_count_cpu", "gather": "scatter_gather_tensor_cpu",
    "scatter": "scatter_gather_tensor_cpu", "scatter_": "scatter_gather_tensor_cpu",
    "scatter_add": "scatter_gather_tensor_cpu", "scatter_add_": "scatter_gather_tensor_cpu",
    "amax": "max_values_cpu", "amin": "min_values_cpu", "aminmax": "aminmax_cpu",
    "clamp": "clamp_scalar_cpu", "clip": "clamp_scalar_cpu", "clamp_": "clamp_scalar_cpu",
    "clamp_min": "clamp_min_scalar_cpu", "clamp_max": "clamp_max_scalar_cpu",
    "bitwise_not": "bitwise_not_cpu", "__invert__": "bitwise_not_cpu", "bitwise_left_shift": "lshift_cpu",
    "bitwise_right_shift": "rshift_cpu", "index_select": "index_select", "flip": "flip_cpu",
    "cummax": "cummax_cpu", "cummin": "cummin_cpu", "median": "median_cpu", "nanmedian": "median_cpu",
    "masked_fill": "masked_fill", "masked_fill_": "masked_fill", "bincount": "bincount_cpu",
    "isin": "isin_default_cpu", "histc": "aminmax_cpu", "mode": "mode_cpu", "tril": "tril", "triu": "triu",
    "trace": "trace", "kthvalue": "kthvalue_cpu", "maximum": "maximum_cpu", "minimum": "minimum_cpu",
    "max": lambda args, kw: "max_all" if len(args) < 2 and "dim" not in kw else "max_cpu",
    "min": lambda args, kw: "min_all" if len(args) < 2 and "dim" not in kw else "min_cpu",
}


def _limited_dtype_of(args, kwargs):
    for a in args[:2]:
        d = getattr(getattr(a, "_value", None), "dtype", None)
        if d in LIMITED:
            return d
    if kwargs:
        for a in kwargs.values():
            d = getattr(getattr(a, "_value", None), "dtype", None)
            if d in LIMITED:
                return d
    return None


# numpy type chars of the dtypes PyTorch has every kernel for: float16/32/64, complex64/128, bool, int8/16/32/64,
# uint8 (bfloat16 is 'E': it takes the general check)
_FULL_CHARS = "efdFD?bBhilq"
if any(d.char in _FULL_CHARS for d in LIMITED):
    raise ImportError("funcgrad.compat.dtypes_limited: a limited dtype has a type char of the fast path")


def _gated(fn, name):
    stub = _OP_MISSING[name]

    def op(*args, **kwargs):
        if args and not kwargs:  # the hot case: tensors of PyTorch's full dtypes (type chars), no keywords
            a0 = args[0]
            if type(a0) in TENSOR_TYPES and a0._value.dtype.char in _FULL_CHARS and (
                    len(args) == 1 or type(args[1]) not in TENSOR_TYPES or args[1]._value.dtype.char in _FULL_CHARS):
                return fn(*args)
        d = _limited_dtype_of(args, kwargs)
        if d is not None and (d in _UNSIGNED or name not in ("masked_fill", "masked_fill_", "flip", "tril",
                                                               "triu", "index_select", "gather")):
            s = stub(args, kwargs) if callable(stub) else stub
            raise NotImplementedError(f'"{s}" not implemented for \'{_SCALAR_TYPE[d]}\'')
        return fn(*args, **kwargs)

    return op


def install():
    """Wrap the ops of ``_OP_MISSING`` at their dispatch points (once)."""
    from .op_wrappers import install_wrappers  # noqa: PLC0415

    install_wrappers(tuple(_OP_MISSING), _gated, "limited_dtype_gate")
