"""PyTorch dtypes over numpy dtypes, the default dtype, and PyTorch's type promotion.

A compat :class:`dtype` prints as ``torch.float32`` but carries the numpy dtype
(``.dtype``), so ``np.dtype(t.dtype)`` and ``t.dtype == np.float32`` work: the
core's derivative rules, applied to Tensors under ``create_graph``, read
``x.dtype`` and pass it to numpy.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from ..array import ArrayTracer
from ..backend import kind_of

__all__ = [
    "dtype", "float32", "float", "float64", "double", "float16", "half", "bfloat16", "int64", "long",
    "int32", "int", "int16", "short", "int8", "uint8", "uint16", "uint32", "uint64", "float8_e4m3fn",
    "float8_e5m2", "bool", "complex64", "cfloat", "complex128",
    "cdouble", "get_default_dtype", "set_default_dtype", "result_type", "promote_types",
    "can_cast", "is_floating_point", "is_complex",
]

_builtin_bool, _builtin_float, _builtin_int = bool, float, int


class dtype:  # noqa: N801  (PyTorch's name)
    """A PyTorch dtype: ``torch.float32`` etc.  ``.dtype`` is the numpy dtype."""

    __slots__ = ("name", "dtype", "legacy")
    _BY_NP: dict = {}

    def __init__(self, name, np_dtype, legacy):
        self.name = name
        self.dtype = np.dtype(np_dtype)
        self.legacy = legacy  # 'FloatTensor', ...
        dtype._BY_NP[self.dtype] = self

    @property
    def legacy_name(self):
        """'Float', 'Long', ... as PyTorch's messages name dtypes."""
        return self.legacy[:-len("Tensor")]

    @property
    def is_floating_point(self):
        return kind_of(self.dtype) == "f"

    @property
    def is_complex(self):
        return self.dtype.kind == "c"

    @property
    def is_signed(self):
        return kind_of(self.dtype) in "ifc"

    @property
    def itemsize(self):
        return self.dtype.itemsize

    # numpy-dtype attributes the core reads ('f' for bfloat16 and float8, which numpy calls 'V')
    kind = property(lambda self: kind_of(self.dtype))
    char = property(lambda self: self.dtype.char)
    type = property(lambda self: self.dtype.type)

    def to_real(self):
        return {"complex64": float32, "complex128": float64}.get(self.name, self)

    def to_complex(self):
        return {"float32": complex64, "float64": complex128, "float16": complex64}.get(self.name, self)

    def __repr__(self):
        return f"torch.{self.name}"

    def __eq__(self, other):
        if isinstance(other, dtype):
            return other is self
        try:
            return np.dtype(other) == self.dtype
        except TypeError:
            return NotImplemented

    def __hash__(self):
        return hash(self.dtype)

    def __reduce__(self):
        return (as_dtype, (self.name,))


float32 = float = dtype("float32", np.float32, "FloatTensor")
float64 = double = dtype("float64", np.float64, "DoubleTensor")
float16 = half = dtype("float16", np.float16, "HalfTensor")
int64 = long = dtype("int64", np.int64, "LongTensor")
int32 = int = dtype("int32", np.int32, "IntTensor")
int16 = short = dtype("int16", np.int16, "ShortTensor")
int8 = dtype("int8", np.int8, "CharTensor")
uint8 = dtype("uint8", np.uint8, "ByteTensor")
bool = dtype("bool", np.bool_, "BoolTensor")  # noqa: A001
complex64 = cfloat = dtype("complex64", np.complex64, "ComplexFloatTensor")
complex128 = cdouble = dtype("complex128", np.complex128, "ComplexDoubleTensor")
# bfloat16 and float8 are ml_dtypes' numpy dtypes (as JAX's); bfloat16 computes (in float32 where numpy
# has no bfloat16 loop, rounded back), the float8 types only store values and cast (docs/compat.md)
bfloat16 = dtype("bfloat16", ml_dtypes.bfloat16, "BFloat16Tensor")
float8_e4m3fn = dtype("float8_e4m3fn", ml_dtypes.float8_e4m3fn, "Float8_e4m3fnTensor")
float8_e5m2 = dtype("float8_e5m2", ml_dtypes.float8_e5m2, "Float8_e5m2Tensor")
# PyTorch's "limited" unsigned dtypes: creation, casts, storage; few operators (dtypes_limited.py)
uint16 = dtype("uint16", np.uint16, "UInt16Tensor")
uint32 = dtype("uint32", np.uint32, "UInt32Tensor")
uint64 = dtype("uint64", np.uint64, "UInt64Tensor")
_LIMITED_UNSIGNED = frozenset((uint16.dtype, uint32.dtype, uint64.dtype))
_FLOAT8 = frozenset((float8_e4m3fn.dtype, float8_e5m2.dtype))

_BY_NAME = {d.name: d for d in dtype._BY_NP.values()}
_BY_NAME.update(float=float32, double=float64, half=float16, long=int64, int=int32, short=int16,
                cfloat=complex64, cdouble=complex128)
_BY_LEGACY = {d.legacy: d for d in dtype._BY_NP.values() if d.dtype not in _LIMITED_UNSIGNED
              and d is not float8_e4m3fn and d is not float8_e5m2}  # PyTorch has no legacy type for these

_DEFAULT = [float32]


def get_default_dtype():
    return _DEFAULT[0]


def set_default_dtype(d):
    d = as_dtype(d)
    if kind_of(d.dtype) != "f":
        raise TypeError(f"only floating-point types are supported as the default type, got {d}")
    _DEFAULT[0] = d


def as_dtype(d):
    """torch dtype, numpy dtype, Python type or name -> compat dtype."""
    if isinstance(d, dtype):
        return d
    if d is _builtin_float:
        return _DEFAULT[0]
    if d is _builtin_int:
        return int64
    if d is _builtin_bool:
        return bool
    if isinstance(d, str):
        name = d[6:] if d.startswith("torch.") else d
        if name in _BY_NAME:
            return _BY_NAME[name]
        if name in _BY_LEGACY:
            return _BY_LEGACY[name]
    legacy = getattr(d, "_compat_dtype", None)
    if legacy is not None:
        return legacy
    try:
        return dtype._BY_NP[np.dtype(d)]
    except (TypeError, KeyError):
        raise TypeError(f"unsupported dtype {d!r}") from None


def from_numpy_dtype(npd):
    try:
        return dtype._BY_NP[npd]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(npd).name}. The only supported types are: "
            "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, "
            "uint16, uint8, and bool."
        ) from None


def is_floating_point(t):
    return kind_of(t.dtype.dtype) == "f"


def is_complex(t):
    return t.dtype.dtype.kind == "c"


_CAT = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def np_promote(a, b):
    """PyTorch's promote_types on numpy dtypes: int with float gives the float type (numpy would widen)."""
    if a is b or a == b:
        return a
    ka, kb = _CAT[kind_of(a)], _CAT[kind_of(b)]
    if a in _FLOAT8 or b in _FLOAT8:
        raise RuntimeError("Promotion for Float8 Types is not supported, attempted to promote "
                           f"{_BY_NP_NAME(a)} and {_BY_NP_NAME(b)}")
    if ka <= 1 and kb <= 1 and (a in _LIMITED_UNSIGNED or b in _LIMITED_UNSIGNED):
        raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
                           f"{_BY_NP_NAME(a)} and {_BY_NP_NAME(b)}")
    if ka != kb and max(ka, kb) >= 2:
        hi, lo = (a, b) if ka > kb else (b, a)
        if hi.kind == "c" and kind_of(lo) == "f":
            return np.promote_types(hi, lo)
        return hi
    return np.promote_types(a, b)


def _BY_NP_NAME(npd):  # noqa: N802  (PyTorch's ScalarType name: UInt32, Long, ...)
    return dtype._BY_NP[npd].legacy_name


def promote_types(a, b):
    return dtype._BY_NP[np_promote(as_dtype(a).dtype, as_dtype(b).dtype)]


def _scalar_np(v):
    t = type(v)
    if t is _builtin_bool or isinstance(v, np.bool_):
        return np.dtype(np.bool_)
    if t is _builtin_int or isinstance(v, np.integer):
        return np.dtype(np.int64)
    if t is complex:
        return np.dtype(np.complex64 if _DEFAULT[0] is float32 else np.complex128)
    return _DEFAULT[0].dtype


def _combine(higher, lower):
    if higher is None:
        return lower
    if lower is None:
        return higher
    hk, lk = _CAT[kind_of(higher)], _CAT[kind_of(lower)]
    if hk == 3:
        return higher
    if lk == 3:
        return np.promote_types(higher, np.complex64) if hk == 2 else lower
    if hk == 2:
        return higher
    if hk == 0 or lk == 2:
        return np_promote(higher, lower)
    return higher


def buf_of(x):
    """What compat reads an operand's shape and dtype from: the buffer of a Tensor or Array,
    a funcgrad tracer itself (a compat op applied under fg.grad / fg.vmap / fg.jvp), else None."""
    d = getattr(x, "_value", None)
    if d is None and isinstance(x, ArrayTracer):
        return x
    return d


def result_np(*operands):
    """PyTorch's result dtype (as a numpy dtype) of tensors, funcgrad arrays and Python numbers."""
    dim = zero = wrapped = None
    for o in operands:
        d = buf_of(o)
        if d is not None and hasattr(d, "ndim"):
            nd = d.dtype
            if d.ndim:
                dim = nd if dim is None else np_promote(dim, nd)
            else:
                zero = nd if zero is None else np_promote(zero, nd)
        else:
            nd = _scalar_np(o)
            if wrapped is None or _CAT[kind_of(nd)] > _CAT[kind_of(wrapped)]:
                wrapped = nd
    return _combine(dim, _combine(zero, wrapped))


def result_type(*operands):
    return dtype._BY_NP[result_np(*operands)]


def can_cast(from_, to):
    f, t = as_dtype(from_).dtype, as_dtype(to).dtype
    return _CAT[kind_of(f)] <= _CAT[kind_of(t)]
