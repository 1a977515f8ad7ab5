"""Argument validation of funcgrad.compat: PyTorch's checks, messages and exception classes in one place.

The ops call these on values they already hold (a dim, a size tuple, a dtype), so a check is a type
test or a comparison; only where PyTorch itself reads the data (``binary_cross_entropy``'s [0, 1]
range, ``one_hot``'s class range, ``embedding``'s index range) is the data read.

PyTorch's classes: a wrong *type* of argument (a float or bool dim, a float size) is TypeError; a
dim out of range is IndexError; a value PyTorch rejects (a negative length, a zero stride, a dtype
mismatch) is RuntimeError.  Messages name the function and the argument.
"""

from __future__ import annotations

import functools
import operator

import numpy as np

from ..backend import kind_of
from ..core import Array, Tracer

# C type names PyTorch prints in "expected m1 and m2 to have the same dtype, but got: float != double"
_C_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
            "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
            "uint8": "unsigned char", "bool": "bool", "complex64": "c10::complex<float>",
            "complex128": "c10::complex<double>"}
# ScalarType names, as in "mat1 and mat2 must have the same dtype, but got Double and Float"
_SCALAR_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16",
                 "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
                 "bool": "Bool", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def _dtype_name(x):
    return str(getattr(x, "dtype", x)).split(".")[-1]


def c_name(x):
    """PyTorch's C type name of a tensor's (or dtype's) dtype: ``float``, ``double``, ``long int``."""
    n = _dtype_name(x)
    return _C_NAMES.get(n, n)


def scalar_name(x):
    """PyTorch's ScalarType name of a tensor's (or dtype's) dtype: ``Float``, ``Double``, ``Long``."""
    n = _dtype_name(x)
    return _SCALAR_NAMES.get(n, n)


def _where(fname, name, position):
    pos = f" (position {position})" if position is not None else ""
    return f"{fname}(): argument '{name}'{pos}" if fname else f"argument '{name}'{pos}"


def int_arg(v, fname=None, name="dim", position=None, what="int"):
    """``v`` as a Python int: ints, numpy integers and one-element integer tensors (``__index__``);
    a bool, float, string or None is PyTorch's TypeError naming the function and the argument."""
    if type(v) is int:
        return v
    if not isinstance(v, (bool, np.bool_)):
        try:
            return operator.index(v)
        except TypeError:
            pass
    raise TypeError(f"{_where(fname, name, position)} must be {what}, not {type(v).__name__}")


def dim(d, ndim, fname=None, name="dim"):
    """A dim of a tensor of ``ndim`` dims, wrapped to [0, ndim) (a 0-d tensor takes -1 and 0)."""
    if type(d) is not int:
        d = int_arg(d, fname, name)
    nd = ndim if ndim > 0 else 1
    if not -nd <= d < nd:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], but got {d})")
    return d % nd


def dims(ds, ndim, fname=None, name="dim"):
    """One dim (an int) or a list/tuple of distinct dims (a tuple, in the given order)."""
    if not isinstance(ds, (list, tuple)):
        return dim(ds, ndim, fname, name)
    out = tuple(dim(d, ndim, fname, name) for d in ds)
    if len(set(out)) != len(out):
        rep = next(d for i, d in enumerate(out) if d in out[:i])
        raise RuntimeError(f"dim {rep} appears multiple times in the list of dims")
    return out


def sizes(args, fname=None, name="size"):
    """``f(2, 3)`` or ``f((2, 3))`` -> (2, 3); a float, bool or None size is a TypeError."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    for a in args:
        if type(a) is not int:
            return _sizes_slow(args, fname, name)
    return args


def _sizes_slow(args, fname, name):
    out = []
    for i, a in enumerate(args):
        try:
            out.append(int_arg(a))
        except TypeError:
            raise TypeError(f"{_where(fname, name, None)} must be tuple of ints, but found element of type "
                            f"{type(a).__name__} at pos {i}") from None
    return tuple(out)


def positive(v, fname, name, message=None):
    """An int argument that must be > 0 (``chunks``, ``step``): RuntimeError otherwise."""
    v = int_arg(v, fname, name)
    if v <= 0:
        raise RuntimeError(message or f"{fname}(): {name} must be greater than 0, got {v}")
    return v


def non_negative(v, fname, name, message=None):
    """An int argument that must be >= 0 (``length``, ``k``): RuntimeError otherwise."""
    v = int_arg(v, fname, name)
    if v < 0:
        raise RuntimeError(message or f"{fname}(): {name} must be non-negative, got {v}")
    return v


def same_dtype(a, b, message):
    """Two dtypes (numpy's) that must be equal (PyTorch's matmul family and layers do not promote):
    ``message`` is formatted with ``a``/``b`` (C names) and ``A``/``B`` (ScalarType names)."""
    if a != b:
        raise RuntimeError(message.format(a=c_name(a), b=c_name(b), A=scalar_name(a), B=scalar_name(b)))


def tensor_list(ts, fname, name="tensors"):
    """A list or tuple of tensors (``cat``, ``stack``): anything else is PyTorch's TypeError."""
    if not isinstance(ts, (list, tuple)):
        raise TypeError(f"{fname}(): argument '{name}' (position 1) must be tuple of Tensors, not {type(ts).__name__}")
    for i, t in enumerate(ts):
        if not isinstance(t, (Tracer, Array)):
            raise TypeError(f"{fname}(): expected Tensor as element {i} in argument '{name}', but got "
                            f"{type(t).__name__}")
    return list(ts)


def index_tensor(t, fname, message=None):
    """An index tensor: integer dtype (PyTorch: int64/int32), else RuntimeError."""
    if np.dtype(t.dtype.dtype if hasattr(t.dtype, "dtype") else t.dtype).kind not in "iu":
        raise RuntimeError(message or f"{fname}(): Expected dtype int32 or int64 for index")


def window(fname, kernel_size, stride, padding, dilation, pool):
    """Conv/pool window parameters (tuples of ints): PyTorch's RuntimeErrors for a kernel, stride or
    dilation below 1 and a negative padding (before any arithmetic divides by them)."""
    if min(kernel_size, default=1) <= 0:
        raise RuntimeError(f"{fname}: kernel size should be greater than zero, but got {list(kernel_size)}")
    if min(stride, default=1) <= 0:
        raise RuntimeError(f"{fname}: stride should not be zero" if pool and 0 in stride
                           else f"{fname}: non-positive stride is not supported, got {list(stride)}")
    if min(dilation, default=1) <= 0:
        raise RuntimeError(f"{fname}: dilation should be greater than zero, but got {list(dilation)}")
    if not isinstance(padding, str) and min(padding, default=0) < 0:
        raise RuntimeError(f"{fname}: negative padding is not supported, got {list(padding)}")


def tuple_arg(v, n, fname, name):
    """An int or a sequence of ``n`` ints (a kernel size, a stride) -> tuple; a float is a TypeError."""
    if isinstance(v, (list, tuple)):
        return tuple(int_arg(e, fname, name, what="tuple of ints") for e in v)
    return (int_arg(v, fname, name, what="tuple of ints"),) * n


def values(x):
    """The data of a tensor as a numpy array, for the checks PyTorch makes on values; None for a
    funcgrad tracer (a compat op under fg.grad/vmap/jit), whose values are not known."""
    buf = getattr(x, "_value", None)
    if buf is None or not hasattr(buf, "dtype"):
        return None
    from ..backend import to_numpy  # noqa: PLC0415

    if isinstance(buf, Tracer):
        return None

    return buf if type(buf) is np.ndarray else to_numpy(buf)


def in_range(x, low, high, message):
    """Every element of tensor ``x`` in [low, high] (NaN fails): RuntimeError(message) otherwise."""
    v = values(x)
    if v is not None and v.size and not bool(((v >= low) & (v <= high)).all()):
        raise RuntimeError(message)


def op_error(e):
    """A plain ValueError (funcgrad's checks, numpy's) as OpError, PyTorch's RuntimeError that stays a
    ValueError.  Use: ``except ValueError as e: if type(e) is not ValueError: raise; raise op_error(e) from e``."""
    from .autograd.graph import OpError  # noqa: PLC0415

    return OpError(str(e))


def runtime_errors(fn):
    """``fn`` with its plain ValueErrors raised as OpError (see op_error): a boundary of compat."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ValueError as e:
            if type(e) is not ValueError:
                raise
            raise op_error(e) from e

    return wrapper


def broadcast_shapes(a, b):
    """The broadcast of shapes ``a`` and ``b``; sizes that do not broadcast are PyTorch's RuntimeError."""
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton "
                               f"dimension {max(len(a), len(b)) - i}")
        out.append(x if y == 1 else y)
    return tuple(reversed(out))


def index_range(index, size, d, fname):
    """gather/scatter indices: each in [0, size) along dim ``d`` (reads them, as PyTorch), else RuntimeError."""
    v = values(index)
    if v is None or not v.size:
        return
    lo, hi = int(v.min()), int(v.max())
    if lo < 0 or hi >= size:
        raise RuntimeError(f"{fname}(): index {lo if lo < 0 else hi} is out of bounds for dimension {d} with size "
                           f"{size}")


def mask_shape(mask, shape, pos, item):
    """A boolean mask indexing dims pos.. of a tensor of ``shape``: its shape must be theirs (IndexError)."""
    ms = tuple(mask.shape)
    for i, n in enumerate(ms):
        if pos + i >= len(shape) or shape[pos + i] != n:
            raise IndexError(f"The shape of the mask {list(ms)} at index {i} does not match the shape of the indexed "
                             f"tensor {list(shape)} at index {pos + i}")


def conv_padding(padding, stride):
    """A conv layer's padding string, checked at construction as PyTorch's layers do (ValueError)."""
    if not isinstance(padding, str):
        return
    if padding not in ("same", "valid"):
        raise ValueError(f"Invalid padding string {padding!r}, should be one of {{'same', 'valid'}}")
    if padding == "same" and any(s != 1 for s in stride):
        raise ValueError("padding='same' is not supported for strided convolutions")


def integral(dtype, fname):
    """An integer or bool dtype (bitwise ops): a float or complex one is PyTorch's NotImplementedError."""
    if kind_of(np.dtype(dtype)) in "fc":  # bfloat16 and float8 count as floats
        raise NotImplementedError(f"\"{fname}_cpu\" not implemented for '{scalar_name(np.dtype(dtype))}'")
